import Model
/// What a position of a serial may hold, where a vendor's format fixes it.
enum CharClass: Equatable {
    case digit, letter, any
    /// A character the format fixes: Samsung's 0, WD's hyphen.
    case literal(Character)

    /// `ch` corrected to this class through an OCR confusion, or itself when it fits or cannot.
    /// A digit the format fixes (Samsung's 0) is that digit whatever letter or digit OCR read
    /// there ("G", "6"): the vendor prints it on every serial.
    func correct(_ ch: Character) -> Character {
        switch self {
        case .digit where ch.isLetter: return OCRConfusion.pairs.first { $0.letter == ch }?.digit ?? ch
        case .letter where ch.isNumber: return OCRConfusion.pairs.first { $0.digit == ch && $0.letter != "D" }?.letter ?? ch
        case .literal(let fixed) where Tokens.confused(ch, fixed): return fixed
        case .literal(let fixed) where fixed.isNumber && ch.isASCII && (ch.isLetter || ch.isNumber): return fixed
        default: return ch
        }
    }

    func accepts(_ ch: Character) -> Bool {
        switch self {
        case .digit: return ch.isASCII && ch.isNumber
        case .letter: return ch.isASCII && ch.isLetter
        case .any: return ch.isASCII && (ch.isLetter || ch.isNumber)
        case .literal(let fixed): return ch == fixed
        }
    }
}

/// A vendor's serial format: a length, where it fixes them the class of each position, and where
/// the vendor's codes are known, the prefixes a serial starts with (Cisco's factories).
struct Grammar {
    let vendor: String
    let pattern: [CharClass]
    /// Known prefixes; a value fits only if it starts with one (after correction).
    let prefixes: [String]
    /// For a format too plain to be taken on its shape alone: words of which one must be on the
    /// label (its maker's name, its products') before the format corrects a value.
    var makers: [String] = []
    /// Letters the vendor never uses where a position may hold anything, and the digit OCR read
    /// them for (Apple, Cisco: no O, no I).
    var never: [Character: Character] = [:]
    /// Whether fitting this grammar says something about a value: a position's class is fixed,
    /// or the value must start with one of the vendor's known prefixes.
    var isSpecific: Bool { pattern.contains { $0 != .any } || !prefixes.isEmpty }
    /// Whether a value's fitting it is rare by chance: known prefixes, a fixed character, or at
    /// least three positions of a fixed class (an 11-character Apple serial with its one digit
    /// fits three random values in ten; an HP serial's three digits, one in forty).
    var isDecisive: Bool { isMarked || pattern.filter { $0 != .any }.count >= 3 }
    /// Whether a value in this format carries the vendor's mark: it starts with a known prefix,
    /// or holds a character the format fixes (Western Digital's "WD-W").
    var isMarked: Bool { !prefixes.isEmpty || pattern.contains { if case .literal = $0 { true } else { false } } }

    /// Whether `value` is in this format as it stands: it fits with nothing to undo.
    func holds(_ value: String) -> Bool { fit(value) == value }

    /// Whether every one of `formats` leaves `value`'s character at `index` open: any class, and
    /// outside the known prefix the value starts with.
    static func leaveOpen(_ formats: [Grammar], _ value: String, at index: Int) -> Bool {
        formats.allSatisfy { format in
            format.pattern[index] == .any && !format.prefixes.contains { value.hasPrefix($0) && index < $0.count }
        }
    }

