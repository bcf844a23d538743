import Foundation
import Model

/// `Pool.result`, pass by pass: the pool's values ranked (tier, then the order read), then the
/// orderings that correct the ranks (a labelled print beside a barcode it disagrees with, two
/// readings of one print, a value the Express Service Code proves), the second readings offered,
/// and one row a value.
final class Ranking {
    struct Ranked {
        var candidate: SerialCandidate
        var tier: RankKey.Tier
        var order: Int
        /// Whether a keyword on the label names it (a barcode backed only by its own
        /// human-readable line is still the barcode's word alone).
        var labelled: Bool
        /// Which reading of a printed value it is.
        var variant = RankKey.Variant.asRead
        /// An unlabelled print disagreeing with a barcode: only a hint, listed after it.
        var hint = false
        /// A barcode whose own line agrees with it, beside a print it disagrees with that goes
        /// first: after that print in its tier, as a barcode alone is, whichever was read first.
        var yields = false
        /// The value with Q for O, offered last where nothing disagrees with it.
        var qValue: String? = nil
        /// Other readings of the print that differ from the value only by confusions.
        var otherTexts: [(value: String, place: Provenance)] = []
        /// Whether the label's Express Service Code proves it (the tag in base 36).
        var proven = false
    }

    let entries: [String: Pool.Entry]
    let expressServiceCodes: [String]
    let formats: [Grammar]
    let makersFormats: [Grammar]
    let captioned: Set<String>
    /// The values (folded) of the printed lines set apart from the barcodes' bars
    /// (`Layout.apartFromBars`).
    let apartFromBars: Set<String>
    /// The values ranked so far, best first.
    var ranked: [Ranked] = []

    init(
        _ entries: [String: Pool.Entry], expressServiceCodes: [String], formats: [Grammar], makersFormats: [Grammar],
        captioned: Set<String>, apartFromBars: Set<String> = []
    ) {
        self.entries = entries
        self.expressServiceCodes = expressServiceCodes
        self.formats = formats
        self.makersFormats = makersFormats
        self.captioned = captioned
        self.apartFromBars = apartFromBars
    }

    /// Every pass, in order; one row a value.
    func candidates() -> [SerialCandidate] {
        rankEntries()
        pairDisagreements()
        orderReadingsOfOnePrint()
        putProvenFirst()
        offerSecondReadings()
        return listed()
    }

