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
        let levels = packed.bytes.map(Int.init)
        let darkest = Self.boxMean(Self.extreme(levels, width, height, radius, min), width, height, radius)
        let lightest = Self.boxMean(Self.extreme(levels, width, height, radius, max), width, height, radius)
        var out = [UInt8](repeating: 255, count: levels.count)
        for i in levels.indices {
            let range = lightest[i] - darkest[i]
            guard range >= flatter else { continue }
            out[i] = UInt8(max(0, min(255, (levels[i] - darkest[i]) * 255 / range)))
        }
        return Frame(width: width, height: height, bytes: out, timestamp: timestamp, index: index)
    }

    /// The extreme (by `pick`) of `levels` within `radius` of each pixel, rows then columns.
    static func extreme(_ levels: [Int], _ width: Int, _ height: Int, _ radius: Int, _ pick: (Int, Int) -> Int) -> [Int] {
        let across = Self.slide(levels, count: height, length: width, step: 1, line: width, radius, pick)
        return Self.slide(across, count: width, length: height, step: width, line: 1, radius, pick)
    }

    /// The extreme within `radius` along each of `count` lines of `length` pixels, pixels
    /// `step` apart, lines `line` apart: a window moved along with a queue of the candidates.
    static func slide(_ levels: [Int], count: Int, length: Int, step: Int, line: Int, _ radius: Int, _ pick: (Int, Int) -> Int) -> [Int] {
        var out = levels
        var queue = [Int](repeating: 0, count: length)
        for l in 0..<count {
            let start = l * line
            var (head, tail) = (0, 0)
            var next = 0
            for i in 0..<length {
                // Bring in every pixel up to `radius` ahead, dropping those it beats.
                while next < length, next <= i + radius {
                    let v = levels[start + next * step]
                    while tail > head, pick(levels[start + queue[tail - 1] * step], v) == v { tail -= 1 }
                    queue[tail] = next
                    tail += 1
                    next += 1
                }
                while queue[head] < i - radius { head += 1 }
                out[start + i * step] = levels[start + queue[head] * step]
            }
        }
        return out
    }

    /// The mean of `levels` within `radius` of each pixel (a square cut at the frame's edges).
    static func boxMean(_ levels: [Int], _ width: Int, _ height: Int, _ radius: Int) -> [Int] {
        // Summed-area table, one row and column of zeros ahead.
        var sums = [Int](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row = 0
            for x in 0..<width {
                row += levels[y * width + x]
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row
            }
        }
        var out = levels
        for y in 0..<height {
            let (top, bottom) = (max(0, y - radius), min(height, y + radius + 1))
            for x in 0..<width {
                let (left, right) = (max(0, x - radius), min(width, x + radius + 1))
                let total =
                    sums[bottom * (width + 1) + right] - sums[top * (width + 1) + right] - sums[bottom * (width + 1) + left]
                    + sums[top * (width + 1) + left]
                out[y * width + x] = total / ((bottom - top) * (right - left))
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
