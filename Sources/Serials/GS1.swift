/// GS1 element strings: the application identifiers (AIs) a GS1-128, GS1 DataMatrix or GS1 QR
/// code carries, split by the GS1 General Specifications' table of AI lengths.
///
/// Data comes as a scanner gives it: with or without a symbology identifier (`]C1` GS1-128,
/// `]d2` GS1 DataMatrix, `]Q3` GS1 QR, `]e0` DataBar), with FNC1 as the group separator (GS,
/// U+001D) after a variable-length value, or in the bracketed human-readable form
/// `(01)09506000134352(21)SN4711`. A predefined fixed-length AI needs no separator; a
/// variable-length one ends at the separator or the end of the data.
public enum GS1 {
    /// One element string: the AI and its value.
    public struct Element: Equatable, Sendable {
        public var ai: String
        public var value: String
    }

    /// How long an AI's value is: exactly `fixed` characters, or up to `max`.
    struct Length {
        var fixed: Int?
        var max: Int
    }

    /// The length of the value after `ai`, for the AIs in the GS1 table; nil for an unknown AI.
    /// The AI's own length (2, 3 or 4 digits) is decided by its first digits.
    static func aiLength(startingWith digits: Substring) -> (ai: Int, value: Length)? {
        func numeric(_ n: Int) -> Bool { digits.count >= n && digits.prefix(n).allSatisfy { $0.isASCII && $0.isNumber } }
        guard numeric(2) else { return nil }
        let two = String(digits.prefix(2))
        // Three- and four-digit AIs: their further digits must be digits too.
        let three = numeric(3) ? String(digits.prefix(3)) : ""
        let four = numeric(4) ? String(digits.prefix(4)) : ""
        switch two {
        case "00": return (2, Length(fixed: 18, max: 18))
        case "01", "02", "03": return (2, Length(fixed: 14, max: 14))
        case "10", "21", "22": return (2, Length(fixed: nil, max: 20))
        case "11", "12", "13", "15", "16", "17": return (2, Length(fixed: 6, max: 6))
        case "20": return (2, Length(fixed: 2, max: 2))
        case "30", "37": return (2, Length(fixed: nil, max: 8))
        case "90": return (2, Length(fixed: nil, max: 30))
        case "91", "92", "93", "94", "95", "96", "97", "98", "99": return (2, Length(fixed: nil, max: 90))
        case "31", "32", "33", "34", "35", "36":  // trade measures: four-digit AIs, six digits
            return four.isEmpty ? nil : (4, Length(fixed: 6, max: 6))
        case "39":  // amounts: 390n-395n, variable
            return four.isEmpty ? nil : (4, Length(fixed: nil, max: 18))
        case "41":  // GLNs: 410-417, thirteen digits
            return ["410", "411", "412", "413", "414", "415", "416", "417"].contains(three) ? (3, Length(fixed: 13, max: 13)) : nil
        case "42":  // ship-to postal codes and countries: 420-427
            switch three {
            case "420", "421": return (3, Length(fixed: nil, max: three == "420" ? 20 : 12))
            case "422", "424", "426": return (3, Length(fixed: 3, max: 3))
            case "423", "425": return (3, Length(fixed: nil, max: 15))
            case "427": return (3, Length(fixed: nil, max: 3))
            default: return nil
            }
        case "24":  // 240 additional product id, 241 customer part number, 242, 243, 250, 251, 253, 254, 255
            switch three {
            case "240", "241": return (3, Length(fixed: nil, max: 30))
            case "242": return (3, Length(fixed: nil, max: 6))
            case "243": return (3, Length(fixed: nil, max: 20))
            default: return nil
            }
        case "25":
            switch three {
            case "250", "251": return (3, Length(fixed: nil, max: 30))
            case "253": return (3, Length(fixed: nil, max: 30))
            case "254": return (3, Length(fixed: nil, max: 20))
            case "255": return (3, Length(fixed: nil, max: 25))
            default: return nil
            }
        case "23":
            return three == "235" ? (3, Length(fixed: nil, max: 28)) : nil
        case "40":  // 400-403: order numbers and routing
            switch three {
            case "400", "401", "403": return (3, Length(fixed: nil, max: 30))
            case "402": return (3, Length(fixed: 17, max: 17))
            default: return nil
            }
        case "70":  // 7001-7023 and others: four digits, variable
            return four.isEmpty ? nil : (4, Length(fixed: nil, max: 30))
        case "80":  // 8001-8200: four digits
            guard !four.isEmpty else { return nil }
            switch four {
            case "8001": return (4, Length(fixed: 14, max: 14))
            case "8005": return (4, Length(fixed: 6, max: 6))
            case "8006", "8026": return (4, Length(fixed: 18, max: 18))
            case "8017", "8018": return (4, Length(fixed: 18, max: 18))
            default: return (4, Length(fixed: nil, max: 70))
            }
        default: return nil
        }
    }

