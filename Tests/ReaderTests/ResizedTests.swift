import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("A code read again smaller and larger")
struct ResizedTests {
    /// An Apple label in a monospaced bold face (a development label of the second corpus), whose
    /// serial FVF7WX4ESFJF tesseract reads "FVF 7WX4ESFUF" at its printed size.
    func label() throws -> Frame { try image("apple-monospaced-jf") }

    @Test("a serial tesseract misreads at its printed size is read at three quarters of it, and kept beside the first reading")
    func misreadAtItsSize() throws {
        let frame = try label()
        let first = try TextReader().read(frame).map(\.text)
        #expect(first.contains("FVF 7WX4ESFUF") && !first.contains { $0.contains("7WX4ESFJF") }, "\(first)")
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        let misread = try #require(lines.firstIndex(of: "FVF 7WX4ESFUF"), "\(lines)")
        let right = try #require(lines.firstIndex(of: "FVF 7WX4ESFJF"), "\(lines)")
        #expect(try !readerTurningOff(.codeRowsResized).read(frame).map(\.value).contains("FVF 7WX4ESFJF"))
        // What was read first stays first.
        #expect(misread < right)
    }

    @Test("a second reading lies on the row's own box; a code a barcode carries, or read with confidence, is not read again")
    func placedAndSpared() throws {
        let frame = try label()
        let reader = try TextReader()
        let first = reader.read(frame)
        let row = try #require(first.first { $0.text == "FVF 7WX4ESFUF" })
        let again = FrameReader.codeRowsResized(first, in: frame, besides: [], with: reader)
        let right = try #require(again.first { $0.text == "FVF 7WX4ESFJF" }, "\(again.map(\.text))")
        for word in right.words {
            #expect(word.box.y == row.box.y && word.box.height == row.box.height)
            #expect(word.box.x >= row.box.x && word.box.maxX <= row.box.maxX)
        }
        // The part number and EMC number read alike at every size: nothing else is added.
        #expect(again.allSatisfy { $0.box.intersectionArea(row.box) > 0 }, "\(again.map(\.text))")
        // Barcoded, the serial is exact and its print is not read again.
        let spared = FrameReader.codeRowsResized(first, in: frame, besides: ["FVF7WX4ESFUF"], with: reader)
        #expect(!spared.contains { $0.box.intersectionArea(row.box) > 0 }, "\(spared.map(\.text))")
        // Read with confidence, it is not read again either.
        #expect(row.words.contains { $0.text == "7WX4ESFUF" && $0.confidence < FrameReader.resizeBelow })
        let confident = first.map { line in
            var line = line
            for i in line.words.indices { line.words[i].confidence = FrameReader.resizeBelow }
            return line
        }
        #expect(FrameReader.codeRowsResized(confident, in: frame, besides: [], with: reader).isEmpty)
    }

    @Test(
        "a code read as capitals alone, with little confidence, is read again on its own row though a mark beside it is boxed three rows high"
    )
    func lettersOnlyBesideACellCorner() throws {
        // A Lenovo label's table (a development label of the second corpus): PFPF2BJL in a
        // narrow face in the cell beside "SN:", read "PEPFOBIL" at 20 (no digit: not a code by
        // its shape), with the cell's corner read as a quote mark boxed over three of the table's
        // rows. Its own row alone, tesseract reads the serial at every size.
        let frame = try image("lenovo-serial-in-a-table-cell")
        let words = try TextReader().read(Rules.erased(frame)).flatMap(\.words)
        let misread = try #require(words.first { $0.text == "PEPFOBIL" }, "\(words.map(\.text))")
        #expect(!FrameReader.looksLikeCode(misread.text) && misread.confidence < 50)
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        let first = try #require(lines.firstIndex(of: "PEPFOBIL"), "\(lines)")
        let right = try #require(lines.firstIndex(of: "PFPF2BJL"), "\(lines)")
        #expect(first < right)
    }

    @Test("a code whose last character was read as a colon is still a code, and its row is read again")
    func markAtTheEnd() throws {
        // A WD drive's label under noise and JPEG (a development label of the second corpus):
        // the serial WD-WMC4NPHPBGXX is read with its last X as a colon.
        let frame = try image("wd-last-character-colon")
        let first = try TextReader().read(frame).flatMap(\.words).map(\.text)
        #expect(first.contains("WD-WMC4NPHPBGX:") && !first.contains("WD-WMC4NPHPBGXX"), "\(first)")
        let words = try FrameReader().read(frame).filter { !$0.source.isBarcode }.flatMap(\.words).map(\.text)
        #expect(words.contains("WD-WMC4NPHPBGXX"), "\(words)")
        #expect(FrameReader.codeBody("WD-WMC4NPHPBGX:") == "WD-WMC4NPHPBGX")
        #expect(FrameReader.codeBody("ZL5Y4L9F.;") == "ZL5Y4L9F")
        #expect(FrameReader.codeBody("CND:957759H") == "CND:957759H")
        #expect(FrameReader.codeBody(":") == "")
    }

    @Test("a second reading is kept for a code not yet read, as long as the first or a character shorter")
    func readsMore() {
        // A stray I in the first reading: the second, a character shorter, is kept.
        #expect(FrameReader.readsMore(["ZAD0Z9UT"], than: ["ZADOZ9IUT"]))
        #expect(FrameReader.readsMore(["CND957759H"], than: ["CNDS87753H", "CND9677E9H"]))
        // A last character the first reading lost.
        #expect(FrameReader.readsMore(["ZL5Y4L9F"], than: ["ZL5Y4L9"]))
        // Part of the print lost; or nothing new.
        #expect(!FrameReader.readsMore(["CNDSE"], than: ["CNDS87753H"]))
        #expect(!FrameReader.readsMore(["CND9677E9H"], than: ["CNDS87753H", "CND9677E9H"]))
        #expect(!FrameReader.readsMore([], than: ["CNDS87753H"]))
    }
}
