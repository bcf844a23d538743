import Foundation
import Model

/// How a candidate is backed: a barcode and the print agree, or only one of them read it.
public enum Evidence: String, Sendable, Hashable {
    case agree, barcode, text
}

/// A value that might be the serial, with where it was read. Evidence, not scores: nothing here
/// is a number for the person (SERIAL-5).
public struct SerialCandidate: Sendable, Hashable {
    public var value: String
    /// Which barcodes and printed lines it was read on, and how it was made of what was read.
    public var provenance: [Provenance]
    public var evidence: Evidence
    /// The values that look like the same field but differ (SERIAL-3): both are shown, each
    /// saying it disagrees with the other.
    public var disagreesWith: [String]

    public init(value: String, provenance: [Provenance], evidence: Evidence, disagreesWith: [String]) {
        self.value = value
        self.provenance = provenance
        self.evidence = evidence
        self.disagreesWith = disagreesWith
    }

    /// Where it was read, for the person: "CODE-128 barcode", "printed line 2 (0 for O)".
    public var whereRead: [String] { provenance.map(\.words) }
}

/// One reading for the extractor: a value and where it came from.
public struct SerialReading: Sendable, Hashable {
    public var value: String
    /// The barcode's symbology, or nil for printed text.
    public var symbology: String?
    /// Which barcode or printed line.
    public var at: Provenance.Place
    /// "CODE-128 barcode" or "printed line 2".
    public var place: String { at.words }
    /// Where it is on the label, when known: printed keywords and values are paired by it.
    public var box: Box?
    /// How its print slopes, in pixels down per pixel to the right, where its words show it (a
    /// tilted label): rows of a table are paired along it.
    public var slope: Double?
    /// A rough slope, from words closer together (`Reading.roughSlope`): for a label on which no
    /// line shows its slope.
    public var roughSlope: Double?
    /// Its words that OCR read a character of twice, from the same ink, each with the word read
    /// once (`Word.readOnce`).
    public var readOnce: [String: String]
    /// Whether it was read before the hand moved the label in a way nothing read showed (a
    /// label coming into view): where it lies against what was read after is not known.
    public var unplaced = false

    public init(
        value: String, symbology: String?, at place: Provenance.Place, box: Box? = nil, slope: Double? = nil, roughSlope: Double? = nil,
        readOnce: [String: String] = [:]
    ) {
        self.value = Self.withoutNULs(value)
        self.symbology = symbology
        self.at = place
        self.box = box
        self.slope = slope
        self.roughSlope = roughSlope
        self.readOnce = readOnce
    }

    public init(_ reading: Reading) {
        value = Self.withoutNULs(reading.value)
        if case .barcode(let symbology) = reading.source { self.symbology = symbology } else { symbology = nil }
        at = Provenance.Place(reading.source)
        box = reading.box
        slope = reading.slope
        roughSlope = reading.roughSlope
        readOnce = reading.readOnce
    }

    /// `value` with its NUL characters taken out. A NUL is no character of a serial (a code's
    /// payload padded with them reads as its characters), and Foundation's substring search
    /// stops at one: it finds "b\0" in "ab", and where the text before it is not ASCII it traps
    /// (a code's hostile payload must never crash the extractor).
    static func withoutNULs(_ value: String) -> String {
        value.unicodeScalars.contains("\u{0}") ? String(value.unicodeScalars.filter { $0 != "\u{0}" }) : value
    }

    /// A reading at the place `place` names in words ("printed line 2").
    public init(
        value: String, symbology: String?, place: String, box: Box? = nil, slope: Double? = nil, roughSlope: Double? = nil,
        readOnce: [String: String] = [:]
    ) {
        self.init(
            value: value, symbology: symbology, at: Provenance.Place(words: place), box: box, slope: slope, roughSlope: roughSlope,
            readOnce: readOnce)
    }

    /// Where it was read, as a candidate's provenance begins.
    var provenance: Provenance { Provenance(at) }