    /// The AIs whose value ends in a GS1 check digit (mod 10, weights 3 and 1 from the right).
    static let checked: Set<String> = ["00", "01", "02", "410", "411", "412", "413", "414", "415", "416", "417"]

    /// Whether a string of digits ends in its GS1 check digit.
    public static func checkDigitHolds(_ digits: String) -> Bool {
        guard digits.count >= 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let values = digits.compactMap(\.wholeNumberValue)
        let body = values.dropLast().reversed()
        let sum = body.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == values.last!
    }

    /// The element strings in `data`, or nil when it is not GS1: without a GS1 symbology
    /// identifier or brackets it must open with AI 00, 01 or 02 and a valid check digit (plain
    /// digits are not taken for GS1 on a guess); an unknown AI, a value of the wrong length or a
    /// failed check digit make the whole of it not GS1.
    public static func parse(_ data: String) -> [Element]? {
        if data.hasPrefix("(") { return parseBracketed(data) }
        var rest = Substring(data)
        var marked = false
        for identifier in ["]C1", "]d2", "]Q3", "]e0", "]J1"] where rest.hasPrefix(identifier) {
            rest = rest.dropFirst(3)
            marked = true
        }
        while rest.first == "\u{1D}" { rest = rest.dropFirst() }  // a leading FNC1
        if !marked, !(rest.hasPrefix("00") || rest.hasPrefix("01") || rest.hasPrefix("02")) { return nil }
        var elements: [Element] = []
        while !rest.isEmpty {
            guard let (aiLength, length) = aiLength(startingWith: rest) else { return nil }
            let ai = String(rest.prefix(aiLength))
            rest = rest.dropFirst(aiLength)
            let value: Substring
            if let fixed = length.fixed {
                guard rest.count >= fixed else { return nil }
                value = rest.prefix(fixed)
                rest = rest.dropFirst(fixed)
            } else {
                let end = rest.firstIndex(of: "\u{1D}") ?? rest.endIndex
                value = rest[..<end]
                guard !value.isEmpty, value.count <= length.max else { return nil }
                rest = rest[end...]
            }
            if checked.contains(ai), !checkDigitHolds(String(value)) { return nil }
            elements.append(Element(ai: ai, value: String(value)))
            while rest.first == "\u{1D}" { rest = rest.dropFirst() }
        }
        return elements.isEmpty ? nil : elements
    }

    /// `(AI)value(AI)value...`, as printed under a GS1 barcode.
    static func parseBracketed(_ data: String) -> [Element]? {
        var elements: [Element] = []
        var rest = Substring(data)
        while !rest.isEmpty {
            guard rest.first == "(", let close = rest.firstIndex(of: ")") else { return nil }
            let ai = rest[rest.index(after: rest.startIndex)..<close]
            guard let (aiLength, length) = aiLength(startingWith: ai), aiLength == ai.count else { return nil }
            rest = rest[rest.index(after: close)...]
            let end = rest.firstIndex(of: "(") ?? rest.endIndex
            let value = String(rest[..<end].drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            if let fixed = length.fixed, value.count != fixed { return nil }
            guard !value.isEmpty, value.count <= length.max else { return nil }
            if checked.contains(String(ai)), !checkDigitHolds(value) { return nil }
            elements.append(Element(ai: String(ai), value: value))
            rest = rest[end...]
        }
        return elements.isEmpty ? nil : elements
    }
}
