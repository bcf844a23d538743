import Foundation
import Model

/// Where a label puts a value relative to its keyword, read from the boxes: the printed lines
/// rebuilt so that each keyword line carries its value, whichever box the value was printed in.
///
/// A line whose last keyword has no value after it ("Service Tag (S/N):" at the end of a table row,
/// or alone above its value) takes a printed line that starts with a value: first on the same row,
/// to its right (a keyword in parentheses, a caption, to its left: "WD-WCC4N1234567 (SN)", or to
/// its right where it heads a table row: "(21) WHM82642"), never past another keyword on the row;
/// rows are matched by how much they overlap, so a value column set a few pixels higher or lower
/// than its label column (read by OCR before it, or drifting on a tilted label) still pairs with
/// its own row and not the next; on a tilted label rows are followed along the tilt its lines'
/// words (or its columns) show; failing that, the line just under it, starting near it (under it
/// along the tilt, on a tilted label), and last the line just over it (a caption set under its
/// value). Each value's line is used once; a line lying over it (the page read a second time, its
/// print read another way) is the keyword's value too, the two in the order they were read unless
/// one holds the other whole and more. Within one line, "VALUE (Serial No.)" names the value, its
/// closing parenthesis lost or not. A word OCR split into two boxes on one row is put together
/// first, and so is a keyword ("Serial" and "no."). `inFormat` says whether a value is in the
/// format of a maker the label names: of two readings of one value's print, that one first.
enum Layout {
    static func joined(_ given: [SerialReading], inFormat: (String) -> Bool = { _ in false }) -> [SerialReading] {
        withoutActuallyEscaping(inFormat) { inFormat in KeywordPairing(given, inFormat: inFormat).joined() }
    }

    /// `text`'s letters and digits, what a value's print holds whatever OCR read between them.
    static func lettersAndDigits(_ text: String) -> String { text.filter { $0.isLetter || $0.isNumber } }

    /// Whether `text` is a speck read as a mark, fewer than two letters or digits ("i", "v"): no
    /// value, and no line between others.
    static func isSpeck(_ text: String) -> Bool { lettersAndDigits(text).count < 2 }

    /// `readings` with each word OCR split into two boxes put together again: a box that starts
    /// within a sixth of its height after another ends, on the same row, continues it; rows are
    /// followed along the print's `tilt` (on a tilted label, the value of the row above ends
    /// beside the next row's start). A space between words is wider than that; but a piece too
    /// short to be a value (three letters or digits, no keyword) followed within half its height
    /// by a code is the start of that code, split where OCR saw a space. The two boxes of one
    /// word are of much the same height: a box not half as high as the other is other print
    /// beside it (a speck of a smaller caption).
    static func mended(_ readings: [SerialReading], tilt: Double = 0) -> [SerialReading] {
        func code(_ text: String) -> Bool {
            !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                && Keywords.fields(in: text).allSatisfy { $0.kind == .none }
        }
        var out = readings
        var dropped = Set<Int>()
        for i in out.indices where !out[i].isBarcode && out[i].box != nil && !dropped.contains(i) {
            while let box = out[i].box,
                let j = out.indices.first(where: { j in
                    guard j != i, !dropped.contains(j), !out[j].isBarcode, let other = out[j].box else { return false }
                    let height = max(box.height, other.height)
                    let gap = other.x - box.maxX
                    let start = out[i].value.count <= 3 && code(out[i].value) && out[j].value.count >= 3 && code(out[j].value)
                    return rowOverlap(box, other, tilt: tilt) * 3 >= 2 && gap >= -1 && min(box.height, other.height) * 2 >= height
                        && (gap * 6 <= height || start && gap * 2 <= height)
                })
            {
                out[i].value += out[j].value
                out[i].box = box.union(out[j].box!)
                out[i].readOnce.merge(out[j].readOnce) { first, _ in first }
                dropped.insert(j)
            }
        }
        return out.indices.filter { !dropped.contains($0) }.map { out[$0] }
    }

