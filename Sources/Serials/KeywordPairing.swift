import Foundation
import Model

/// `Layout.joined`, pass by pass over the state the passes share: the keywords found and put
/// together, the lines that can be values, then each way a keyword takes its value, in the order
/// they are tried (on its row, under it, before it on its row, over it), the other readings of a
/// value's print, a value named within its own line, and an inline value's other readings.
final class KeywordPairing {
    let readings: [SerialReading]
    /// The printed lines with a box.
    let texts: [Int]
    let tilt: Double
    let inFormat: (String) -> Bool
    /// The lines as rebuilt so far.
    var out: [SerialReading]
    /// The keyword lines waiting for a value, with the keyword as it is to be read.
    var waiting: [Int: (keyword: String, caption: Bool)] = [:]
    /// The lines used: a keyword's rest, a keyword read twice, a value given, another reading of one.
    var taken = Set<Int>()
    /// Each keyword line's value line.
    var partner: [Int: Int] = [:]
    /// The lines that can be a value.
    var values: [Int] = []
    /// The keyword lines that name a serial.
    var serialKeywords = Set<Int>()
    /// Each keyword's value read other ways, best first.
    var alternates: [Int: [Int]] = [:]
    /// A line with its keyword and value inline, and the value lines lying over its value.
    var inline: [Int: (keyword: String, fuller: [Int], lines: [Int])] = [:]

    /// The passes a test may turn off, to show what each one does.
    enum Pass: String, CaseIterable, Sendable {
        case joinSplitKeywords, dropKeywordsReadTwice, dropKeywordsReadWithTheirValue
        case pairOnRows, pairUnder, pairBefore, pairOver
        case addOtherReadingsOfValues, nameValuesWithinLines, addInlineValuesReadAgain
    }

    /// The passes left out (for tests; the extractor runs every one).
    let without: Set<Pass>

    init(_ given: [SerialReading], inFormat: @escaping (String) -> Bool, without: Set<Pass> = []) {
        self.without = without
        let readings = Layout.mended(given, tilt: Layout.tilt(of: given))
        self.readings = readings
        out = readings
        texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        tilt = Layout.tilt(of: readings)
        self.inFormat = inFormat
    }

    /// Every pass, in order; the lines rebuilt.
    func joined() -> [SerialReading] {
        findKeywords()
        run(.joinSplitKeywords, joinSplitKeywords)
        collectValues()
        run(.dropKeywordsReadTwice, dropKeywordsReadTwice)
        run(.dropKeywordsReadWithTheirValue, dropKeywordsReadWithTheirValue)
        markSerialKeywords()
        run(.pairOnRows, pairOnRows)
        run(.pairUnder, pairUnder)
        run(.pairBefore, pairBefore)
        run(.pairOver, pairOver)
        run(.addOtherReadingsOfValues, addOtherReadingsOfValues)
        run(.nameValuesWithinLines, nameValuesWithinLines)
        run(.addInlineValuesReadAgain, addInlineValuesReadAgain)
        return result()
    }

    private func run(_ pass: Pass, _ body: () -> Void) {
        if !without.contains(pass) { body() }
    }

    /// The keyword lines: a caption, or a line that ends waiting for its value.
    private func findKeywords() {
        for i in texts where !Layout.stretched(readings[i]) {
            let value = readings[i].value
            if let keyword = Layout.caption(value) {
                waiting[i] = (keyword, true)
            } else if Layout.awaiting(value) {
                waiting[i] = (value, false)
            } else if let keyword = Layout.keywordBeforeNoValue(value) {
                waiting[i] = (keyword, false)
                out[i].value = keyword
            }
        }
    }