    /// `token` (a value read on this line) with each of its words OCR read a character of twice
    /// read once; nil where it has none.
    func readOnce(_ token: String) -> String? {
        var once = token
        for (word, fixed) in readOnce.sorted(by: { $0.key < $1.key }) {
            if let range = once.range(of: word) { once.replaceSubrange(range, with: fixed) }
        }
        return once == token ? nil : once
    }

    public var isBarcode: Bool { symbology != nil }
}

/// Proposes the serial candidates of one settled set of readings (SERIAL-2, SERIAL-3).
///
/// It knows the keywords that name a serial (allowing for OCR garbling: S/N, SN, SIN, 5/N,
/// Serial No., (S), Service Tag, ...) and those that name something else (P/N, PID, MODEL, MTM,
/// REV, VID, MAC, IMEI, UPC, EAN, FCC ID, ...); vendor formats (Apple, Dell with its Express
/// Service Code, HP, Lenovo with its 1S barcode, Cisco); structured barcodes (GS1 AI 21 and 01,
/// ANSI MH10.8.2 S, 1S, P, 1P); values that are something else by their check digits or shape
/// (EAN/UPC, IMEI, MAC, dates). OCR confusions are undone only where a vendor format fixes a
/// position's class, and a barcode and a printed line that match after that agree. The order puts
/// agreement first; where a barcode and a labelled printed value look like the same field but
/// differ, both are listed, next to each other, each naming the other.
public enum SerialExtractor {
    /// `titles`: whether the codes of the label's top line or of a line that opens with a
    /// maker's name (its model) are offered where nothing else is (`shapedLikeSerials`).
    public static func candidates(_ given: [SerialReading], titles: Bool = true) -> [SerialCandidate] {
        let (label, makersFormats, readings) = laidOut(given)
        let formats = Tokens.formats(label: label)
        var pool = Pool()
        var excluded = Set<String>()  // folded values named as something else
        var escs: [String] = []
        var escPlaces: [Provenance] = []
        let barcodes = readings.filter(\.isBarcode).map(\.value)
        takePrintedLines(
            readings, formats: formats, makersFormats: makersFormats, barcodes: barcodes, into: &pool, excluded: &excluded, escs: &escs,
            escPlaces: &escPlaces)
        let captioned = takeBarcodes(readings, makersFormats: makersFormats, excluded: excluded, into: &pool)
        pool.splitPrintFromBarcode()
        pool.mergeConfusedPrint()
        let decisive = formats.filter(\.isDecisive)
        var found = pool.result(
            expressServiceCodes: escs, formats: decisive, makersFormats: makersFormats, captioned: captioned,
            apartFromBars: Layout.apartFromBars(readings))
        addTags(ofExpressServiceCodes: escs, at: escPlaces, makersFormats: makersFormats, to: &found)
        return found.isEmpty ? shapedLikeSerials(readings, formats: decisive, makersFormats: makersFormats, titles: titles) : found
    }

    /// The label's words (its printed lines, one a line), the formats of the makers it names,
    /// and `given` with its lines joined as laid out (`Layout.joined`). The formats that apply
    /// are found in the words, the same however the lines are joined: of two readings of one
    /// value's print, the one in a named maker's format first.
    static func laidOut(_ given: [SerialReading]) -> (label: String, makersFormats: [Grammar], readings: [SerialReading]) {
        let label = given.filter { !$0.isBarcode }.map(\.value).joined(separator: "\n")
        let makersFormats = Tokens.makersFormats(label: label)
        return (label, makersFormats, Layout.joined(given, inFormat: makersFormats.holdAny))
    }

