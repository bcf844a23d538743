import Imaging
import Model
import Testing

@testable import Reader

/// A reader with the repairs `passes` turned off, to show what they read.
func readerTurningOff(_ passes: ReaderPass...) throws -> FrameReader {
    let reader = try FrameReader()
    reader.turnedOff = Set(passes)
    return reader
}

@Suite("The reader's named passes")
struct ReaderPassTests {
    @Test("every pass has a name and says when it runs; the repairs are the passes a reading can do without")
    func named() {
        #expect(Set(ReaderPass.allCases.map(\.name)).count == ReaderPass.allCases.count)
        for pass in ReaderPass.allCases { #expect(!pass.trigger.description.isEmpty, "\(pass)") }
        #expect(ReaderPass.allCases.filter { !$0.isRepair } == [.barcodes, .upright, .rulesErased, .text, .smearMeasured])
        #expect(TextPipeline.readingRepairs.map(\.pass) == [.smallPrintEnlarged, .linesSplit, .rowsReadWhole])
        #expect(TextPipeline.secondLooks.map(\.pass) == [.smearDrawnBack, .paleStretched, .paleSharpened, .codeRowsResized, .unreadInk])
    }

    @Test("a repair turned off does not run, and only it; the passes that are no repair cannot be turned off")
    func turnedOff() throws {
        let frame = try ImageFile.load("\(labelsFolder)/hp-prodesk-noise.png")
        let reader = try FrameReader()
        reader.turnedOff = [.codeRowsResized, .unreadInk, .text, .barcodes]
        let costs = PassCosts()
        reader.costs = costs
        _ = reader.read(frame)
        #expect(costs.costs["code rows resized"] == nil && costs.costs["unread ink"] == nil, "\(costs.order)")
        #expect(costs.costs["text"]?.runs ?? 0 >= 1 && costs.costs["barcodes"]?.runs == 1, "\(costs.order)")
        #expect(costs.costs["lines split"]?.runs ?? 0 >= 1, "\(costs.order)")
    }

    @Test("a read without second looks runs the page's reading repairs and none of the looks, and leaves what was turned off as it was")
    func withoutSecondLooks() throws {
        let frame = try ImageFile.load("\(labelsFolder)/hp-prodesk-noise.png")
        let reader = try FrameReader()
        reader.turnedOff = [.smallPrintEnlarged]
        let costs = PassCosts()
        reader.costs = costs
        let read = reader.read(frame, secondLooks: false)
        #expect(reader.turnedOff == [.smallPrintEnlarged])
        for look in TextPipeline.secondLooks { #expect(costs.costs[look.pass.name] == nil, "\(look.pass)") }
        #expect(costs.costs["smear measured"] == nil && costs.costs["rows read whole"] != nil, "\(costs.order)")
        #expect(read.contains { !$0.source.isBarcode })
        reader.costs = nil
        #expect(reader.read(frame, secondLooks: true) == reader.read(frame))
    }
}