    /// `value` with OCR confusions undone where a position's class is fixed; nil if it cannot fit.
    /// A digit read where a letter must be may stand for more than one letter (1: I or L; 0: O or
    /// D): with known prefixes, the reading that gives a known prefix is taken.
    func fit(_ value: String) -> String? {
        let chars = Array(value.uppercased())
        guard chars.count == pattern.count else { return nil }
        let corrected = zip(chars, pattern).map { ch, position in
            let fixed = position.correct(ch)
            return position == .any ? never[fixed] ?? fixed : fixed
        }
        guard zip(corrected, pattern).allSatisfy({ $1.accepts($0) }) else { return nil }
        guard !prefixes.isEmpty else { return String(corrected) }
        // Where the format does not fix the prefix's classes, a prefix read with one confusion at
        // most: "OM0" is not Apple's "DMQ" read twice wrong (Cisco's "5A1" is "SAL": letters).
        let candidates = prefixes.filter { prefix in
            let open = pattern.prefix(prefix.count).allSatisfy { $0 == .any }
            return zip(prefix, chars).allSatisfy { Tokens.confused($0, $1) } && (!open || zip(prefix, chars).filter { $0 != $1 }.count <= 1)
        }
        guard let prefix = candidates.first(where: { String(corrected).hasPrefix($0) }) ?? candidates.first else { return nil }
        return prefix + String(corrected.dropFirst(prefix.count))
    }

    /// `value` in this format with the start of the vendor's mark put back, where a thumb, glare
    /// or the edge of the view cut it off: the format opens with three fixed characters or more
    /// (Western Digital's "WD-W"), the value starts with the last two of them at least (the mark
    /// cut short, not missing: "-WMC4N..."), and with the rest put back it fits. With the
    /// characters put back; nil otherwise.
    func markPutBack(_ value: String) -> (value: String, mark: String)? {
        let marks = pattern.prefix { if case .literal = $0 { true } else { false } }.compactMap { position -> Character? in
            if case .literal(let fixed) = position { fixed } else { nil }
        }
        guard marks.count >= 3 else { return nil }
        for cut in 1...(marks.count - 2) where value.hasPrefix(String(marks[cut...])) {
            let mark = String(marks.prefix(cut))
            if let fitted = fit(mark + value) { return (fitted, mark) }
        }
        return nil
    }

    static func parse(
        _ vendor: String, _ text: String, prefixes: [String] = [], never: [Character: Character] = [:], makers: [String] = []
    ) -> Grammar {
        Grammar(
            vendor: vendor, pattern: text.map { $0 == "9" ? .digit : $0 == "A" ? .letter : $0 == "x" ? .any : .literal($0) },
            prefixes: prefixes, makers: makers, never: never)
    }

    /// Formats used only on a label that names their maker: APC's, whose factory code OCR reads
    /// as digits ("3S" as "38") and would otherwise turn any twelve-digit serial into an APC one.
    static let named: [Grammar] = [
        // APC: factory (2), year (2), week (2), sequence (6).
        parse(
            "APC", "xx9999999999", prefixes: ["AS", "3S", "5A", "JS", "QS", "IS", "ES", "PS", "ZA", "3B", "5B"],
            makers: ["APC", "SMART-UPS", "BACK-UPS", "SCHNEIDER"])
    ]

    /// The product names that name Apple on a label that does not print the maker ("iMac 24-inch").
    static let appleProducts = ["IMAC", "MACBOOK", "IPAD", "IPHONE"]

    /// The words that name a maker of the hardware a label is on, by the vendor its formats are
    /// filed under, makers with no format here as well: a label that names only makers with no
    /// format here is not corrected into another maker's ("YM5661591170" on a Juniper switch is
    /// no Supermicro board's "YM56GI591170"), and one that names a maker with formats tries its
    /// formats first. Makers of parts inside a machine (Intel) are not among them: they are
    /// named on other makers' labels. A format's own `makers` words name its vendor too (Apple's
    /// products, APC's UPS names); other products do not name their maker here ("OptiPlex" alone).
    static let makerNames: [String: [String]] = [
        "Samsung": ["SAMSUNG"], "WD": ["WD", "WESTERN"], "Cisco": ["CISCO"], "HP": ["HP", "HPE", "HEWLETT"],
        "Apple": ["APPLE"], "Supermicro": ["SUPERMICRO"], "Lenovo": ["LENOVO"], "Dell": ["DELL"],
        "Juniper": ["JUNIPER"], "Seagate": ["SEAGATE"], "Toshiba": ["TOSHIBA"],
        "HGST": ["HGST", "HITACHI"], "Kingston": ["KINGSTON"], "Micron": ["MICRON", "CRUCIAL"], "Netgear": ["NETGEAR"],
        "Aruba": ["ARUBA"], "Ubiquiti": ["UBIQUITI"], "Fortinet": ["FORTINET"], "Eaton": ["EATON"], "Vertiv": ["VERTIV"],
        "Philips": ["PHILIPS"], "Siemens": ["SIEMENS"], "Medtronic": ["MEDTRONIC"], "Brother": ["BROTHER"], "Canon": ["CANON"],
        "Epson": ["EPSON"], "Xerox": ["XEROX"], "Asus": ["ASUS"], "Acer": ["ACER"],
    ]