    /// The printed lines into `pool`: each value its keyword names (or none names), each value
    /// named as something else into `excluded`, each Express Service Code into `escs`. Printed
    /// lines first: their keywords say what the barcodes' values are not.
    static func takePrintedLines(
        _ readings: [SerialReading], formats: [Grammar], makersFormats: [Grammar], barcodes: [String], into pool: inout Pool,
        excluded: inout Set<String>, escs: inout [String], escPlaces: inout [Provenance]
    ) {
        for reading in readings where !reading.isBarcode {
            let fields = Keywords.fields(in: reading.value)
            for word in modelWords(fields) { excluded.insert(OCRConfusion.fold(word)) }
            for field in fields {
                switch field.kind {
                case .serial:
                    takeSerial(field.value, of: reading, formats: formats, makersFormats: makersFormats, barcodes: barcodes, into: &pool)
                case .expressServiceCode:
                    escs.append(field.value.filter(\.isNumber))
                    escPlaces.append(reading.provenance)
                case .other:
                    for token in field.value.split(separator: " ") {
                        excluded.insert(OCRConfusion.fold(String(token)))
                        // A MAC or part number printed with separators is barcoded without them.
                        excluded.insert(OCRConfusion.fold(String(token.filter { !":-.".contains($0) })))
                    }
                case .none:
                    // An unlabelled token on its own line is evidence only if a barcode agrees.
                    // A decisive vendor format undoes its confusions here too, so that a barcode it
                    // disagrees with is shown beside the value printed. A value OCR read in pieces
                    // is one, as after a keyword. A value of capitals alone is one where a barcode
                    // holds it: looked for only there, it is no word of the label's text.
                    let tokens =
                        Tokens.piecesJoined(field.value, formats: formats, barcodes: barcodes).map { [$0] }
                        ?? Tokens.joinedHyphens(field.value).split(separator: " ").map(String.init)
                    for value in tokens
                    where Tokens.looksLikeSerial(value)
                        || Layout.valueShaped(value, least: 6) && !NotSerial.check(value)
                            && barcodes.contains(where: { $0.contains(value) })
                    {
                        let fixed = formats.lazy.filter(\.isDecisive).compactMap { $0.fit(value) }.first ?? value
                        pool.add(fixed, place: reading.provenance, source: .unlabelledText)
                    }
                }
            }
        }
    }

    /// The words after a maker's name that opens a line (its `fields`), before any keyword
    /// ("TOSHIBA HDWG480", "Kingston DC600M"): the maker's model, named so as a keyword names a
    /// field. None of them is a serial, barcoded or printed.
    static func modelWords(_ fields: [Keywords.Field]) -> [String] {
        guard let first = fields.first, first.kind == .none else { return [] }
        let words = first.value.split(separator: " ")
        guard let maker = words.first, Grammar.makerWords.contains(maker.uppercased()) else { return [] }
        return words.dropFirst().map(String.init)
    }

    /// A value a serial's keyword names, into `pool`: corrected by the formats, with the
    /// readings of it that take a character OCR read twice out, and its Q for O reading.
    static func takeSerial(
        _ named: String, of reading: SerialReading, formats: [Grammar], makersFormats: [Grammar], barcodes: [String], into pool: inout Pool
    ) {
        // A PPID is a part's, whatever the line beside it says (a tilted table
        // pairs rows wrongly).
        guard
            let value = Tokens.piecesJoined(named, formats: formats, barcodes: barcodes)
                ?? Tokens.serialToken(named),
            !NotSerial.isDellPPID(value)
        else { return }
        let corrected = Tokens.correctByGrammar(value, formats: formats, makers: makersFormats, barcodes: barcodes)
        // A character OCR read twice from the same ink, taken out. Which of the two
        // readings of that ink is the stray one, boxes do not always tell: this is a
        // second reading, never evidence that a barcode a character away agrees,
        // and none is needed where the print as read already agrees with one. It is
        // listed first where it is in the format of the maker the label names and
        // the print as read is not (one character too many for it), unless a maker's
        // format says the same, by another character (then they are one entry).
        let once =
            barcodes.contains(where: { Tokens.readAs(corrected, $0) })
            ? nil
            : reading.readOnce(value).flatMap(Tokens.serialToken).map {
                Tokens.correctByGrammar($0, formats: formats, makers: makersFormats, barcodes: barcodes)
            }
        func inMakersFormat(_ value: String) -> Bool { makersFormats.fitAny(value) }
        let strays = Tokens.strayReadings(corrected, formats: makersFormats, barcodes: barcodes)
        let onceFirst =
            once.map { once in
                inMakersFormat(once) && !inMakersFormat(corrected)
                    && !strays.contains { OCRConfusion.fold($0) == OCRConfusion.fold(once) }
            } ?? false
        func addOnce() {
            guard let once else { return }
            pool.add(once, place: reading.provenance.remade(.characterReadTwiceTakenOut), source: .labelledText, exactOnly: true)
        }
        // A value with the start of its maker's mark cut off (`Grammar.markPutBack`): first, with it put back.
        if let restored = makersFormats.lazy.compactMap({ $0.markPutBack(value) }).first {
            pool.add(restored.value, place: reading.provenance.remade(.markPutBack(restored.mark)), source: .labelledText)
        }
        if onceFirst { addOnce() }
        pool.add(corrected, place: reading.provenance, source: .labelledText)
        for second in strays {
            pool.add(second, place: reading.provenance.remade(.characterReadTwiceTakenOut), source: .labelledText)
        }
        if !onceFirst { addOnce() }
        if let q = Tokens.qReading(
            value, corrected: corrected, formats: formats + makersFormats, makers: makersFormats, barcodes: barcodes)
        {
            pool.addQReading(q, of: corrected)
        }
    }

