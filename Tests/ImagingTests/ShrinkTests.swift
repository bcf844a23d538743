import Model
import Testing

@testable import Imaging

@Suite("Frames shrunk by area averaging")
struct ShrinkTests {
    /// Each pixel of `frame` shrunk to `width` x `height`, the mean of the area it covers, in
    /// floating point.
    func areaMeans(_ frame: Frame, width: Int, height: Int) -> [Double] {
        let (sx, sy) = (Double(frame.width) / Double(width), Double(frame.height) / Double(height))
        func covered(_ i: Int, _ scale: Double, _ p: Int) -> Double {
            max(0, min(Double(i + 1) * scale, Double(p + 1)) - max(Double(i) * scale, Double(p)))
        }
        return (0..<height).flatMap { j in
            (0..<width).map { i in
                var sum = 0.0
                for y in 0..<frame.height where covered(j, sy, y) > 0 {
                    for x in 0..<frame.width { sum += covered(i, sx, x) * covered(j, sy, y) * Double(frame[x, y]) }
                }
                return sum / (sx * sy)
            }
        }
    }

    @Test("shrunk by half, each pixel is the mean of the two-by-two square it covers")
    func half() {
        let frame = Frame(width: 4, height: 2, bytes: [0, 10, 100, 100, 20, 30, 200, 201])
        let small = frame.shrunk(by: 0.5)
        #expect((small.width, small.height) == (2, 1))
        #expect(small.bytes == [15, 150])
    }

    @Test(
        "each pixel the mean of what it covers, within rounding, at sizes that do not divide",
        arguments: [
            (37, 23, 0.31), (1920, 54, 2.0 / 3), (5, 3, 0.4), (64, 48, 0.9), (1, 40, 0.5),
        ])
    func means(width: Int, height: Int, factor: Double) {
        var random = SeededRandom(seed: UInt64(width * height))
        // Rows padded past their width: the padding is not the picture.
        let stride = width + 3
        let bytes = (0..<stride * height).map { $0 % stride < width ? UInt8.random(in: 0...255, using: &random) : 0 }
        let frame = Frame(width: width, height: height, stride: stride, bytes: bytes)
        let small = frame.shrunk(by: factor)
        #expect(small.width == Int((Double(width) * factor).rounded()) && small.height == Int((Double(height) * factor).rounded()))
        #expect(small.stride == small.width)
        let means = areaMeans(frame, width: small.width, height: small.height)
        let worst = zip(small.bytes, means).map { abs(Double($0) - $1) }.max() ?? 0
        #expect(worst <= 1, "worst difference \(worst)")
    }

    @Test("1920x1080 to 1280x720: a flat frame stays flat, its time and index kept")
    func webcamSizes() {
        var frame = Frame(width: 1920, height: 1080, bytes: [UInt8](repeating: 173, count: 1920 * 1080))
        frame.timestamp = .milliseconds(400)
        frame.index = 12
        let small = frame.shrunk(by: 2.0 / 3)
        #expect((small.width, small.height) == (1280, 720))
        #expect(small.bytes.allSatisfy { $0 == 173 })
        #expect(small.timestamp == .milliseconds(400) && small.index == 12)
    }

    @Test("a factor of 1 or more, or none, gives the frame as it is")
    func notShrunk() {
        let frame = Frame(width: 3, height: 2, bytes: [1, 2, 3, 4, 5, 6])
        for factor in [1, 1.5, 0, -1] { #expect(frame.shrunk(by: factor) == frame) }
    }
}
