import Model

/// The values seen, merged by their OCR-folded form.
struct Pool {
    enum Source: Hashable { case barcode, barcodeAlternative, labelledText, unlabelledText }

    struct Entry {
        var barcodeValue: String?
        var textValue: String?
        var places: [Provenance] = []
        var sources: Set<Source> = []
        var order: Int
        /// The printed value with Q for the O's OCR read (`Tokens.qReading`): it folds to the
        /// same key, so it is kept here and offered as a second reading.
        var qValue: String?
        /// Other readings of the print that fold to the same key as `textValue`, read after it
        /// (the page read again, a row at another size), or made of a reading another way (the other of two characters read twice taken out).
        var otherTexts: [(value: String, place: Provenance)] = []
        /// Where `textValue` was read.
        var textPlace: Provenance?
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

    mutating func add(_ value: String, place: Provenance, source: Source, exactOnly: Bool = false) {
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
    /// reading of the same print too (an S read for a 5 or a 9, and a 9 read too) is that other
    /// reading's, not the barcode's: the other explains every reading of the print.
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
            moved.places.appendNew(textPlaces)
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
    /// read agrees; unless a print read whole holds it too and disagrees with that barcode
    /// (`cutFromDisagreeing`): it is that print cut short, and joins it.
    mutating func mergeConfusedPrint() {
        let printedOnly = entries.filter { !$0.value.fromBarcode && $0.value.textValue != nil && !$0.value.exactOnly }
        // In the order the values were read: a dictionary's own order changes from run to run.
        for key in printedOnly.sorted(by: { $0.value.order < $1.value.order }).map(\.key) {
            guard let printed = entries[key] else { continue }
            let read = printed.textValue!
            let labelled = printed.sources.contains(.labelledText)
            var matches = entries.filter {
                $0.value.barcodeValue.map { Tokens.readAs(read, $0, alike: labelled ? Tokens.confusedStrongly : Tokens.confused) } == true
            }
            // A print the same field as a barcode's value, a character from it, disagrees with
            // it: it is not another reading of that data (without its S) with a stray character
            // besides, whichever of the two readings the barcode's is first.
            if entries.values.contains(where: { $0.fromBarcode && $0.barcodeValue.map { Tokens.sameField(read, $0) } == true }) {
                matches = matches.filter { $0.value.barcodeValue?.count == read.count }
            }
            if matches.isEmpty, labelled {
                matches = cutFromDisagreeing(read, key: key)
                if matches.isEmpty {
                    matches = entries.filter { $0.value.exactBarcode && $0.value.barcodeValue.map { Tokens.partOf(read, $0) } == true }
                }
            }
            guard matches.count == 1, let target = matches.first else { continue }
            var entry = target.value
            if entry.textValue == nil {
                entry.textValue = printed.textValue
                entry.textPlace = printed.textPlace
            }
            entry.places.appendNew(printed.places)
            entry.sources.formUnion(printed.sources)
            entry.order = min(entry.order, printed.order)
            entries[target.key] = entry
            entries[key] = nil
        }
    }

    /// The prints read whole that `read`, a labelled print cut short, is the start or end of
    /// (`Tokens.partOf`), where each is the same field as a barcode's exact value that holds
    /// `read` as well and disagrees with it (a character or two apart: `Tokens.sameField`). A
    /// line read whole on one frame and cut short on another (glare, a thumb, the edge of the
    /// view) is one print: its piece agrees with the print, not with the barcode it disagrees with.
    func cutFromDisagreeing(_ read: String, key: String) -> [String: Entry] {
        let barcodes = entries.values.filter(\.exactBarcode).compactMap(\.barcodeValue).filter { Tokens.partOf(read, $0) }
        return entries.filter { other in
            guard other.key != key, !other.value.fromBarcode, let whole = other.value.textValue else { return false }
            return Tokens.partOf(read, whole) && barcodes.contains { Tokens.sameField(whole, $0) }
        }
    }

    /// The letters OCR most often reads for a serial's characters, and what a second reading
    /// takes them for: O for 0, I for J.
    static let readAgain: [Character: Character] = ["O": "0", "I": "J"]

    /// The candidates, ranked; `formats`: the decisive vendor formats that apply to the label;
    /// `makersFormats`: the formats of the makers its print names; `captioned`: the barcodes'
    /// values (folded) a serial's keyword captions, named by it as a printed value its keyword
    /// names is; `apartFromBars`: the values (folded) of the printed lines no code's
    /// human-readable line is.
    func result(
        expressServiceCodes: [String], formats: [Grammar] = [], makersFormats: [Grammar] = [], captioned: Set<String> = [],
        apartFromBars: Set<String> = []
    ) -> [SerialCandidate] {
        Ranking(
            entries, expressServiceCodes: expressServiceCodes, formats: formats, makersFormats: makersFormats, captioned: captioned,
            apartFromBars: apartFromBars
        ).candidates()
    }

    /// The look-alikes `remake` took, if it took any.
    static func lookAlikes(_ remake: Provenance.Remake?) -> [Provenance.LookAlike] {
        if case .lookAlikes(let pairs) = remake { pairs } else { [] }
    }

    /// The second readings of a printed value no barcode backs, in the order they are offered,
    /// each with what was read again; `first` for the one listed before the value as read.
    static func secondReadings(of value: String, formats: [Grammar]) -> [(value: String, how: Provenance.Remake, first: Bool)] {
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
        let how: Provenance.Remake =
            asDigits
            ? .readAsDigits
            : .lookAlikes(
                Self.readAgain.keys.sorted(by: >).filter(changed.contains).map { Provenance.LookAlike(Self.readAgain[$0]!, for: $0) })
        var readings: [(value: String, how: Provenance.Remake, first: Bool)] = []
        // Only O made 0: the 0 is listed first, the O as read after it.
        if second != value { readings.append((second, how, changed == ["O"])) }
        // An S after the first character, where a format leaves the position open, may be a 5
        // OCR rounded: offered last, with 5 for S, on the reading listed first, between letters
        // too (on 2808 development labels, offering it only beside a digit lost five serials
        // printed with a 5 there; between letters too, it adds a row to one list in 40).
        let first = readings.first { $0.first }
        let base = Array(first?.value ?? value)
        let fives = String(base.indices.map { index in index > 0 && base[index] == "S" && open(index) ? "5" : base[index] })
        if !asDigits, fives != String(base) {
            readings.append((fives, .lookAlikes(Self.lookAlikes(first?.how) + [Provenance.LookAlike("5", for: "S")]), false))
        }
        // An I may be a 1 as well as a J: offered last, with 1 for I, on the value as read (on
        // 4212 development labels, two serials printed with a 1 there were read with an I and
        // not offered; a row more in one list in 80).
        let ones = String(value.enumerated().map { index, ch in open(index) && ch == "I" ? "1" : ch })
        if !asDigits, ones != value, !readings.contains(where: { $0.value == ones }) {
            readings.append((ones, .lookAlikes([Provenance.LookAlike("1", for: "I")]), false))
        }
        // The two together, last: an S and an I both read for digits.
        if !asDigits, fives != String(base), ones != value, let five = readings.first(where: { $0.value == fives }) {
            let both = String(fives.enumerated().map { index, ch in open(index) && ch == "I" ? "1" : ch })
            if both != fives, !readings.contains(where: { $0.value == both }) {
                readings.append((both, .lookAlikes(Self.lookAlikes(five.how) + [Provenance.LookAlike("1", for: "I")]), false))
            }
        }
        return readings
    }
}