    /// The barcodes into `pool`, as `Barcodes.serialValues` reads them, those `excluded` left out;
    /// the values (folded) of the barcodes a serial's keyword captions.
    static func takeBarcodes(
        _ readings: [SerialReading], makersFormats: [Grammar], excluded: Set<String>, into pool: inout Pool
    ) -> Set<String> {
        let labelledEntries = pool.entries.filter { $0.value.sources.contains(.labelledText) }
        let labelled = Set(labelledEntries.keys)
        let labelledValues = labelledEntries.values.compactMap(\.textValue)
        let unlabelledValues = Set(pool.entries.values.filter { $0.sources.contains(.unlabelledText) }.compactMap(\.textValue))
        // A barcode captioned with another field's keyword ("FW" over its bars) holds that field;
        // one captioned with a serial's is named by it, as a value its keyword names.
        let captions = Layout.captions(readings)
        // The values of the barcodes a serial's keyword captions, as barcoded and without an S
        // data identifier (folded).
        var captioned = Set<String>()
        for (k, reading) in readings.enumerated() where reading.isBarcode && captions[k] != .other {
            let values = Barcodes.serialValues(reading.value, symbology: reading.symbology!)
            if captions[k] == .serial {
                captioned.formUnion((values + values.filter { $0.hasPrefix("S") }.map { String($0.dropFirst()) }).map(OCRConfusion.fold))
            }
            for (n, var value) in values.enumerated() where !excluded.contains(OCRConfusion.fold(value)) {
                // A bare S data identifier before a serial the print names: the serial is the rest.
                // The print names it too when it is the same field as the rest, differing in a
                // character or two: then the two are shown disagreeing, as the same field. A
                // print with no keyword (OCR garbled it) that is the rest, or the same field as the
                // rest, where no print has the S (reads the whole, or the same field as it),
                // says the same, unless a labelled print is the same field as the whole. A format
                // of the maker the label names that holds the rest and not the whole puts the rest
                // first, and the value as barcoded after it (with no maker named, only a decisive
                // format does: `Barcodes.serialValues`).
                if value.hasPrefix("S"), !labelled.contains(OCRConfusion.fold(value)) {
                    let rest = String(value.dropFirst())
                    let namesWhole = labelledValues.contains { Tokens.sameField($0, value) }
                    let unlabelledReads = { (field: String) in unlabelledValues.contains { $0 == field || Tokens.sameField($0, field) } }
                    if labelled.contains(OCRConfusion.fold(rest)) || labelledValues.contains(where: { Tokens.sameField($0, rest) })
                        || !namesWhole && unlabelledReads(rest) && !unlabelledReads(value)
                    {
                        value = rest
                    } else if makersFormats.holdAny(rest) && !makersFormats.holdAny(value) {
                        // A format alone is weaker than print: the value as barcoded stays, after.
                        pool.add(rest, place: reading.provenance, source: n == 0 ? .barcode : .barcodeAlternative)
                        pool.add(value, place: reading.provenance, source: .barcodeAlternative)
                        continue
                    }
                }
                // A second reading of the same data (with or without an S that may be a data
                // identifier) is offered after the first, unless the print backs it.
                pool.add(value, place: reading.provenance, source: n == 0 ? .barcode : .barcodeAlternative)
            }
        }
        return captioned
    }

