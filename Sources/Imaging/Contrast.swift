import Model
extension Frame {
    /// A copy of the frame with its contrast stretched locally: each pixel placed between the
    /// darkest and the lightest levels around it, so print keeps its strokes where glare washed
    /// it pale or the ink is faint, and one threshold holds across the page.
    ///
    /// Around each pixel, the darkest and lightest levels within `size` pixels (a square), each
    /// then averaged over the same square so the stretch changes smoothly; the pixel goes to 0 at
    /// the dark level and 255 at the light one. Where the two are fewer than `flatter` levels
    /// apart there is no print to stretch (paper, or noise on it) and the pixel goes to white.
    public func contrastStretchedLocally(size: Int = 41, flatter: Int = 40) -> Frame {
        let packed = packed()
        guard width > 0, height > 0, size > 1 else { return packed }
        let radius = size / 2
        let levels = packed.bytes
        let darkest = Self.boxMean(Self.extreme(levels, width, height, radius, darkest: true), width, height, radius)
        let lightest = Self.boxMean(Self.extreme(levels, width, height, radius, darkest: false), width, height, radius)
        var out = [UInt8](repeating: 255, count: levels.count)
        out.withUnsafeMutableBufferPointer { out in
            levels.withUnsafeBufferPointer { levels in
                for i in 0..<levels.count {
                    let (dark, range) = (Int(darkest[i]), Int(lightest[i]) - Int(darkest[i]))
                    guard range >= flatter else { continue }
                    out[i] = UInt8(max(0, min(255, (Int(levels[i]) - dark) * 255 / range)))
                }
            }
        }
        return Frame(width: width, height: height, bytes: out, timestamp: timestamp, index: index)
    }

    /// The darkest (or lightest) of `levels` within `radius` of each pixel: a square, cut at the
    /// frame's edges, taken along rows and then down columns.
    ///
    /// Along a line, the line is cut into blocks one window long; within each block the running
    /// extreme is kept from the block's start forwards and from its end backwards, and a window,
    /// which spans at most two blocks, is the extreme of the backward run where it starts and the
    /// forward run where it ends: three comparisons a pixel, whatever the radius. Down columns
    /// the same is done a whole row at a time (`slide`'s lanes), so memory is read in order.
    static func extreme(_ levels: [UInt8], _ width: Int, _ height: Int, _ radius: Int, darkest: Bool) -> [UInt8] {
        darkest
            ? extreme(levels, width, height, radius) { Swift.min($0, $1) } : extreme(levels, width, height, radius) { Swift.max($0, $1) }
    }

    @inline(__always)
    private static func extreme(_ levels: [UInt8], _ width: Int, _ height: Int, _ radius: Int, _ pick: (UInt8, UInt8) -> UInt8) -> [UInt8] {
        let block = 2 * radius + 1
        // Which runs hold the window round each position of a line: both, the forward one alone
        // (the window starts where a block does) or the backward one alone (it ends the line's
        // last block).
        func windows(_ length: Int) -> [Window] {
            (0..<length).map { p in
                let (a, b) = (Swift.max(0, p - radius), Swift.min(length - 1, p + radius))
                return Window(start: a, end: b, both: a / block != b / block, forwardOnly: a % block == 0)
            }
        }
        let (alongRows, downColumns) = (windows(width), windows(height))
        var across = [UInt8](repeating: 0, count: levels.count)
        var out = [UInt8](repeating: 0, count: levels.count)
        var forward = [UInt8](repeating: 0, count: levels.count)
        var backward = forward
        levels.withUnsafeBufferPointer { levels in
            across.withUnsafeMutableBufferPointer { across in
                out.withUnsafeMutableBufferPointer { out in
                    forward.withUnsafeMutableBufferPointer { forward in
                        backward.withUnsafeMutableBufferPointer { backward in
                            for y in 0..<height {
                                slide(levels, into: across, forward, backward, base: y * width, step: 1, lanes: 1, alongRows, block, pick)
                            }
                            slide(
                                UnsafeBufferPointer(across), into: out, forward, backward, base: 0, step: width, lanes: width, downColumns,
                                block, pick)
                        }
                    }
                }
            }
        }
        return out
    }

    /// Where a window lies along a line, and which runs hold it.
    struct Window {
        var start: Int
        var end: Int
        var both: Bool
        var forwardOnly: Bool
    }

