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