    /// Each value of the pool, ranked by its tier, in the order read.
    private func rankEntries() {
        // Barcodes no labelled print backs, as they are or as a second reading (without an S that
        // may be a data identifier): an unlabelled print a character or two from one is the same
        // field printed, disagreeing (from one the print names, it is only a misreading).
        let unbacked = entries.values.filter { $0.fromBarcode && !$0.sources.contains(.labelledText) }.compactMap(\.barcodeValue)
        let barcodeInMakersFormat = entries.values.contains { entry in
            entry.exactBarcode && entry.barcodeValue.map(makersFormats.holdAny) == true
        }
        let labelledInMakersFormat = entries.values.contains { entry in
            !entry.fromBarcode && entry.sources.contains(.labelledText)
                && entry.textValue.map(makersFormats.holdAny) == true
        }
        // In the order read, so that values the ranking ties keep one order in every run.
        for entry in entries.values.sorted(by: { $0.order < $1.order }) {
            let fromBarcode = entry.fromBarcode
            let labelled = entry.sources.contains(.labelledText)
            let unlabelled = entry.sources.contains(.unlabelledText)
            // Unlabelled print alone is not a candidate: it only backs a barcode, or, as the
            // same field a character or two apart (its human-readable line), disagrees with it.
            let disagreeing = !fromBarcode && unlabelled && unbacked.contains { Tokens.sameField(entry.textValue!, $0) }
            guard fromBarcode || labelled || disagreeing else { continue }
            let evidence: Evidence = fromBarcode && (labelled || unlabelled) ? .agree : fromBarcode ? .barcode : .text
            // A barcode is exact, so its value wins when the two agree after OCR folding.
            var value = entry.barcodeValue ?? entry.textValue!
            func proven(_ value: String) -> Bool { expressServiceCodes.contains { Tokens.base36(value) == $0 } }
            var confirmedByESC = proven(value)
            // A print one reading of the code proves as it is keeps its value; failing that, a
            // code it is a character or two from mends it (a code read twice, once misread).
            if !fromBarcode, !confirmedByESC, let fixed = expressServiceCodes.lazy.compactMap({ Tokens.matchESC(value, $0) }).first {
                value = fixed
                confirmedByESC = proven(fixed)
            }
            // A value in no format of the maker the label names comes after a barcode alone in
            // that format: a print OCR lost or split some of, or a barcode backed only by its own
            // human-readable line (a product id or a MAC barcoded bare, beside a serial's barcode).
            let fitsMakers = makersFormats.fitAny(value)
            let outOfFormat = !makersFormats.isEmpty && !fitsMakers && barcodeInMakersFormat
            // A barcode a serial's keyword captions is named by it, as a labelled print is.
            let named = entry.exactBarcode && entry.barcodeValue.map { captioned.contains(OCRConfusion.fold($0)) } == true
            let tier: RankKey.Tier
            switch (evidence, labelled || named) {
            case (.agree, true), (.barcode, true): tier = .named
            case (.agree, false):
                // Backed only by its own human-readable line and in no format of the maker the
                // label names, after a labelled print in that format (a product id barcoded beside
                // the serial its keyword names).
                let afterLabelled = labelledInMakersFormat && !fitsMakers
                tier = confirmedByESC ? .named : outOfFormat ? .outOfFormat : afterLabelled ? .inFormat : .agreeing
            case (.text, _):
                tier = confirmedByESC ? .agreeing : outOfFormat ? .outOfFormat : .printed
            default:
                // A barcode alone: first one in a vendor's specific format, the format of the
                // maker the print names where it names one; a value that may be a bare MAC last,
                // also one that only opens like another maker's serial.
                let inFormat =
                    makersFormats.isEmpty
                    ? Grammar.known.contains { $0.isSpecific && $0.holds(value) } : makersFormats.holdAny(value)
                tier = !entry.exactBarcode ? .last : inFormat ? .inFormat : NotSerial.mayBeBareMAC(value) ? .last : .outOfFormat
            }
            ranked.append(
                Ranked(
                    candidate: SerialCandidate(value: value, provenance: entry.places, evidence: evidence, disagreesWith: []), tier: tier,
                    order: entry.order, labelled: labelled, qValue: entry.qValue, otherTexts: entry.otherTexts, proven: confirmedByESC))
        }
    }

    // Whether the maker's formats hold the value at `a` and not the one at `b`.
    private func inOnly(_ a: Int, _ b: Int) -> Bool {
        makersFormats.holdAny(ranked[a].candidate.value) && !makersFormats.fitAny(ranked[b].candidate.value)
    }

