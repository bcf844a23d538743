import Foundation

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
        guard let area = part(box), spread > 0, rounds > 0 else { return self }
        let reach = Int((3 * spread).rounded(.up))
        let left = max(0, area.x - 2 * reach)
        let right = min(width, area.maxX + 2 * reach)
        let span = right - left
        let kernel = (-reach...reach).map { x in exp(-Double(x * x) / (2 * spread * spread)) }
        let total = kernel.reduce(0, +)
        let weights = kernel.map { $0 / total }
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
        // The kernel is symmetric: blurring back uses the same weights.
        func blur(_ source: [Double], into target: inout [Double]) {
            source.withUnsafeBufferPointer { source in
                weights.withUnsafeBufferPointer { weights in
                    for x in 0..<span {
                        var sum = 0.0
                        for k in 0..<weights.count { sum += weights[k] * source[x + k] }
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
                blur(estimate, into: &blurred)
                for x in 0..<span { ratio[reach + x] = seen[x] / max(blurred[x], 1e-3) }
                pad(&ratio)
                blur(ratio, into: &blurred)
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