    /// Every word of `makerNames`: a line that opens with one names a maker (and its model).
    static let makerWords = Set(makerNames.values.joined())

    /// The vendors a label whose words are `words` names: by `makerNames`, or by a format's own
    /// `makers` words.
    static func makersNamed(in words: Set<String>) -> Set<String> {
        Set(makerNames.filter { $0.value.contains(where: words.contains) }.map(\.key))
            .union((known + named).filter { $0.makers.contains(where: words.contains) }.map(\.vendor))
    }

    /// The formats the extractor knows, most specific first. In the patterns, 9 is a digit, A a
    /// letter, x anything, and any other character itself.
    static let known: [Grammar] = [
        // Samsung drives: S, model code (3), two letters, the 0 every one has in seventh place, a
        // letter, sequence (6 digits), a letter.
        parse("Samsung", "SxxxAA0A999999A"),
        // Western Digital: WD-, then 12 characters starting with W.
        parse("WD", "WD-Wxxxxxxxxxxx"),
        // Cisco: factory (3 letters), year since 1996 (2 digits), week (2 digits), 4-character
        // base-34 tail: base 34 is the digits and the letters without I and O.
        parse(
            "Cisco", "AAA9999xxxx",
            prefixes: [
                "FOC", "FDO", "FTX", "FCW", "FGL", "FXS", "JAE", "JAD", "JMX", "JPE", "SAL", "SMC", "SMG", "CAT", "TAU", "TBM", "CSJ",
                "FJC", "FVH", "FCZ", "KWC", "AZS", "PSZ", "FNS",
            ], never: ["O": "0", "I": "1"]),
        // HP: site (3), year (1 digit), week (2 digits), sequence (4).
        parse("HP", "xxx999xxxx"),
        // Apple, 2010 to 2020: plant (3), year (1), week (1), unique (3), model (4). The year is
        // a letter on Apple's own labels, but the known plants are what make the format specific,
        // and the rule that matters to OCR holds everywhere: Apple never uses O or I.
        parse(
            "Apple", "xxxxxxxxxxxx",
            prefixes: ["C02", "C07", "C17", "C1M", "C39", "D25", "DMP", "DMQ", "DLX", "F4K", "F5K", "FK1", "FVF", "G8W", "W8", "VM"],
            never: ["O": "0", "I": "1"], makers: appleProducts),
        // Apple before 2010: 11 characters.
        parse("Apple", "xx9xxxxxxxx", makers: appleProducts),
        // Apple from 2021: 10 random characters.
        parse("Apple", "xxxxxxxxxx", makers: appleProducts),
        // Supermicro boards: plant (a letter, then M), year (2 digits), two letters, sequence
        // (6 digits). The plant's letter may be an O ("OM"): the format keeps it a letter.
        parse("Supermicro", "AM99AA999999"),
        // Lenovo PCs: 8 characters, starting with two letters.
        parse("Lenovo", "AAxxxxxx"),
        // Dell service tags: 7 characters.
        parse("Dell", "xxxxxxx"),
    ]
}

