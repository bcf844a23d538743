import Foundation
import Model
import Testing

@testable import Imaging

@Suite("Sharpening along rows")
struct DeblurTests {
    /// Dark strokes four pixels wide, six apart, on light paper: print, seen up close.
    func strokes(width: Int = 80, height: Int = 6) -> Frame {
        var bytes = [UInt8](repeating: 220, count: width * height)
        for y in 0..<height { for x in 0..<width where x % 10 < 4 { bytes[y * width + x] = 30 } }
        return Frame(width: width, height: height, bytes: bytes)
    }

    /// `frame` blurred along its rows by a Gaussian of `spread` pixels.
    func blurred(_ frame: Frame, spread: Double) -> Frame {
        let reach = Int(3 * spread) + 1
        return smeared(frame, weights: (-reach...reach).map { exp(-Double($0 * $0) / (2 * spread * spread)) })
    }

    func distance(_ a: Frame, _ b: Frame, in box: Box) -> Int {
        var sum = 0
        for y in box.y..<box.maxY { for x in box.x..<box.maxX { sum += abs(Int(a[x, y]) - Int(b[x, y])) } }
        return sum
    }

    @Test("strokes blurred along rows come back nearer what was printed: darker strokes, lighter gaps, the same light overall")
    func drawnBack() {
        let sharp = strokes()
        let seen = blurred(sharp, spread: 2)
        let all = sharp.whole
        let mended = seen.sharpenedAlongRows(in: all)
        let (before, after) = (distance(seen, sharp, in: all), distance(mended, sharp, in: all))
        #expect(after * 4 < before * 3, "\(after) against \(before)")
        // Stroke centres darker than the blur left them, gaps between strokes lighter: the
        // contrast of a stroke and its gap at least half as much again.
        for x in [21, 31, 41, 51] {
            #expect(mended[x, 3] < seen[x, 3] && mended[x + 5, 3] > seen[x + 5, 3], "\(x)")
            #expect((Int(mended[x + 5, 3]) - Int(mended[x, 3])) * 2 > (Int(seen[x + 5, 3]) - Int(seen[x, 3])) * 3, "\(x)")
        }
        // What the camera gathered is moved, not made: the mean level stays within two.
        func mean(_ frame: Frame) -> Double { Double(frame.bytes.reduce(0) { $0 + Int($1) }) / Double(frame.bytes.count) }
        #expect(abs(mean(mended) - mean(seen)) < 2, "\(mean(mended)) against \(mean(seen))")
    }

    /// `frame` smeared along its rows: each pixel the weighted mean of the pixels `weights`
    /// weighs, at their offsets `-reach...reach` from it.
    func smeared(_ frame: Frame, _ smear: RowSmear) -> Frame { smeared(frame, weights: smear.weights) }

    func smeared(_ frame: Frame, weights: [Double]) -> Frame {
        let reach = weights.count / 2
        let total = weights.reduce(0, +)
        var out = frame.bytes
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var sum = 0.0
                for (k, w) in weights.enumerated() { sum += w * Double(frame[min(frame.width - 1, max(0, x + k - reach)), y]) }
                out[y * frame.width + x] = UInt8((sum / total).rounded())
            }
        }
        return Frame(width: frame.width, height: frame.height, bytes: out)
    }

    @Test("a smear trailing one way is told by its edges, and drawn back nearer the print to that side than as far both ways")
    func trailing() throws {
        let sharp = strokes(width: 120)
        let all = sharp.whole
        // Sharp strokes, and strokes smeared as far both ways (a Gaussian; a phone moving evenly
        // across the shutter's time, nine pixels), lean neither way.
        for frame in [sharp, blurred(sharp, spread: 2), smeared(sharp, weights: [Double](repeating: 1, count: 9))] {
            let lean = try #require(frame.smearLean(in: all))
            #expect(lean > 0.9 && lean < 1.1, "\(lean)")
        }
        for (smear, wrong) in [
            (RowSmear.trailingLeft(spread: 3.5), RowSmear.trailingRight(spread: 3.5)),
            (.trailingRight(spread: 3.5), .trailingLeft(spread: 3.5)),
        ] {
            let seen = smeared(sharp, smear)
            let lean = try #require(seen.smearLean(in: all))
            // Each pixel saw the print at it and to its right: the edges' changes fall off at
            // once going right, and lean over 1; the other way, under.
            #expect(smear == .trailingLeft(spread: 3.5) ? lean > 1.5 : lean < 1 / 1.5, "\(smear): \(lean)")
            // Drawn back to its own side it comes nearest what was printed: nearer than as far
            // both ways, and than to the other side, both by a quarter at least.
            let inner = Box(x: 20, y: 0, width: 80, height: sharp.height)
            let right = distance(seen.sharpenedAlongRows(in: all, smear: smear), sharp, in: inner)
            let even = distance(seen.sharpenedAlongRows(in: all), sharp, in: inner)
            let other = distance(seen.sharpenedAlongRows(in: all, smear: wrong), sharp, in: inner)
            #expect(
                right * 4 < even * 3 && right * 4 < other * 3,
                "\(smear): \(right) against \(even) as far both ways, \(other) to the other side")
        }
        // No edges at all: nothing to lean.
        #expect(Frame(width: 20, height: 4, bytes: [UInt8](repeating: 200, count: 80)).smearLean(in: all) == nil)
    }

    @Test("only the part asked for is sharpened; a part outside the frame, or no spread, leaves it as it was")
    func onlyThePart() {
        let seen = blurred(strokes(), spread: 2)
        let part = Box(x: 20, y: 1, width: 30, height: 3)
        let mended = seen.sharpenedAlongRows(in: part)
        for y in 0..<seen.height {
            for x in 0..<seen.width where !(part.x..<part.maxX).contains(x) || !(part.y..<part.maxY).contains(y) {
                #expect(mended[x, y] == seen[x, y], "\(x),\(y)")
            }
        }
        #expect(distance(mended, seen, in: part) > 0)
        #expect(seen.sharpenedAlongRows(in: Box(x: 200, y: 200, width: 10, height: 10)) == seen)
        #expect(seen.sharpenedAlongRows(in: part, spread: 0) == seen)
    }
}
