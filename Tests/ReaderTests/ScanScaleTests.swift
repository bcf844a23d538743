import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("A camera's larger frame has its barcodes scanned as one of 1280x720")
struct ScanScaleTests {
    /// `name`'s fixture in the middle of a white 1280x720 frame.
    func at720(_ name: String) throws -> Frame {
        let code = try codeFixtureFrame(name)
        var bytes = [UInt8](repeating: 255, count: 1280 * 720)
        let (left, top) = ((1280 - code.width) / 2, (720 - code.height) / 2)
        for y in 0..<code.height {
            for x in 0..<code.width { bytes[(top + y) * 1280 + left + x] = code[x, y] }
        }
        return Frame(width: 1280, height: 720, bytes: bytes)
    }

    @Test("a frame no larger than the scan is scanned whole: zbar along every second row and column")
    func whole() {
        let frame = Frame(width: 1280, height: 720, bytes: [UInt8](repeating: 200, count: 1280 * 720))
        let scale = ScanScale(frame, atMost: FrameReader.standardLiveScan)
        #expect(scale.factor == 1 && scale.density == 2)
        #expect(scale.shrunk(frame) == frame)
        let symbol = BarcodeSymbol(value: "A", symbology: "CODE-128", box: Box(x: 10, y: 20, width: 30, height: 40))
        #expect(scale.inFrame([symbol], of: frame) == [symbol])
    }

    @Test("a 1920x1080 frame: zbar along every third row and column, zxing-cpp on it shrunk to 1280x720, boxes put back")
    func webcam1080() {
        let frame = Frame(width: 1920, height: 1080, bytes: [UInt8](repeating: 200, count: 1920 * 1080))
        let scale = ScanScale(frame, atMost: FrameReader.standardLiveScan)
        #expect(scale.density == 3)
        let small = scale.shrunk(frame)
        #expect((small.width, small.height) == (1280, 720))
        let symbol = BarcodeSymbol(value: "A", symbology: "DATAMATRIX", box: Box(x: 100, y: 50, width: 41, height: 20))
        #expect(scale.inFrame([symbol], of: frame).map(\.box) == [Box(x: 150, y: 75, width: 62, height: 30)])
        let corner = BarcodeSymbol(value: "B", symbology: "QR-Code", box: Box(x: 1200, y: 640, width: 80, height: 80))
        #expect(scale.inFrame([corner], of: frame).map(\.box) == [Box(x: 1800, y: 960, width: 120, height: 120)])
    }

    /// The code fixtures a 1280x720 frame with the fixture in its middle reads. Two do not, scanned
    /// whole as before (their own tests read them at their own size): a small Code 128 zbar
    /// misses, and a DataBar Expanded, which zxing-cpp looks for along fewer rows of a taller frame.
    static let readAt720 = codeFixtures.filter { !["zbar-miss-small", "databar-expanded"].contains($0) }

    @Test("each code fixture seen at 1280x720 and enlarged to 1920x1080 reads the same, boxes over the same place", arguments: readAt720)
    func sameReading(name: String) throws {
        let view = try at720(name)
        let reader = try BarcodeReader()
        let seen = reader.read(view)
        #expect(!seen.isEmpty)
        let large = view.scaled(by: 1.5)
        #expect((large.width, large.height) == (1920, 1080))
        let scanned = reader.read(large, scanningAtMost: FrameReader.standardLiveScan)
        #expect(Set(scanned.map { [$0.value, $0.symbology] }) == Set(seen.map { [$0.value, $0.symbology] }))
        for symbol in scanned {
            let box = try #require(seen.first { $0.value == symbol.value }).box
            let enlarged = Box(x: box.x * 3 / 2, y: box.y * 3 / 2, width: box.width * 3 / 2, height: box.height * 3 / 2)
            #expect(symbol.box.intersectionArea(enlarged) * 2 > enlarged.width * enlarged.height, "\(symbol.box) against \(enlarged)")
        }
    }

    @Test("the live path's barcode pass scans at the reader's live size; a still image's reading scans it whole")
    func liveScanPixels() throws {
        let view = try at720("datamatrix")
        let reader = try FrameReader()
        #expect(!reader.readBarcodes(view).isEmpty)
        // Scanned as a frame a tenth as wide, the code's modules are under a pixel.
        reader.liveScanPixels = 128 * 72
        #expect(reader.readBarcodes(view).isEmpty)
        let still = try FrameReader()
        still.liveScanPixels = 128 * 72
        #expect(!still.read(view, passes: .barcodes).isEmpty)
    }
}
