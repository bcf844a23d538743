import Model
import Testing

@testable import Imaging

@Suite("Contrast stretched locally")
struct ContrastTests {
    /// Paper at 250 with dark strokes, two pixels wide and six apart: at `pale` on the left
    /// half (ink under glare), at `dark` on the right.
    func strokes(pale: UInt8, dark: UInt8, width: Int = 240, height: Int = 60) -> Frame {
        var bytes = [UInt8](repeating: 250, count: width * height)
        for y in 20..<40 {
            for x in 0..<width where x % 8 < 2 { bytes[y * width + x] = x < width / 2 ? pale : dark }
        }
        return Frame(width: width, height: height, bytes: bytes)
    }

    @Test("pale strokes and dark ones come out equally dark on white paper; one level parts both from the paper")
    func stretched() {
        let frame = strokes(pale: 195, dark: 40)
        // As photographed no one level parts ink from paper on both halves and from paper:
        // the pale strokes are lighter than anything Otsu's level calls dark.
        #expect(frame[2 * 8, 30] > frame.partingLevel)
        let out = frame.contrastStretchedLocally()
        for x in [16, 17, 200, 201] { #expect(out[x, 30] < 40, "stroke at \(x)") }
        for x in [20, 21, 204, 205] { #expect(out[x, 30] > 215, "paper at \(x)") }
        #expect(out[16, 30] <= out.partingLevel && out[200, 30] <= out.partingLevel)
        #expect(out[20, 30] > out.partingLevel)
    }

    @Test("paper with no print, even with a little grain on it, is white")
    func flat() {
        var random = SeededRandom(seed: 7)
        let grain = Frame(width: 100, height: 50, bytes: (0..<5000).map { _ in UInt8(180 + Int.random(in: -12...12, using: &random)) })
        #expect(grain.contrastStretchedLocally().bytes.allSatisfy { $0 == 255 })
        let blank = Frame(width: 10, height: 10, bytes: [UInt8](repeating: 128, count: 100))
        #expect(blank.contrastStretchedLocally().bytes.allSatisfy { $0 == 255 })
    }

    @Test("a frame with rows padded past its width is stretched by its pixels, not its padding")
    func padded() {
        let frame = strokes(pale: 195, dark: 40, width: 64, height: 40)
        var bytes: [UInt8] = []
        for y in 0..<frame.height { bytes += frame.bytes[(y * 64)..<(y * 64 + 64)] + [0, 0, 0, 0] }
        let padded = Frame(width: 64, height: 40, stride: 68, bytes: bytes)
        #expect(padded.contrastStretchedLocally() == frame.contrastStretchedLocally())
    }

    /// The darkest or lightest level, and the mean, within `radius` of each pixel, taken the
    /// slow way: every pixel of the square, cut at the frame's edges.
    func aroundEachPixel(_ levels: [UInt8], _ width: Int, _ height: Int, _ radius: Int, _ reduce: ([Int]) -> Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                var square: [Int] = []
                for v in max(0, y - radius)...min(height - 1, y + radius) {
                    for u in max(0, x - radius)...min(width - 1, x + radius) { square.append(Int(levels[v * width + u])) }
                }
                out.append(UInt8(reduce(square)))
            }
        }
        return out
    }

    @Test(
        "the darkest, lightest and mean levels around each pixel are those of its square, cut at the frame's edges",
        arguments: [(7, 5, 1), (23, 17, 3), (9, 30, 4), (1, 12, 2), (12, 1, 2), (5, 4, 20), (31, 29, 7)])
    func aroundEachPixel(width: Int, height: Int, radius: Int) {
        var random = SeededRandom(seed: UInt64(width * 100 + height))
        let levels = (0..<width * height).map { _ in UInt8(Int.random(in: 0...255, using: &random)) }
        let mean: ([Int]) -> Int = { $0.reduce(0, +) / $0.count }
        #expect(Frame.extreme(levels, width, height, radius, darkest: true) == aroundEachPixel(levels, width, height, radius) { $0.min()! })
        #expect(
            Frame.extreme(levels, width, height, radius, darkest: false) == aroundEachPixel(levels, width, height, radius) { $0.max()! })
        #expect(Frame.boxMean(levels, width, height, radius) == aroundEachPixel(levels, width, height, radius, mean))
    }

    @Test("the spread of levels in a box leaves out the lightest and darkest few pixels; grain is the share of small changes")
    func measures() {
        let frame = strokes(pale: 195, dark: 40)
        #expect(frame.levelSpread(in: Box(x: 0, y: 20, width: 120, height: 20)) == 55)
        #expect(frame.levelSpread(in: Box(x: 120, y: 20, width: 120, height: 20)) == 210)
        #expect(frame.levelSpread(in: Box(x: 0, y: 0, width: 240, height: 20)) == 0)
        #expect(frame.levelSpread(in: Box(x: 300, y: 0, width: 10, height: 10)) == nil)
        // Strokes change the level by a lot, and only at their edges: no grain.
        #expect(frame.grain == 0)
        var random = SeededRandom(seed: 3)
        let noisy = Frame(width: 100, height: 50, bytes: (0..<5000).map { _ in UInt8(128 + Int.random(in: -15...15, using: &random)) })
        #expect(noisy.grain > 0.6)
    }
}
