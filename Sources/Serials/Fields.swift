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
    static let words: Set<String> = Set(table.flatMap(\.tokens).filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) })

    static func normalise(_ token: Substring) -> String {
        var t = String(token.uppercased().map { accented[$0] ?? $0 })
        // A colon blurred or dimmed is read as a hyphen ("Date Code-").
        while let last = t.last, ":.#,;-".contains(last) || quotes.contains(last) { t.removeLast() }
        while let first = t.first, quotes.contains(first) { t.removeFirst() }
        return garbleable.first { garbled(t, as: $0) } ?? t
    }

    /// Keyword words long enough that a word one letter from one is no other word: "SERIAL", the
    /// commonest, "NUMBER" after it ("SERIAL NUNBER", its m smeared: else "NUNBER" was the
    /// serial's value), and "EXPRESS" of a Dell label's Express Service Code ("Exoress", its p
    /// blurred).
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

    /// Quotation marks OCR reads into a small keyword from a speck beside it ("‘S/N").
    static let quotes: Set<Character> = ["'", "\"", "`", "‘", "’", "“", "”", "„", "«", "»"]

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

    /// OCR confusions undone where one of `formats` (the specific vendor formats that apply to the
    /// label: `formats(label:)`) fixes the class of a position. Failing every format, a character
    /// OCR read twice (beside itself or a look-alike: "SNXFJPO0G602322H") is taken out where that
    /// makes a decisive format fit, with the least left to correct, unless a barcode on the label
    /// is what the print was read from (which settles the stray character better).
    /// A number printed in digits alone keeps them in a loose format (one not decisive) of a
    /// maker the label does not name (`makers`: the formats of those it names): Lenovo's
    /// "AAxxxxxx" would make a nameplate's "15990565" "IS990565". A format does not correct the
    /// value into a difference from a barcode that the value as read agrees with (OCR's
    /// confusions aside): the barcode's exact text is then the value.
    static func correctByGrammar(
        _ value: String, formats grammars: [Grammar] = formats(label: ""), makers: [Grammar]? = nil, barcodes: [String] = []
    ) -> String {
        for grammar in grammars {
            guard let fixed = grammar.fit(value) else { continue }
            // Not into a difference from a barcode the print as read agrees with: an S in a digit's
            // place is a 9 misread as well as a 5 ("SCGS176ZE7" beside 5CG9176ZE7).
            if barcodes.contains(where: { readAs(value, $0) && !readAs(fixed, $0) && fixed != $0 }) { return value }
            let named = makers.map { makers in makers.contains { $0.vendor == grammar.vendor } } ?? true
            return grammar.isDecisive || named || !value.allSatisfy(\.isNumber) ? fixed : value
        }
        // A barcode OCR could have printed it from says which character is the stray one.
        if barcodes.contains(where: { readAs(value, $0) }) { return value }
        // So does one a character shorter, the same field as the value with one character taken
        // out (noise read as a letter, in a value of eight or more: "WD-WCC4NQWD9YFG3" beside
        // WD-WCC4NQWD4FG3 is WD-WCC4NQWD9FG3, which disagrees with it).
        let decisive = grammars.filter(\.isDecisive)
        let chars = Array(value)
        for exact in barcodes where exact.count >= 8 && exact.count == chars.count - 1 {
            // The fewest differences left; of equals, a letter taken out (noise reads as one).
            let fits = chars.indices.compactMap { k -> (fixed: String, cost: Int)? in
                var rest = chars
                rest.remove(at: k)
                let shorter = String(rest)
                guard sameField(shorter, exact), let fixed = decisive.lazy.compactMap({ $0.fit(shorter) }).first else { return nil }
                let differences = zip(OCRConfusion.fold(fixed), OCRConfusion.fold(exact)).filter { $0 != $1 }.count
                return (fixed, 2 * differences + (chars[k].isLetter ? 0 : 1))
            }
            if let best = fits.min(by: { $0.cost < $1.cost }) { return best.fixed }
        }
        // The removal that leaves the least to correct; of equals, the first.
        return strayRemovals(value, formats: decisive).min { $0.corrected < $1.corrected }?.fixed ?? value
    }

    /// `value` with one character OCR read twice taken out, each way that makes one of
    /// `formats` fit, as that format corrects it, with how many characters it corrected; in the
    /// order of the characters taken out. A character is taken out where `stray` says so of it
    /// and a neighbour (by default: it is the neighbour or its look-alike).
    static func strayRemovals(
        _ value: String, formats: [Grammar], stray: (Character, Character) -> Bool = { confused($0, $1) }
    ) -> [(fixed: String, corrected: Int)] {
        var fits: [(fixed: String, corrected: Int)] = []
        for rest in oneTakenOut(value, stray: stray) {
            guard let fixed = formats.lazy.compactMap({ $0.fit(rest) }).first else { continue }
            let corrected = zip(fixed, rest).filter { $0 != $1 }.count
            // One value reached two ways is listed once, with the least it took.
            if let seen = fits.firstIndex(where: { $0.fixed == fixed }) {
                fits[seen].corrected = min(fits[seen].corrected, corrected)
            } else {
                fits.append((fixed, corrected))
            }
        }
        return fits
    }

    /// `value` with one character taken out, each way where `stray` says so of that character
    /// and a neighbour (by default: it is the neighbour or its look-alike, one character OCR
    /// read twice), in the order of the characters taken out.
    static func oneTakenOut(_ value: String, stray: (Character, Character) -> Bool = { confused($0, $1) }) -> [String] {
        let chars = Array(value)
        return chars.indices.filter { besideAlike(chars, $0, stray) }.map { k in
            var rest = chars
            rest.remove(at: k)
            return String(rest)
        }
    }

    /// Whether `chars[k]` is, by `alike`, like a character beside it.
    static func besideAlike(_ chars: [Character], _ k: Int, _ alike: (Character, Character) -> Bool = { confused($0, $1) }) -> Bool {
        (k > 0 && alike(chars[k], chars[k - 1])) || (k + 1 < chars.count && alike(chars[k], chars[k + 1]))
    }

    /// A second reading of a printed serial no barcode settles, with Q for each O OCR read
    /// (`read`) where the value listed (`corrected`, its O made 0 or kept) leaves a letter
    /// possible: OCR loses a Q's tail under blur, noise or a low resolution and reads an O
    /// ("SOFWGSOX685666S" for SQFWGS0X685666S, "G8WNJXLOKGYB" for G8WNJXLQKGYB). Not where a
    /// format the value fits fixes the position (Samsung's 0 in seventh place, Supermicro's
    /// plant letter) or its known prefix holds it, nor in a value that fits none of the formats
    /// of the makers the label names (`makers`: a character read twice), nor where a barcode is
    /// the same field. Listed after the value as read: a 0 is likelier.
    static func qReading(_ read: String, corrected: String, formats: [Grammar], makers: [Grammar] = [], barcodes: [String]) -> String? {
        let raw = Array(read.uppercased())
        var out = Array(corrected)
        guard raw.count == out.count, raw.contains("O"), makers.isEmpty || makers.holdAny(corrected),
            !barcodes.contains(where: { sameField(corrected, $0) || readAs(corrected, $0) || readAs(read, $0) })
        else { return nil }
        let holding = formats.filter { $0.holds(corrected) }
        for i in raw.indices where raw[i] == "O" && (out[i] == "0" || out[i] == "O") && Grammar.leaveOpen(holding, corrected, at: i) {
            out[i] = "Q"
        }
        let value = String(out)
        return value == corrected ? nil : value
    }

    /// Second readings of a printed serial that fits none of its maker's formats (`formats`:
    /// those of the makers the label names, decisive or not) where one character OCR read
    /// twice is taken out: one of two alike, or a letter beside the digit it looks like (OCR
    /// reads digits as letters far more often than the reverse: "PFWQO0Q8V" on a Lenovo label
    /// is "PFWQ0Q8V"); none where a barcode it could have been printed from says which
    /// character is the stray one, nor where a barcode is the same field as the print read
    /// (as long, a character or two apart): the print disagrees with it, and no character of it
    /// was read twice ("EY8692808552" beside EY8692808502 on a Juniper label is not
    /// EY869280852, which OCR could have cut short of the barcode's value and so hid the
    /// disagreement).
    /// A character read three times ("ST53LR0P578742XxX" for ST53LR0P578742X) is read once,
    /// where taking out one does not make a format fit.
    static func strayReadings(_ value: String, formats: [Grammar], barcodes: [String]) -> [String] {
        guard !formats.fitAny(value), !barcodes.contains(where: { readAs(value, $0) || sameField(value, $0) }) else { return [] }
        // A letter beside the digit it looks like first: two letters alike are often both printed.
        let lookalike = strayRemovals(value, formats: formats) { $0.isLetter && $1.isNumber && confused($0, $1) }.map(\.fixed)
        let alike = strayRemovals(value, formats: formats, stray: ==).map(\.fixed)
        let once = lookalike + alike.filter { !lookalike.contains($0) }
        guard once.isEmpty else { return once }
        let chars = Array(value.uppercased())
        var thrice: [String] = []
        for k in chars.indices.dropLast(2) where chars[k] == chars[k + 1] && chars[k] == chars[k + 2] {
            let rest = String(chars[..<k] + chars[(k + 2)...])
            if let fixed = formats.lazy.compactMap({ $0.fit(rest) }).first, !thrice.contains(fixed) { thrice.append(fixed) }
        }
        return thrice
    }

    /// Pairs of characters OCR reads one for the other on printed serials: `OCRConfusion.pairs`
    /// (each letter and the digit it folds to) and the look-alikes folding cannot hold, because
    /// they are pairwise, not transitive (S is read for 5 and for 8, but 5 is not read for 8).
    /// S for 9 is print smeared sideways: on the development labels, a 9 read as S was behind
    /// four of 33 disagreements shown where none was planted (three on motion-blurred labels).
    static let confusedPairs: Set<String> = Set(OCRConfusion.pairs.map { String([$0.letter, $0.digit]) }).union([
        "S8", "S9", "OD", "OQ", "Q9", "IL", "J1", "IJ", "A4", "T7", "B3", "E3", "J3", "EF",
    ])

    static func confused(_ a: Character, _ b: Character) -> Bool {
        a == b || pair(a, b, in: confusedPairs)
    }

    /// Whether `a` and `b` are as long and, place by place, each character is the other's or its
    /// look-alike (`confused`): one could be OCR's reading of the other, with nothing added or lost.
    static func confused(_ a: some Collection<Character>, _ b: some Collection<Character>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { confused($0, $1) }
    }

    /// Look-alikes OCR makes that a real difference is as likely to be: E for F (a bar lost or
    /// added). A labelled print that differs from a barcode only by confusions, one of them among
    /// these, is not taken for the barcode's value misread: the two are shown disagreeing, the
    /// barcode first. On the development labels, as many planted F/E disagreements were hidden
    /// as prints were read E for F. The other look-alikes stay confusions: taking S for 9 or I, J
    /// and 1 out too showed no planted disagreement more there and six to eight more where none
    /// was planted; 3 for B, E or J and 9 for Q changed nothing there, and the rendered labels
    /// that first showed them were misreadings.
    static let weakPairs: Set<String> = ["EF"]

    /// Other look-alikes OCR made on the development labels, where a printed serial was read
    /// with one or two characters wrong (each pair three times or more; 9 for O, 0 or 3 for 8
    /// the most): too often a real difference to make a print agree with a barcode, they are
    /// OCR's only beside a difference no look-alike explains, and there they are mended, so the
    /// print shown disagreeing says what it disagrees by ("YZ4N5QD" beside YZ4M8QD: YZ4M5QD).
    static let misreadPairs: Set<String> = [
        "9O", "08", "38", "3S", "06", "MN", "JU", "6E", "6O", "IT", "7J", "56", "CO", "27", "09", "CG", "AM", "5B", "1T",
        "VY", "35", "KX", "0C", "17", "9I", "68", "5J", "MW",
    ]

    /// Which way OCR makes its look-alikes: each pair is a printed character, then the one OCR
    /// read for it, where OCR did so ten times or more on the development labels' printed serials
    /// and the other way round at most a third as often (a 5 read as S 154 times, an S as 5 24
    /// times; an S read as 8 106 times, an 8 as S 28; a J read as I 46 times, never the reverse).
    static let readFor: Set<String> = [
        "0O", "5S", "S8", "JI", "1I", "9S", "FE", "QO", "9O", "8B", "Q0", "4A", "06", "83", "Z2", "08", "J3", "MN", "G6",
    ]

    /// Whether `printed` and `read`, two readings of one print, differ only where OCR reads the
    /// character of `printed` as the one of `read` (`readFor`), at one or two places: then
    /// `printed` is the likelier of the two ("Q35Q10D" beside "Q35010D", "S2HRJM0R011285A" beside
    /// "S2HRIM0R011285A").
    static func printedAs(_ printed: String, readAs read: String) -> Bool {
        guard printed.count == read.count else { return false }
        let diffs = zip(printed, read).filter { $0 != $1 }
        return !diffs.isEmpty && diffs.count <= 2 && diffs.allSatisfy { readsFor($0, $1) }
    }

    /// Whether OCR reads a printed `printed` as `read` far more often than the other way round (`readFor`).
    static func readsFor(_ printed: Character, _ read: Character) -> Bool {
        readFor.contains(String([printed, read]))
    }

    /// Whether `a` and `b` are among `misreadPairs`.
    static func misread(_ a: Character, _ b: Character) -> Bool {
        pair(a, b, in: misreadPairs)
    }

    /// `confused`, leaving out `weakPairs`.
    static func confusedStrongly(_ a: Character, _ b: Character) -> Bool {
        confused(a, b) && !pair(a, b, in: weakPairs)
    }

    /// Whether `a` and `b`, in either order, are one of `pairs`.
    static func pair(_ a: Character, _ b: Character, in pairs: Set<String>) -> Bool {
        pairs.contains(String([a, b])) || pairs.contains(String([b, a]))
    }

    /// Whether OCR reading `exact` (a barcode's value) could have printed `read`: the same
    /// characters up to confusions, with at most one stray character besides: one read twice
    /// beside its look-alike ("G8WQS5L" for "G8WQ5L"), or, in a value of eight characters or
    /// more, any one (noise read as a letter: "ZR6ESLMPK" for "ZR6SLMPK"); in one of twelve or
    /// more, two ("SG2Z2EHAOY510783M" for "SG2EHA0Y510783M"). A stray character is never a
    /// difference: a planted or real disagreement is a character changed, not one added. Nor is
    /// a letter read in lower case, one or two of them: serials are printed in capitals, and
    /// tesseract reads a capital it cannot make out, at the start of a code's line, as a small
    /// letter ("nW5109081198" of RW5109081198, "onF4K5A9" of ZAF4K5A9), which says nothing of
    /// what was printed there; a reading with more is not of the value ("Eveeszgosss2").
    static func readAs(_ read: String, _ exact: String, alike: (Character, Character) -> Bool = { confused($0, $1) }) -> Bool {
        let a = Array(read.uppercased())
        let b = Array(exact.uppercased())
        guard a != b, b.count >= 5, a.count >= b.count, a.count - b.count <= (b.count >= 12 ? 2 : 1) else { return false }
        func stray(_ i: Int) -> Bool { b.count >= 8 || besideAlike(a, i) }
        let small = Array(read).map(\.isLowercase)
        let anything = small.count == a.count && small.filter { $0 }.count <= 2 ? small : []
        // a[i...] against b[j...], with `left` stray characters still to find.
        func matches(_ i: Int, _ j: Int, _ left: Int) -> Bool {
            if i == a.count { return j == b.count && left == 0 }
            if j < b.count, alike(a[i], b[j]) || !anything.isEmpty && anything[i], matches(i + 1, j + 1, left) { return true }
            return left > 0 && stray(i) && matches(i + 1, j, left - 1)
        }
        return matches(0, 0, a.count - b.count)
    }

    /// Whether `read` is part of `exact` as OCR cut it short (glare, a shadow, the label's edge)
    /// or split it ("CND 92800M5"): its start or its end, up to confusions, and at least half of
    /// it; or, six characters or more, what is left of it where OCR lost characters within it
    /// (a spot of glare: "WN3435856" of WN3435830056): its first and last characters, and the
    /// rest in order.
    static func partOf(_ read: String, _ exact: String) -> Bool {
        let a = Array(read.uppercased())
        let b = Array(exact.uppercased())
        guard a.count >= 4, a.count < b.count, 2 * a.count >= b.count else { return false }
        if zip(a, b).allSatisfy({ confused($0, $1) }) || zip(a.reversed(), b.reversed()).allSatisfy({ confused($0, $1) }) {
            return true
        }
        guard a.count >= 6, let first = a.first, let last = a.last, confused(first, b[0]), confused(last, b[b.count - 1]) else {
            return false
        }
        // In order: each character at the first place left that it could have been read from.
        var j = 0
        for ch in a {
            while j < b.count && !confused(ch, b[j]) { j += 1 }
            guard j < b.count else { return false }
            j += 1
        }
        return true
    }

    /// `printed` with a character OCR read twice (beside itself or its look-alike) taken out,
    /// where it is then the same field as `exact`, one character shorter: the first such.
    static func printedOnce(_ printed: String, sameFieldAs exact: String) -> String? {
        guard printed.count == exact.count + 1 else { return nil }
        return oneTakenOut(printed).first { sameField($0, exact) }
    }

    /// Whether two values look like the same field: the same length, differing in at most two places.
    static func sameField(_ a: String, _ b: String) -> Bool {
        let x = Array(OCRConfusion.fold(a))
        let y = Array(OCRConfusion.fold(b))
        guard x.count == y.count, x.count >= 5 else { return false }
        let differences = zip(x, y).filter { $0 != $1 }.count
        return differences > 0 && differences <= 2
    }

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
        return editDistance(Array(value.uppercased()), Array(tag)) <= 2 ? tag : nil
    }

    /// How many characters must be changed, added or taken out to make `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
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
}