    /// A keyword boxed in two on its row, or set just before another, is one keyword.
    private func joinSplitKeywords() {
        // A keyword OCR boxed in two on its row ("Serial" and "no.", a gap wider than a space
        // between them) is one keyword: the second box is the rest of it, not its value. So is a
        // keyword set just before another on its row ("MFG" and "Date:"): the first has no value
        // of its own to look for under it.
        for i in waiting.keys.sorted() where waiting[i].map({ !$0.caption }) ?? false {
            let box = readings[i].box!
            let rest = texts.first { j in
                guard j != i, waiting[j].map({ !$0.caption }) ?? true, !taken.contains(j), let other = readings[j].box else { return false }
                let gap = other.x - box.maxX
                return gap >= -box.height / 2 && gap <= 2 * max(box.height, other.height) && Layout.rowOverlap(box, other, tilt: 0) * 2 >= 1
                    && Layout.awaiting(waiting[i]!.keyword + " " + readings[j].value)
            }
            if let j = rest {
                waiting[i]!.keyword += " " + readings[j].value
                out[i].value = waiting[i]!.keyword
                waiting[j] = nil
                taken.insert(j)
            }
        }
    }

    /// The lines that can be a value.
    private func collectValues() {
        // A value has two letters or digits at least: a lone mark beside a keyword ("v", a
        // speck read as a letter) is not what it names. Nor is a line that names its own field
        // with a word this extractor does not know ("NAME: VALUE").
        values = texts.filter {
            let value = readings[$0].value
            return waiting[$0] == nil && !taken.contains($0) && Keywords.fields(in: value).first?.kind == Keywords.Kind.none
                && !Layout.isSpeck(value) && !Layout.namesItsField(value)
        }
    }

    /// A keyword read twice in one place is one keyword.
    private func dropKeywordsReadTwice() {
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
    }

    /// A keyword read alone where another reading has it with its value takes none.
    private func dropKeywordsReadWithTheirValue() {
        // So is a keyword read alone where another reading of the same ink has it with its value
        // (the line read at another size): it has its value, and takes none from another row.
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
    }

    /// The keywords that name a serial, whose value must look like one.
    private func markSerialKeywords() {
        // A serial's value holds something a serial could be (`Tokens.serialToken`): no word in
        // lower case, which is the rest of the keyword OCR garbled ("Ser:" "clal" "Number:"
        // before the value of "Serial Number:"), nor a title ("WD Blue 1TB" before a caption on
        // a tilted label, whose value is the barcode under it). Another field's may be any
        // ("ly/ly/Oy" of "Warranty:").
        serialKeywords = Set(waiting.keys.filter { Keywords.fields(in: waiting[$0]!.keyword).last?.kind == .serial })
    }

    /// Whether line `value` can be keyword `keyword`'s value.
    private func fits(_ keyword: Int, _ value: Int) -> Bool {
        !serialKeywords.contains(keyword) || Tokens.serialToken(readings[value].value) != nil
    }

