import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("Rows of print passed over")
struct UnreadInkTests {
    /// The label fixture `name` as the text pass sees it: its decoded barcodes painted over.
    func page(_ name: String) throws -> Frame {
        let frame = try label(name)
        let symbols = try BarcodeReader().read(frame)
        return FrameReader.blanking(symbols.map(FrameReader.printedArea), in: frame)
    }

    @Test("a row of print no line covers is read as a line: the serial's row, passed over, is found again")
    func rowPassedOver() throws {
        let reader = try TextReader()
        for (name, serial) in [("dell-latitude", "7XK2M93"), ("lenovo-thinkpad", "PF2ABCDE"), ("cisco-switch", "FOC2245X0AB")] {
            let page = try page(name)
            let lines = reader.read(page)
            #expect(lines.contains { $0.text.contains(serial) }, "\(name): \(lines.map(\.text))")
            // Every row read: nothing is passed over.
            #expect(FrameReader.unreadInk(lines, in: page, with: reader).isEmpty, "\(name)")
            // The serial's row taken out, as if tesseract had passed it over.
            let passedOver = lines.filter { !$0.text.contains(serial) }
            let found = FrameReader.unreadInk(passedOver, in: page, with: reader).map(\.text)
            #expect(found.contains { $0.contains(serial) }, "\(name): \(found)")
        }
    }
}

@Suite("Rows of print passed over beside a tilted label's edge")
struct TiltedEdgeTests {
    @Test("the desk beyond a tilted label's edge, turned upright, does not join the rows of print into one too high to read")
    func rowBesideTheDesk() throws {
        // A Samsung label turned twelve degrees (a development label of the second corpus):
        // tesseract passes over "Serial # S6QPUR0V026492E" beside the code, whose box zbar gives
        // as a point so that its bars are not painted over. Upright, the desk shows in a wedge
        // down the label's left side, as high as the label: counted as ink, it joined every row
        // of the page into one.
        let frame = try image("samsung-tilted-serial-beside-code")
        let upright = UprightFrame(frame)
        #expect(abs(upright.angle) > 10)
        let first = try TextReader().read(Rules.erased(upright.frame)).map(\.text)
        #expect(!first.contains { $0.contains("026492E") }, "\(first)")
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains("S6QPUR") && $0.contains("026492E") }, "\(lines)")
    }

    @Test("a noisy desk dark across most of the area is still not print, though its grain breaks it into short runs")
    func noisyDesk() throws {
        // A nameplate under noise and JPEG on a dark desk (a development label of the second
        // corpus). The rows across the desk are dark across most of the area when all their
        // ink is counted; counted without the long runs, the desk's grain was read as a row of
        // junk words, taller than the print, and the print was then dropped as too flat for it.
        let lines = try FrameReader().read(try image("nameplate-on-a-noisy-desk")).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("3598324542") && lines.contains("MODEL"), "\(lines)")
    }
}

@Suite("Faint labels read whole")
struct FaintLabelTests {
    @Test("a serial in thin grey type that tesseract passes over, between rows it reads, is among the readings")
    func passedOver() throws {
        // A development label of the rendered corpus: "DMPG9UPHFAMV" in a thin grey monospaced
        // face beside "(Serial Number)" in bold; tesseract reads the bold rows and not the serial.
        let frame = try image("apple-faint-row-passed-over")
        let first = try TextReader().read(UprightFrame(frame).frame).map(\.text)
        #expect(!first.contains { $0.contains("DMPG9UPHFAMV") }, "\(first)")
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("DMPG9UPHFAMV"), "\(lines)")
        let without = try readerTurningOff(.unreadInk).read(frame).map(\.value)
        #expect(!without.contains { $0.contains("DMPG9UPHFAMV") }, "\(without)")
    }

    @Test("a code read with OCR's symbol for one of its letters ($ for S) is kept as a code, not dropped as noise")
    func codeWithSymbol() throws {
        // A medical label's GS1 table: "(21) SSD29892" right-aligned in its cell, read
        // "$SD29892" at low confidence. Dropped as noise, its row counted as read all the same.
        #expect(FrameReader.looksLikeCode("$SD29892") && FrameReader.looksLikeCode("FCW7190M15}"))
        #expect(!FrameReader.looksLikeCode("$$$$$$") && !FrameReader.looksLikeCode("$12"))
        let lines = try FrameReader().read(try image("medical-serial-read-with-dollar")).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("$SD29892"), "\(lines)")
    }

    @Test("a serial printed larger and bolder than the rest of its label is read, not dropped as a barcode's bars")
    func largeSerial() throws {
        // "45952054" in bold under "Serial no." in small grey type: tesseract reads it with
        // confidence and boxes it three times as high as the label's typical word.
        let lines = try FrameReader().read(try image("nameplate-large-serial")).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("45952054"), "\(lines)")
    }
}
