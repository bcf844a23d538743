import Model

/// Values mended: by the formats that apply, characters read twice, Q for O.
extension Tokens {
    /// OCR confusions undone where one of `formats` (the specific vendor formats that apply to the
    /// label: `formats(label:)`) fixes the class of a position. Failing every format, a character
    /// OCR read twice (beside itself or a look-alike: "SNXFJPO0G602322H") is taken out where that
    /// makes a decisive format fit, with the least left to correct, unless a barcode on the label
    /// is what the print was read from (which settles the stray character better) or the same
    /// field as it. Beside a barcode a character shorter, a character read twice beside itself
    /// is taken out in any format where that leaves the print that barcode's field: the print
    /// disagrees with it.
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
            // place is a 9 misread as well as a 5.
            if barcodes.contains(where: { readAs(value, $0) && !readAs(fixed, $0) && fixed != $0 }) { return value }
            let named = makers.map { makers in makers.contains { $0.vendor == grammar.vendor } } ?? true
            return grammar.isDecisive || named || !value.allSatisfy(\.isNumber) ? fixed : value
        }
        // A barcode OCR could have printed it from (or the value itself) says which character is
        // the stray one; one the same field as it, as long and a character or two apart, says none
        // was read twice: the print disagrees with it.
        if barcodes.contains(where: { $0 == value || readAs(value, $0) || sameField(value, $0) }) { return value }
        // So does one a character shorter, the same field as the value with one character taken
        // out (noise read as a letter, in a value of eight or more): the value so mended
        // disagrees with it.
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
            // In no format: a character read twice beside itself.
            if let once = oneTakenOut(value, stray: ==).first(where: { sameField($0, exact) }) { return once }
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
    /// reads digits as letters far more often than the reverse); none where a barcode it could
    /// have been printed from says which character is the stray one, nor where a barcode is the
    /// same field as the print read (as long, a character or two apart): the print disagrees
    /// with it, and no character of it was read twice (taking one out could make it a barcode's
    /// value cut short, and hide the disagreement).
    /// A character read three times is read once, where taking out one does not make a format fit.
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
}
