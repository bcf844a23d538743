import Foundation
import Imaging
import Model
import Testing

@testable import Reader

/// `frame` smeared along its rows as a camera moving sideways smears it: each pixel the
/// weighted mean of itself and the pixels to its right (to its left, `fromTheLeft`), the
/// weights falling as a one-sided Gaussian of `spread` pixels.
func smearedSideways(_ frame: Frame, spread: Double, fromTheLeft: Bool = false) -> Frame {
    let reach = Int(3 * spread) + 1
    let weights = (0..<reach).map { exp(-Double($0 * $0) / (2 * spread * spread)) }
    let total = weights.reduce(0, +)
    let step = fromTheLeft ? -1 : 1
    var out = [UInt8](repeating: 0, count: frame.width * frame.height)
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            var sum = 0.0
            for (k, w) in weights.enumerated() { sum += w * Double(frame[min(frame.width - 1, max(0, x + step * k)), y]) }
            out[y * frame.width + x] = UInt8((sum / total).rounded())
        }
    }
    return Frame(width: frame.width, height: frame.height, bytes: out)
}

/// The label fixture `name` (`Devices/labels/NAME.png`), rows packed.
func label(_ name: String) throws -> Frame { try ImageFile.load("\(root)/Devices/labels/\(name).png").packed() }

/// The image `name` of `Devices/images/` (NAME.png), rows packed.
func image(_ name: String) throws -> Frame { try ImageFile.load("\(root)/Devices/images/\(name).png").packed() }

@Suite("Print smeared sideways")
struct SmearTests {
    @Test("print smeared along its rows is told from sharp print by how little it changes across a row")
    func told() throws {
        let reader = try TextReader()
        for name in ["hp-elitebook-tilted", "lenovo-thinkpad", "dell-latitude", "cisco-switch"] {
            let sharp = try label(name)
            let sharpSaid = FrameReader.smearedSideways(reader.read(sharp), in: sharp)
            #expect(sharpSaid != true, "\(name)")
            let smeared = smearedSideways(sharp, spread: 3.5)
            let smearedSaid = FrameReader.smearedSideways(reader.read(smeared), in: smeared)
            #expect(smearedSaid == true, "\(name)")
        }
        // Bands of gray that change only down the columns, as far as smear goes: three words over
        // them are smeared; two say nothing, nor do three read with almost no confidence.
        let bands = Frame(width: 200, height: 40, bytes: (0..<8000).map { UInt8($0 / 200 % 4 < 2 ? 40 : 220) })
        func words(_ count: Int, confidence: Double = 90) -> [TextLine] {
            let words = (0..<count).map {
                Word(text: "AB12", box: Box(x: 10 + 60 * $0, y: 5, width: 50, height: 20), confidence: confidence)
            }
            return [TextLine(words: words, box: Box(x: 10, y: 5, width: 170, height: 20))]
        }
        #expect(FrameReader.smearedSideways(words(3), in: bands) == true)
        #expect(FrameReader.smearedSideways(words(2), in: bands) == nil)
        #expect(FrameReader.smearedSideways(words(3, confidence: 20), in: bands) == nil)
    }

