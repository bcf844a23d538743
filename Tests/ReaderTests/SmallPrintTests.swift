import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("Small print")
struct SmallPrintTests {
    /// A label fixture at half its size, in the middle of a white 1280x720 frame: the label held
    /// at twice the distance.
    func farAway(_ name: String) throws -> Frame {
        let small = try ImageFile.load("\(root)/Devices/labels/\(name).png").scaled(by: 0.5).packed()
        var bytes = [UInt8](repeating: 255, count: 1280 * 720)
        let x0 = (1280 - small.width) / 2
        let y0 = (720 - small.height) / 2
        for y in 0..<small.height {
            bytes.replaceSubrange(
                (y0 + y) * 1280 + x0..<(y0 + y) * 1280 + x0 + small.width, with: small.bytes[y * small.width..<(y + 1) * small.width])
        }
        return Frame(width: 1280, height: 720, bytes: bytes)
    }

    @Test("print under 18 pixels a line is read again at twice the size: the serial lines of labels held far away")
    func enlarged() throws {
        let reader = try FrameReader()
        let lenovo = reader.read(try farAway("lenovo-thinkpad")).map(\.value)
        #expect(lenovo.contains { $0.contains("PF2ABCDE") }, "\(lenovo)")
        let apple = reader.read(try farAway("apple-macbook")).map(\.value)
        #expect(apple.contains { $0.hasPrefix("Serial No") && $0.hasSuffix("2XK1ZJJGH5") }, "\(apple)")
        // Not enlarged, the line's last 5 is read as S, and only its second choice reads the 5.
        let without = try readerTurningOff(.smallPrintEnlarged, .secondChoices).read(try farAway("apple-macbook")).map(\.value)
        #expect(!without.contains { $0.hasPrefix("Serial No") && $0.hasSuffix("2XK1ZJJGH5") }, "\(without)")
        #expect(without.contains { $0.hasPrefix("Serial No") && $0.hasSuffix("2XK1ZJJGHS") }, "\(without)")
        // Boxes stay in the frame's own pixels: the label's lines lie inside where it was placed.
        let boxes = reader.read(try farAway("lenovo-thinkpad")).filter { !$0.source.isBarcode }.map(\.box)
        #expect(boxes.allSatisfy { $0.x >= 300 && $0.maxX <= 980 && $0.y >= 150 && $0.maxY <= 570 }, "\(boxes)")
    }

    func line(heights: [Int], confidence: Double) -> TextLine {
        let words = heights.enumerated().map { i, h in
            Word(text: "W\(i)", box: Box(x: i * 40, y: 10, width: 30, height: h), confidence: confidence)
        }
        return TextLine(words: words, box: Box(x: 0, y: 10, width: heights.count * 40, height: heights.max() ?? 0))
    }

    @Test("only small print read with doubt is read again: confident small print and doubtful large print are not")
    func doubtful() {
        #expect(FrameReader.isSmallAndDoubtful([line(heights: [12, 13, 14], confidence: 60)]))
        #expect(!FrameReader.isSmallAndDoubtful([line(heights: [12, 13, 14], confidence: 93)]))
        #expect(!FrameReader.isSmallAndDoubtful([line(heights: [24, 26, 30], confidence: 60)]))
        #expect(!FrameReader.isSmallAndDoubtful([]))
        // Words with no letter or digit (a dash, a bracket) say nothing about how the print was read.
        var withPunctuation = line(heights: [12, 13], confidence: 93)
        withPunctuation.words.append(Word(text: "—", box: Box(x: 90, y: 10, width: 10, height: 3), confidence: 5))
        #expect(!FrameReader.isSmallAndDoubtful([withPunctuation]))
    }

    @Test(
        "a desk alone under a webcam's noise is neither enlarged nor sharpened: what its grain reads is small and doubtful, and stays a few lines"
    )
    func deskAloneNotReadAgain() throws {
        let frame = try ImageFile.load("\(root)/Devices/images/desk-alone-under-webcam-noise.jpg").packed()
        let page = UprightFrame(frame).frame
        #expect(!page.quality().hasPrintContrast)
        let first = try TextReader().read(page)
        #expect(FrameReader.isSmallAndDoubtful(first), "\(first.map(\.text))")
        let reader = try FrameReader()
        reader.costs = PassCosts()
        let lines = reader.read(frame)
        #expect(reader.costs?.costs[ReaderPass.smallPrintEnlarged.name] == nil)
        #expect(reader.costs?.costs[ReaderPass.paleSharpened.name] == nil)
        #expect(lines.count <= FrameReader.mostLabelLines, "\(lines.count) lines")
        // A label in view, faint grey ink on a grainy frame too, has print's contrast.
        let faint = try ImageFile.load("\(root)/Devices/images/hp-faint-ink-on-a-grainy-frame.jpg").packed()
        #expect(faint.quality().hasPrintContrast)
        #expect(try farAway("lenovo-thinkpad").quality().hasPrintContrast)
    }

