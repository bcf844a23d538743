import Serials
import Testing

@testable import Companion

@Suite("Photographing a serial: the chooser")
struct SerialChooserTests {
    func reading(_ frames: [[Reading]]) -> SerialChooser {
        var c = SerialChooser()
        _ = c.handle(.opened)
        _ = c.handle(.cameraStarted)
        for (i, frame) in frames.enumerated() { _ = c.handle(.frameRead(frame, at: .milliseconds(100 * i))) }
        return c
    }

    @Test("the read settles by itself and the chooser comes up on its own, with the exact copy and no scores")
    func chooser() {
        var c = reading([[barcode("CN0KX2M1743", "CODE-128")], [printed("S/N: CN0KX2M1742", line: 2)]])
        #expect(c.title == nil && c.isReading)  // nothing to tap while it settles
        #expect(c.handle(.clock(.seconds(1))).isEmpty)
        #expect(c.title == "Which one is the serial?" && c.line == "Everything the camera read. Tap the serial.")
        #expect(
            c.rows == [
                SerialChooser.Row(value: "CN0KX2M1742", detail: "printed line 2: disagrees with CN0KX2M1743"),
                SerialChooser.Row(value: "CN0KX2M1743", detail: "CODE-128 barcode: disagrees with CN0KX2M1742"),
            ])
        #expect(c.rows.allSatisfy { !$0.detail.contains("%") })
        #expect(c.toolbar == ["Scan again", "Cancel"])
        #expect(c.useButton == nil && c.handle(.tapUse).isEmpty)  // nothing applied before a choice
        _ = c.handle(.tapRow(1))
        #expect(c.useButton?.title == "USE THIS SERIAL" && c.useButton?.value == "CN0KX2M1743")
        #expect(c.handle(.tapUse) == [.stopCamera, .useSerial("CN0KX2M1743")])
        #expect(c.phase == .used("CN0KX2M1743"))
    }

    @Test("one candidate still goes through the chooser")
    func oneCandidate() {
        var c = reading([[barcode("5CG1234XYZ", "CODE-128"), printed("S/N: 5CG1234XYZ", line: 1)]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows == [SerialChooser.Row(value: "5CG1234XYZ", detail: "printed line 1 and CODE-128 barcode: they agree")])
        #expect(c.useButton == nil)
    }

    @Test("nothing read at all goes straight through to typing it by hand")
    func nothingRead() {
        var c = reading([[], []])
        #expect(c.handle(.clock(.seconds(2))).isEmpty)
        #expect(c.handle(.clock(.seconds(3))) == [.stopCamera, .openTypingByHand])
        #expect(c.phase == .typingByHand && c.title == nil)
        var onlyEAN = reading([[barcode("4006381333931", "EAN-13")]])
        #expect(onlyEAN.handle(.clock(.seconds(1))) == [.stopCamera, .openTypingByHand])
    }

    @Test("Scan again takes another look; Cancel re-arms the scanner")
    func scanAgainAndCancel() {
        var c = reading([[printed("S/N: 5CG1234XYZ", line: 1)]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.handle(.tapScanAgain).isEmpty && c.isReading)
        _ = c.handle(.frameRead([printed("S/N: 5CG1234XYZ", line: 1)], at: .seconds(2)))
        _ = c.handle(.clock(.seconds(3)))
        #expect(c.rows.map(\.value) == ["5CG1234XYZ"])
        #expect(c.handle(.tapCancel) == [.stopCamera, .rearmScanner])
        #expect(c.phase == .cancelled)
    }
}
