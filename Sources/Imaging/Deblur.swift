import Foundation
import Model

extension Frame {
    /// A copy of the frame with the part inside `box` sharpened along its rows: print smeared
    /// sideways (the phone moved while the shutter was open) drawn back together.
    ///
    /// Richardson-Lucy deconvolution with a row-wise Gaussian of `spread` pixels, `rounds` times:
    /// each round blurs the estimate as the camera would have, compares it with what the camera
    /// saw, and corrects the estimate by that ratio blurred back. It moves light the blur spread
    /// back where it came from, and makes none: the mean level stays, and no level goes below
    /// zero. Pixels outside `box` are left as they were; each row is taken a few spreads beyond
    /// the box, so the box's ends are corrected against the picture, not against its edge.
    /// The default spread is a phone moved a few pixels' worth (motion smears of 2.5 to 4.5 on
    /// development labels, where 2 read the most back).
    public func sharpenedAlongRows(in box: Box, spread: Double = 2, rounds: Int = 15) -> Frame {
        sharpenedAlongRows(in: box, smear: .even(spread: spread), rounds: rounds)
    }

    /// `sharpenedAlongRows(in:spread:rounds:)` for a smear of any shape along the rows: one
    /// trailing to one side of the print (`RowSmear`) is drawn back to that side.
    public func sharpenedAlongRows(in box: Box, smear: RowSmear, rounds: Int = 15) -> Frame {
        sharpenedAlongRows(in: box, weights: smear.weights, rounds: rounds)
    }

    /// `sharpenedAlongRows(in:spread:rounds:)` with the smear given as weights over the offsets
    /// `-reach...reach` along a row (`smear.count` is `2 * reach + 1`, none below zero): the
    /// camera saw at each pixel the weighted sum of the print at those offsets from it. The
    /// frame as it was for weights of any other shape, or none above zero.
    public func sharpenedAlongRows(in box: Box, weights smear: [Double], rounds: Int = 15) -> Frame {
        let reach = smear.count / 2
        guard let area = part(box), rounds > 0, smear.count == 2 * reach + 1, smear.allSatisfy({ $0 >= 0 }) else {
            return self
        }
        let total = smear.reduce(0, +)
        guard total > 0 else { return self }
        let left = max(0, area.x - 2 * reach)
        let right = min(width, area.maxX + 2 * reach)
        let span = right - left
        let weights = smear.map { $0 / total }
        let mirrored = Array(weights.reversed())
        // Rows are held with `reach` copies of their end pixels either side, so the blur needs
        // no bounds check.
        let padded = span + 2 * reach
        var seen = [Double](repeating: 0, count: span)
        var estimate = [Double](repeating: 0, count: padded)
        var ratio = [Double](repeating: 0, count: padded)
        var blurred = [Double](repeating: 0, count: span)
        func pad(_ row: inout [Double]) {
            for k in 0..<reach {
                row[k] = row[reach]
                row[reach + span + k] = row[reach + span - 1]
            }
        }
        // What the camera saw at x is the print around x weighed by `weights`; a ratio is spread
        // back where it came from by the same weights turned end to end. Only the offsets the
        // smear reaches are summed: a smear to one side weighs nothing on the other.
        func blur(_ source: [Double], by weights: [Double], into target: inout [Double]) {
            let reached = (weights.firstIndex { $0 > 0 } ?? 0)...(weights.lastIndex { $0 > 0 } ?? 0)
            source.withUnsafeBufferPointer { source in
                weights.withUnsafeBufferPointer { weights in
                    for x in 0..<span {
                        var sum = 0.0
                        for k in reached { sum += weights[k] * source[x + k] }
                        target[x] = sum
                    }
                }
            }
        }
        var out = bytes
        for y in area.y..<area.maxY {
            let row = y * stride + left
            // One gray level added keeps every divisor above zero.
            for x in 0..<span { seen[x] = Double(bytes[row + x]) + 1 }
            for x in 0..<span { estimate[reach + x] = seen[x] }
            pad(&estimate)
            for _ in 0..<rounds {
                blur(estimate, by: weights, into: &blurred)
                for x in 0..<span { ratio[reach + x] = seen[x] / max(blurred[x], 1e-3) }
                pad(&ratio)
                blur(ratio, by: mirrored, into: &blurred)
                for x in 0..<span { estimate[reach + x] *= blurred[x] }
                pad(&estimate)
            }
            for x in (area.x - left)..<(area.maxX - left) {
                out[row + x] = UInt8(min(255, max(0, (estimate[reach + x] - 1).rounded())))
            }
        }
        return Frame(width: width, height: height, stride: stride, bytes: out, timestamp: timestamp, index: index)
    }
}

/// How print was smeared along the rows of a frame (the phone moved sideways while the shutter
/// was open), for `Frame.sharpenedAlongRows(in:smear:rounds:)`.
public enum RowSmear: Equatable, Sendable {
    /// As far to either side: a Gaussian of `spread` pixels.
    case even(spread: Double)
    /// Trailing to the left of what was printed only, falling off as a Gaussian of `spread`
    /// pixels from the print's own place: each pixel saw the print at it and to its right.
    case trailingLeft(spread: Double)
    /// Trailing to the right only: each pixel saw the print at it and to its left.
    case trailingRight(spread: Double)

    /// The smear as weights over the offsets `-reach...reach` from a pixel (none for no spread):
    /// in proportion to the share of what the camera saw there that came from the print at each.
    public var weights: [Double] {
        let spread: Double
        let side: (Int) -> Bool
        switch self {
        case .even(let s): (spread, side) = (s, { _ in true })
        case .trailingLeft(let s): (spread, side) = (s, { $0 >= 0 })
        case .trailingRight(let s): (spread, side) = (s, { $0 <= 0 })
        }
        guard spread > 0 else { return [] }
        let reach = Int((3 * spread).rounded(.up))
        return (-reach...reach).map { x in side(x) ? exp(-Double(x * x) / (2 * spread * spread)) : 0 }
    }
}

extension Frame {
    /// Which way print inside `box` is smeared along its rows, as a ratio: over 1 where each
    /// edge's change of level ends abruptly going right and begins gradually (the smear trails
    /// to the left of what was printed), under 1 the other way, about 1 where the edges are as
    /// steep on both sides (sharp print, or a smear as long either way). Nil for a part too
    /// small or with no edges.
    ///
    /// Along a row, the change of level from pixel to pixel at an edge traces the smear itself:
    /// a phone that moved one way leaves each edge's change rising slowly to its peak and
    /// falling off at once, whether the edge goes from paper to ink or back. The squares of the
    /// change's falls, summed, against those of its rises tell the two apart.
    public func smearLean(in box: Box) -> Double? {
        guard let area = part(box), area.width >= 3 else { return nil }
        var (falls, rises) = (0.0, 0.0)
        for y in area.y..<area.maxY {
            var before = abs(Int(self[area.x + 1, y]) - Int(self[area.x, y]))
            for x in (area.x + 1)..<(area.maxX - 1) {
                let change = abs(Int(self[x + 1, y]) - Int(self[x, y]))
                let step = Double(change - before)
                if step > 0 { rises += step * step } else { falls += step * step }
                before = change
            }
        }
        return rises > 0 ? falls / rises : nil
    }
}
