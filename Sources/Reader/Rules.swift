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
        var fill = [Int16](repeating: -1, count: w * h)  // the level to paint, where a rule is
        // Across a horizontal rule is up and down: (dx, dy) = (0, reach); a vertical one, left and right.
        for horizontal in [true, false] {
            let (along, across) = horizontal ? (w, h) : (h, w)
            let least = max(60, along / 8)
            var dark = [Bool](repeating: false, count: w * h)
            var paper = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let (x0, y0, x1, y1) = horizontal ? (x, y - reach, x, y + reach) : (x - reach, y, x + reach, y)
                    guard x0 >= 0, y0 >= 0, x1 < w, y1 < h else { continue }
                    let p = Int(pixels[y * w + x])
                    let a = pixels[y0 * w + x0]
                    let b = pixels[y1 * w + x1]
                    if Int(min(a, b)) - p >= contrast {
                        dark[y * w + x] = true
                        paper[y * w + x] = max(a, b)
                    }
                }
            }
            func index(_ i: Int, _ j: Int) -> Int { horizontal ? j * w + i : i * w + j }
            // A rule a little off level moves across a pixel now and then: a run continues on
            // the line beside.
            for j in 0..<across {
                var start = -1
                var last = -1
                func close() {
                    guard start >= 0, last - start + 1 >= least else { return }
                    for i in start...last {
                        for k in max(0, j - 1)...min(across - 1, j + 1) where dark[index(i, k)] {
                            fill[index(i, k)] = Int16(paper[index(i, k)])
                        }
                    }
                }
                for i in 0..<along {
                    let on = (max(0, j - 1)...min(across - 1, j + 1)).contains { dark[index(i, $0)] }
                    guard on else { continue }
                    if start < 0 || i - last > gap + 1 {
                        close()
                        start = i
                    }
                    last = i
                }
                close()
            }
        }
        guard fill.contains(where: { $0 >= 0 }) else { return frame }
        var bytes = pixels
        for (n, level) in fill.enumerated() where level >= 0 { bytes[n] = UInt8(level) }
        return Frame(width: w, height: h, bytes: bytes, timestamp: frame.timestamp, index: frame.index)
    }
}
