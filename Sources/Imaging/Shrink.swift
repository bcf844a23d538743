import Model

extension Frame {
    /// The picture `factor` (above 0, under 1) times as large, each pixel the mean of the part of
    /// this picture it covers (area averaging: fine bars blur together rather than alias). Rows of
    /// the result are packed; its time and index are this frame's. Any other `factor` gives the
    /// frame as it is.
    public func shrunk(by factor: Double) -> Frame {
        guard factor < 1, factor > 0 else { return self }
        let across = AreaShares(from: width, to: Swift.max(1, Int((Double(width) * factor).rounded())))
        let down = AreaShares(from: height, to: Swift.max(1, Int((Double(height) * factor).rounded())))
        let columns = across.count
        var out = [UInt8](repeating: 0, count: columns * down.count)
        // Each result row: the rows under it summed with their shares, then shrunk across.
        var sums = [UInt32](repeating: 0, count: width)
        bytes.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sums in
                    down.withShares { first, shares, span in
                        for i in 0..<down.count {
                            for x in 0..<width { sums[x] = 0 }
                            for k in 0..<span where shares[i * span + k] > 0 {
                                let (line, share) = (pixels.baseAddress! + (first[i] + k) * stride, shares[i * span + k])
                                for x in 0..<width { sums[x] &+= UInt32(line[x]) &* share }
                            }
                            across.shrink(UnsafeBufferPointer(sums), into: out.baseAddress! + i * columns)
                        }
                    }
                }
            }
        }
        return Frame(width: columns, height: down.count, bytes: out, timestamp: timestamp, index: index)
    }
}

/// How much of each pixel along one side of a picture goes into each pixel of a shorter side:
/// result pixel `i` covers the source pixels from `i * source / count` to `(i + 1) * source /
/// count`, each in proportion to how much of it is covered, in fixed point summing to `whole`.
struct AreaShares {
    static let whole: UInt32 = 256
    let count: Int
    /// Source pixels at most under one result pixel.
    let span: Int
    /// The first source pixel under each result pixel.
    private var first: [Int] = []
    /// Each result pixel's `span` shares, of the source pixels from its first on (0 past its end).
    private var shares: [UInt32] = []

    init(from source: Int, to count: Int) {
        self.count = count
        let scale = Double(source) / Double(count)
        span = Swift.min(source, Int(scale.rounded(.up)) + 1)
        for i in 0..<count {
            let (start, end) = (Double(i) * scale, Swift.min(Double(source), Double(i + 1) * scale))
            // The last result pixel's source pixels end at the side's end.
            let from = Swift.min(Int(start), source - span)
            var parts = (from..<from + span).map { at -> UInt32 in
                let covered = Swift.max(0, Swift.min(end, Double(at + 1)) - Swift.max(start, Double(at)))
                return UInt32((covered / scale * Double(Self.whole)).rounded())
            }
            // Rounding's remainder to the largest share, so each pixel's shares sum to `whole`.
            if let largest = parts.indices.max(by: { parts[$0] < parts[$1] }) {
                parts[largest] = UInt32(Int(parts[largest]) + Int(Self.whole) - Int(parts.reduce(0, +)))
            }
            first.append(from)
            shares += parts
        }
    }

    /// One line of sums already weighted to `whole` (a line of rows summed with their shares)
    /// shrunk into `count` pixels.
    func shrink(_ line: UnsafeBufferPointer<UInt32>, into out: UnsafeMutablePointer<UInt8>) {
        let whole = Self.whole * Self.whole
        withShares { first, shares, span in
            for i in 0..<count {
                var sum = whole / 2
                for k in 0..<span { sum &+= line[first[i] + k] &* shares[i * span + k] }
                out[i] = UInt8(Swift.min(255, sum / whole))
            }
        }
    }

    /// `body` given the first source pixel of each result pixel, the shares and `span`.
    func withShares<T>(_ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<UInt32>, Int) -> T) -> T {
        first.withUnsafeBufferPointer { first in shares.withUnsafeBufferPointer { body(first, $0, span) } }
    }
}
