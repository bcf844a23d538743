import Imaging

/// The ruled lines of a label painted out before its text is read: a table's rules, the box
/// round a value, an underline.
///
/// Tesseract takes a ruled table for a picture and reads none of its cells, or reads a rule
/// beside a value into it ("|JVB07035"). A rule is a thin dark line, darker than the paper a few
/// pixels to either side of it, running far longer than any stroke of a letter: horizontal runs
/// of at least an eighth of the frame's width, vertical ones of an eighth of its height. Letters'
/// strokes are shorter, and where a letter crosses a rule its stroke is dark beside the rule too,
/// so it stays. Boxes are unchanged: the frame keeps its size.
enum Rules {
    /// A pixel is on a rule when it is this much darker than the pixels `reach` away on both
    /// sides across the rule (a rule up to 2 * reach - 1 pixels thick).
    static let contrast = 32
    static let reach = 4
    /// Gaps up to this long (a speck of glare, a rule blurred thin) do not end a run.
    static let gap = 3

    /// `frame` with its long thin horizontal and vertical dark lines painted in the paper's level.
    static func erased(_ frame: Frame) -> Frame {
        let w = frame.width
        let h = frame.height
        guard w > 4 * reach, h > 4 * reach else { return frame }
        let pixels = frame.packed().bytes
        // The level to paint where a rule is (-1 elsewhere), and for one direction at a time the
        // paper's level beside each pixel on a rule (0 elsewhere). Plain loops over raw buffers:
        // this runs on every frame read, in debug builds too.
        var fill = [Int16](repeating: -1, count: w * h)
        var paper = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { p in
            fill.withUnsafeMutableBufferPointer { fill in
                paper.withUnsafeMutableBufferPointer { paper in
                    for horizontal in [true, false] {
                        // Across a horizontal rule is up and down; across a vertical one, left and right.
                        let step = horizontal ? reach * w : reach
                        let (along, across) = horizontal ? (w, h) : (h, w)
                        let (alongStride, acrossStride) = horizontal ? (1, w) : (w, 1)
                        for n in 0..<(w * h) { paper[n] = 0 }
                        // Row after row, in memory's order, whichever way the rules run.
                        let (rows, columns) = horizontal ? (reach..<(h - reach), 0..<w) : (0..<h, reach..<(w - reach))
                        for y in rows {
                            for n in (y * w + columns.lowerBound)..<(y * w + columns.upperBound) {
                                let a = p[n - step]
                                let b = p[n + step]
                                if Int(min(a, b)) - Int(p[n]) >= contrast { paper[n] = max(a, b) }
                            }
                        }
                        markRuns(paper, fill, along: along, across: across, alongStride: alongStride, acrossStride: acrossStride)
                    }
                }
            }
        }
        guard fill.contains(where: { $0 >= 0 }) else { return frame }
        var bytes = pixels
        for (n, level) in fill.enumerated() where level >= 0 { bytes[n] = UInt8(level) }
        return Frame(width: w, height: h, bytes: bytes, timestamp: frame.timestamp, index: frame.index)
    }

    /// Marks in `fill` the pixels on a rule (`paper` nonzero) of the runs at least an eighth of
    /// the frame long, with the level to paint. A rule a little off level moves across a pixel
    /// now and then: a run continues on the line either side.
    private static func markRuns(
        _ paper: UnsafeMutableBufferPointer<UInt8>, _ fill: UnsafeMutableBufferPointer<Int16>, along: Int, across: Int, alongStride: Int,
        acrossStride: Int
    ) {
        let least = max(60, along / 8)
        for j in 0..<across {
            let lo = max(0, j - 1)
            let hi = min(across - 1, j + 1)
            var start = -1
            var last = -1
            var i = 0
            while i <= along {
                var on = false
                if i < along {
                    for k in lo...hi where paper[k * acrossStride + i * alongStride] != 0 { on = true }
                }
                if i == along || (on && start >= 0 && i - last > gap + 1) {
                    // The run so far ends: painted if long enough.
                    if start >= 0, last - start + 1 >= least {
                        for r in start...last {
                            for k in lo...hi {
                                let n = k * acrossStride + r * alongStride
                                if paper[n] != 0 { fill[n] = Int16(paper[n]) }
                            }
                        }
                    }
                    start = -1
                }
                if on {
                    if start < 0 { start = i }
                    last = i
                }
                i += 1
            }
        }
    }
}