    /// How the label's print slopes: the median of its lines' own slopes (from their words), not
    /// counting lines round a barcode (the leftover ends of its bars, read as words, lie level
    /// whatever the label does); where no line shows one, the drift of its columns (lines set one
    /// under another at the same left edge drift left going down when the rows go down to the
    /// right: a label seen in perspective drifts so too, so words come first); 0 when none shows.
    static func tilt(of readings: [SerialReading]) -> Double {
        let barcodes = readings.filter(\.isBarcode).compactMap(\.box)
        let texts = readings.filter { !$0.isBarcode && $0.box != nil }
        let clear = texts.filter { line in
            let box = line.box!
            return !barcodes.contains { bars in
                bars.x < box.maxX && box.x < bars.maxX && box.maxY > bars.y - bars.height / 2 && box.y < bars.maxY + bars.height / 2
            }
        }
        var slopes = clear.compactMap(\.slope)
        if slopes.isEmpty {
            // Columns of three lines or more, followed down from their top line (a label held
            // up to about eighteen degrees off level), each line drifting the same way: a pixel
            // or two of drift between two lines is only where OCR set their boxes, and lines
            // drifting either way are centred print, not a column.
            // A column goes from one line to the next: never past a line set between the two
            // over the lower one (a title band twice as high as the rows reaching down past the
            // first row's value to the second's).
            let all = texts.map(\.box!)
            var boxes = all.sorted { $0.y < $1.y }
            while let top = boxes.first {
                var column = [top]
                boxes.removeFirst()
                while let upper = column.last,
                    let n = boxes.firstIndex(where: { lower in
                        let drop = lower.y - upper.y
                        return drop > 0 && drop * 2 >= upper.height && drop <= 3 * max(upper.height, lower.height)
                            && abs(lower.x - upper.x) * 3 <= drop
                            && !all.contains { between in
                                between.y >= upper.maxY && between.maxY <= lower.y && between.x < lower.maxX && lower.x < between.maxX
                            }
                    })
                {
                    column.append(boxes.remove(at: n))
                }
                let drifts = zip(column, column.dropFirst()).map { $1.x - $0.x }.filter { abs($0) > 2 }
                guard column.count >= 3, let bottom = column.last, drifts.allSatisfy({ $0 > 0 }) || drifts.allSatisfy({ $0 < 0 })
                else { continue }
                // Boxes' edges are a pixel either way: two pixels of drift is none.
                let drift = abs(bottom.x - top.x) <= 2 ? 0 : bottom.x - top.x
                slopes.append(-Double(drift) / Double(bottom.y - top.y))
            }
        }
        // Failing those too, the lines' rough slopes, where two lines or more show one and all
        // slope the same way, by three degrees or more at the median (a level label's rough
        // slopes are a pixel either way, both ways).
        if slopes.isEmpty {
            let rough = clear.compactMap(\.roughSlope).sorted()
            if rough.count >= 2, rough.allSatisfy({ $0 > 0 }) || rough.allSatisfy({ $0 < 0 }),
                abs(median(rough)) >= 0.05
            {
                slopes = rough
            }
        }
        slopes.sort()
        guard !slopes.isEmpty else { return 0 }
        return median(slopes)
    }

