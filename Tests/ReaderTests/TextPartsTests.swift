import Imaging
import Model
import Testing

@testable import Reader

@Suite("A page's rows read side by side, one engine a worker")
struct TextPartsTests {
    /// Bands across the rows of a label fixture, top to bottom, each as one line.
    func rows(of frame: Frame, count: Int) -> [TextPart] {
        (0..<count).map { i in
            let height = frame.height / count
            return TextPart(frame, within: Box(x: 0, y: i * height, width: frame.width, height: height), as: .singleLine)
        }
    }

    @Test("parts read on three engines come back in their order, each as one engine alone reads it")
    func sameAsAlone() throws {
        let frame = try ImageFile.load("\(labelsFolder)/dell-latitude.png")
        let parts = rows(of: frame, count: 8)
        let alone = try TextReader()
        let expected = parts.map { alone.read($0.frame, within: $0.area, as: $0.layout) }
        #expect(expected.filter { !$0.isEmpty }.count >= 3, "the label's rows hold print")
        let crew = try TextReader(workers: 3)
        #expect(crew.read(parts) == expected)
        #expect(crew.helpers.count == 2)
        // The engine's own layout is what it reads a whole page with afterwards.
        #expect(crew.read(frame) == alone.read(frame))
    }

    @Test("one worker, or a single part, makes no other engine")
    func noCrewNeeded() throws {
        let frame = try ImageFile.load("\(labelsFolder)/dell-latitude.png")
        let one = try TextReader(workers: 1)
        _ = one.read(rows(of: frame, count: 4))
        #expect(one.helpers.isEmpty)
        let many = try TextReader(workers: 4)
        _ = many.read(rows(of: frame, count: 1))
        _ = many.read([])
        #expect(many.helpers.isEmpty)
        #expect(many.cpuElsewhere == .zero)
    }

    @Test(
        "a frame reader whose rows are read again on two engines reads every label as one engine does",
        arguments: [
            "syringe-driver-thin-mono", "hp-elitebook-cut-word", "hp-prodesk-noise", "infusion-pump-stacked",
        ])
    func frameReaderAlike(name: String) throws {
        let frame = try ImageFile.load("\(labelsFolder)/\(name).png")
        let two = try FrameReader(textWorkers: 2)
        let one = try FrameReader()
        #expect(two.read(frame) == one.read(frame))
        #expect(two.text.helpers.count == 1, "some rows were read again side by side")
    }
}
