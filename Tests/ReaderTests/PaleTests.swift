import Foundation
import Imaging
import Model
import Testing

@testable import Reader

/// `frame` under glare as a lamp's reflection lays it on a label: a bright spot centred at `x`,
/// `y`, laid over the picture as light is (screened: what is white stays white, what is black
/// goes to `strength` of white at the centre), falling away to nothing over `reach` pixels.
func glared(_ frame: Frame, x: Int, y: Int, strength: Double = 0.75, reach: Double = 768) -> Frame {
    var out = [UInt8](repeating: 0, count: frame.width * frame.height)
    for row in 0..<frame.height {
        for column in 0..<frame.width {
            let distance = Double((column - x) * (column - x) + (row - y) * (row - y)).squareRoot()
            let light = max(0, 1 - distance / reach) * strength
            let level = Double(frame[column, row]) / 255
            out[row * frame.width + column] = UInt8((255 * (1 - (1 - level) * (1 - light))).rounded())
        }
    }
    return Frame(width: frame.width, height: frame.height, bytes: out)
}

/// `frame` printed in faint grey ink on a label lying on a dark desk: its levels brought
/// between `ink` (its black) and `paper` (its white), with `margin` pixels of `desk` around it.
func onDarkDesk(_ frame: Frame, ink: Int = 158, paper: Int = 245, desk: UInt8 = 60, margin: Int = 120) -> Frame {
    let width = frame.width + 2 * margin
    let height = frame.height + 2 * margin
    var out = [UInt8](repeating: desk, count: width * height)
    for row in 0..<frame.height {
        for column in 0..<frame.width {
            out[(row + margin) * width + column + margin] = UInt8(ink + Int(frame[column, row]) * (paper - ink) / 255)
        }
    }
    return Frame(width: width, height: height, bytes: out)
}

@Suite("Print washed pale")
struct PaleTests {
    @Test("print is pale where a word's light and dark lie close together; black print is not, nor is a grainy page")
    func told() throws {
        let reader = try TextReader()
        let sharp = try label("hp-elitebook")
        #expect(!FrameReader.isPale(reader.read(sharp), in: sharp))
        let pale = glared(try label("hp-elitebook-tilted"), x: 485, y: 254)
        #expect(FrameReader.isPale(reader.read(pale), in: pale))
        // The same words over grain: the page is not read again stretched.
        var random = SeededRandom(seed: 11)
        let grainy = Frame(width: 200, height: 40, bytes: (0..<8000).map { _ in UInt8(200 + Int.random(in: -20...20, using: &random)) })
        let faint = Frame(width: 200, height: 40, bytes: (0..<8000).map { $0 % 200 % 6 < 2 ? 150 : 230 })
        let words = [
            TextLine(
                words: [Word(text: "AB12", box: Box(x: 10, y: 5, width: 50, height: 20), confidence: 90)],
                box: Box(x: 10, y: 5, width: 50, height: 20))
        ]
        #expect(FrameReader.isPale(words, in: faint))
        #expect(!FrameReader.isPale(words, in: grainy))
        // A word of fewer than three letters or digits says nothing.
        let short = [
            TextLine(
                words: [Word(text: "A1", box: Box(x: 10, y: 5, width: 50, height: 20), confidence: 90)],
                box: Box(x: 10, y: 5, width: 50, height: 20))
        ]
        #expect(!FrameReader.isPale(short, in: faint))
    }