/// What a barcode's data says the serial could be.
enum Barcodes {
    static func serialValues(_ data: String, symbology: String) -> [String] {
        if ["EAN-13", "EAN-8", "UPC-A", "UPC-E", "ISBN-10", "ISBN-13"].contains(symbology) { return [] }
        if data.hasPrefix("MFST-") { return [] }
        if let gs1 = gs1Serial(data) { return gs1.isEmpty ? [] : [gs1] }
        if let elements = DataIdentifiers.parse(data) {
            // An envelope says what each value is: only a serial's data identifier names a serial.
            return elements.filter { DataIdentifiers.serials.contains($0.identifier) }.map(\.value)
        }
        if data.hasPrefix("1S"), data.count > 3, data.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            let rest = String(data.dropFirst(2))
            // Lenovo, on its labels' Code 128 and QR alike: 1S + the 10-character machine type
            // and model + the 8-character serial.
            if rest.count == 18 { return [String(rest.suffix(8))] }
            return Tokens.looksLikeSerial(rest) ? [rest] : []
        }
        if symbology == "QR-Code" { return qrSerials(data) }
        if data.hasPrefix("1P") || data.hasPrefix("30P") { return [] }  // MH10.8.2 part numbers
        if data.hasPrefix("S"), data.count > 6 {
            // An S data identifier, or a serial that starts with S: both are offered where the
            // rest has a vendor's serial format and the whole has none. Where that format is
            // decisive (rarely fitted by chance), the S is the identifier: the rest first;
            // otherwise the exact value first. A print that names the value without the S
            // settles it either way (the extractor).
            let rest = String(data.dropFirst())
            let restFits = Grammar.known.filter { $0.isSpecific && $0.holds(rest) }
            let fitsWhole = Grammar.known.contains { $0.isSpecific && $0.holds(data) }
            if !restFits.isEmpty && !fitsWhole { return restFits.contains(where: \.isDecisive) ? [rest, data] : [data, rest] }
            // In no vendor's format either way, the S may still be the identifier ANSI MH10.8.2
            // gives a serial (an asset label's commonest): the rest is offered after the exact
            // value, where it is shaped like a serial itself.
            if !fitsWhole, !plainValue(data).isEmpty, Tokens.looksLikeSerial(rest) { return [data, rest] }
        }
        return plainValue(data)
    }

    /// The GS1 serial (AI 21) of GS1 element strings; "" for GS1 data without one; nil for data
    /// that is not GS1. Split by the GS1 table of AI lengths (`GS1.parse`); data that opens as GS1
    /// does (AI 01 and a valid GTIN, or a GS1 symbology identifier) but carries an AI the table
    /// does not know is still split, each unknown value ending at a separator.
    static func gs1Serial(_ data: String) -> String? {
        if let elements = GS1.parse(data) { return elements.first { $0.ai == "21" }?.value ?? "" }
        var rest = Substring(data)
        if rest.hasPrefix("]C1") || rest.hasPrefix("]Q3") {
            rest = rest.dropFirst(3)
        } else {
            guard rest.hasPrefix("01"), rest.count >= 16, NotSerial.isGTIN(String(rest.dropFirst(2).prefix(14))) else { return nil }
        }
        let fixed: [String: Int] = ["00": 18, "01": 14, "02": 14, "11": 6, "12": 6, "13": 6, "15": 6, "16": 6, "17": 6, "20": 2]
        while !rest.isEmpty {
            while rest.first == "\u{1D}" { rest = rest.dropFirst() }
            let ai = String(rest.prefix(2))
            rest = rest.dropFirst(2)
            if let length = fixed[ai] {
                rest = rest.dropFirst(length)
                continue
            }
            // Variable length (and three- or four-digit AIs, whose value ends the same way): up to
            // the group separator, or the end.
            let end = rest.firstIndex(of: "\u{1D}") ?? rest.endIndex
            let value = String(rest[..<end])
            if ai == "21" { return value }
            rest = rest[end...]
        }
        return ""
    }

    /// Serials in a QR code: a labelled field in its text, or a serial parameter of a URL.
    static func qrSerials(_ data: String) -> [String] {
        if data.lowercased().hasPrefix("http") {
            // GS1 Digital Link: https://id.gs1.org/01/<GTIN>/21/<serial>.
            let path = data.split(separator: "?", maxSplits: 1)[0].split(separator: "/").map(String.init)
            if let gtin = path.firstIndex(of: "01"), gtin + 1 < path.count, NotSerial.isGTIN(path[gtin + 1]),
                let ai = path.indices.first(where: { $0 > gtin + 1 && path[$0] == "21" }), ai + 1 < path.count,
                let serial = percentDecoded(path[ai + 1]), !serial.isEmpty
            {
                return [serial]
            }
            guard let query = data.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
            for pair in query.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, ["sn", "serial", "s"].contains(kv[0].lowercased()), Tokens.looksLikeSerial(String(kv[1])) {
                    return [String(kv[1])]
                }
            }
            return []
        }
        if data.hasPrefix("{") { return jsonSerials(data) }
        let lines = data.split(whereSeparator: { "\n;|".contains($0) }).map(String.init)
        let serials = lines.flatMap { Keywords.fields(in: $0) }.filter { $0.kind == .serial }.compactMap { Tokens.serialToken($0.value) }
        if !serials.isEmpty { return serials }
        return lines.count == 1 ? plainValue(data) : []
    }

    /// A barcode's data with no structure, as it is, where it could be a serial. A barcode is
    /// exact: a value of letters only (a Dell tag or a Seagate serial can be) is still one.
    static func plainValue(_ data: String) -> [String] {
        Tokens.looksLikeSerial(data) || (data.count >= 6 && data.count <= 20 && data.allSatisfy { $0.isASCII && $0.isLetter }) ? [data] : []
    }

    /// `text` with its %XX escapes decoded; nil where one is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The string values of a JSON object's serial keys ("sn", "serial", "serialNumber",
    /// "serial_no", ...), in order: a QR code's data as some makers write it.
    static func jsonSerials(_ data: String) -> [String] {
        // The quoted strings in order; a key is a string followed by a colon.
        var strings: [(text: String, isKey: Bool)] = []
        var chars = Substring(data)
        while let open = chars.firstIndex(of: "\"") {
            var text = ""
            var i = chars.index(after: open)
            while i < chars.endIndex, chars[i] != "\"" {
                if chars[i] == "\\" { i = chars.index(after: i) }
                if i < chars.endIndex { text.append(chars[i]) }
                i = i < chars.endIndex ? chars.index(after: i) : i
            }
            guard i < chars.endIndex else { break }
            chars = chars[chars.index(after: i)...]
            let isKey = chars.drop(while: \.isWhitespace).first == ":"
            strings.append((text, isKey))
        }
        let keys: Set<String> = ["SN", "SERIAL", "SERIALNO", "SERIALNUMBER", "SERIALNUM", "SERVICETAG"]
        return zip(strings, strings.dropFirst()).compactMap { key, value in
            guard key.isKey, !value.isKey, keys.contains(key.text.uppercased().filter { $0.isLetter }) else { return nil }
            return Tokens.looksLikeSerial(value.text) ? value.text : nil
        }
    }
}
