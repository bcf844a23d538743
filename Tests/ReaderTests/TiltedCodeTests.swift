import Imaging
import Model
import Testing

@testable import Reader

@Suite("Tilted labels with a barcode")
struct TiltedCodeTests {
    // Development labels of the second corpus, turned as a hand holds them: a Western Digital's
    // serial beside a long Code 128, turned clockwise; a Samsung's over one, turned the other way.
    static let labels = [
        (name: "wd-tilted-beside-a-code", serial: "WD-WCC4NNCZ4D1K", turned: -12.0...(-7.0)),
        (name: "samsung-tilted-over-a-code", serial: "SRUGHX0C880075S", turned: 7.0...12.0),
    ]

    @Test(
        "the skew is measured before the codes are painted over: the paint cuts a tilted code's bars level, and its edges read as level lines"
    )
    func measuredBeforePaint() throws {
        for label in Self.labels {
            let frame = try image(label.name)
            let symbols = try BarcodeReader().read(frame)
            #expect(!symbols.isEmpty, "\(label.name)")
            let page = FrameReader.blanking(symbols.map(FrameReader.printedArea), in: frame)
            // Measured on the painted page, the one is found level and the other is not turned.
            #expect(abs(UprightFrame(page).angle) < 1, "\(label.name)")
            let upright = UprightFrame(page, skewMeasuredOn: frame)
            #expect(label.turned.contains(upright.angle), "\(label.name): \(upright.angle)")
            // The page turned, not the frame: its code stays painted over.
            #expect(upright.frame != UprightFrame(frame).frame, "\(label.name)")
        }
    }

    @Test("a tilted label's serial is read beside its barcode", arguments: labels.map { ($0.name, $0.serial) })
    func serialRead(name: String, serial: String) throws {
        // Turned by the angle found on the painted page, the Western Digital's line was read
        // "INNCz." and the Samsung's "sRUGHXOCSS" and "9075S".
        let lines = try FrameReader().read(try image(name)).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains(serial) }, "\(lines)")
    }
}