    @Test("faint ink on a label on a dark desk reads nothing at first; read again stretched, its serial is among the readings")
    func nothingRead() throws {
        let faint = onDarkDesk(try label("hp-elitebook"))
        let first = try TextReader().read(faint)
        #expect(FrameReader.judgedWords(first).isEmpty, "\(first.map(\.text))")
        #expect(FrameReader.readNothing(first, in: faint) && !FrameReader.isPale(first, in: faint))
        let lines = try FrameReader().read(faint).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains("5CG1234XYZ") }, "\(lines)")
        // Black print read at first is not read again for nothing, nor is a grainy page.
        let sharp = try label("hp-elitebook")
        #expect(!FrameReader.readNothing(try TextReader().read(sharp), in: sharp))
        var random = SeededRandom(seed: 11)
        let grainy = Frame(width: 200, height: 40, bytes: (0..<8000).map { _ in UInt8(200 + Int.random(in: -20...20, using: &random)) })
        #expect(!FrameReader.readNothing([], in: grainy))
    }

    @Test("a label under glare is read again with its contrast stretched: the serial read only then is among the readings")
    func readAgain() throws {
        // The HP fixture with a lamp's reflection centred on its serial line: tesseract's first
        // reading of it loses the serial; stretched, the page reads 5CG9333XD3.
        let pale = glared(try label("hp-elitebook-tilted"), x: 485, y: 254)
        let upright = UprightFrame(pale).frame
        let first = try TextReader().read(upright).map(\.text)
        #expect(!first.contains { $0.contains("5CG9333XD3") }, "\(first)")
        let lines = try FrameReader().read(pale).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains("5CG9333XD3") }, "\(lines)")
        let without = try readerTurningOff(.paleStretched).read(pale).map(\.value)
        #expect(!without.contains { $0.contains("5CG9333XD3") }, "\(without)")
    }

    @Test("faint grey ink on a webcam's grainy frame: nothing read at first, not stretched, read again sharpened, and its serial only then")
    func sharpenedUnderGrain() throws {
        let frame = try ImageFile.load("\(root)/Devices/images/hp-faint-ink-on-a-grainy-frame.jpg").packed()
        let page = UprightFrame(frame).frame
        let first = try TextReader().read(page)
        #expect(FrameReader.judgedWords(first).isEmpty, "\(first.map(\.text))")
        #expect(page.grain >= FrameReader.grainyAbove && !FrameReader.readNothing(first, in: page))
        #expect(FrameReader.isPaleUnderGrain(first, in: page))
        let lines = try FrameReader().read(frame).map(\.value)
        #expect(lines.contains("Serial Nbr: 5CG2799S1E"), "\(lines)")
        let without = try readerTurningOff(.paleSharpened).read(frame).map(\.value)
        #expect(!without.contains { $0.contains("5CG2799S1E") }, "\(without)")
    }

    @Test(
        "pale under grain: a pale word or nothing read on a grainy page; not black print, not a page without grain, not texture, not a page without print's contrast"
    )
    func paleUnderGrainTold() throws {
        var random = SeededRandom(seed: 11)
        // A label's paper under noise beside a dark desk (its last 40 columns): print's contrast.
        let grainy = Frame(
            width: 200, height: 40, bytes: (0..<8000).map { UInt8(($0 % 200 >= 160 ? 70 : 200) + Int.random(in: -20...20, using: &random)) }
        )
        let plainDesk = Frame(width: 200, height: 40, bytes: (0..<8000).map { _ in UInt8(200 + Int.random(in: -20...20, using: &random)) })
        let faint = Frame(width: 200, height: 40, bytes: (0..<8000).map { $0 % 200 % 6 < 2 ? 150 : 230 })
        func line(_ text: String, y: Int = 5) -> TextLine {
            let box = Box(x: 10, y: y, width: 50, height: 20)
            return TextLine(words: [Word(text: text, box: box, confidence: 90)], box: box)
        }
        #expect(grainy.quality().hasPrintContrast && !plainDesk.quality().hasPrintContrast)
        #expect(!FrameReader.isPaleUnderGrain([line("AB12")], in: plainDesk))
        #expect(!FrameReader.isPaleUnderGrain([], in: plainDesk))
        #expect(FrameReader.isPaleUnderGrain([line("AB12")], in: grainy))
        #expect(FrameReader.isPaleUnderGrain([], in: grainy))
        #expect(!FrameReader.isPaleUnderGrain([line("AB12")], in: faint), "no grain: PaleStretched's")
        let texture = (0...FrameReader.mostLabelLines).map { _ in line("eis") }
        #expect(!FrameReader.isPaleUnderGrain(texture, in: grainy))
        let sharp = try label("hp-elitebook")
        #expect(!FrameReader.isPaleUnderGrain(try TextReader().read(sharp), in: sharp))
    }
}
