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
    /// Which barcode, which printed line: "CODE-128 barcode", "printed line 2".
    public var whereRead: [String]
    public var evidence: Evidence
    /// The values that look like the same field but differ (SERIAL-3): both are shown, each
    /// saying it disagrees with the other.
    public var disagreesWith: [String]
}

/// One reading for the extractor: a value and where it came from.
public struct SerialReading: Sendable, Hashable {
    public var value: String
    /// The barcode's symbology, or nil for printed text.
    public var symbology: String?
    /// "CODE-128 barcode" or "printed line 2".
    public var place: String
    /// Where it is on the label, when known: printed keywords and values are paired by it.
    public var box: Box?
    /// How its print slopes, in pixels down per pixel to the right, where its words show it (a
    /// tilted label): rows of a table are paired along it.
    public var slope: Double?
    /// A rough slope, from words closer together (`Reading.roughSlope`): for a label on which no
    /// line shows its slope.
    public var roughSlope: Double?
    /// Its words that OCR read a character of twice, from the same ink, each with the word read
    /// once (`Word.readOnce`): "PF5QHU9ON": "PF5QHU9N".
    public var readOnce: [String: String]

    public init(
        value: String, symbology: String?, place: String, box: Box? = nil, slope: Double? = nil, roughSlope: Double? = nil,
        readOnce: [String: String] = [:]
    ) {
        self.value = value
        self.symbology = symbology
        self.place = place
        self.box = box
        self.slope = slope
        self.roughSlope = roughSlope
        self.readOnce = readOnce
    }

