import Model

/// The keywords of a printed line, and the values they name.
enum Keywords {
    enum Kind { case serial, expressServiceCode, other, none }

    struct Field {
        var kind: Kind
        var value: String
    }

    /// Keywords as token sequences (upper case, trailing ':' '.' '#' removed), longest first.
    static let table: [(tokens: [String], kind: Kind)] = {
        let serial = [
            "SERIAL NUMBER", "SERIAL NO", "SERIAL NR", "SERIAL NBR", "SER NBR", "SERIAL #", "SER NO", "SER", "SERIAL", "SERVICE TAG",
            "SVC TAG", "SVCTAG", "S/N",
            "5/N", "SIN", "S/IN", "SERIENNUMMER", "N/S", "NO DE SERIE", "N° DE SERIE",
            "SN",
            "5N", "S N", "(S)", "(S/N)", "(SN)", "(21)", "S-N", "SNR", "SNO", "S.NO", "S.N", "S/NO", "SERIALNO", "SERIAL-NO", "SERIAL NUM",
            // A narrow face's words run together by OCR.
            "SERIALNUMBER", "SERIALNUM", "SERIALNBR", "SERIALNR",
            "SER.NO", "SERNO", "S / N",
            "NUMERO DE SERIE", "NUMERO DI SERIE", "SERIENNR", "SERIENR", "SERIENUMMER", "MATRICOLA", "NUMER SERYJNY", "N° SERIE",
        ]
        let esc = ["EXPRESS SERVICE CODE", "EXP SERVICE CODE", "ESC"]
        let other = [
            "P/N", "PN", "PIN", "P/IN", "PART NUMBER", "PART NO", "PART", "DP/N", "PID", "MODEL NO", "MODEL NUMBER", "MODEL", "MTM", "M/T",
            "MT",
            "TYPE", "REV", "VID", "MAC ADDRESS", "MAC", "IMEI", "MEID", "UPC", "EAN", "FCC ID", "FCC", "EMC", "(01)", "(10)", "(17)",
            "(11)",
            "ASSET TAG", "ASSET", "PROPERTY OF", "LOT NO", "LOT", "MFG DATE", "MFG", "MFD", "DOM", "DATE", "PRODUCT NO", "PRODUCT", "SKU",
            "HW", "FW", "VERSION",
            "INPUT", "OUTPUT", "CT", "CODE", "FRU PN", "FRU P/N", "FRU", "MPN", "PRODUCT ID", "DCM", "WWN", "PSID", "CLEI", "TAN", "SPARE",
            "OPT", "PPID", "RATING", "WARRANTY", "R/N", "MDL", "REF", "F/W", "FIRMWARE", "BATCH", "GTIN", "UDI", "ICCID", "IC", "CMIIT ID",
            "ORDER NO", "ART NO", "CAT NO", "ITEM NO", "ITEM", "CAPACITY", "POWER", "VOLTAGE", "MFR", "MANUFACTURED",
            "TYPE/MODEL", "MACHINE TYPE",
        ]
        let all = serial.map { ($0, Kind.serial) } + esc.map { ($0, Kind.expressServiceCode) } + other.map { ($0, Kind.other) }
        return all.map { (tokens: $0.0.split(separator: " ").map(String.init), kind: $0.1) }.sorted { $0.tokens.count > $1.tokens.count }
    }()

