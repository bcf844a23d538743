import Model

/// Dell's service tags and their Express Service Codes.
extension Tokens {
    /// A Dell service tag in base 36, as decimal: its Express Service Code.
    static func base36(_ value: String) -> String? {
        guard value.count <= 12 else { return nil }
        var n: UInt64 = 0
        for ch in value.uppercased() {
            guard let d = ch.wholeNumberValue ?? (ch.isASCII && ch.isLetter ? Int(ch.asciiValue! - 55) : nil), d < 36 else { return nil }
            n = n * 36 + UInt64(d)
        }
        return String(n)
    }

    /// The seven-character service tag an Express Service Code is (the number in base 36); nil
    /// for what is not one.
    static func tag(ofESC esc: String) -> String? {
        guard !esc.isEmpty, esc.count <= 11, esc.allSatisfy({ $0.isASCII && $0.isNumber }), var n = UInt64(esc) else { return nil }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var tag = ""
        repeat {
            tag.insert(alphabet[Int(n % 36)], at: tag.startIndex)
            n /= 36
        } while n > 0
        return tag.count <= 7 ? String(repeating: "0", count: 7 - tag.count) + tag : nil
    }

    /// The service tag an Express Service Code proves: `value` itself, or the code's own tag
    /// where the printed one is that tag with a character or two misread, one read twice or one
    /// lost (the code is the proof: "L4317D6" beside the code of L4J17D6 is L4J17D6, and so is
    /// "L4J17D06"); nil otherwise.
    static func matchESC(_ value: String, _ esc: String) -> String? {
        if base36(value) == esc { return value }
        guard (6...8).contains(value.count), let tag = tag(ofESC: esc) else { return nil }
        return OCRConfusion.editDistance(Array(value.uppercased()), Array(tag)) <= 2 ? tag : nil
    }
}
