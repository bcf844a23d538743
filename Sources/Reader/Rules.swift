import Imaging
import Model

/// The ruled lines of a label painted out before its text is read: a table's rules, the box
/// round a value, an underline.
///
/// Tesseract takes a ruled table for a picture and reads none of its cells, or reads a rule
/// beside a value into it, as a bar. A rule is a thin dark line, darker than the paper a few
/// pixels to either side of it, running far longer than any stroke of a letter: horizontal runs
/// of at least an eighth of the frame's width, vertical ones of an eighth of its height. Letters'
/// strokes are shorter, and where a letter crosses a rule its stroke is dark beside the rule too,
/// so it stays. A box ruled round a value is often shorter than that, and is found by its shape
/// instead (`markBoxes`). Readings' boxes are unchanged: the frame keeps its size.
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
        var boxRules: [Rule] = []
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
                        // The pixels on horizontal rules hold the rules of boxes too, of any length.
                        if horizontal { boxRules = thinRules(paper, width: w, height: h) }
                    }
                    // `paper` now holds the vertical pass's pixels: the boxes' uprights are on them.
                    markBoxes(p, fill, rules: boxRules, uprights: paper, width: w, height: h)
                }
            }
        }
        guard fill.contains(where: { $0 >= 0 }) else { return frame }
        var bytes = pixels
        for (n, level) in fill.enumerated() where level >= 0 { bytes[n] = UInt8(level) }
        return Frame(width: w, height: h, bytes: bytes, timestamp: frame.timestamp, index: frame.index)
    }

    /// A box is ruled round a value at least this high inside (the value's print and paper
    /// above and below it) and at most `boxHeight.upperBound`.
    static let boxHeight = 10...150
    /// A box's rules are at least this long, and at least twice the box's height.
    static let boxRuleLeast = 40

    /// A rule of a box as found: the pixel rows it covers and how far it runs.
    struct Rule: Equatable {
        var top: Int
        var bottom: Int
        var left: Int
        var right: Int
    }

    /// The thin horizontal rules at least `boxRuleLeast` long (a table's too: a box's rules as long
    /// as a table's are painted out already, its uprights are not), top to bottom, from `paper`,
    /// nonzero on the pixels on a horizontal rule: each pixel row's runs, followed into the rows
    /// under it while they run the same way.
    private static func thinRules(_ paper: UnsafeMutableBufferPointer<UInt8>, width w: Int, height h: Int) -> [Rule] {
        var rules: [Rule] = []
        var open: [Rule] = []
        for y in reach..<(h - reach) {
            var runs: [(left: Int, right: Int)] = []
            var start = -1
            var last = -10
            func close() { if start >= 0, last - start + 1 >= boxRuleLeast { runs.append((start, last)) } }
            for x in 0..<w {
                let n = y * w + x
                guard paper[n] != 0 else { continue }
                if x - last > gap + 1 {
                    close()
                    start = x
                }
                last = x
            }
            close()
            var next: [Rule] = []
            for run in runs {
                if let k = open.firstIndex(where: { abs($0.left - run.left) <= 3 && abs($0.right - run.right) <= 3 }) {
                    var rule = open.remove(at: k)
                    rule.bottom = y
                    next.append(rule)
                } else {
                    next.append(Rule(top: y, bottom: y, left: run.left, right: run.right))
                }
            }
            rules += open
            open = next
        }
        rules += open
        // A rule is thin: four pixel rows at most.
        return rules.filter { $0.bottom - $0.top < 4 }.sorted { $0.top < $1.top }
    }

    /// Marks in `fill` the rules of boxes drawn round print: a thin rule over the print and one
    /// under it, running from the same column to the same column (a pixel or few either way), at
    /// least twice as long as the box is high, closed by an upright at either end, and clear
    /// paper just inside both rules (print in a box stands off its rules; the tops and feet of
    /// letters smeared sideways into lines do not: their stems run on from them). Tesseract
    /// takes a boxed value for a picture and reads none of it, or reads its uprights into it
    /// (`RulesTests`, values in a box). A QR code's finder ring is as high as wide, so no such box.
    /// `rules`: the frame's thin horizontal rules (`thinRules`); `uprights`: nonzero on the pixels
    /// on a vertical rule, as the vertical pass found them.
    private static func markBoxes(
        _ p: UnsafeBufferPointer<UInt8>, _ fill: UnsafeMutableBufferPointer<Int16>, rules: [Rule],
        uprights: UnsafeMutableBufferPointer<UInt8>, width w: Int, height h: Int
    ) {
        for (k, over) in rules.enumerated() {
            // The nearest rule under it that runs as far.
            guard
                let under = rules[(k + 1)...].first(where: {
                    abs($0.left - over.left) <= 4 && abs($0.right - over.right) <= 4 && $0.top - over.bottom > boxHeight.lowerBound
                }),
                boxHeight.contains(under.top - over.bottom - 1)
            else { continue }
            let (left, right) = (min(over.left, under.left), max(over.right, under.right))
            let inside = (over.bottom + 1)..<under.top
            // A ruled table's rows are boxes stacked: another rule over or under this pair, as
            // far again, running along three quarters of it or more (a table seen in perspective
            // is narrower at one end), makes them a table's. Its rules are painted out already
            // where long; its cells' print is read as it is.
            let stacked = rules.contains { rule in
                rule != over && rule != under && 4 * (min(rule.right, right) - max(rule.left, left)) >= 3 * (right - left)
                    && (over.top - rule.bottom - 1 <= 2 * inside.count && rule.bottom < over.top
                        || rule.top - under.bottom - 1 <= 2 * inside.count && rule.top > under.bottom)
            }
            guard !stacked else { continue }
            guard right - left + 1 >= 2 * (under.bottom - over.top + 1) else { continue }
            // An upright near each end: a column on a vertical rule down nine tenths of the way.
            func onUpright(_ x: Int, _ y: Int) -> Bool { x >= 0 && x < w && uprights[y * w + x] != 0 }
            func upright(_ near: ClosedRange<Int>) -> Int? {
                near.first { x in inside.count { onUpright(x, $0) } * 10 >= inside.count * 9 }
            }
            guard let leftUpright = upright((left - 2)...(left + 4)), let rightUpright = upright((right - 4)...(right + 2)) else {
                continue
            }
            // Clear paper two rows inside each rule, between the uprights: the paper's level is
            // the middle of the box's pixels (print covers less than half of it).
            let between = (leftUpright + 6)..<max(leftUpright + 6, rightUpright - 4)
            guard inside.count > 6, !between.isEmpty else { continue }
            var levels: [UInt8] = []
            for y in inside { for x in between { levels.append(p[y * w + x]) } }
            let paperLevel = Int(levels.sorted()[levels.count / 2])
            func clear(_ y: Int) -> Bool { between.count { Int(p[y * w + $0]) + contrast <= paperLevel } * 10 <= between.count }
            guard clear(over.bottom + 2), clear(under.top - 2) else { continue }
            // Paint the rules and the uprights, with a pixel either side for their blurred edges.
            func paint(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>) {
                for y in max(0, ys.lowerBound)...min(h - 1, ys.upperBound) {
                    for x in max(0, xs.lowerBound)...min(w - 1, xs.upperBound) where Int(p[y * w + x]) < paperLevel {
                        fill[y * w + x] = Int16(paperLevel)
                    }
                }
            }
            paint((left - 1)...(right + 1), (over.top - 1)...(over.bottom + 1))
            paint((left - 1)...(right + 1), (under.top - 1)...(under.bottom + 1))
            for x in [leftUpright, rightUpright] {
                // The upright from the column found to where it stops being one.
                var end = x
                while end + 1 < w, inside.count(where: { onUpright(end + 1, $0) }) * 10 >= inside.count * 9 { end += 1 }
                paint((x - 1)...(end + 1), (over.top - 1)...(under.bottom + 1))
            }
        }
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
