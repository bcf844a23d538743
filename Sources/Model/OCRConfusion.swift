/// The characters OCR mistakes for one another on printed serials.
public enum OCRConfusion {
    /// Each confusable letter and the digit it is mistaken for (and the other way round).
    public static let pairs: [(letter: Character, digit: Character)] = [
        ("O", "0"), ("D", "0"), ("Q", "0"), ("I", "1"), ("L", "1"), ("S", "5"), ("B", "8"), ("Z", "2"), ("G", "6"),
    ]

    /// The symbols OCR reads for letters and digits of a serial, and what they stand for: $ for
    /// S, @ for 0, a bracket for J ("FCW7190M15}", "FDO665565)F").
    public static let symbols: [Character: Character] = ["$": "S", "@": "0", "}": "J", "]": "J", ")": "J"]

    /// `text` upper-cased, with runs of white space made one space and every confusable letter
    /// replaced by its digit, so two readings that differ only by OCR confusions fold equal.
    public static func fold(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for ch in text.uppercased() {
            if ch.isWhitespace {
                if !lastWasSpace && !out.isEmpty { out.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            out.append(digitFor[ch] ?? (ch == "|" ? "1" : ch))
        }
        return out.hasSuffix(" ") ? String(out.dropLast()) : out
    }

    /// How many characters must be changed, added or taken out to make `a` into `b`.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private static let digitFor: [Character: Character] = Dictionary(uniqueKeysWithValues: pairs.map { ($0.letter, $0.digit) })
}
