import Model

/// Where a candidate was read, and how its value was made of what was read there. Typed, so that
/// code asks which barcode or line and which confusions; put into the person's words in one place
/// (`words`): "printed line 2 (0 for O)".
public struct Provenance: Sendable, Hashable, CustomStringConvertible {
    /// Which barcode or printed line.
    public enum Place: Sendable, Hashable {
        case barcode(symbology: String)
        case printedLine(Int)
        /// A place given in words that name neither (a test's, a corpus file's own).
        case named(String)

        public init(_ source: ReadingSource) {
            switch source {
            case .barcode(let symbology): self = .barcode(symbology: symbology)
            case .text(let line): self = .printedLine(line)
            }
        }

        /// The place in the words `words` gives it: "CODE-128 barcode", "printed line 2".
        public init(words: String) {
            if words.hasPrefix("printed line "), let line = Int(words.dropFirst("printed line ".count)) {
                self = .printedLine(line)
            } else if words.hasSuffix(" barcode"), words.count > " barcode".count {
                self = .barcode(symbology: String(words.dropLast(" barcode".count)))
            } else {
                self = .named(words)
            }
        }

        /// "CODE-128 barcode", "printed line 2".
        public var words: String {
            switch self {
            case .barcode(let symbology): "\(symbology) barcode"
            case .printedLine(let line): "printed line \(line)"
            case .named(let words): words
            }
        }

        public var isBarcode: Bool { if case .barcode = self { true } else { false } }
    }

    /// A character OCR reads for another, taken for that other: `taken` for `read` ("0 for O").
    public struct LookAlike: Sendable, Hashable {
        public var taken: Character
        public var read: Character
        public init(_ taken: Character, for read: Character) {
            self.taken = taken
            self.read = read
        }
    }

    /// How a value differs from what was read at its place.
    public enum Remake: Sendable, Hashable {
        /// Characters OCR reads for others, taken for them (0 for O, J for I, 5 for S, Q for O).
        case lookAlikes([LookAlike])
        /// A value three quarters digits whose letters OCR makes of digits, read as digits.
        case readAsDigits
        /// A character OCR read twice from the same ink, taken out.
        case characterReadTwiceTakenOut
        /// The service tag an Express Service Code read there stands for.
        case expressServiceCode
        /// Another reading of the same print, which folds to the value's own.
        case readAnotherWay
        /// The start of the maker's mark, cut off where it was read, put back as its format has it.
        case markPutBack(String)
        /// Run on with a piece of the same line another frame read: each frame saw part of it.
        case piecesJoined

        /// An O read as it was printed, a Q: the least likely of a value's readings.
        public static let qForO = Remake.lookAlikes([LookAlike("Q", for: "O")])

        /// The words in the brackets after the place.
        public var words: String {
            switch self {
            case .lookAlikes(let pairs): pairs.map { "\($0.taken) for \($0.read)" }.joined(separator: ", ")
            case .readAsDigits: "read as digits"
            case .characterReadTwiceTakenOut: "a character read twice taken out"
            case .expressServiceCode: "the Express Service Code"
            case .readAnotherWay: "read another way"
            case .markPutBack(let mark): "\(mark) put back, as the maker's format starts"
            case .piecesJoined: "joined with what another frame read of the line"
            }
        }
    }

    public var place: Place
    /// How the value was made of what was read there, in the order applied; none for the value
    /// as read.
    public var remakes: [Remake]

    public init(_ place: Place, remakes: [Remake] = []) {
        self.place = place
        self.remakes = remakes
    }

    /// The same place, its value made another way too.
    public func remade(_ remake: Remake) -> Provenance { Provenance(place, remakes: remakes + [remake]) }

    /// For the person: "printed line 2 (0 for O)", "CODE-128 barcode".
    public var words: String { ([place.words] + remakes.map { "(\($0.words))" }).joined(separator: " ") }

    public var description: String { words }
}
