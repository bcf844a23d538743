import Model

/// Judging single values.
enum Tokens {
    /// `token` upper-cased with OCR's symbols for a serial's letters and digits read as those:
    /// after the punctuation round it is trimmed, so a closing bracket left is inside it. A bar
    /// at either end is the rule of a box the value is printed in, read into it ("|SK2RVKOD333706V").
    static func withOCRSymbols(_ token: String) -> String {
        String(token.trimmingCharacters(in: ":.,;()#*\"'|").uppercased().map { OCRConfusion.symbols[$0] ?? $0 })
    }

    /// Whether `text` is a word in lower case with no digit ("Dance", OCR's reading of a dark
    /// band): serials are printed in capitals, and OCR lower-cases one only now and then.
    static func lowerCaseWord(_ text: String) -> Bool {
        !text.contains { $0.isNumber || $0.isWhitespace } && text.filter(\.isLowercase).count * 2 > text.count
    }

    /// The first token of a field's value that could be a serial, upper-cased; a keyword's word
    /// cut short by OCR ("Serial Numbe") is no value.
    static func serialToken(_ value: String) -> String? {
        for token in runOn(value) {
            // OCR's symbols for the letters and digits of a serial: $ for S, @ for 0, a bracket
            // for J ("FCW7190M15}", "FDO665565)F").
            let t = withOCRSymbols(String(token))
            // A word in lower case is no value ("PFcLPMRD", one letter lower-cased, is).
            let word = lowerCaseWord(String(token))
            // Four letters or digits at least: "S-79" (a model number's end, paired with a
            // keyword on a tilted label) is not a serial.
            if t.filter({ $0 != "-" }).count >= 4, t.count <= 24, codeCharacters(t),
                t.contains(where: { $0.isLetter || $0.isNumber }), !NotSerial.isDate(t), !Keywords.words.contains(t),
                !(t.allSatisfy(\.isLetter) && Keywords.words.contains { $0.hasPrefix(t) }), !word
            {
                return t
            }
        }
        return nil
    }

    /// The words of a value (hyphens OCR set apart joined again), with a value OCR split in two
    /// at a space in widely spaced print run on again: two codes and nothing else, both with a
    /// digit, the second a last character alone ("EM742493978 1") or a code ("XD3901 409623",
    /// "504 9BGD"), twenty characters at most together ("Juniper SRX345" is a maker and a model).
    /// The first may hold a hyphen between its characters ("WD-WMC4NEP 3UKEP").
    static func runOn(_ value: String) -> [Substring] {
        let tokens = joinedHyphens(value).split(separator: " ")
        guard tokens.count == 2, let first = tokens.first, let last = tokens.last else { return tokens }
        func code(_ t: Substring) -> Bool { t.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        let hyphened = first.split(separator: "-", omittingEmptySubsequences: false)
        guard hyphened.allSatisfy({ !$0.isEmpty && code($0) }), code(last), first.count + last.count <= 20,
            !Keywords.words.contains(last.uppercased())
        else { return tokens }
        let runs =
            first.contains(where: \.isNumber)
            && (last.count == 1 ? first.count >= 6 : first.count >= 3 && last.count >= 2 && last.contains(where: \.isNumber))
        return runs ? [first + last] : tokens
    }

    /// A value OCR read in pieces at the spaces of widely spaced print ("DMP LMEA2 6JZV"), put
    /// together where the whole is evidently one value: a barcode on the label (`barcodes`) is
    /// the whole, up to OCR's confusions, or one of `formats` that marks its values fits it
    /// ("FVF 7WX4ESFJF": an Apple serial; "WD-WMC4NWY 98HVP": Western Digital's). Nil for a
    /// value in one piece, pieces that are not codes, or a whole that is neither.
    static func piecesJoined(_ value: String, formats: [Grammar], barcodes: [String]) -> String? {
        let pieces = joinedHyphens(value).split(separator: " ").map { withOCRSymbols(String($0)) }
        guard pieces.count >= 2, pieces.count <= 4,
            pieces.allSatisfy({ !$0.isEmpty && codeCharacters($0) })
        else { return nil }
        let whole = pieces.joined()
        guard whole.count <= 24 else { return nil }
        if barcodes.contains(where: { $0.uppercased() == whole || readAs(whole, $0) }) { return whole }
        // A format with known prefixes fits only a value that starts with one; one with a fixed
        // character only a value that holds it.
        return formats.filter(\.isMarked).fitAny(whole) ? whole : nil
    }

    /// `text` with a hyphen that OCR set apart from one side of a value joined again:
    /// "WD -WCC4N1234567" and "WD- WCC4N1234567" are "WD-WCC4N1234567" (" - " stays).
    static func joinedHyphens(_ text: String) -> String {
        let chars = Array(text)
        var out = ""
        for (k, ch) in chars.enumerated() {
            if ch == " ", k + 1 < chars.count, k > 0 {
                let before = chars[k - 1]
                let after = chars[k + 1]
                let hyphenAfter = after == "-" && before.isLetter && before.isUppercase && k + 2 < chars.count && chars[k + 2].isLetter
                let hyphenBefore = before == "-" && k >= 2 && chars[k - 2].isLetter && chars[k - 2].isUppercase && after.isLetter
                if hyphenAfter || hyphenBefore { continue }
                // Western Digital's "WD-W", its hyphen read as a space.
                if after == "W", out.hasSuffix("WD"), out.count == 2 || out.dropLast(2).last == " " {
                    out.append("-")
                    continue
                }
            }
            out.append(ch)
        }
        return out
    }

    /// Whether `value` holds nothing but what a serial is printed with: ASCII letters, digits
    /// and hyphens.
    static func codeCharacters(_ value: String) -> Bool {
        value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// A value that could be a serial on its own: 5 to 24 letters and digits (and dashes), with a
    /// digit, and not a product code, IMEI, MAC address, date or Dell PPID.
    static func looksLikeSerial(_ value: String) -> Bool {
        value.count >= 5 && value.count <= 24 && codeCharacters(value)
            && value.contains(where: \.isNumber) && !NotSerial.check(value) && !value.hasPrefix("http")
    }

    /// The specific formats that apply to a label whose printed text is `label`: the known ones,
    /// those of the makers it names (`Grammar.makerNames`) first, and those of named makers only
    /// (APC's); none of the known ones where every maker it names has none.
    static func formats(label: String) -> [Grammar] {
        let named = Grammar.makersNamed(in: labelWords(label))
        let known = Grammar.known.filter(\.isSpecific)
        let own = known.filter { named.contains($0.vendor) }
        let formatless = !named.isEmpty && !(Grammar.known + Grammar.named).contains { named.contains($0.vendor) }
        let others = formatless ? [] : known.filter { !named.contains($0.vendor) }
        return own + others + Grammar.named.filter { named.contains($0.vendor) }
    }

    /// The formats of the makers a label whose printed text is `label` names ("Lenovo", "DELL",
    /// "WD"), specific or not: the formats its own serial has.
    static func makersFormats(label: String) -> [Grammar] {
        let named = Grammar.makersNamed(in: labelWords(label))
        return (Grammar.known + Grammar.named).filter { named.contains($0.vendor) }
    }

    static func labelWords(_ label: String) -> Set<String> {
        Set(label.uppercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }).map(String.init))
    }
}