    /// The service tag of each Express Service Code no candidate is, read from the code's line.
    static func addTags(
        ofExpressServiceCodes escs: [String], at escPlaces: [Provenance], makersFormats: [Grammar], to found: inout [SerialCandidate]
    ) {
        // A Dell label's Express Service Code is its service tag in base 36: where no candidate
        // is that tag (OCR lost the tag, or misread it past mending), the code's own tag is one,
        // read from the code's line. It comes first where no candidate is in the format of the
        // maker the label names and the tag is (a few characters read off a blurred tag are not).
        // Where no print of that field was read, a barcode a character or two from the tag (the
        // same field) disagrees with it, and the tag goes before it: the code proves what the
        // label prints, and both are shown, each saying so (SERIAL-3). Beside a print of the
        // field, the code's tag is another reading of it (the code misread).
        for (esc, place) in zip(escs, escPlaces) {
            guard let tag = Tokens.tag(ofESC: esc), !found.contains(where: { Tokens.base36($0.value) == esc }) else { continue }
            var candidate = SerialCandidate(
                value: tag, provenance: [place.remade(.expressServiceCode)], evidence: .text, disagreesWith: [])
            if !found.contains(where: { $0.evidence == .text && Tokens.sameField($0.value, tag) }),
                let coded = found.firstIndex(where: { $0.evidence != .text && Tokens.sameField($0.value, tag) })
            {
                candidate.disagreesWith = [found[coded].value]
                found[coded].disagreesWith.append(tag)
                found.insert(candidate, at: coded)
                continue
            }
            let first = makersFormats.holdAny(tag) && !found.contains { makersFormats.holdAny($0.value) }
            found.insert(candidate, at: first ? 0 : found.count)
        }
    }

