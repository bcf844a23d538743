import Foundation
import Imaging
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
        // Boxes stay in the frame's own pixels: the label's lines lie inside where it was placed.
        let boxes = reader.read(try farAway("lenovo-thinkpad")).filter { !$0.source.isBarcode }.map(\.box)
        #expect(boxes.allSatisfy { $0.x >= 300 && $0.maxX <= 980 && $0.y >= 150 && $0.maxY <= 570 }, "\(boxes)")
    }
}
