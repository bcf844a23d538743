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
        let readings = mended(given, tilt: tilt(of: given))
        var out = readings
        let texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        // The keyword lines waiting for a value, with the keyword as it is to be read.
        var waiting: [Int: (keyword: String, caption: Bool)] = [:]
        for i in texts where !stretched(readings[i]) {
            let value = readings[i].value
            if let keyword = caption(value) {
                waiting[i] = (keyword, true)
            } else if awaiting(value) {
                waiting[i] = (value, false)
            }
        }
        var taken = Set<Int>()
        // A keyword OCR boxed in two on its row ("Serial" and "no.", a gap wider than a space
        // between them) is one keyword: the second box is the rest of it, not its value. So is a
        // keyword set just before another on its row ("MFG" and "Date:"): the first has no value
        // of its own to look for under it.
        for i in waiting.keys.sorted() where waiting[i].map({ !$0.caption }) ?? false {
            let box = readings[i].box!
            let rest = texts.first { j in
                guard j != i, waiting[j].map({ !$0.caption }) ?? true, !taken.contains(j), let other = readings[j].box else { return false }
                let gap = other.x - box.maxX
                return gap >= -box.height / 2 && gap <= 2 * max(box.height, other.height) && rowOverlap(box, other, tilt: 0) * 2 >= 1
                    && awaiting(waiting[i]!.keyword + " " + readings[j].value)
            }
            if let j = rest {
                waiting[i]!.keyword += " " + readings[j].value
                out[i].value = waiting[i]!.keyword
                waiting[j] = nil
                taken.insert(j)
            }
        }
        // A value has two letters or digits at least: a lone mark beside a keyword ("v", a
        // speck read as a letter) is not what it names. Nor is a line that names its own field
        // with a word this extractor does not know ("PBA: J78511-301" under a caption "Serial"
        // set under its value).
        let values = texts.filter {
            let value = readings[$0].value
            return waiting[$0] == nil && !taken.contains($0) && Keywords.fields(in: value).first?.kind == Keywords.Kind.none
                && value.filter { $0.isLetter || $0.isNumber }.count >= 2 && !namesItsField(value)
        }
        var partner: [Int: Int] = [:]
        // A keyword read twice in one place (the page read a second time, the keyword alike and
        // its value not) is one keyword: the first takes the value and the other reading of it,
        // and the second goes. Alike up to case and marks: "Model" and "Model:" are one keyword,
        // and the second, its row's value taken, does not take the line under it.
        func words(_ keyword: String) -> String { keyword.uppercased().filter { $0.isLetter || $0.isNumber || $0 == " " } }
        for i in waiting.keys.sorted() {
            let box = readings[i].box!
            if waiting.keys.contains(where: {
                $0 < i && words(readings[$0].value) == words(readings[i].value) && readings[$0].box!.intersectionArea(box) * 2 > box.area
            }) {
                waiting[i] = nil
                taken.insert(i)
            }
        }
        // So is a keyword read alone where another reading of the same ink has it with its value
        // ("MODEL" over "MODEL EYG-0671L", the line read at another size): it has its value, and
        // takes none from another row ("5207286608" under it is the value of the "SER. NO" after
        // it).
        for i in waiting.keys.sorted() where !waiting[i]!.caption {
            let box = readings[i].box!
            let keyword = readings[i].value.uppercased()
            if texts.contains(where: { k in
                guard k != i, waiting[k] == nil, let other = readings[k].box else { return false }
                let line = readings[k].value.uppercased()
                return line.hasPrefix(keyword + " ") && !Keywords.fields(in: line).contains { $0.value.isEmpty }
                    && other.intersectionArea(box) * 2 > box.area
            }) {
                waiting[i] = nil
            }
        }
        // A serial's value holds something a serial could be (`Tokens.serialToken`): no word in
        // lower case, which is the rest of the keyword OCR garbled ("Ser:" "clal" "Number:"
        // before the value of "Serial Number:"), nor a title ("WD Blue 1TB" before a caption on
        // a tilted label, whose value is the barcode under it). Another field's may be any
        // ("ly/ly/Oy" of "Warranty:").
        let serialKeywords = Set(waiting.keys.filter { Keywords.fields(in: waiting[$0]!.keyword).last?.kind == .serial })
        func fits(_ keyword: Int, _ value: Int) -> Bool {
            !serialKeywords.contains(keyword) || Tokens.serialToken(readings[value].value) != nil
        }
        let tilt = tilt(of: readings)
        // Same row first, best overlap first.
        var pairs: [(keyword: Int, value: Int, overlap: Double, gap: Int)] = []
        for (i, wait) in waiting {
            let box = readings[i].box!
            for j in values where fits(i, j) {
                let other = readings[j].box!
                let overlap = rowOverlap(box, other, tilt: tilt)
                guard overlap >= 1.0 / 3 else { continue }
                // A table's value column sits past its longest keyword: "Express Service
                // Code:" puts a short keyword's value some twenty heights away.
                let reach = 24 * max(box.height, other.height)
                // A caption names the value to its left; in a table, "(21)" may head its row too.
                let before = box.x - other.maxX
                let after = other.x - box.maxX
                if wait.caption, before >= -box.height / 2, before <= 8 * max(box.height, other.height) {
                    pairs.append((i, j, overlap, before))
                } else if after >= -box.height / 2, after <= reach,
                    // Never past another keyword on the row: two fields on one row ("MFG Date:
                    // 2023.09  Serial Nbr: SQJK...") each have their own.
                    !waiting.keys.contains(where: { k in
                        guard k != i, let between = readings[k].box else { return false }
                        return between.x >= box.maxX && between.maxX <= other.x && rowOverlap(between, other, tilt: tilt) >= 1.0 / 3
                    })
                {
                    pairs.append((i, j, overlap, after))
                }
            }
        }
        // Ties go to the keyword, then the value, read first: the same readings pair alike in
        // every run.
        for pair in pairs.sorted(by: { ($0.overlap, -$0.gap, -$0.keyword, -$0.value) > ($1.overlap, -$1.gap, -$1.keyword, -$1.value) })
        where partner[pair.keyword] == nil && !taken.contains(pair.value) {
            partner[pair.keyword] = pair.value
            taken.insert(pair.value)
        }
        // Then the line just under a keyword that found none on its row, unless the keyword
        // ends a line that opens with its value ("PFCLPMRD sN": a caption OCR read as one line).
        for (i, _) in waiting.sorted(by: { $0.key < $1.key }) where partner[i] == nil && trailingKeyword(readings[i].value) == nil {
            let box = readings[i].box!
            let height = max(1, box.height)
            let below = values.filter { j in
                guard !taken.contains(j), fits(i, j) else { return false }
                let other = readings[j].box!
                // A caption is often set smaller than its value: the gap is measured in the
                // larger of the two, up to twice its height (a caption OCR boxed only half as
                // high as it is printed, "SER NO" 7 pixels high, 22 above its 13-pixel value).
                let larger = max(height, other.height)
                // Under it, set from the same left edge, or centred on the same axis; never
                // past another keyword set between them ("SN" between "VID:", its value lost,
                // and the serial under "SN").
                guard aligned(other, with: box) else { return false }
                let past = waiting.keys.contains { m in
                    guard m != i, let mid = readings[m].box else { return false }
                    return mid.y >= box.maxY - height / 2 && mid.maxY <= other.y + other.height / 2 && aligned(mid, with: box)
                }
                if past { return false }
                if other.y > box.y + height / 2 && other.y - box.maxY <= larger * 2 { return true }
                // On a tilted label a line's box is as high as its print and its slope across
                // it: a value longer than its caption starts above the caption's middle (the
                // value's box 75 high round 12 degrees of slope). Along the tilt it is under.
                guard tilt != 0 else { return false }
                let (caption, value) = (level(box, tilt: tilt), level(other, tilt: tilt))
                let rows = max(caption.bottom - caption.top, value.bottom - value.top)
                return value.top > (caption.top + caption.bottom) / 2 && value.top - caption.bottom <= 2 * rows
            }.min { readings[$0].box!.y < readings[$1].box!.y }
            if let j = below {
                partner[i] = j
                taken.insert(j)
            }
        }
        // Last, a keyword that found nothing to its right or under it takes the value just
        // before it on its row: a label that prints its keyword after the value, bare
        // ("FDO4551MA2D SERIAL"), as a caption without its parentheses.
        for (i, _) in waiting.sorted(by: { $0.key < $1.key }) where partner[i] == nil {
            let box = readings[i].box!
            let before = values.filter { j in
                guard !taken.contains(j), fits(i, j) else { return false }
                let other = readings[j].box!
                let gap = box.x - other.maxX
                return rowOverlap(box, other, tilt: tilt) >= 1.0 / 3 && gap >= -box.height / 2 && gap <= 8 * max(box.height, other.height)
            }.max { readings[$0].box!.maxX < readings[$1].box!.maxX }
            if let j = before {
                partner[i] = j
                taken.insert(j)
            }
        }
        // Last of all, the line just over a serial's keyword, set from the same left edge or
        // centred on the same axis: a caption set under its value, as a barcode's human-readable
        // line is captioned ("ZRDFPDPC" over a smaller "S/N", the next line another field). Only
        // the next line up, no other print between (on a tilted label whose value OCR boxed
        // beside its caption, the title two lines up is not it), and only a serial's (a MAC's
        // keyword whose value was lost takes no serial over it for a MAC). A caption is keywords
        // alone: a line that opens with a value names that one ("WD-WMC4N0WA3300 SER. NO."). The
        // line is one value that looks like a serial: a keyword over a barcode with no printed
        // value has another field over it, its keyword misread ("Nut: 230V" for "Input: 230V").
        for (i, wait) in waiting.sorted(by: { $0.key < $1.key })
        where partner[i] == nil && (wait.caption || onlyKeywords(wait.keyword)) && serialKeywords.contains(i) {
            let box = readings[i].box!
            let height = max(1, box.height)
            let next = texts.filter { j in
                guard j != i, let other = readings[j].box else { return false }
                return other.maxY < box.y + height / 2 && box.y - other.maxY <= max(height, other.height) && aligned(other, with: box)
            }.max { readings[$0].box!.maxY < readings[$1].box!.maxY }
            if let j = next, values.contains(j), !taken.contains(j), case let words = Tokens.runOn(readings[j].value), words.count == 1,
                case let value = Tokens.withOCRSymbols(String(words[0])), valueShaped(value, least: 5), Tokens.codeCharacters(value),
                !NotSerial.check(value)
            {
                partner[i] = j
                taken.insert(j)
            }
        }
        /// `keyword` with the value line `j`, read where `j` was.
        func valued(_ keyword: String, _ j: Int, box: Box?, readOnce: [String: String]) -> SerialReading {
            SerialReading(value: keyword + " " + readings[j].value, symbology: nil, place: readings[j].place, box: box, readOnce: readOnce)
        }
        func pairing(_ i: Int, _ j: Int) -> SerialReading {
            valued(
                waiting[i]!.keyword, j, box: readings[i].box!.union(readings[j].box!),
                readOnce: readings[i].readOnce.merging(readings[j].readOnce) { first, _ in first })
        }
        // The page read a second time (sharpened, or its contrast stretched) can read the
        // value's print another way, in a line lying over the value's own: that line is the
        // keyword's value too, read another way ("285974" and "OM80FK285974" under "SN").
        var alternates: [Int: [Int]] = [:]
        // Keywords in reading order, so that one line lying over two values goes to the first.
        for (i, j) in partner.sorted(by: { $0.key < $1.key }) {
            let box = readings[j].box!
            // Lying over it: as high as it, within half as much again, over half of each one's
            // height and half the narrower one's width (a box tesseract drew round a whole tilted
            // line above it is three times as high, and not another reading of the value).
            let over = values.filter { k in
                guard k != j, !taken.contains(k) else { return false }
                let other = readings[k].box!
                let (low, high) = (min(box.height, other.height), max(box.height, other.height))
                let down = min(box.maxY, other.maxY) - max(box.y, other.y)
                let across = min(box.maxX, other.maxX) - max(box.x, other.x)
                return high * 2 <= low * 3 && down * 2 >= high && across * 2 >= min(box.width, other.width)
            }
            // A reading that holds the first reading whole, and more, read more of the print: it
            // comes first. Then one in the format of the maker the label names (`inFormat`), before
            // one in none: "5CG0087LYE" on an HP label before "5CGO0087LYE", a 0 read twice, read
            // first. Otherwise they come in the order they were read (the first reading first): a
            // second reading that holds only another second reading whole ("PF913412Z",
            // "PF913412" of the row read at other sizes, beside "PF91341Z" read first) is no
            // better read than the first. A reading boxed under two thirds as wide as the widest
            // is part of the print read alone ("KING." inside "SKN54590", a motion-blurred page
            // sharpened): it comes after those that span it.
            func body(_ k: Int) -> String { lettersAndDigits(readings[k].value) }
            let firstRead = ([j] + over).min()!
            func holdsFirst(_ k: Int) -> Bool { k != firstRead && body(k) != body(firstRead) && body(k).contains(body(firstRead)) }
            let widest = ([j] + over).map { readings[$0].box!.width }.max()!
            func spans(_ k: Int) -> Bool { readings[k].box!.width * 3 >= widest * 2 }
            // The whole line, its spaces out ("FVF 7WX4ESFUF" is Apple's twelve characters).
            func formatted(_ k: Int) -> Bool { inFormat(Tokens.withOCRSymbols(readings[k].value.filter { !$0.isWhitespace })) }
            func rank(_ k: Int) -> (Int, Int, Int, Int) { (holdsFirst(k) ? 1 : 0, spans(k) ? 1 : 0, formatted(k) ? 1 : 0, -k) }
            let group = ([j] + over).sorted { rank($0) > rank($1) }
            alternates[i] = Array(group.dropFirst())
            taken.formUnion(over)
            out[i] = pairing(i, group[0])
        }
        // Within one line: "VALUE (Serial No.)" names the value before it; so does a keyword
        // printed bare after its value where OCR took the two for one line ("WD-WMC4NOWA3300 SER.
        // NO."), when nothing to its right or under it was its value.
        for i in texts where !taken.contains(i) && partner[i] == nil {
            let text = out[i].value
            let keyword: String
            let value: String
            if let open = text.lastIndex(of: "("), open > text.startIndex,
                case let inner = String(text[open...].dropFirst()),
                // The closing parenthesis may be lost ("WD-WMC4NN26FXM8 (Serial").
                text.hasSuffix(")") || !inner.contains(")") && awaiting(inner)
            {
                keyword = text.hasSuffix(")") ? String(inner.dropLast()) : inner
                value = text[..<open].trimmingCharacters(in: .whitespaces)
            } else if waiting[i] != nil, let split = trailingKeyword(text) {
                (value, keyword) = split
            } else {
                continue
            }
            guard awaiting(keyword), Keywords.fields(in: value).allSatisfy({ $0.kind == .none }) else { continue }
            out[i].value = keyword + " " + value
        }
        // A line read with its keyword and value inline ("SERIAL PFS3F5SLOW") and a value line
        // lying over the value's end (the page read again, at another size: "PF3F5LOW"): that is
        // the keyword's value too, read another way.
        var inline: [Int: (keyword: String, fuller: [Int], lines: [Int])] = [:]
        for i in texts where !taken.contains(i) && waiting[i] == nil && partner[i] == nil {
            guard let field = Keywords.fields(in: out[i].value).last, field.kind == .serial, !field.value.isEmpty,
                let box = out[i].box, let at = out[i].value.range(of: field.value, options: [.backwards, .caseInsensitive])
            else { continue }
            let keyword = out[i].value[..<at.lowerBound].trimmingCharacters(in: .whitespaces)
            let over = values.filter { k in
                guard !taken.contains(k), let other = readings[k].box else { return false }
                let middle = other.y + other.height / 2
                return middle >= box.y && middle <= box.maxY && other.height <= box.height && other.x > box.x + box.height
                    && abs(other.maxX - box.maxX) <= box.height
            }
            guard !keyword.isEmpty, !over.isEmpty else { continue }
            // One that holds the inline value whole, and more, read more of the print: it comes
            // first, as a keyword's value read two ways does ("JAE4076PVR6" over the end of
            // "Serial no. JAE4076PVR").
            let inlineValue = lettersAndDigits(field.value)
            let fuller = over.filter { k in
                let body = lettersAndDigits(readings[k].value)
                return body != inlineValue && body.contains(inlineValue)
            }
            inline[i] = (keyword, fuller, over.filter { !fuller.contains($0) })
            taken.formUnion(over)
        }
        return out.indices.filter { !taken.contains($0) }.flatMap { i in
            func lines(_ found: [Int], after keyword: String) -> [SerialReading] {
                found.map { valued(keyword, $0, box: readings[$0].box, readOnce: readings[$0].readOnce) }
            }
            let fuller: [SerialReading] = inline[i].map { lines($0.fuller, after: $0.keyword) } ?? []
            let others: [SerialReading] = (alternates[i] ?? []).map { pairing(i, $0) }
            let rest: [SerialReading] = inline[i].map { lines($0.lines, after: $0.keyword) } ?? []
            return fuller + [out[i]] + others + rest
        }
    }

    /// `text`'s letters and digits, what a value's print holds whatever OCR read between them.
    static func lettersAndDigits(_ text: String) -> String { text.filter { $0.isLetter || $0.isNumber } }

    /// `readings` with each word OCR split into two boxes put together again: a box that starts
    /// within a sixth of its height after another ends, on the same row ("G8WVZM7W8SJ" and "H",
    /// three pixels apart at 21 high), continues it; rows are followed along the print's `tilt`
    /// (on a label ten degrees off level, the value of the row above ends beside the next row's
    /// start, its box reaching down past that row's top). A space between words is wider than
    /// that; but a piece too short to be a value (three letters or digits, no keyword) followed
    /// within half its height by a code is the start of that code, split where OCR saw a space
    /// ("NT1" and "997478916"). The two boxes of one word are of much the same height: a box not
    /// half as high as the other is other print beside it (a small caption's speck, "Ss", two
    /// pixels before a value printed three times its height).
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
    /// set under its own barcode); or just before the bars on their row. A barcode under a
    /// keyword with its value beside it is captioned by none.
    static func captions(_ readings: [SerialReading]) -> [Int: Keywords.Kind] {
        let texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        let bars = readings.indices.filter { readings[$0].isBarcode && readings[$0].box != nil }
        // The lines that may caption a barcode, with the kind of field each names: keywords
        // alone, bare or in brackets ("(Serial Nbr)"), and not read so where the page read again
        // has them with a value ("MODEL:" lying over "MODEL: MZ-V8P1T0B" on a tilted label).
        let caption = Dictionary(
            uniqueKeysWithValues: texts.compactMap { line -> (Int, Keywords.Kind)? in
                let value = readings[line].value
                let box = readings[line].box!
                guard let keywords = onlyKeywords(value) ? value : Layout.caption(value),
                    !texts.contains(where: { m in m != line && readings[m].box!.intersectionArea(box) * 2 > box.area }),
                    let kind = Keywords.fields(in: keywords).last?.kind, kind == .serial || kind == .other
                else { return nil }
                return (line, kind)
            })
        var out: [Int: Keywords.Kind] = [:]
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
            if let j = over, let kind = caption[j] {
                let box = readings[j].box!
                let gap = code.y - box.maxY
                // Nearer the bars of another barcode ending over it: that one's caption.
                let above = bars.contains { m in
                    guard m != k, let upper = readings[m].box else { return false }
                    return upper.maxY <= box.y + box.height / 2 && box.y - upper.maxY < gap && upper.x < box.maxX && box.x < upper.maxX
                }
                // Set from the bars' left edge, or centred over them: a keyword over the
                // middle of the bars, its value lost, heads a row of the table above ("MDL:").
                let edge = abs(box.x - code.x) <= 2 * box.height
                let centred = abs((box.x + box.maxX) - (code.x + code.maxX)) <= 4 * box.height
                if gap <= 2 * box.height, !above, edge || centred { out[k] = kind }
            }
            let before = caption.keys.sorted().first { j in
                let box = readings[j].box!
                let centre = box.y + box.height / 2
                return centre > code.y && centre < code.maxY && box.maxX <= code.x + box.height && code.x - box.maxX <= 4 * box.height
            }
            if out[k] == nil, let j = before { out[k] = caption[j] }
        }
        return out
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

    /// Whether `text` ends in a keyword with nothing after it.
    static func awaiting(_ text: String) -> Bool {
        Keywords.fields(in: text).last.map { $0.kind != .none && $0.value.isEmpty } == true
    }
}