    /// Where nothing else is a candidate (no keyword named a serial, or OCR lost it to glare or
    /// a shadow, and no barcode could be one): the unlabelled printed values in a decisive
    /// vendor format (`formats`: the decisive ones that apply to the label), in the order
    /// printed; failing those, the unlabelled values shaped like codes (letters and digits
    /// both, six or more, nothing else, or letters alone in the format of the maker the label
    /// names), then numbers of seven digits or more (a nameplate's serial), those of the
    /// label's top line or of a line that opens with a maker's name (its maker and model) last,
    /// where `titles` says so. Better the values the camera read to tap than typing one by hand;
    /// what a keyword names as something else is never among them.
    static func shapedLikeSerials(
        _ readings: [SerialReading], formats: [Grammar], makersFormats: [Grammar] = [], titles: Bool = true
    ) -> [SerialCandidate] {
        var inFormat: [SerialCandidate] = []
        var codes: [SerialCandidate] = []
        var numbers: [SerialCandidate] = []
        var titleCodes: [SerialCandidate] = []
        var asRead: [String: String] = [:]  // each value in a format, as OCR read it
        func makersShape(_ value: String) -> Bool {
            value.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) } && makersFormats.holdAny(value)
        }
        let printed = readings.filter { !$0.isBarcode }
        let title = printed.min { ($0.box?.y ?? .max) < ($1.box?.y ?? .max) }?.at
        // The top line, and a line that opens with a maker's name wherever it is ("Juniper
        // SRX345" under a line OCR made of noise): its codes are the maker's model.
        func titled(_ reading: SerialReading) -> Bool {
            reading.at == title || reading.value.split(separator: " ").first.map { Grammar.makerWords.contains($0.uppercased()) } == true
        }
        for reading in printed {
            let isTitle = titled(reading)
            for field in Keywords.fields(in: reading.value) where field.kind == .none {
                for token in Tokens.runOn(field.value) {
                    let value = Tokens.withOCRSymbols(String(token))
                    guard Tokens.looksLikeSerial(value) || !isTitle && makersShape(String(token)) && !NotSerial.check(value)
                    else {
                        continue
                    }
                    let code = SerialCandidate(value: value, provenance: [reading.provenance], evidence: .text, disagreesWith: [])
                    if let fixed = formats.lazy.compactMap({ $0.fit(value) }).first {
                        if !inFormat.contains(where: { $0.value == fixed }) {
                            asRead[fixed] = value
                            inFormat.append(
                                SerialCandidate(value: fixed, provenance: [reading.provenance], evidence: .text, disagreesWith: []))
                        }
                    } else if (codes + numbers + titleCodes).contains(where: { $0.value == value }) || Keywords.words.contains(value) {
                        continue
                    } else if !isTitle, value.count >= 7, value.allSatisfy(\.isNumber) {
                        numbers.append(code)
                    } else if value.count >= 6, value.allSatisfy({ $0.isLetter || $0.isNumber }), value.contains(where: \.isLetter) {
                        if isTitle { titleCodes.append(code) } else { codes.append(code) }
                    }
                }
            }
        }
        // Each with its second readings, as a labelled print is offered.
        var offered: [SerialCandidate] = []
        for candidate in inFormat.isEmpty ? codes + numbers + (titles ? titleCodes : []) : inFormat {
            let seconds = Pool.secondReadings(of: candidate.value, formats: formats).map { reading in
                (
                    SerialCandidate(
                        value: reading.value, provenance: candidate.provenance.map { $0.remade(reading.how) }, evidence: .text,
                        disagreesWith: []), reading.first
                )
            }
            // And with Q for O, last.
            let q = Tokens.qReading(asRead[candidate.value] ?? candidate.value, corrected: candidate.value, formats: formats, barcodes: [])
                .map {
                    SerialCandidate(
                        value: $0, provenance: candidate.provenance.map { $0.remade(.qForO) }, evidence: .text, disagreesWith: [])
                }
            for item in seconds.filter(\.1).map(\.0) + [candidate] + seconds.filter({ !$0.1 }).map(\.0) + (q.map { [$0] } ?? [])
            where !offered.contains(where: { $0.value == item.value }) {
                offered.append(item)
            }
        }
        return offered
    }

    /// Whether OCR reads one of `a` and `b` for the other on printed serials (or they are the
    /// same): O and 0, S and 5, S and 8, ...
    public static func lookAlike(_ a: Character, _ b: Character) -> Bool { Tokens.confused(a, b) }

    /// Whether OCR reads a printed `printed` as `read` far more often than the other way round
    /// (`Tokens.readFor`: 0 as O, 5 as S, S as 8, J as I): of two readings, `printed` is likelier.
    public static func oftenReadAs(_ printed: Character, _ read: Character) -> Bool {
        Tokens.readsFor(printed, read)
    }

    /// The candidates of the readings of a frame or a settled window (`titles`: as `candidates`).
    public static func candidates(from readings: [Reading], titles: Bool = true) -> [SerialCandidate] {
        candidates(readings.map(SerialReading.init), titles: titles)
    }

    /// Whether `text` is a field's keywords alone, the last with nothing after it ("S/N#",
    /// "SER. NO.").
    public static func isKeywordsAlone(_ text: String) -> Bool { Layout.onlyKeywords(text) }

    /// Whether a serial's keyword names `value` (look-alikes folded) on a printed line of
    /// `given`: after it on its line, or over it (its lines joined as `candidates` joins them).
    public static func keywordNames(_ value: String, in given: [SerialReading]) -> Bool {
        let key = OCRConfusion.fold(value)
        return laidOut(given).readings.contains { reading in
            !reading.isBarcode
                && Keywords.fields(in: reading.value).contains {
                    $0.kind == .serial && Tokens.serialToken($0.value).map(OCRConfusion.fold) == key
                }
        }
    }
}
