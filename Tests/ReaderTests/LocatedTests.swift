import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("A code located at a point or along one row takes the box another reading gives it")
struct LocatedTests {
    func symbol(_ value: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> BarcodeSymbol {
        BarcodeSymbol(value: value, symbology: "CODE-128", box: Box(x: x, y: y, width: width, height: height))
    }

    @Test("a box bounds a code when it is 16 pixels each way and at most eight times as long as high")
    func located() {
        #expect(symbol("A", 532, 587, 1, 1).isLocated == false)
        #expect(symbol("A", 532, 315, 1, 57).isLocated == false)
        #expect(symbol("A", 218, 506, 988, 19).isLocated == false)
        #expect(symbol("A", 532, 290, 513, 141).isLocated)
        #expect(symbol("A", 100, 100, 40, 40).isLocated)
    }

    @Test("the same code read again where it was located at a point takes the box that bounds it; nothing else changes")
    func adoptsBox() {
        var symbols = [symbol("VM54DG081789", 532, 315, 1, 57), symbol("F953FEE1E91E", 532, 490, 593, 141)]
        symbols.addNew([
            symbol("VM54DG081789", 532, 290, 513, 141), symbol("F953FEE1E91E", 530, 488, 600, 150), symbol("NEW", 0, 0, 50, 50),
        ])
        #expect(symbols.map(\.value) == ["VM54DG081789", "F953FEE1E91E", "NEW"])
        // Located at a point: the other reading's box. Located already: its own.
        #expect(symbols[0].box == Box(x: 532, y: 290, width: 513, height: 141))
        #expect(symbols[1].box == Box(x: 532, y: 490, width: 593, height: 141))
        // A reading along one row of a tilted code is no better a box.
        var tilted = [symbol("S6QPUR0V006492E", 1228, 273, 1, 1)]
        tilted.addNew([symbol("S6QPUR0V006492E", 609, 269, 629, 11)])
        #expect(tilted.map(\.box) == [Box(x: 1228, y: 273, width: 1, height: 1)])
    }

    @Test("a code located along the start of its rows is bounded along its bars; a 2-D code or a flat picture is not")
    func boundedAlongBars() {
        // A gray desk (110), a white label (240) from x = 40, black bars of 3 and 6 pixels from
        // x = 60 to 147 with spaces of 3 and 9, the label on to x = 260, the desk again.
        var bytes = [UInt8](repeating: 110, count: 300 * 60)
        for y in 0..<60 {
            for x in 40..<260 { bytes[y * 300 + x] = 240 }
            var x = 60
            var wide = false
            while x < 150 {
                let bar = wide ? 6 : 3
                for k in x..<min(x + bar, 150) { bytes[y * 300 + k] = 10 }
                x += bar + (wide ? 9 : 3)
                wide.toggle()
            }
        }
        let frame = Frame(width: 300, height: 60, bytes: bytes)
        let thin = symbol("A", 60, 10, 4, 40)
        let bounded = thin.boundedAlongBars(in: frame)
        #expect(bounded.box == Box(x: 60, y: 10, width: 87, height: 40), "\(bounded.box)")
        #expect(bounded.isLocated)
        // From the other end of its rows too.
        #expect(symbol("A", 146, 10, 4, 40).boundedAlongBars(in: frame).box == Box(x: 60, y: 10, width: 87, height: 40))
        // Not a 2-D code, not a box located already, not a picture without bars.
        var matrix = thin
        matrix.symbology = "DATAMATRIX"
        #expect(matrix.boundedAlongBars(in: frame).box == matrix.box)
        #expect(symbol("A", 60, 10, 90, 40).boundedAlongBars(in: frame).box == Box(x: 60, y: 10, width: 90, height: 40))
        let flat = Frame(width: 300, height: 60, bytes: [UInt8](repeating: 200, count: 300 * 60))
        #expect(thin.boundedAlongBars(in: flat).box == thin.box)
        // Print past the quiet zone (strokes from x = 200 to 240), and a box whose middle lies in
        // the quiet zone at the code's end: the bars are on the side the box reaches into.
        var printed = bytes
        for y in 0..<60 { for x in stride(from: 200, to: 240, by: 5) { printed[y * 300 + x] = 10 } }
        let withPrint = Frame(width: 300, height: 60, bytes: printed)
        #expect(symbol("A", 146, 10, 10, 40).boundedAlongBars(in: withPrint).box == Box(x: 60, y: 10, width: 87, height: 40))
    }

    /// A line of one word, 12 pixels high, from `x` to `x + 70` on row `y`.
    func line(_ text: String, _ y: Int, x: Int = 70) -> TextLine {
        let box = Box(x: x, y: y, width: 70, height: 12)
        return TextLine(words: [Word(text: text, box: box, confidence: 60)], box: box)
    }

    /// A white label (240) with black bars of 3 and 6 pixels from x = 60 to 150 with spaces of 3
    /// and 9, on rows 30 to 89, their ends a row lower every `dropEvery` pixels along (a code
    /// turned a little); a line of print's strokes over them (rows 10 to 21) and under them (rows
    /// 108 to 119).
    func barsFrame(dropEvery: Int = .max) -> Frame {
        var bytes = [UInt8](repeating: 240, count: 300 * 120)
        var (x, wide) = (60, false)
        while x < 150 {
            let bar = wide ? 6 : 3
            for k in x..<(x + bar) { for y in 30..<90 { bytes[(y + (k - 60) / dropEvery) * 300 + k] = 10 } }
            x += bar + (wide ? 9 : 3)
            wide.toggle()
        }
        for y in Array(10..<22) + Array(108..<120) { for x in stride(from: 70, to: 140, by: 7) { bytes[y * 300 + x] = 10 } }
        return Frame(width: 300, height: 120, bytes: bytes)
    }

    @Test("a code decoded on some of the rows its bars cross is bounded across its bars; a turned one to where they end at either end")
    func boundedAcrossBars() {
        // zbar decoded rows 50 to 65 of bars on rows 30 to 89.
        let partial = symbol("A", 60, 50, 90, 16)
        #expect(partial.boundedAcrossBars(in: barsFrame()).box == Box(x: 60, y: 30, width: 90, height: 60))
        // Turned: the bars' ends a row lower every 6 pixels along, rows 30 to 89 at the left end
        // and 45 to 104 at the right. The rows both ends hold bars on, not the box that holds them.
        let turned = partial.boundedAcrossBars(in: barsFrame(dropEvery: 6)).box
        #expect(turned.y >= 42 && turned.y <= 47 && turned.maxY >= 87 && turned.maxY <= 93, "\(turned)")
        // Never smaller; not a 2-D code, one standing on end, or a picture without bars.
        let whole = symbol("A", 60, 20, 90, 80)
        #expect(whole.boundedAcrossBars(in: barsFrame()).box == whole.box)
        var matrix = partial
        matrix.symbology = "DATAMATRIX"
        #expect(matrix.boundedAcrossBars(in: barsFrame()).box == matrix.box)
        #expect(symbol("A", 60, 30, 20, 60).boundedAcrossBars(in: barsFrame()).box == Box(x: 60, y: 30, width: 20, height: 60))
        let flat = Frame(width: 300, height: 120, bytes: [UInt8](repeating: 200, count: 300 * 120))
        #expect(partial.boundedAcrossBars(in: flat).box == partial.box)
    }

    @Test(
        "a word read on a code's bars past the rows zbar decoded is dropped as bars once the box is grown across them; print over and under them stays"
    )
    func wordsOnBarsGrownOver() {
        let lines = [line("S/N: ABC123", 10), line("LTHILIL", 32), line("ABC123", 108)]
        let partial = symbol("ABC123", 60, 50, 90, 16)
        let asDecoded = FrameReader.combine(symbols: [partial], lines: lines).map(\.value)
        #expect(asDecoded == ["ABC123", "S/N: ABC123", "LTHILIL", "ABC123"])
        let grown = FrameReader.combine(symbols: FrameReader.acrossBars([partial], in: barsFrame()), lines: lines)
        #expect(grown.map(\.value) == ["ABC123", "S/N: ABC123", "ABC123"])
        #expect(grown[0].box == Box(x: 60, y: 30, width: 90, height: 60))
    }

    @Test(
        "a line starting under a code's bars, where a still image's paint takes in its human-readable line, is dropped once the box is grown across them; a line past it or beside the bars stays"
    )
    func ownLineUnderGrownBars() {
        // The bars' rows 30 to 89: a still's paint takes in a fifth of their height under them, to row 101.
        let lines = [line("S/N: ABC123", 10), line("ABC12E", 93), line("(SN)", 93, x: 170), line("QTY 1", 104)]
        let partial = symbol("ABC123", 60, 50, 90, 16)
        let asDecoded = FrameReader.combine(symbols: [partial], lines: lines).map(\.value)
        #expect(asDecoded == ["ABC123", "S/N: ABC123", "ABC12E", "(SN)", "QTY 1"])
        let grown = FrameReader.combine(symbols: FrameReader.acrossBars([partial], in: barsFrame()), lines: lines)
        #expect(grown.map(\.value) == ["ABC123", "S/N: ABC123", "(SN)", "QTY 1"])
    }

    @Test("a Code 128 zbar locates along the start of its rows is bounded, and the label's print read")
    func startFixture() throws {
        // A Lenovo label in perspective: zbar boxes its code 9 pixels wide, the bars were left,
        // and tesseract read nothing of the label but a stray mark.
        let frame = try ImageFile.load("\(root)/Devices/codes/code128-located-along-its-start.png")
        let reader = try BarcodeReader()
        let zbar = reader.readWithZBar(frame.packed())
        #expect(zbar.map(\.value) == ["SPF7V9GHR"] && zbar.allSatisfy { !$0.isLocated && $0.box.height > 100 }, "\(zbar)")
        let read = reader.read(frame)
        #expect(read.map(\.value) == ["SPF7V9GHR"] && read.allSatisfy { $0.isLocated && $0.box.width > 400 }, "\(read)")
        let lines = try FrameReader().read(frame).filter { if case .text = $0.source { true } else { false } }.map(\.value)
        #expect(lines.contains("S/N: PF7V9GHR"), "\(lines)")
    }

    @Test("a Code 128 zbar locates at one point is boxed whole, and its bars painted over before text is read")
    func fixture() throws {
        let frame = try ImageFile.load("\(root)/Devices/codes/code128-located-at-a-point.png")
        let reader = try BarcodeReader()
        let zbar = reader.readWithZBar(frame.packed())
        #expect(zbar.map(\.value) == ["VM54DG081789"] && zbar.allSatisfy { !$0.isLocated }, "\(zbar)")
        let read = reader.read(frame)
        #expect(read.map(\.value) == ["VM54DG081789"] && read.allSatisfy(\.isLocated), "\(read)")
        #expect(read.first.map { $0.box.intersectionArea(zbar[0].box) > 0 } == true)
        // Painted over, its human-readable line is not read as print.
        let lines = try FrameReader().read(frame).filter { if case .text = $0.source { true } else { false } }
        #expect(!lines.contains { $0.value.hasSuffix("M54DG081789") }, "\(lines.map(\.value))")
    }
}
