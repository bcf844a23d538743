/// Where a label puts a value relative to its keyword, read from the boxes: the printed lines
/// rebuilt so that each keyword line carries its value, whichever box the value was printed in.
///
/// A line whose last keyword has no value after it ("Service Tag (S/N):" at the end of a table
/// row, or alone above its value) takes the nearest printed line that starts with a value: on
/// the same row to its right first (rows overlap by half a line height; a value column set a few
/// pixels higher than its label column, which OCR reads first, is still the same row), else the
/// line just under it, starting near it. A keyword alone in parentheses just after a value on
/// its row ("WD-WCC4N1234567 (SN)") names that value. The value's line is used once.
enum Layout {
    static func joined(_ readings: [SerialReading]) -> [SerialReading] {
        var out = readings
        var used = Set<Int>()
        let texts = readings.indices.filter { !readings[$0].isBarcode && readings[$0].box != nil }
        for i in texts where !used.contains(i) {
            let line = readings[i]
            // "(Service Tag)": a keyword in parentheses, as a caption beside its value.
            let inParentheses = line.value.hasPrefix("(") && line.value.hasSuffix(")") && line.value.count > 2
            let awaiting = { (text: String) in Keywords.fields(in: text).last.map { $0.kind != .none && $0.value.isEmpty } == true }
            let keyword =
                awaiting(line.value)
                ? line.value
                : inParentheses && awaiting(String(line.value.dropFirst().dropLast()))
                    ? String(line.value.dropFirst().dropLast()) : nil
            guard let box = line.box, let keyword else { continue }
            let height = max(1, box.height)
            func startsWithValue(_ j: Int) -> Bool {
                !used.contains(j) && j != i && Keywords.fields(in: readings[j].value).first?.kind == Keywords.Kind.none
            }
            func sameRow(_ other: Box) -> Bool {
                let overlap = min(box.maxY, other.maxY) - max(box.y, other.y)
                return overlap * 2 >= min(height, other.height)
            }
            let right = texts.filter { j in
                guard startsWithValue(j), let other = readings[j].box else { return false }
                return sameRow(other) && other.x >= box.maxX - height / 2 && other.x - box.maxX <= 14 * height
            }.min { readings[$0].box!.x < readings[$1].box!.x }
            let below = texts.filter { j in
                guard startsWithValue(j), let other = readings[j].box else { return false }
                let gap = other.y - box.maxY
                return other.y > box.y + height / 2 && gap <= height * 3 / 2 && abs(other.x - box.x) <= 3 * height
            }.min { readings[$0].box!.y < readings[$1].box!.y }
            let left =
                inParentheses
                ? texts.filter { j in
                    guard startsWithValue(j), let other = readings[j].box else { return false }
                    return sameRow(other) && other.maxX <= box.x + height / 2 && box.x - other.maxX <= 4 * max(height, other.height)
                }.max { readings[$0].box!.maxX < readings[$1].box!.maxX } : nil
            guard let j = left ?? right ?? below else { continue }
            used.insert(j)
            out[i] = SerialReading(
                value: keyword + " " + readings[j].value, symbology: nil, place: readings[j].place, box: box.union(readings[j].box!))
        }
        // Within one line: "VALUE (Serial No.)" names the value before it.
        for i in texts where !used.contains(i) {
            let text = out[i].value
            guard text.hasSuffix(")"), let open = text.lastIndex(of: "("), open > text.startIndex else { continue }
            let keyword = String(text[open...].dropFirst().dropLast())
            let value = text[..<open].trimmingCharacters(in: .whitespaces)
            guard let named = Keywords.fields(in: keyword).last, named.kind != .none, named.value.isEmpty,
                Keywords.fields(in: value).allSatisfy({ $0.kind == .none })
            else { continue }
            out[i].value = keyword + " " + value
        }
        return used.isEmpty ? out : out.indices.filter { !used.contains($0) }.map { out[$0] }
    }
}