    /// A labelled printed value beside a barcode it disagrees with: the two shown as one.
    private func pairDisagreements() {
        // A labelled printed value and a barcode that look like the same field but differ.
        let barcodeRows = ranked.indices.filter {
            ranked[$0].candidate.evidence == .barcode || (ranked[$0].candidate.evidence == .agree && !ranked[$0].labelled)
        }
        for i in ranked.indices where ranked[i].candidate.evidence == .text {
            // Read only on lines set apart from the bars: no code's human-readable line, but a
            // field printed on its own whose keyword OCR lost.
            let apart = apartFromBars.contains(OCRConfusion.fold(ranked[i].candidate.value))
            // A print with a character read twice, where no barcode is the same field as it
            // stands but one is with that character once: once.
            let value = ranked[i].candidate.value
            if !barcodeRows.contains(where: { Tokens.sameField(value, ranked[$0].candidate.value) }),
                let once = barcodeRows.lazy.compactMap({ Tokens.printedOnce(value, sameFieldAs: self.ranked[$0].candidate.value) }).first
            {
                ranked[i].candidate.value = once
            }
            for j in barcodeRows {
                if Tokens.sameField(ranked[i].candidate.value, ranked[j].candidate.value) {
                    // Where the two differ only by a confusion, the barcode's character is the
                    // printed one too; what is left is the difference no confusion explains.
                    let printed = Array(ranked[i].candidate.value)
                    let exact = Array(ranked[j].candidate.value)
                    // A print that differs only by confusions, one of them a look-alike a real
                    // difference is as likely to be (E for F), keeps it: that is the difference.
                    // Beside a difference no confusion explains, it is OCR's and mended.
                    let weakOnly =
                        Tokens.confused(printed, exact) && !zip(printed, exact).allSatisfy { Tokens.confusedStrongly($0, $1) }
                    // An O where the barcode has a digit is the print's 0 (the position holds digits).
                    if printed.count == exact.count {
                        // Beside a difference no look-alike explains, the rarer look-alikes are
                        // OCR's too (`Tokens.misreadPairs`).
                        let unexplained = zip(printed, exact).contains { !Tokens.confused($0, $1) && !Tokens.misread($0, $1) }
                        ranked[i].candidate.value = String(
                            zip(printed, exact).map { (p: Character, e: Character) -> Character in
                                let alike =
                                    weakOnly ? Tokens.confusedStrongly(p, e) : Tokens.confused(p, e) || unexplained && Tokens.misread(p, e)
                                return alike ? e : p == "O" && e.isNumber ? "0" : p
                            })
                    }
                    ranked[i].candidate.disagreesWith.append(ranked[j].candidate.value)
                    ranked[j].candidate.disagreesWith.append(ranked[i].candidate.value)
                    // Shown beside each other, never one buried below: a labelled print first,
                    // an unlabelled one (a barcode's own human-readable line) after the barcode,
                    // and so is a labelled print in no format of the maker the label names beside
                    // a barcode in one; an unlabelled print in one beside a barcode in none goes
                    // first (its keyword garbled); a labelled print whose difference may be OCR's
                    // (E for F) goes after the barcode. An unlabelled print set apart from the bars is
                    // no human-readable line of theirs: it is ordered as a labelled one.
                    if ranked[i].labelled || apart {
                        if ranked[i].labelled { ranked[j].tier = ranked[i].tier } else { ranked[i].tier = ranked[j].tier }
                        ranked[i].hint = weakOnly || inOnly(j, i)
                        ranked[j].yields = !ranked[i].hint
                    } else {
                        ranked[i].tier = ranked[j].tier
                        ranked[i].hint = !inOnly(i, j)
                    }
                }
            }
        }
    }

    /// Two labelled prints that differ only by confusions: the likelier first.
    private func orderReadingsOfOnePrint() {
        // Two labelled printed values of one length, no barcode beside them, that differ only
        // where OCR reads one's character as the other's (a J as I, an S as 8) are two readings of
        // one print: the likelier is first, whichever was read first (`Tokens.printedAs`).
        let plain = ranked.indices.filter {
            ranked[$0].candidate.evidence == .text && ranked[$0].candidate.disagreesWith.isEmpty && ranked[$0].labelled
        }
        for i in plain {
            for j in plain where ranked[j].order > ranked[i].order && ranked[j].tier == ranked[i].tier {
                if Tokens.printedAs(ranked[j].candidate.value, readAs: ranked[i].candidate.value) {
                    (ranked[i].order, ranked[j].order) = (ranked[j].order, ranked[i].order)
                }
            }
        }
    }

    /// A value the Express Service Code proves is first.
    private func putProvenFirst() {
        // A value the label's Express Service Code proves (the tag in base 36) is first, whatever
        // else the print or a barcode seems to back: the code is a check on the tag.
        for i in ranked.indices where ranked[i].proven {
            ranked[i].tier = .proven
            ranked[i].hint = false
        }
    }