    private static func median(_ sorted: [Double]) -> Double {
        (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    }

    /// How much two boxes' print shares a row, along the print's `tilt`: the overlap of the rows
    /// they cover, as a part of the shorter one's.
    static func rowOverlap(_ a: Box, _ b: Box, tilt: Double) -> Double {
        let row = level(a, tilt: tilt)
        let other = level(b, tilt: tilt)
        let height = max(1, min(row.bottom - row.top, other.bottom - other.top))
        return (min(row.bottom, other.bottom) - max(row.top, other.top)) / height
    }

    /// The rows a box's print covers, measured across the print's `tilt`: its centre moved back
    /// along the slope to the left edge of the frame, and its height less what the tilt added
    /// (a box round tilted print is taller than the print by its width times the slope).
    static func level(_ box: Box, tilt: Double) -> (top: Double, bottom: Double) {
        let height = max(Double(box.height) / 3, Double(box.height) - Double(box.width) * abs(tilt))
        let centre = Double(box.y) + Double(box.height) / 2 - tilt * (Double(box.x) + Double(box.width) / 2)
        return (centre - height / 2, centre + height / 2)
    }

    /// Whether a reading's box is far wider than its characters could print: OCR's guess at a
    /// dark band or a rule across the label ("Sn" boxed 776 pixels wide and 23 high), no keyword.
    static func stretched(_ reading: SerialReading) -> Bool {
        guard let box = reading.box else { return false }
        return box.width > 3 * max(1, box.height) * max(1, reading.value.count)
    }

    /// The keyword of a caption, a keyword in parentheses alone in its box: "(S/N)", "(Service Tag
    /// (S/N))", "(21)", and as OCR gives them with a parenthesis lost or doubled.
    static func caption(_ text: String) -> String? {
        if text.hasPrefix("("), text.hasSuffix(")"), text.count > 2 {
            let inner = String(text.dropFirst().dropLast())
            let bare = inner.filter { $0 != "(" && $0 != ")" }
            return [inner, bare, text].first(where: awaiting)
        }
        // OCR may lose either parenthesis, with what it held beside it ("(Serial" for
        // "(Serial #)"): then the box must hold nothing but the keyword.
        // Balanced, none was lost: "Serial Number (S/N)" is a keyword like any other, heading the
        // value to its right in a table.
        guard text.hasPrefix("(") || text.hasSuffix(")"), text.count > 2,
            text.filter({ $0 == "(" }).count != text.filter({ $0 == ")" }).count
        else { return nil }
        let bare = text.filter { $0 != "(" && $0 != ")" }
        return onlyKeywords(bare) ? bare : nil
    }

    /// A line that is one value and then a keyword with nothing after it, split into the two:
    /// "ZLU0BRGB SER. NO." is ("ZLU0BRGB", "SER. NO."). Nil when the line does not start with a
    /// single word before the keyword (a value is one word; "MFG DATE 2023 SERIAL" is not one),
    /// or with a value OCR split in two at a space in widely spaced print ("WD-WMC4NEP 3UKEP SER.
    /// NO.": `Tokens.runOn`).
    static func trailingKeyword(_ text: String) -> (value: String, keyword: String)? {
        let words = text.split(separator: " ")
        guard words.count >= 2 else { return nil }
        var splits = [(value: String(words[0]), rest: words.dropFirst())]
        if words.count >= 3 {
            let split = Tokens.runOn(words[0] + " " + words[1])
            if split.count == 1 { splits.insert((String(split[0]), words.dropFirst(2)), at: 0) }
        }
        for (value, rest) in splits {
            let keyword = rest.joined(separator: " ")
            if valueShaped(value), onlyKeywords(keyword) {
                return (value, keyword)
            }
        }
        return nil
    }

    /// Whether a line's box is set over or under a keyword's from the same left edge (within three
    /// of the keyword's heights), or centred on the same axis (a centred label: "S/N" over
    /// "OM48XG849532").
    static func aligned(_ line: Box, with keyword: Box) -> Bool {
        let height = max(1, keyword.height)
        return abs(line.x - keyword.x) <= 3 * height
            || abs((line.x + line.maxX) - (keyword.x + keyword.maxX)) <= 2 * max(height, line.height)
    }

    /// Whether `value`, one word, is shaped like a value: `least` characters at least, with a
    /// digit, or six capitals or more (Lenovo's "PFCLPMRD").
    static func valueShaped(_ value: String, least: Int = 4) -> Bool {
        value.count >= least
            && (value.contains(where: \.isNumber) || (value.count >= 6 && value.allSatisfy { $0.isLetter && $0.isUppercase }))
    }

    /// The barcodes (indices into `readings`) captioned with a field's keyword, and the kind of
    /// field it names: a line of keywords alone ("FW", "P/N", "SERIAL") set just over the bars,
    /// from their left edge or centred over them, and no nearer to a barcode over it (a caption
    /// set under its own barcode) unless beside that code's digits; or just before the bars on
    /// their row. A barcode under a keyword with its value beside it is captioned by none.
    static func captions(_ readings: [SerialReading]) -> [Int: Keywords.Kind] {
        let kinds = captionKinds(readings)
        return captionLines(readings, kinds: kinds).mapValues { kinds[$0]! }
    }

    /// The lines that may caption a barcode, with the kind of field each names: keywords alone,
    /// bare or in brackets ("(Serial Nbr)"), and not read so where the page read again has them
    /// with a value ("MODEL:" lying over "MODEL: MZ-V8P1T0B" on a tilted label).
    static func captionKinds(_ readings: [SerialReading]) -> [Int: Keywords.Kind] {
        let texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        return Dictionary(
            uniqueKeysWithValues: texts.compactMap { line -> (Int, Keywords.Kind)? in
                let value = readings[line].value
                let box = readings[line].box!
                guard let keywords = onlyKeywords(value) ? value : Layout.caption(value),
                    !texts.contains(where: { m in m != line && readings[m].box!.intersectionArea(box) * 2 > box.area }),
                    let kind = Keywords.fields(in: keywords).last?.kind, kind == .serial || kind == .other
                else { return nil }
                return (line, kind)
            })
    }

    /// The line that captions each barcode (both indices into `readings`), of the lines `kinds`
    /// says may caption one.
    static func captionLines(_ readings: [SerialReading], kinds caption: [Int: Keywords.Kind]) -> [Int: Int] {
        let texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        let bars = readings.indices.filter { readings[$0].isBarcode && readings[$0].box != nil }
        var out: [Int: Int] = [:]
        for k in bars {
            let code = readings[k].box!
            // The nearest line over the bars, reaching over them; a word in lower case that is
            // no keyword ("Model" is one) is noise OCR read there ("ey" on a noisy Kingston's
            // bars, under their caption "SN").
            let over = texts.filter { j in
                let box = readings[j].box!
                return box.maxY <= code.y + box.height / 2 && box.x < code.maxX && box.maxX > code.x
                    && (caption[j] != nil || !Tokens.lowerCaseWord(readings[j].value))
            }.max { readings[$0].box!.maxY < readings[$1].box!.maxY }
            if let j = over, caption[j] != nil {
                let box = readings[j].box!
                let gap = code.y - box.maxY
                // Nearer the bars of another barcode ending over it: that one's caption, unless
                // the line printed with that code reaches down beside it (the caption is set on
                // the row of the code's digits, over its own bars).
                let above = bars.contains { m in
                    guard m != k, let upper = readings[m].box, upper.maxY <= box.y + box.height / 2, box.y - upper.maxY < gap,
                        upper.x < box.maxX, box.x < upper.maxX
                    else { return false }
                    return !texts.contains { t in
                        isPrinted(readings[t], with: readings[m]) && readings[t].box!.y < box.maxY && readings[t].box!.maxY > box.y
                    }
                }
                // Set from the bars' left edge, or centred over them: a keyword over the
                // middle of the bars, its value lost, heads a row of the table above ("MDL:").
                let edge = abs(box.x - code.x) <= 2 * box.height
                let centred = abs((box.x + box.maxX) - (code.x + code.maxX)) <= 4 * box.height
                if gap <= 2 * box.height, !above, edge || centred { out[k] = j }
            }
            let before = caption.keys.sorted().first { j in
                let box = readings[j].box!
                let centre = box.y + box.height / 2
                return centre > code.y && centre < code.maxY && box.maxX <= code.x + box.height && code.x - box.maxX <= 4 * box.height
            }
            if out[k] == nil, let j = before { out[k] = j }
        }
        return out
    }

    /// Whether `line` is printed with `code`: it reads as the code (letters and digits, OCR's
    /// look-alikes as one) and lies across its bars, just under or over them.
    static func isPrinted(_ line: SerialReading, with code: SerialReading) -> Bool {
        guard let box = line.box, let bars = code.box, isBeside(box, bars: bars) else { return false }
        return OCRConfusion.fold(lettersAndDigits(line.value)) == OCRConfusion.fold(lettersAndDigits(code.value))
    }

    /// Whether the line `box` lies across the bars `bars`, just under or over them: two of the
    /// line's heights at most, where a code's human-readable line is printed.
    static func isBeside(_ box: Box, bars: Box) -> Bool {
        box.x < bars.maxX && box.maxX > bars.x && max(box.y - bars.maxY, bars.y - box.maxY) <= 2 * box.height
    }

    /// The values (folded) of the printed lines set apart from every barcode's bars: not across
    /// the bars just under or over them (two of the line's heights at most, no other line
    /// between, a speck of one letter or digit no line), where a code's human-readable line is
    /// printed, on no reading of that value. None where a barcode has no box that bounds it
    /// (`Box.codeAtLeast` pixels each way at least): nothing then says where its line would be;
    /// nor lines read `unplaced`.
    static func apartFromBars(_ readings: [SerialReading]) -> Set<String> {
        let bars = readings.filter(\.isBarcode).compactMap(\.box)
        guard !bars.isEmpty, bars.count == readings.count(where: \.isBarcode),
            bars.allSatisfy({ min($0.width, $0.height) >= Box.codeAtLeast })
        else { return [] }
        let placed = readings.filter { !$0.isBarcode && !$0.unplaced }
        let lines = placed.filter { !isSpeck($0.value) }.compactMap(\.box)
        func across(_ box: Box, _ code: Box) -> Bool { box.x < code.maxX && box.maxX > code.x }
        // Whether `box` is the line nearest the bars `code`, just under or over them.
        func atBars(_ box: Box, _ code: Box) -> Bool {
            guard isBeside(box, bars: code) else { return false }
            let (top, bottom) = box.y >= code.maxY ? (code.maxY, box.y) : (box.maxY, code.y)
            guard top < bottom else { return true }
            return !lines.contains { other in
                other != box && across(other, code) && (top..<bottom).contains(other.y + other.height / 2)
            }
        }
        var apart = Set<String>()
        var near = Set<String>()
        for line in placed {
            guard let box = line.box else { continue }
            let values = Tokens.runOn(line.value).map { OCRConfusion.fold(Tokens.withOCRSymbols(String($0))) }
            if bars.contains(where: { atBars(box, $0) }) { near.formUnion(values) } else { apart.formUnion(values) }
        }
        return apart.subtracting(near)
    }

    /// Whether `text` opens with a field's name the keywords do not know, a word of two to twelve
    /// letters and a colon, and has a value after it: "PBA: J78511-301", "Input: 100-240V".
    static func namesItsField(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard words.count >= 2, let name = words.first, name.last == ":" else { return false }
        return (2...12).contains(name.count - 1) && name.dropLast().allSatisfy(\.isLetter)
    }

    /// Whether `text` is keywords alone, the last with nothing after it ("SER. NO.", "Serial").
    static func onlyKeywords(_ text: String) -> Bool {
        awaiting(text) && Keywords.fields(in: text).allSatisfy { $0.kind != .none }
    }

    /// The keywords of a line that is keywords alone, the last a serial's, and then marks with no
    /// digit that no serial could be ("Serial No ii", "Serial No fete": the edge of the box a
    /// caption is printed in, or bars beside it, read as letters): the line is that keyword
    /// waiting for its value. Nil for any other line.
    static func keywordBeforeNoValue(_ text: String) -> String? {
        guard let last = Keywords.fields(in: text).last, last.kind == .serial, !last.value.isEmpty,
            !last.value.contains(where: { $0.isNumber }), Tokens.serialToken(last.value) == nil,
            let end = text.range(of: last.value, options: .backwards)?.lowerBound
        else { return nil }
        let keyword = String(text[..<end]).trimmingCharacters(in: .whitespaces)
        return onlyKeywords(keyword) ? keyword : nil
    }

    /// Whether `text` ends in a keyword with nothing after it.
    static func awaiting(_ text: String) -> Bool {
        Keywords.fields(in: text).last.map { $0.kind != .none && $0.value.isEmpty } == true
    }
}