    /// The words keywords are made of ("SERVICE", "NUMBER", "PPID"): a word of a keyword is never
    /// a keyword's value, as when OCR loses the parenthesis that made "(Service Tag" a caption.
    static let words: Set<String> = keywordTokens.filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) }

    static func normalise(_ token: Substring) -> String {
        let t = trimmed(token)
        // An I OCR read as a lower-case l among capitals ("CLEl", "PlD"): the keyword it spells.
        if !keywordTokens.contains(t), token.contains("l"), token.allSatisfy({ !$0.isLowercase || $0 == "l" }) {
            let withI = trimmed(Substring(token.map { $0 == "l" ? "I" : $0 }))
            if keywordTokens.contains(withI) { return withI }
        }
        return garbleable.first { garbled(t, as: $0) } ?? t
    }

    /// `token` upper case, without its accents, the punctuation after it and the quotation marks
    /// round it.
    static func trimmed(_ token: Substring) -> String {
        var t = String(token.uppercased().map { accented[$0] ?? $0 })
        // A colon blurred or dimmed is read as a hyphen ("Date Code-").
        while let last = t.last, ":.#,;-".contains(last) || quotes.contains(last) { t.removeLast() }
        while let first = t.first, quotes.contains(first) { t.removeFirst() }
        return t
    }

    /// Every word of every keyword.
    static let keywordTokens = Set(table.flatMap(\.tokens))

    /// Keyword words long enough that a word one letter from one is no other word: "SERIAL", the
    /// commonest, "NUMBER" after it (else a garbled "NUMBER" is read as the serial's value), and
    /// "EXPRESS" of a Dell label's Express Service Code.
    static let garbleable = ["SERIAL", "NUMBER", "EXPRESS"]

    /// Whether `word` is `keyword` (a word of letters) with one letter OCR lost or misread
    /// ("SERAL", "SERIAI" for "SERIAL").
    static func garbled(_ word: String, as keyword: String) -> Bool {
        // Every token of every line comes here: most are ruled out by their length alone.
        guard word.count == keyword.count || word.count == keyword.count - 1, word != keyword else { return false }
        let target = Array(keyword)
        let chars = Array(word)
        guard chars.allSatisfy({ $0.isLetter }) else { return false }
        if chars.count == target.count { return zip(chars, target).filter { $0 != $1 }.count == 1 }
        return target.indices.contains { k in
            var rest = target
            rest.remove(at: k)
            return rest == chars
        }
    }

    /// Quotation marks OCR reads into a small keyword from a speck beside it ("‘S/N"), and the
    /// angle brackets a caption may be printed in ("<Serial No>").
    static let quotes: Set<Character> = ["'", "\"", "`", "‘", "’", "“", "”", "„", "«", "»", "<", ">", "‹", "›"]

    /// The accented capitals of the languages labels are printed in, as their bare letters: a
    /// keyword is matched with and without its accents ("NUMÉRO DE SÉRIE").
    static let accented: [Character: Character] = [
        "À": "A", "Á": "A", "Â": "A", "Ä": "A", "Ç": "C", "È": "E", "É": "E", "Ê": "E", "Ë": "E", "Í": "I", "Î": "I", "Ï": "I",
        "Ñ": "N", "Ó": "O", "Ô": "O", "Ö": "O", "Ú": "U", "Û": "U", "Ü": "U",
    ]

    /// `line` with a space either side of each GS1 application identifier printed in brackets,
    /// as a label's human-readable line runs them together: "(01)09506000134352(21)SN4711".
    static func spacedAIs(_ line: String) -> String {
        let chars = Array(line)
        var out = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "(", let close = chars[i...].prefix(6).firstIndex(of: ")"), (3...5).contains(close - i),
                chars[i + 1..<close].allSatisfy({ $0.isASCII && $0.isNumber })
            {
                if let last = out.last, !last.isWhitespace { out.append(" ") }
                out += String(chars[i...close])
                if close + 1 < chars.count, !chars[close + 1].isWhitespace { out.append(" ") }
                i = close + 1
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }

    /// `token` as a value and the keyword printed after it, where OCR lost the space between
    /// them ("WD-WCC4NG6A8R1MT(S/N)", "WD-WMCAN1SY3GUQs/n)"): a keyword in brackets, or one with a slash
    /// (no serial holds either), after four characters or more. The longest such keyword wins
    /// ("DP/N" over "P/N"), as the table spells it: a bracket OCR lost at either end is set back,
    /// a letter it read twice read once. Any other token as it is.
    static func keywordUnglued(_ token: Substring) -> [Substring] {
        var k = token.index(token.startIndex, offsetBy: 4, limitedBy: token.endIndex) ?? token.endIndex
        while k < token.endIndex {
            let tail = token[k...]
            guard tail.first == "(" || tail.contains("/") else {
                k = token.index(after: k)
                continue
            }
            let read = normalise(tail)
            // A letter OCR read twice is read once ("s/Nn)"); a bracket lost at either end is set
            // back.
            let chars = Array(read)
            let once = String(chars.indices.filter { $0 == 0 || chars[$0 - 1] != chars[$0] }.map { chars[$0] })
            var forms: [String] = []
            for keyword in [read, once] {
                forms.append(keyword)
                if keyword.first == "(" { forms.append(keyword + ")") }
                if keyword.last == ")" { forms.append("(" + keyword) }
            }
            if let form = forms.first(where: oneWord.contains),
                token[..<k].contains(where: { $0.isLetter || $0.isNumber })
            {
                return [token[..<k], Substring(form)]
            }
            k = token.index(after: k)
        }
        return [token]
    }

    /// The keywords of one word.
    static let oneWord = Set(table.filter { $0.tokens.count == 1 }.map { $0.tokens[0] })

    /// The line split into fields at its keywords; a line with none is one field of kind `none`.
    /// An underscore is a space OCR filled in ("SER_NO"): no serial has one.
    static func fields(in line: String) -> [Field] {
        let raw = spacedAIs(line).split(whereSeparator: { $0.isWhitespace || $0 == "_" }).flatMap(keywordUnglued)
        let tokens = raw.map(normalise)
        var fields: [Field] = []
        var current: Kind? = nil
        var value: [Substring] = []
        var i = 0
        func close() {
            let text = value.joined(separator: " ").trimmingCharacters(in: " :.#()")
            if let current {
                if !text.isEmpty || current != .none { fields.append(Field(kind: current, value: text)) }
            } else if !text.isEmpty {
                fields.append(Field(kind: .none, value: text))
            }
            value = []
        }
        while i < tokens.count {
            // Keywords may be glued to their value: "S/N:7XK2M93".
            if let match = table.first(where: { keyword in
                i + keyword.tokens.count <= tokens.count && Array(tokens[i..<i + keyword.tokens.count]) == keyword.tokens
            }) {
                // "Service Tag (S/N):" is one serial keyword; consecutive keywords merge into the stronger.
                if value.isEmpty, let kind = current, kind == .serial || match.kind == .serial {
                    current = kind == .serial ? kind : match.kind
                } else {
                    close()
                    current = match.kind
                }
                i += match.tokens.count
                continue
            }
            // Or glued by a number sign: "SN#5CG11861E3".
            if let colon = raw[i].firstIndex(where: { $0 == ":" || $0 == "#" }), colon != raw[i].index(before: raw[i].endIndex) {
                let head = normalise(raw[i][..<colon])
                if let match = table.first(where: { $0.tokens == [head] }) {
                    close()
                    current = match.kind
                    value.append(raw[i][raw[i].index(after: colon)...])
                    i += 1
                    continue
                }
            }
            value.append(raw[i])
            i += 1
        }
        close()
        return fields
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
