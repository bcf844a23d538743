/// ANSI MH10.8.2 data identifiers in an ISO/IEC 15434 envelope, as DataMatrix and PDF417 codes
/// on equipment and shipping labels carry them: `[)>` RS `06` GS `1P`part GS `S`serial RS EOT.
///
/// A data identifier is up to three digits and one capital letter (`S`, `1P`, `25S`); the value
/// follows it up to the next GS, RS or EOT. Only format 06 (data identifiers) is split; the other
/// formats in an envelope are left alone.
public enum DataIdentifiers {
    public struct Element: Equatable, Sendable {
        public var identifier: String
        public var value: String
    }

    /// The identifiers that name a serial: `S` (serial number) and `25S` (serial with the
    /// issuing agency's code).
    public static let serials: Set<String> = ["S", "25S"]

    /// The elements of every format-06 record in an ISO/IEC 15434 envelope; nil when `data` is
    /// not such an envelope.
    public static func parse(_ data: String) -> [Element]? {
        let rs: Character = "\u{1E}"
        let gs: Character = "\u{1D}"
        guard data.hasPrefix("[)>\u{1E}") else { return nil }
        var elements: [Element] = []
        let body = data.dropFirst(4).split(separator: "\u{04}", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for record in body.split(separator: rs) {
            let fields = record.split(separator: gs, omittingEmptySubsequences: true)
            guard fields.first == "06" else { continue }
            for field in fields.dropFirst() {
                let digits = field.prefix { $0.isASCII && $0.isNumber }
                guard digits.count <= 3, let letter = field.dropFirst(digits.count).first, letter.isASCII, letter.isUppercase else {
                    return nil
                }
                let identifier = String(digits) + String(letter)
                let value = String(field.dropFirst(identifier.count))
                guard !value.isEmpty else { continue }
                elements.append(Element(identifier: identifier, value: value))
            }
        }
        return elements
    }
}