    public init(_ reading: Reading) {
        value = reading.value
        if case .barcode(let symbology) = reading.source { self.symbology = symbology } else { symbology = nil }
        place = reading.place
        box = reading.box
        slope = reading.slope
        roughSlope = reading.roughSlope
        readOnce = reading.readOnce
    }

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
    public static func candidates(_ given: [SerialReading]) -> [SerialCandidate] {
        // The vendor formats that apply to this label, and those of the makers it names (its
        // words are the same however its lines are joined): of two readings of one value's
        // print, the one in a named maker's format first.
        let label = given.filter { !$0.isBarcode }.map(\.value).joined(separator: "\n")
        let formats = Tokens.formats(label: label)
        let makersFormats = Tokens.makersFormats(label: label)
        let readings = Layout.joined(given, inFormat: makersFormats.holdAny)
        var pool = Pool()
        var excluded = Set<String>()  // folded values named as something else
        var escs: [String] = []
        var escPlaces: [String] = []
        let barcodes = readings.filter(\.isBarcode).map(\.value)
        // Printed lines first: their keywords say what the barcodes' values are not.
        for reading in readings where !reading.isBarcode {
            for field in Keywords.fields(in: reading.value) {
                switch field.kind {
                case .serial:
                    // A PPID is a part's, whatever the line beside it says (a tilted table
                    // pairs rows wrongly).
                    guard
                        let value = Tokens.piecesJoined(field.value, formats: formats, barcodes: barcodes)
                            ?? Tokens.serialToken(field.value),
                        !NotSerial.isDellPPID(value)
                    else { continue }
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
                        pool.add(once, place: reading.place + " (a character read twice taken out)", source: .labelledText, exactOnly: true)
                    }
                    if onceFirst { addOnce() }
                    pool.add(corrected, place: reading.place, source: .labelledText)
                    for second in strays {
                        pool.add(second, place: reading.place + " (a character read twice taken out)", source: .labelledText)
                    }
                    if !onceFirst { addOnce() }
                    if let q = Tokens.qReading(
                        value, corrected: corrected, formats: formats + makersFormats, makers: makersFormats, barcodes: barcodes)
                    {
                        pool.addQReading(q, of: corrected)
                    }
                case .expressServiceCode:
                    escs.append(field.value.filter(\.isNumber))
                    escPlaces.append(reading.place)
                case .other:
                    for token in field.value.split(separator: " ") {
                        excluded.insert(OCRConfusion.fold(String(token)))
                        // A MAC or part number printed with separators is barcoded without them.
                        excluded.insert(OCRConfusion.fold(String(token.filter { !":-.".contains($0) })))
                    }
                case .none:
                    // An unlabelled token on its own line is evidence only if a barcode agrees.
                    // A decisive vendor format undoes its confusions here too ("FD0135912DK": Cisco's
                    // FDO), so that a barcode it disagrees with is shown beside the value printed.
                    // A value OCR read in pieces is one, as after a keyword ("WD-WMC4NWY 98HVP").
                    // A value of capitals alone (a Seagate's "WFKLQWXTY") is one where a barcode
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
                        pool.add(fixed, place: reading.place, source: .unlabelledText)
                    }
                }
            }
        }
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
                // rest, where no print has the S, says the same. A format of the maker the label
                // names that holds the rest and not the whole ("SPFD3SDNM" on a Lenovo label)
                // puts the rest first, and the value as barcoded after it (with no maker named,
                // only a decisive format does: `Barcodes.serialValues`).
                if value.hasPrefix("S"), !labelled.contains(OCRConfusion.fold(value)) {
                    let rest = String(value.dropFirst())
                    if labelled.contains(OCRConfusion.fold(rest)) || labelledValues.contains(where: { Tokens.sameField($0, rest) })
                        || unlabelledValues.contains(where: { $0 == rest || Tokens.sameField($0, rest) })
                            && !unlabelledValues.contains(value)
                    {
                        value = rest
                    } else if makersFormats.holdAny(rest) && !makersFormats.holdAny(value) {
                        // A format alone is weaker than print: the value as barcoded stays, after.
                        pool.add(rest, place: reading.place, source: n == 0 ? .barcode : .barcodeAlternative)
                        pool.add(value, place: reading.place, source: .barcodeAlternative)
                        continue
                    }
                }
                // A second reading of the same data (with or without an S that may be a data
                // identifier) is offered after the first, unless the print backs it.
                pool.add(value, place: reading.place, source: n == 0 ? .barcode : .barcodeAlternative)
            }
        }
        pool.splitPrintFromBarcode()
        pool.mergeConfusedPrint()
        let decisive = formats.filter(\.isDecisive)
        var found = pool.result(expressServiceCodes: escs, formats: decisive, makersFormats: makersFormats, captioned: captioned)
        // A Dell label's Express Service Code is its service tag in base 36: where no candidate
        // is that tag (OCR lost the tag, or misread it past mending), the code's own tag is one,
        // read from the code's line. It comes first where no candidate is in the format of the
        // maker the label names and the tag is (a Dell tag is seven characters: "SBRAC", five
        // read off a blurred tag, is none).
        for (esc, place) in zip(escs, escPlaces) {
            guard let tag = Tokens.tag(ofESC: esc), !found.contains(where: { Tokens.base36($0.value) == esc }) else { continue }
            let candidate = SerialCandidate(
                value: tag, whereRead: [place + " (the Express Service Code)"], evidence: .text, disagreesWith: [])
            let first = makersFormats.holdAny(tag) && !found.contains { makersFormats.holdAny($0.value) }
            found.insert(candidate, at: first ? 0 : found.count)
        }
        return found.isEmpty ? shapedLikeSerials(readings, formats: decisive, makersFormats: makersFormats) : found
    }

    /// Where nothing else is a candidate (no keyword named a serial, or OCR lost it to glare or
    /// a shadow, and no barcode could be one): the unlabelled printed values in a decisive
    /// vendor format (`formats`: the decisive ones that apply to the label), in the order
    /// printed; failing those, the unlabelled values shaped like codes (letters and digits
    /// both, six or more, nothing else, or letters alone in the format of the maker the label
    /// names: Lenovo's "PFSSWYGD"), then numbers of seven digits or more (a nameplate's
    /// serial), those of the label's top line or of a line that opens with a maker's name (its
    /// maker and model: "Juniper SRX345") last.
    /// Better the values the camera read to tap than typing one by hand; what a keyword names as
    /// something else is never among them.
    static func shapedLikeSerials(_ readings: [SerialReading], formats: [Grammar], makersFormats: [Grammar] = []) -> [SerialCandidate] {
        var inFormat: [SerialCandidate] = []
        var codes: [SerialCandidate] = []
        var numbers: [SerialCandidate] = []
        var titleCodes: [SerialCandidate] = []
        var asRead: [String: String] = [:]  // each value in a format, as OCR read it
        func makersShape(_ value: String) -> Bool {
            value.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) } && makersFormats.holdAny(value)
        }
        let printed = readings.filter { !$0.isBarcode }
        let title = printed.min { ($0.box?.y ?? .max) < ($1.box?.y ?? .max) }?.place
        // The top line, and a line that opens with a maker's name wherever it is ("Juniper
        // SRX345" under a line OCR made of noise): its codes are the maker's model.
        func titled(_ reading: SerialReading) -> Bool {
            reading.place == title || reading.value.split(separator: " ").first.map { Grammar.makerWords.contains($0.uppercased()) } == true
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
                    let code = SerialCandidate(value: value, whereRead: [reading.place], evidence: .text, disagreesWith: [])
                    if let fixed = formats.lazy.compactMap({ $0.fit(value) }).first {
                        if !inFormat.contains(where: { $0.value == fixed }) {
                            asRead[fixed] = value
                            inFormat.append(SerialCandidate(value: fixed, whereRead: [reading.place], evidence: .text, disagreesWith: []))
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
        for candidate in inFormat.isEmpty ? codes + numbers + titleCodes : inFormat {
            let seconds = Pool.secondReadings(of: candidate.value, formats: formats).map { reading in
                (
                    SerialCandidate(
                        value: reading.value, whereRead: candidate.whereRead.map { $0 + " (\(reading.how))" }, evidence: .text,
                        disagreesWith: []), reading.first
                )
            }
            // And with Q for O, last.
            let q = Tokens.qReading(asRead[candidate.value] ?? candidate.value, corrected: candidate.value, formats: formats, barcodes: [])
                .map {
                    SerialCandidate(value: $0, whereRead: candidate.whereRead.map { $0 + " (Q for O)" }, evidence: .text, disagreesWith: [])
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

    /// The candidates of the readings of a frame or a settled window.
    public static func candidates(from readings: [Reading]) -> [SerialCandidate] {
        candidates(readings.map(SerialReading.init))
    }
}

/// The values seen, merged by their OCR-folded form.
struct Pool {
    enum Source: Hashable { case barcode, barcodeAlternative, labelledText, unlabelledText }

    struct Entry {
        var barcodeValue: String?
        var textValue: String?
        var places: [String] = []
        var sources: Set<Source> = []
        var order: Int
        /// The printed value with Q for the O's OCR read (`Tokens.qReading`): it folds to the
        /// same key, so it is kept here and offered as a second reading.
        var qValue: String?
        /// Other readings of the print that fold to the same key as `textValue`, read after it
        /// (the page read again, a row at another size: "Q35Q10D" beside "Q35010D" read first),
        /// or made of a reading another way (the other of two characters read twice taken out).
        var otherTexts: [(value: String, place: String)] = []
        /// Where `textValue` was read.
        var textPlace: String?
        /// Whether the value joins a barcode's only where the two are the same (OCR folding
        /// aside): a second reading of print that is not evidence of agreeing any further.
        var exactOnly = false

        /// Whether a barcode's data gave this value, as it is or as a second reading.
        var fromBarcode: Bool { sources.contains(.barcode) || sources.contains(.barcodeAlternative) }
        /// Whether a barcode's data gave this value as it is (not only as a second reading).
        var exactBarcode: Bool { sources.contains(.barcode) }
    }

    var entries: [String: Entry] = [:]
    var next = 0

    /// Keeps `q`, a second reading of the printed `value` with Q for O, with the value's entry.
    mutating func addQReading(_ q: String, of value: String) {
        entries[OCRConfusion.fold(value)]?.qValue = q
    }

    mutating func add(_ value: String, place: String, source: Source, exactOnly: Bool = false) {
        let key = OCRConfusion.fold(value)
        var entry = entries[key] ?? Entry(order: next, exactOnly: exactOnly)
        if entries[key] == nil { next += 1 } else if !exactOnly { entry.exactOnly = false }
        if source == .barcode || source == .barcodeAlternative {
            entry.barcodeValue = entry.barcodeValue ?? value
        } else {
            if let first = entry.textValue, first != value, !entry.otherTexts.contains(where: { $0.value == value }) {
                // The likelier reading is the value (`Tokens.printedAs`: a 5 beside an S).
                if Tokens.printedAs(value, readAs: first) {
                    entry.otherTexts.insert((first, entry.textPlace ?? place), at: 0)
                    entry.textValue = value
                    entry.textPlace = place
                } else {
                    entry.otherTexts.append((value, place))
                }
            }
            if entry.textValue == nil {
                entry.textValue = value
                entry.textPlace = place
            }
        }
        if !entry.places.contains(place) { entry.places.append(place) }
        entry.sources.insert(source)
        entries[key] = entry
    }

    /// A print that folds to a barcode's value only by a look-alike that stands for another
    /// reading of the same print too ("ZASFMH6Y", S for a 5 or a 9, beside a barcode's ZA5FMH6Y
    /// and "ZA9FMH6Y" read of the same line) is that other reading's, not the barcode's: the
    /// other explains every reading of the print, the barcode's value not the one with a 9.
    /// A reading of the print that is the barcode's value as it is, the other reading does not
    /// explain: then the print stays the barcode's.
    mutating func splitPrintFromBarcode() {
        // In the order read, so that every run does the same.
        for (key, entry) in entries.sorted(by: { $0.value.order < $1.value.order }) where entry.fromBarcode {
            guard let barcode = entry.barcodeValue, let read = entry.textValue, let readPlace = entry.textPlace else { continue }
            let texts = [(value: read, place: readPlace)] + entry.otherTexts
            let other = entries.filter { other in
                guard !other.value.fromBarcode, let value = other.value.textValue, value.count == barcode.count,
                    Tokens.sameField(value, barcode), !Tokens.readAs(value, barcode)
                else { return false }
                return texts.allSatisfy { Tokens.confused($0.value, value) }
            }
            guard other.count == 1, let target = other.first else { continue }
            let textPlaces = texts.map(\.place)
            var moved = target.value
            for place in textPlaces where !moved.places.contains(place) { moved.places.append(place) }
            moved.otherTexts += texts
            moved.sources.formUnion(entry.sources.subtracting([.barcode, .barcodeAlternative]))
            moved.order = min(moved.order, entry.order)
            entries[target.key] = moved
            var left = entry
            left.places.removeAll { textPlaces.contains($0) }
            left.sources.subtract([.labelledText, .unlabelledText])
            left.textValue = nil
            left.textPlace = nil
            left.otherTexts = []
            entries[key] = left
        }
    }

    /// A printed value that OCR could have made of a barcode's exact value joins it: one value,
    /// the barcode's text, backed by both (only a difference no confusion explains is a
    /// disagreement; for a labelled print, nor one of `Tokens.weakPairs`, E for F). So does a
    /// labelled printed value OCR cut short, the start or end of one barcode's value: what it
    /// read agrees.
    mutating func mergeConfusedPrint() {
        let printedOnly = entries.filter { !$0.value.fromBarcode && $0.value.textValue != nil && !$0.value.exactOnly }
        // In the order the values were read: a dictionary's own order changes from run to run.
        for (key, printed) in printedOnly.sorted(by: { $0.value.order < $1.value.order }) {
            let read = printed.textValue!
            let labelled = printed.sources.contains(.labelledText)
            var matches = entries.filter {
                $0.value.barcodeValue.map { Tokens.readAs(read, $0, alike: labelled ? Tokens.confusedStrongly : Tokens.confused) } == true
            }
            // A print the same field as a barcode's value, a character from it, disagrees with
            // it: it is not another reading of that data (without its S) with a stray character
            // besides ("WD-WMC4N7ULV1VJ" beside SD-WMC4N7ULV1VJ is not D-WMC4N7ULV1VJ with a W
            // too many; "FOC3817FM2N" beside SOC3817FM2N is not OC3817FM2N, in HP's format, with
            // an F too many, whichever of the two readings the barcode's is first).
            if entries.values.contains(where: { $0.fromBarcode && $0.barcodeValue.map { Tokens.sameField(read, $0) } == true }) {
                matches = matches.filter { $0.value.barcodeValue?.count == read.count }
            }
            if matches.isEmpty, labelled {
                matches = entries.filter { $0.value.exactBarcode && $0.value.barcodeValue.map { Tokens.partOf(read, $0) } == true }
            }
            guard matches.count == 1, let target = matches.first else { continue }
            var entry = target.value
            if entry.textValue == nil {
                entry.textValue = printed.textValue
                entry.textPlace = printed.textPlace
            }
            for place in printed.places where !entry.places.contains(place) { entry.places.append(place) }
            entry.sources.formUnion(printed.sources)
            entry.order = min(entry.order, printed.order)
            entries[target.key] = entry
            entries[key] = nil
        }
    }

    /// The letters OCR most often reads for a serial's characters, and what a second reading
    /// takes them for: O for 0, I for J.
    static let readAgain: [Character: Character] = ["O": "0", "I": "J"]

    /// Where another reading of the print is ranked among a value's readings: after every second
    /// reading made of the value itself.
    static let readAnotherWay = 100

    /// The candidates, ranked; `formats`: the decisive vendor formats that apply to the label;
    /// `makersFormats`: the formats of the makers its print names; `captioned`: the barcodes'
    /// values (folded) a serial's keyword captions, named by it as a printed value its keyword
    /// names is.
    func result(
        expressServiceCodes: [String], formats: [Grammar] = [], makersFormats: [Grammar] = [], captioned: Set<String> = []
    ) -> [SerialCandidate] {
        struct Ranked {
            var candidate: SerialCandidate
            var tier: Int
            var order: Int
            /// Whether a keyword on the label names it (a barcode backed only by its own
            /// human-readable line is still the barcode's word alone).
            var labelled: Bool
            /// Above 0 for a second reading of a printed value (J for I, read as digits, 5 for S),
            /// listed after the value as read in that order; -1 for one that only reads its O as 0,
            /// listed before it.
            var variant = 0
            /// An unlabelled print disagreeing with a barcode: only a hint, listed after it.
            var hint = false
            /// The value with Q for O, offered last where nothing disagrees with it.
            var qValue: String? = nil
            /// Other readings of the print that differ from the value only by confusions.
            var otherTexts: [(value: String, place: String)] = []
            /// Whether the label's Express Service Code proves it (the tag in base 36).
            var proven = false
        }
        var ranked: [Ranked] = []
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
            // that format: a print OCR lost or split some of ("Fou MINFB" for PG0MNFB), or a
            // barcode backed only by its own human-readable line (a Cisco PID "C9200L-24T-4G",
            // a MAC barcoded bare, beside a Cisco or Supermicro serial's barcode).
            let fitsMakers = makersFormats.fitAny(value)
            let outOfFormat = !makersFormats.isEmpty && !fitsMakers && barcodeInMakersFormat
            // A barcode a serial's keyword captions is named by it, as a labelled print is.
            let named = entry.exactBarcode && entry.barcodeValue.map { captioned.contains(OCRConfusion.fold($0)) } == true
            let tier: Int
            switch (evidence, labelled || named) {
            case (.agree, true), (.barcode, true): tier = 0
            case (.agree, false):
                // Backed only by its own human-readable line and in no format of the maker the
                // label names, after a labelled print in that format (a Cisco PID "C1111-8P"
                // barcoded beside the serial its keyword names).
                let afterLabelled = labelledInMakersFormat && !fitsMakers
                tier = confirmedByESC ? 0 : outOfFormat ? 4 : afterLabelled ? 3 : 1
            case (.text, _):
                tier = confirmedByESC ? 1 : outOfFormat ? 4 : 2
            default:
                // A barcode alone: first one in a vendor's specific format, the format of the
                // maker the print names where it names one; a value that may be a bare MAC last,
                // also one that only opens like another maker's serial (a MAC "D25655CFEA53" on
                // a Supermicro board: D25 is an Apple plant).
                let inFormat =
                    makersFormats.isEmpty
                    ? Grammar.known.contains { $0.isSpecific && $0.holds(value) } : makersFormats.holdAny(value)
                tier = !entry.exactBarcode ? 5 : inFormat ? 3 : NotSerial.mayBeBareMAC(value) ? 5 : 4
            }
            ranked.append(
                Ranked(
                    candidate: SerialCandidate(value: value, whereRead: entry.places, evidence: evidence, disagreesWith: []), tier: tier,
                    order: entry.order, labelled: labelled, qValue: entry.qValue, otherTexts: entry.otherTexts, proven: confirmedByESC))
        }
        // Whether the maker's formats hold the value at `a` and not the one at `b`.
        func inOnly(_ a: Int, _ b: Int) -> Bool {
            makersFormats.holdAny(ranked[a].candidate.value) && !makersFormats.fitAny(ranked[b].candidate.value)
        }
        // A labelled printed value and a barcode that look like the same field but differ.
        let barcodeRows = ranked.indices.filter {
            ranked[$0].candidate.evidence == .barcode || (ranked[$0].candidate.evidence == .agree && !ranked[$0].labelled)
        }
        for i in ranked.indices where ranked[i].candidate.evidence == .text {
            // A print with a character read twice, where no barcode is the same field as it
            // stands but one is with that character once ("ZA8MGGXYY" beside ZA8NGGXY): once.
            let value = ranked[i].candidate.value
            if !barcodeRows.contains(where: { Tokens.sameField(value, ranked[$0].candidate.value) }),
                let once = barcodeRows.lazy.compactMap({ Tokens.printedOnce(value, sameFieldAs: ranked[$0].candidate.value) }).first
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
                        // OCR's too (`Tokens.misreadPairs`): "YZ4N5QD" beside YZ4M8QD is YZ4M5QD.
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
                    // a barcode in one (APC's factory code "5A" read as "3A"); an unlabelled print
                    // in one beside a barcode in none goes first (Samsung's leading S, barcoded F,
                    // its keyword garbled); a labelled print whose difference may be OCR's (E for
                    // F) goes after the barcode.
                    if ranked[i].labelled {
                        ranked[j].tier = ranked[i].tier
                        ranked[i].hint = weakOnly || inOnly(j, i)
                    } else {
                        ranked[i].tier = ranked[j].tier
                        ranked[i].hint = !inOnly(i, j)
                    }
                }
            }
        }
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
        // A value the label's Express Service Code proves (the tag in base 36) is first, whatever
        // else the print or a barcode seems to back: the code is a check on the tag.
        for i in ranked.indices where ranked[i].proven {
            ranked[i].tier = -1
            ranked[i].hint = false
        }
        // `item` offered again as `value`, read where `whereRead` says, unless it is listed already.
        func offer(_ item: Ranked, as value: String, whereRead: [String], variant: Int, order: Int? = nil) {
            guard !ranked.contains(where: { $0.candidate.value == value }) else { return }
            var offered = item
            offered.candidate.value = value
            offered.candidate.whereRead = whereRead
            offered.variant = variant
            offered.order = order ?? item.order
            ranked.append(offered)
        }
        // OCR reads a printed 0 as O far more often than it misreads an O, and most serial
        // formats never use O (Apple, Cisco, Dell, the base-34 tails): a printed value no barcode
        // backs, with an O, is offered with 0 for O too ("ZLBTMJDO": "ZLBTMJD0"), before the value
        // as read, which is still listed (it may be right: nothing here says which). With J,
        // which OCR reads as I ("PFGLPLIM": "PFGLPLJM"), after it: OCR makes an I of 1 and L as
        // well, and J is the likeliest of three, not the likely one. Where a
        // decisive vendor format fixes a position as a letter ("FOC"), its O stays. A value three
        // quarters digits whose letters are all ones OCR makes of digits (O, D, Q, I, L, S, B, Z,
        // G) is offered as all digits instead ("OG355481": "06355481"). A value the Express
        // Service Code proves is what was printed: it has no second reading.
        for item in ranked where item.candidate.evidence == .text && item.candidate.disagreesWith.isEmpty && !item.proven {
            for (n, reading) in Self.secondReadings(of: item.candidate.value, formats: formats).enumerated() {
                offer(
                    item, as: reading.value, whereRead: item.candidate.whereRead.map { $0 + " (\(reading.how))" },
                    variant: reading.first ? -1 : n + 1)
            }
            // Where the print was read more than once and the readings differ only by OCR's
            // confusions, they merge as one value and the first reading is the value, unless a
            // later one is likelier (`Tokens.printedAs`: a 5 where it has an S, a Q where it has
            // a 0); the others are offered after its second readings, in the order read.
            // A value the extractor made of a reading already says how ("a character read twice
            // taken out").
            for (n, other) in item.otherTexts.enumerated() {
                let whereRead = other.place.hasSuffix(")") ? other.place : other.place + " (read another way)"
                offer(item, as: other.value, whereRead: [whereRead], variant: Self.readAnotherWay + n)
            }
            // The value with Q for O after every other reading of its rank: the least likely of them.
            if let q = item.qValue {
                offer(item, as: q, whereRead: item.candidate.whereRead.map { $0 + " (Q for O)" }, variant: item.variant, order: Int.max)
            }
        }
        func place(_ item: Ranked) -> Int { item.hint ? 2 : item.candidate.evidence == .barcode ? 1 : 0 }
        ranked.sort { ($0.tier, place($0), $0.order, $0.variant) < ($1.tier, place($1), $1.order, $1.variant) }
        // One row a value: two printed lines can come to the same value (each with the barcode's
        // character where a confusion explains the difference: "XJS065198661" and "XISO65198661"
        // beside XJ9065198661), and it is listed once, where it ranks first, with every place it
        // was read and each value it disagrees with once.
        var listed: [SerialCandidate] = []
        for item in ranked {
            let candidate = item.candidate
            let k: Int
            if let found = listed.firstIndex(where: { $0.value == candidate.value }) {
                k = found
            } else {
                listed.append(SerialCandidate(value: candidate.value, whereRead: [], evidence: candidate.evidence, disagreesWith: []))
                k = listed.count - 1
            }
            for whereRead in candidate.whereRead where !listed[k].whereRead.contains(whereRead) { listed[k].whereRead.append(whereRead) }
            for other in candidate.disagreesWith where !listed[k].disagreesWith.contains(other) { listed[k].disagreesWith.append(other) }
        }
        return listed
    }

    /// The second readings of a printed value no barcode backs, in the order they are offered,
    /// each with what was read again; `first` for the one listed before the value as read.
    static func secondReadings(of value: String, formats: [Grammar]) -> [(value: String, how: String, first: Bool)] {
        let fitting = formats.filter { $0.holds(value) }
        // A position every format the value fits leaves open, outside the known prefix it starts with.
        func open(_ index: Int) -> Bool { Grammar.leaveOpen(fitting, value, at: index) }
        let reread = String(value.enumerated().map { index, ch in open(index) ? Self.readAgain[ch] ?? ch : ch })
        let zeroed = value.map { $0 == "O" ? "0" : $0 }
        let letters = zeroed.filter(\.isLetter)
        let asDigits =
            fitting.isEmpty && !letters.isEmpty && (zeroed.count - letters.count) * 4 >= zeroed.count * 3
            && letters.allSatisfy { CharClass.digit.correct($0) != $0 }
        let second = asDigits ? String(zeroed.map(CharClass.digit.correct)) : reread
        let changed = Set(zip(value, second).filter { $0 != $1 }.map(\.0))
        let how =
            asDigits
            ? "read as digits"
            : Self.readAgain.keys.sorted(by: >).filter(changed.contains).map { "\(Self.readAgain[$0]!) for \($0)" }.joined(
                separator: ", ")
        var readings: [(value: String, how: String, first: Bool)] = []
        // Only O made 0: the 0 is listed first, the O as read after it.
        if second != value { readings.append((second, how, changed == ["O"])) }
        // An S after the first character, where a format leaves the position open, may be a 5
        // OCR rounded ("C0279RNBS8VA"): offered last, with 5 for S, on the reading listed first.
        // Between letters too ("ZLSRNFV8" for ZL5RNFV8): on 2808 development labels, offering it
        // only beside a digit lost five serials printed with a 5 there; between letters too, it
        // adds a row to one list in 40.
        let first = readings.first { $0.first }
        let base = Array(first?.value ?? value)
        let fives = String(base.indices.map { index in index > 0 && base[index] == "S" && open(index) ? "5" : base[index] })
        if !asDigits, fives != String(base) { readings.append((fives, (first.map { $0.how + ", " } ?? "") + "5 for S", false)) }
        // An I may be a 1 as well as a J: offered last, with 1 for I, on the value as read (on
        // 4212 development labels, two serials printed with a 1 there were read with an I and
        // not offered; a row more in one list in 80).
        let ones = String(value.enumerated().map { index, ch in open(index) && ch == "I" ? "1" : ch })
        if !asDigits, ones != value, !readings.contains(where: { $0.value == ones }) { readings.append((ones, "1 for I", false)) }
        return readings
    }
}
