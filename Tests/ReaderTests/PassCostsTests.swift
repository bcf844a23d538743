import Imaging
import Model
import Testing

@testable import Reader

@Suite("What each pass of a read costs")
struct PassCostsTests {
    @Test("measured, a read is the same read; every pass that ran is named, with when it runs, and none counts another's time")
    func measured() throws {
        let frame = try ImageFile.load("\(labelsFolder)/hp-prodesk-noise.png")
        let plain = try FrameReader().read(frame)
        let reader = try FrameReader()
        let costs = PassCosts()
        reader.costs = costs
        let measured = reader.read(frame)
        #expect(measured.map(\.value) == plain.map(\.value))
        #expect(Array(costs.order.prefix(4)) == ["barcodes", "upright", "rules erased", "text"])
        for name in costs.order { #expect(ReaderPass(rawValue: name) != nil, "\(name) is no named pass, so says not when it runs") }
        #expect(costs.costs["barcodes"]?.runs == 1 && costs.costs["code rows resized"]?.runs == 1)
        // Frames read barcodes only run no text pass.
        let barcodesOnly = PassCosts()
        reader.costs = barcodesOnly
        _ = reader.read(frame, passes: .barcodes)
        #expect(barcodesOnly.order == ["barcodes"])
    }
}