    /// A value on the keyword's row (or a caption's), the best overlap first.
    private func pairOnRows() {
        // Same row first, best overlap first.
        var pairs: [(keyword: Int, value: Int, overlap: Double, gap: Int)] = []
        for (i, wait) in waiting {
            let box = readings[i].box!
            for j in values where fits(i, j) && !isAnotherCodesLine(j, besideCaptionOf: i) {
                let other = readings[j].box!
                let overlap = Layout.rowOverlap(box, other, tilt: tilt)
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
                        return between.x >= box.maxX && between.maxX <= other.x && Layout.rowOverlap(between, other, tilt: tilt) >= 1.0 / 3
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
    }

    /// The line that captions each barcode (`Layout.captionLines`).
    private lazy var captionOf = Layout.captionLines(readings, kinds: Layout.captionKinds(readings))

    /// Whether value line `j` is printed with a barcode that keyword line `i` does not caption,
    /// where `i` captions one (`Layout.isPrinted`): a caption over its own code's bars can share
    /// its row with the line printed under the bars of the code above, and names its code, not
    /// that line.
    private func isAnotherCodesLine(_ j: Int, besideCaptionOf i: Int) -> Bool {
        guard captionOf.values.contains(i) else { return false }
        return readings.indices.contains { b in
            readings[b].isBarcode && captionOf[b] != i && Layout.isPrinted(readings[j], with: readings[b])
        }
    }

    /// The line just under a keyword that found none on its row.
    private func pairUnder() {
        // Then the line just under a keyword that found none on its row, unless the keyword
        // ends a line that opens with its value (a caption OCR read as one line with it).
        for (i, _) in waiting.sorted(by: { $0.key < $1.key }) where partner[i] == nil && Layout.trailingKeyword(readings[i].value) == nil {
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
                guard Layout.aligned(other, with: box) else { return false }
                let past = waiting.keys.contains { m in
                    guard m != i, let mid = readings[m].box else { return false }
                    return mid.y >= box.maxY - height / 2 && mid.maxY <= other.y + other.height / 2 && Layout.aligned(mid, with: box)
                }
                if past { return false }
                if other.y > box.y + height / 2 && other.y - box.maxY <= larger * 2 { return true }
                // On a tilted label a line's box is as high as its print and its slope across
                // it: a value longer than its caption starts above the caption's middle (the
                // value's box 75 high round 12 degrees of slope). Along the tilt it is under.
                guard tilt != 0 else { return false }
                let (caption, value) = (Layout.level(box, tilt: tilt), Layout.level(other, tilt: tilt))
                let rows = max(caption.bottom - caption.top, value.bottom - value.top)
                return value.top > (caption.top + caption.bottom) / 2 && value.top - caption.bottom <= 2 * rows
            }.min { readings[$0].box!.y < readings[$1].box!.y }
            if let j = below {
                partner[i] = j
                taken.insert(j)
            }
        }
    }

    /// The value just before a keyword printed after it on its row.
    private func pairBefore() {
        // Last, a keyword that found nothing to its right or under it takes the value just
        // before it on its row: a label that prints its keyword after the value, bare ("VALUE
        // SERIAL"), as a caption without its parentheses.
        for (i, _) in waiting.sorted(by: { $0.key < $1.key }) where partner[i] == nil {
            let box = readings[i].box!
            let before = values.filter { j in
                guard !taken.contains(j), fits(i, j) else { return false }
                let other = readings[j].box!
                let gap = box.x - other.maxX
                return Layout.rowOverlap(box, other, tilt: tilt) >= 1.0 / 3 && gap >= -box.height / 2
                    && gap <= 8 * max(box.height, other.height)
            }.max { readings[$0].box!.maxX < readings[$1].box!.maxX }
            if let j = before {
                partner[i] = j
                taken.insert(j)
            }
        }
    }

    /// The line just over a serial's keyword set under its value.
    private func pairOver() {
        // Last of all, the line just over a serial's keyword, set from the same left edge or
        // centred on the same axis: a caption set under its value, as a barcode's human-readable
        // line is captioned. Only the next line up, no other print between (on a tilted label whose value OCR boxed
        // beside its caption, the title two lines up is not it), and only a serial's (a MAC's
        // keyword whose value was lost takes no serial over it for a MAC). A caption is keywords
        // alone: a line that opens with a value names that one ("VALUE SER. NO."). The line is one
        // value that looks like a serial: a keyword over a barcode with no printed value has
        // another field over it, its keyword misread.
        for (i, wait) in waiting.sorted(by: { $0.key < $1.key })
        where partner[i] == nil && (wait.caption || Layout.onlyKeywords(wait.keyword)) && serialKeywords.contains(i) {
            let box = readings[i].box!
            let height = max(1, box.height)
            let next = texts.filter { j in
                guard j != i, let other = readings[j].box else { return false }
                return other.maxY < box.y + height / 2 && box.y - other.maxY <= max(height, other.height)
                    && Layout.aligned(other, with: box)
            }.max { readings[$0].box!.maxY < readings[$1].box!.maxY }
            if let j = next, values.contains(j), !taken.contains(j), case let words = Tokens.runOn(readings[j].value), words.count == 1,
                case let value = Tokens.withOCRSymbols(String(words[0])), Layout.valueShaped(value, least: 5), Tokens.codeCharacters(value),
                !NotSerial.check(value)
            {
                partner[i] = j
                taken.insert(j)
            }
        }
    }

    /// `keyword` with the value line `j`, read where `j` was.
    private func valued(_ keyword: String, _ j: Int, box: Box?, readOnce: [String: String]) -> SerialReading {
        SerialReading(value: keyword + " " + readings[j].value, symbology: nil, at: readings[j].at, box: box, readOnce: readOnce)
    }
    /// Keyword line `i` with its value line `j`, boxed round both.
    private func pairing(_ i: Int, _ j: Int) -> SerialReading {
        valued(
            waiting[i]!.keyword, j, box: readings[i].box!.union(readings[j].box!),
            readOnce: readings[i].readOnce.merging(readings[j].readOnce) { first, _ in first })
    }

    /// Lines lying over a value's own: its print read another way.
    private func addOtherReadingsOfValues() {
        // The page read a second time (sharpened, or its contrast stretched) can read the
        // value's print another way, in a line lying over the value's own: that line is the
        // keyword's value too, read another way.
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
            // one in none, whichever was read first. Otherwise they come in the order they were
            // read (the first reading first): a second reading that holds only another second
            // reading whole is no better read than the first. A reading boxed under two thirds as
            // wide as the widest is part of the print read alone: it comes after those that span it.
            func body(_ k: Int) -> String { Layout.lettersAndDigits(readings[k].value) }
            let firstRead = ([j] + over).min()!
            func holdsFirst(_ k: Int) -> Bool { k != firstRead && body(k) != body(firstRead) && body(k).contains(body(firstRead)) }
            let widest = ([j] + over).map { readings[$0].box!.width }.max()!
            func spans(_ k: Int) -> Bool { readings[k].box!.width * 3 >= widest * 2 }
            // The whole line, its spaces out (a code OCR read with a space in it).
            func formatted(_ k: Int) -> Bool { inFormat(Tokens.withOCRSymbols(readings[k].value.filter { !$0.isWhitespace })) }
            func rank(_ k: Int) -> (Int, Int, Int, Int) { (holdsFirst(k) ? 1 : 0, spans(k) ? 1 : 0, formatted(k) ? 1 : 0, -k) }
            let group = ([j] + over).sorted { rank($0) > rank($1) }
            alternates[i] = Array(group.dropFirst())
            taken.formUnion(over)
            out[i] = pairing(i, group[0])
        }
    }