    @Test("a text-dense label's 16-pixel print, read with confidence, is read once; the same label held far away is read again")
    func denseLabelReadOnce() throws {
        let reader = try FrameReader()
        for name in ["dell-poweredge", "seagate-drive", "psu-delta"] {
            let frame = try ImageFile.load("\(root)/Devices/dense-labels/\(name).png")
            #expect(!FrameReader.isSmallAndDoubtful(reader.text.read(frame)), "\(name)")
        }
        #expect(FrameReader.isSmallAndDoubtful(reader.text.read(try farAway("lenovo-thinkpad"))))
    }
}

@Suite("Rows read again as one line")
struct RowRereadTests {
    @Test("thin, widely spaced print tesseract's sparse layout broke into pieces is read whole as one line")
    func thinMonospaced() throws {
        let frame = try ImageFile.load("\(root)/Devices/labels/syringe-driver-thin-mono.png")
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.hasSuffix("VFA33456") }, "\(lines)")
        #expect(lines.contains { $0.contains("02954777384383") }, "\(lines)")
        let without = try readerTurningOff(.rowsReadWhole).read(frame).map(\.value)
        #expect(!without.contains { $0.contains("02954777384383") }, "\(without)")
    }

    @Test("a row read again is kept only where it reads more letters and digits with confidence")
    func keptOnlyWhenMore() throws {
        let reader = try TextReader()
        let frame = try ImageFile.load("\(root)/Devices/labels/syringe-driver-thin-mono.png")
        // The value's row as the sparse layout read it: a piece, with doubt.
        let piece = TextLine(
            words: [Word(text: "A3345", box: Box(x: 402, y: 200, width: 68, height: 14), confidence: 60)],
            box: Box(x: 402, y: 200, width: 68, height: 14))
        let again = FrameReader.rereadingRows([piece], in: frame, with: reader)
        #expect(again.map { $0.words.map(\.text).joined(separator: " ") }.contains { $0.contains("VFA33456") }, "\(again)")
        // Read with confidence and boxed round all its print, a row is not read again.
        let value = Box(x: 374, y: 200, width: 110, height: 14)
        let sure = TextLine(words: [Word(text: "VFA33456", box: value, confidence: 95)], box: value)
        #expect(FrameReader.rereadingRows([sure], in: frame, with: reader) == [sure])
        #expect(FrameReader.printExtent(value, in: frame, typical: 14) == value)
        // Read with confidence but boxed round a piece, with print left past its ends, it is.
        var confidentPiece = piece
        confidentPiece.words[0].confidence = 95
        #expect(FrameReader.printExtent(piece.box, in: frame, typical: 14).width > piece.box.width + 20)
        let reread = FrameReader.rereadingRows([confidentPiece], in: frame, with: reader)
        #expect(reread.map { $0.words.map(\.text).joined(separator: " ") }.contains { $0.contains("VFA33456") }, "\(reread)")
    }

    @Test("print tesseract read in part, confidently, and boxed only as far as it read is read again whole")
    func cutWord() throws {
        // From the second house's development half (seed 101, hp-under-1-lowres): "CND9232" of
        // "CND923234B", read at 91, its box ending where the reading did.
        let frame = try ImageFile.load("\(root)/Devices/labels/hp-elitebook-cut-word.png")
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("CND923234B"), "\(lines)")
        // Paper past both ends: the row's box is its print's.
        let blank = Frame(width: 200, height: 60, bytes: [UInt8](repeating: 230, count: 200 * 60))
        let row = Box(x: 50, y: 20, width: 60, height: 18)
        #expect(FrameReader.printExtent(row, in: blank, typical: 18) == row)
        // A row reaching past the frame's edges is measured inside them.
        var inked = [UInt8](repeating: 230, count: 200 * 60)
        for y in 40..<60 { for x in 0..<200 where x % 6 < 2 { inked[y * 200 + x] = 20 } }
        let edge = Box(x: -10, y: 55, width: 100, height: 40)
        #expect(FrameReader.printExtent(edge, in: Frame(width: 200, height: 60, bytes: inked), typical: 18).maxX >= 199)
    }
}