    /// The extreme by `pick` of `input` within each of `windows` along a line: positions `step`
    /// apart from `base`, `lanes` lines side by side at each (one, along a row; a whole row of
    /// columns, down the frame). `forward` and `backward` hold the runs, from position 0.
    @inline(__always)
    private static func slide(
        _ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, _ forward: UnsafeMutableBufferPointer<UInt8>,
        _ backward: UnsafeMutableBufferPointer<UInt8>, base: Int, step: Int, lanes: Int, _ windows: [Window], _ block: Int,
        _ pick: (UInt8, UInt8) -> UInt8
    ) {
        let length = windows.count
        for start in Swift.stride(from: 0, to: length, by: block) {
            let end = Swift.min(length, start + block)
            for l in 0..<lanes { forward[start * step + l] = input[base + start * step + l] }
            for p in (start + 1)..<end {
                for l in 0..<lanes { forward[p * step + l] = pick(forward[(p - 1) * step + l], input[base + p * step + l]) }
            }
            for l in 0..<lanes { backward[(end - 1) * step + l] = input[base + (end - 1) * step + l] }
            for p in (start..<(end - 1)).reversed() {
                for l in 0..<lanes { backward[p * step + l] = pick(backward[(p + 1) * step + l], input[base + p * step + l]) }
            }
        }
        for p in 0..<length {
            let window = windows[p]
            let (at, a, b) = (base + p * step, window.start * step, window.end * step)
            if window.both {
                for l in 0..<lanes { out[at + l] = pick(backward[a + l], forward[b + l]) }
            } else if window.forwardOnly {
                for l in 0..<lanes { out[at + l] = forward[b + l] }
            } else {
                for l in 0..<lanes { out[at + l] = backward[a + l] }
            }
        }
    }

    /// The mean of `levels` within `radius` of each pixel (a square cut at the frame's edges).
    static func boxMean(_ levels: [UInt8], _ width: Int, _ height: Int, _ radius: Int) -> [UInt8] {
        // Summed-area table, one row and column of zeros ahead.
        let line = width + 1
        var sums = [Int](repeating: 0, count: line * (height + 1))
        var out = [UInt8](repeating: 0, count: levels.count)
        sums.withUnsafeMutableBufferPointer { sums in
            levels.withUnsafeBufferPointer { levels in
                for y in 0..<height {
                    var row = 0
                    for x in 0..<width {
                        row += Int(levels[y * width + x])
                        sums[(y + 1) * line + x + 1] = sums[y * line + x + 1] + row
                    }
                }
            }
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let (top, bottom) = (Swift.max(0, y - radius), Swift.min(height, y + radius + 1))
                    for x in 0..<width {
                        let (left, right) = (Swift.max(0, x - radius), Swift.min(width, x + radius + 1))
                        let total =
                            sums[bottom * line + right] - sums[top * line + right] - sums[bottom * line + left] + sums[top * line + left]
                        out[y * width + x] = UInt8(total / ((bottom - top) * (right - left)))
                    }
                }
            }
        }
        return out
    }
}

extension Frame {
    /// How far apart the light and dark of the part inside `box` lie: the gray level 95% of its
    /// pixels are at or under, less the level 5% are at or under (a speck or a stray pixel does
    /// not count). Nil where `box` is off the frame.
    public func levelSpread(in box: Box) -> Int? {
        guard let area = part(box) else { return nil }
        var counts = [Int](repeating: 0, count: 256)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { counts[Int(self[x, y])] += 1 }
        }
        func level(_ percent: Int) -> Int {
            var seen = 0
            for (level, count) in counts.enumerated() {
                seen += count
                if seen * 100 >= percent * area.area { return level }
            }
            return 255
        }
        return level(95) - level(5)
    }

    /// How grainy the frame is: the share of pixels, on every other row, that differ from the
    /// pixel to their left by a little (3 to 30 levels). Sensor noise makes most pixels do so;
    /// a clean photograph changes only at edges, where the change is large, or not at all
    /// (on the development labels: at most 0.07 on clean, faint, glaring, shadowed, tilted and
    /// low-resolution photographs; 0.1 or more on every noisy one, and on a few motion-blurred or
    /// heavily compressed ones).
    public var grain: Double {
        var (small, all) = (0, 0)
        for y in Swift.stride(from: 0, to: height, by: 2) {
            for x in 1..<max(1, width) {
                let change = abs(Int(self[x, y]) - Int(self[x - 1, y]))
                if change >= 3, change <= 30 { small += 1 }
                all += 1
            }
        }
        return all == 0 ? 0 : Double(small) / Double(all)
    }
}