extension [Grammar] {
    /// Whether one of these formats fits `value`, once OCR's confusions are undone where it fixes them.
    func fitAny(_ value: String) -> Bool { contains { $0.fit(value) != nil } }
    /// Whether one of these formats holds `value` as it stands.
    func holdAny(_ value: String) -> Bool { contains { $0.holds(value) } }
}

/// Checks on values that are something other than a serial.
enum NotSerial {
    /// UPC-A, EAN-13 and GTIN-14 numbers with a valid check digit. Eight digits are not taken for
    /// an EAN-8: an EAN-8 symbol is known by its symbology, and one eight-digit serial in ten has
    /// a valid check digit by chance.
    static func isGTIN(_ value: String) -> Bool {
        [12, 13, 14].contains(value.count) && GS1.checkDigitHolds(value)
    }

    /// A 15-digit IMEI with a valid Luhn check digit.
    static func isIMEI(_ value: String) -> Bool {
        guard value.count == 15, value.allSatisfy(\.isNumber) else { return false }
        let digits = value.compactMap(\.wholeNumberValue)
        let sum = digits.reversed().enumerated().reduce(0) { total, item in
            let d = item.offset % 2 == 1 ? item.element * 2 : item.element
            return total + (d > 9 ? d - 9 : d)
        }
        return sum % 10 == 0
    }

    /// A MAC address written as one: 12 hex digits in pairs separated by ':' or '-' (a bare run
    /// of 12 hex digits could as well be a serial, and is judged by its keyword instead).
    static func isMAC(_ value: String) -> Bool {
        let groups = value.split(whereSeparator: { $0 == ":" || $0 == "-" })
        return groups.count == 6 && groups.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// A date: 2026-11-30, 30/11/2026, 2026.11: numbers between separators, one of them a year
    /// (1980 to 2099) and another a month or a day (1234-5678 is not a date).
    static func isDate(_ value: String) -> Bool {
        let parts = value.split(whereSeparator: { "-/.".contains($0) })
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        let numbers = parts.map { $0.count <= 4 ? Int($0) ?? -1 : -1 }
        guard let year = parts.indices.first(where: { parts[$0].count == 4 && (1980...2099).contains(numbers[$0]) }) else { return false }
        return parts.indices.contains { $0 != year && parts[$0].count <= 2 && (1...31).contains(numbers[$0]) }
    }

    /// Twelve hex digits with a letter among them, as a MAC address is barcoded without its
    /// separators. It could be a serial too, so it is not excluded; it is ranked after a barcode
    /// that cannot be a MAC.
    static func mayBeBareMAC(_ value: String) -> Bool {
        value.count == 12 && value.allSatisfy(\.isHexDigit) && value.contains { $0.isLetter }
    }

    /// A Dell PPID (Piece Part Identification): country (2 letters), part number (6), supplier
    /// (5), date code (3), sequence (4), revision (a letter and 2 digits): 23 characters, printed
    /// as CN-0WV1JQ-89856-1AB-0123-A00 or run together as its barcode carries it (often without
    /// the revision: 20). It names one part of a machine, never the machine's serial.
    static func isDellPPID(_ value: String) -> Bool {
        let groups = value.split(separator: "-").map(String.init)
        let counts = groups.map(\.count)
        let bare = counts == [2, 6, 5, 3, 4, 3] || counts == [2, 6, 5, 3, 4] ? groups.joined() : value
        guard bare.count == 23 || bare.count == 20, bare.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            return false
        }
        let chars = Array(bare)
        guard chars[0].isLetter, chars[1].isLetter else { return false }
        // Its barcode often carries the 20 characters without the revision; the part number
        // then opens with Dell's 0 (printed, OCR may read it as O) and the supplier is five digits.
        if bare.count == 20 { return (chars[2] == "0" || chars[2] == "O") && chars[8..<13].allSatisfy(\.isNumber) }
        return chars[20].isLetter && chars[21].isNumber && chars[22].isNumber
    }

    static func check(_ value: String) -> Bool {
        isGTIN(value) || isIMEI(value) || isMAC(value) || isDate(value) || isDellPPID(value)
    }
}