    // `item` offered again as `value`, read where `provenance` says, unless it is listed already.
    private func offer(_ item: Ranked, as value: String, provenance: [Provenance], variant: RankKey.Variant, order: Int? = nil) {
        guard !ranked.contains(where: { $0.candidate.value == value }) else { return }
        var offered = item
        offered.candidate.value = value
        offered.candidate.provenance = provenance
        offered.variant = variant
        offered.order = order ?? item.order
        ranked.append(offered)
    }

    /// The second readings of printed values: 0 for O, J for I, all digits.
    private func offerSecondReadings() {
        // OCR reads a printed 0 as O far more often than it misreads an O, and most serial
        // formats never use O (Apple, Cisco, Dell, the base-34 tails): a printed value no barcode
        // backs, with an O, is offered with 0 for O too, before the value as read, which is still
        // listed (it may be right: nothing here says which). With J, which OCR reads as I, after
        // it: OCR makes an I of 1 and L as well, and J is the likeliest of three, not the likely
        // one. Where a decisive vendor format fixes a position as a letter, its O stays. A value
        // three quarters digits whose letters are all ones OCR makes of digits (O, D, Q, I, L, S,
        // B, Z, G) is offered as all digits instead. A value the Express
        // Service Code proves is what was printed: it has no second reading.
        for item in ranked where item.candidate.evidence == .text && item.candidate.disagreesWith.isEmpty && !item.proven {
            for (n, reading) in Pool.secondReadings(of: item.candidate.value, formats: formats).enumerated() {
                offer(
                    item, as: reading.value, provenance: item.candidate.provenance.map { $0.remade(reading.how) },
                    variant: reading.first ? .zeroForO : .second(n + 1))
            }
            // Where the print was read more than once and the readings differ only by OCR's
            // confusions, they merge as one value and the first reading is the value, unless a
            // later one is likelier (`Tokens.printedAs`: a 5 where it has an S, a Q where it has
            // a 0); the others are offered after its second readings, in the order read.
            // A value the extractor made of a reading already says how ("a character read twice
            // taken out").
            for (n, other) in item.otherTexts.enumerated() {
                let provenance = other.place.remakes.isEmpty ? other.place.remade(.readAnotherWay) : other.place
                offer(item, as: other.value, provenance: [provenance], variant: .anotherReading(n))
            }
            // The value with Q for O after every other reading of its rank: the least likely of them.
            if let q = item.qValue {
                offer(item, as: q, provenance: item.candidate.provenance.map { $0.remade(.qForO) }, variant: item.variant, order: Int.max)
            }
        }
    }

    private func key(_ item: Ranked) -> RankKey {
        let shown: RankKey.Shown = item.hint ? .hint : item.candidate.evidence == .barcode || item.yields ? .barcodeAlone : .print
        return RankKey(tier: item.tier, shown: shown, order: item.order, variant: item.variant)
    }

    /// One row a value, where it ranks first, with every place it was read.
    private func listed() -> [SerialCandidate] {
        ranked.sort { key($0) < key($1) }
        // One row a value: two printed lines can come to the same value (each with the barcode's
        // character where a confusion explains the difference), and it is listed once, where it ranks first, with every place it
        // was read and each value it disagrees with once.
        var listed: [SerialCandidate] = []
        for item in ranked {
            let candidate = item.candidate
            let k: Int
            if let found = listed.firstIndex(where: { $0.value == candidate.value }) {
                k = found
            } else {
                listed.append(SerialCandidate(value: candidate.value, provenance: [], evidence: candidate.evidence, disagreesWith: []))
                k = listed.count - 1
            }
            listed[k].provenance.appendNew(candidate.provenance)
            listed[k].disagreesWith.appendNew(candidate.disagreesWith)
        }
        return listed
    }
}