    /// A value named within its own line: "VALUE (Serial No.)", or a bare keyword after it.
    private func nameValuesWithinLines() {
        // Within one line: "VALUE (Serial No.)" names the value before it; so does a keyword
        // printed bare after its value where OCR took the two for one line, when nothing to its
        // right or under it was its value.
        for i in texts where !taken.contains(i) && partner[i] == nil {
            let text = out[i].value
            let keyword: String
            let value: String
            if let open = text.lastIndex(of: "("), open > text.startIndex,
                case let inner = String(text[open...].dropFirst()),
                // The closing parenthesis may be lost.
                text.hasSuffix(")") || !inner.contains(")") && Layout.awaiting(inner)
            {
                keyword = text.hasSuffix(")") ? String(inner.dropLast()) : inner
                value = text[..<open].trimmingCharacters(in: .whitespaces)
            } else if waiting[i] != nil, let split = Layout.trailingKeyword(text) {
                (value, keyword) = split
            } else {
                continue
            }
            guard Layout.awaiting(keyword), Keywords.fields(in: value).allSatisfy({ $0.kind == .none }) else { continue }
            out[i].value = keyword + " " + value
        }
    }

    /// Value lines lying over the end of a line read with its keyword and value inline.
    private func addInlineValuesReadAgain() {
        // A line read with its keyword and value inline and a value line lying over the value's
        // end (the page read again, at another size): that is the keyword's value too, read
        // another way.
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
            // first, as a keyword's value read two ways does.
            let inlineValue = Layout.lettersAndDigits(field.value)
            let fuller = over.filter { k in
                let body = Layout.lettersAndDigits(readings[k].value)
                return body != inlineValue && body.contains(inlineValue)
            }
            inline[i] = (keyword, fuller, over.filter { !fuller.contains($0) })
            taken.formUnion(over)
        }
    }

    /// The lines rebuilt: each unused line, its other readings after it.
    private func result() -> [SerialReading] {
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
}
