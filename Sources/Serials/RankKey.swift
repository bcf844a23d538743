/// Why one row of the chooser is above another: its fields compared in order, the first that
/// differs deciding.
struct RankKey: Comparable {
    /// How the evidence backs the value.
    enum Tier: Int, Comparable, CaseIterable {
        /// The label's Express Service Code proves it (the tag in base 36).
        case proven = -1
        /// A barcode carries it and a keyword names it (in print or as the code's caption), or it
        /// agrees with print and the Express Service Code proves it.
        case named = 0
        /// A barcode and its own human-readable line agree; or print alone the code proves.
        case agreeing = 1
        /// Print alone, named by a keyword.
        case printed = 2
        /// A barcode alone in a vendor's format (the maker's the label names, where it names one);
        /// or a barcode agreeing with its line, in no format of the maker, beside a print in one.
        case inFormat = 3
        /// A value in no format of the maker the label names, beside a barcode in one; a barcode
        /// alone in no vendor's format.
        case outOfFormat = 4
        /// A barcode's second reading of its data, or a value that may be a bare MAC.
        case last = 5

        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    /// Within a tier, how the row is shown.
    enum Shown: Int, Comparable {
        /// Print, or print and barcode.
        case print
        /// A barcode no print backs.
        case barcodeAlone
        /// Only a hint: a print disagreeing with a barcode, listed after it.
        case hint

        static func < (a: Shown, b: Shown) -> Bool { a.rawValue < b.rawValue }
    }

    /// Which reading of one printed value.
    enum Variant: Comparable {
        /// Its O read as 0 only: before the value as read.
        case zeroForO
        case asRead
        /// A second reading made of the value (J for I, read as digits, 5 for S), in the order made.
        case second(Int)
        /// Another reading of the same print, in the order read: after every second reading.
        case anotherReading(Int)
    }

    var tier: Tier
    var shown: Shown
    /// The order the value was first read in.
    var order: Int
    var variant: Variant

    static func < (a: RankKey, b: RankKey) -> Bool {
        (a.tier, a.shown, a.order, a.variant) < (b.tier, b.shown, b.order, b.variant)
    }
}