    @Test("a label smeared sideways is sharpened and read again: the serial read only then is among the readings")
    func readAgain() throws {
        // The HP fixture smeared as a phone moving sideways while the shutter is open smears it:
        // read as it is, its serial line is "SERIAL: 50G9333XD3"; sharpened, 5CG9333XD3.
        let smeared = smearedSideways(try label("hp-elitebook-tilted"), spread: 3.5)
        let lines = try FrameReader().read(smeared).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains("5CG9333XD3") }, "\(lines)")
        // Read at other sizes, its serial's row reads right too: with both looks turned off it is lost.
        let without = try readerTurningOff(.smearDrawnBack, .codeRowsResized).read(smeared).map(\.value)
        #expect(!without.contains { $0.contains("5CG9333XD3") }, "\(without)")
        let smearOnly = try readerTurningOff(.codeRowsResized).read(smeared).map(\.value)
        #expect(smearOnly.contains { $0.contains("5CG9333XD3") }, "\(smearOnly)")
    }

    @Test("which way a label is smeared is told by its edges: trailing one way, the other, or as far both ways")
    func whichWay() throws {
        func smear(_ frame: Frame) -> RowSmear {
            FrameReader.smear(leaning: frame.smearLean(in: frame.whole))
        }
        for name in ["hp-elitebook-tilted", "lenovo-thinkpad", "dell-latitude", "cisco-switch"] {
            let sharp = try label(name)
            #expect(smear(sharp) == .even(spread: 2), "\(name)")
            // Each pixel the print at it and to its right: the smear trails to the left.
            #expect(smear(smearedSideways(sharp, spread: 3.5)) == .trailingLeft(spread: 3.5), "\(name)")
            #expect(smear(smearedSideways(sharp, spread: 3.5, fromTheLeft: true)) == .trailingRight(spread: 3.5), "\(name)")
            // A phone moved one way and back smears as far both ways.
            let even = smearedSideways(smearedSideways(sharp, spread: 2.5), spread: 2.5, fromTheLeft: true)
            #expect(smear(even) == .even(spread: 2), "\(name)")
        }
    }

    @Test(
        "labels smeared to one side are drawn back to that side: serials read only then",
        arguments: [
            ("dell-smeared-trailing-left", "P3JMQ20"), ("juniper-smeared-trailing-right", "EY8692808552"),
        ])
    func drawnBackToItsSide(name: String, serial: String) throws {
        // Development labels of the second corpus, smeared one way (a Dell's service tag under
        // its keyword) and the other (a Juniper's serial in a table). Drawn back as far both
        // ways, the Dell's is read "P3INQ20" and "PSIMQ20", the Juniper's "Eveeszgosss2".
        let lines = try FrameReader().read(try image(name)).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { $0.contains(serial) }, "\(lines)")
    }

    @Test("a barcode smeared past zbar's reading is read in the frame drawn back along its rows")
    func codeDrawnBack() throws {
        // A WD drive's label (a development label of the second corpus), smeared sideways: its
        // Code 128 carries WD-WX12D6A4MKU4 where the print says WD-WX12D6A4RKU4, a planted
        // disagreement. As the camera saw it, zbar reads no code at all.
        let frame = try image("wd-smeared-code-and-serial")
        #expect(try BarcodeReader().read(frame).isEmpty)
        let codes = try FrameReader().read(frame).filter(\.source.isBarcode).map(\.value)
        #expect(codes == ["WD-WX12D6A4MKU4"])
        #expect(try readerTurningOff(.barcodesUnsmeared).read(frame).filter(\.source.isBarcode).isEmpty)
    }

    @Test(
        "a page whose words are too few or too thin to measure is judged by the frame's edges: leaning one way, it is drawn back",
        arguments: [("apc-smeared-words-unmeasured", "5A7256289695"), ("lenovo-smeared-words-unmeasured", "PFWXNT05")])
    func wordsUnmeasured(name: String, serial: String) throws {
        // Development labels of the first corpus smeared to one side: tesseract read their print
        // in slivers a few pixels high or not at all, too few words to measure the smear by, and
        // they were not drawn back. Their serials are read only now (the Lenovo's "PFWXNTO5",
        // an O for the 0, which its barcode settles).
        let frame = try image(name)
        let lines = try FrameReader().read(frame).filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains { OCRConfusion.fold($0).contains(OCRConfusion.fold(serial)) }, "\(lines)")
        #expect(FrameReader.leansOneWay(frame.smearLean(in: frame.whole)))
    }

    @Test("a frame leans one way over 1.25 or under its inverse")
    func leaningOneWay() {
        #expect(!FrameReader.leansOneWay(1.1) && !FrameReader.leansOneWay(0.85) && !FrameReader.leansOneWay(nil))
        #expect(FrameReader.leansOneWay(1.3) && FrameReader.leansOneWay(0.75))
    }

    @Test("what a second reading of the same page reads differently is kept beside the first; the same is not added twice")
    func adding() {
        func line(_ text: String, x: Int, y: Int) -> TextLine {
            let box = Box(x: x, y: y, width: 100, height: 20)
            return TextLine(words: [Word(text: text, box: box, confidence: 90)], box: box)
        }
        let first = [line("Serial", x: 10, y: 10), line("SG9333XD3", x: 150, y: 10), line("P/N", x: 10, y: 200)]
        // The same text in the same place is not added; a different text in the same place comes
        // after what was read there first, even a pixel higher; one in a new place, top to bottom.
        let second = [
            line("Serial", x: 11, y: 10), line("5CG9333XD3", x: 151, y: 9), line("Model", x: 10, y: 100), line("Serial", x: 10, y: 300),
        ]
        let both = FrameReader.adding(second, to: first).map(\.text)
        #expect(both == ["Serial", "SG9333XD3", "5CG9333XD3", "Model", "P/N", "Serial"])
    }
}
