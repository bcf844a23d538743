/// The named passes of reading a frame, in the order they run: the names `bench read` measures
/// them under, and when each runs.
public enum ReaderPass: String, CaseIterable, Sendable {
    case barcodes
    case upright
    case barcodesUpright = "barcodes upright"
    case rulesErased = "rules erased"
    case text
    case smallPrintEnlarged = "small print enlarged"
    case linesSplit = "lines split"
    case rowsReadWhole = "rows read whole"
    case smearMeasured = "smear measured"
    case smearDrawnBack = "smear drawn back"
    case barcodesUnsmeared = "barcodes unsmeared"
    case paleStretched = "pale stretched"
    case paleSharpened = "pale sharpened"
    case codeRowsResized = "code rows resized"
    case unreadInk = "unread ink"
    case secondChoices = "second choices"

    /// The name a person reads in `bench read`'s table.
    public var name: String { rawValue }

    /// When the pass runs.
    public var trigger: Trigger {
        switch self {
        case .barcodes: .everyFrame("zbar, then zxing-cpp for 2-D codes")
        case .upright: .everyTextPass("the skew measured, the frame turned level")
        case .barcodesUpright: .when("no barcode read on a tilted frame")
        case .rulesErased: .everyTextPass("ruled lines painted out")
        case .text: .everyTextPass("tesseract over the page")
        case .smallPrintEnlarged: .when("small print read with doubt, on a page with print's contrast")
        case .linesSplit: .everyReading(mends: "words boxed across two lines")
        case .rowsReadWhole: .everyReading(mends: "rows read in pieces")
        case .smearMeasured: .everySecondLook("the smear's lean, where the words do not settle it")
        case .smearDrawnBack: .when("print smeared along its rows (the page then read again: text and the rest)")
        case .barcodesUnsmeared: .when("print smeared along its rows, barcodes asked for")
        case .paleStretched: .when("pale print, or nothing read (the page then read again)")
        case .paleSharpened: .when("pale print, or nothing read, on a grainy page with print's contrast (the page then read again)")
        case .codeRowsResized: .everySecondLook("reads only rows with a doubtful code no barcode carries")
        case .unreadInk: .everySecondLook("reads only inked rows nothing was read on")
        case .secondChoices: .everyTextPass("codes with an S or an I read again alone, for the digits tesseract also took them for")
        }
    }

    /// The repairs: passes a reading can do without, each turned off in a test to show what it
    /// reads (`FrameReader.turnedOff`).
    public var isRepair: Bool {
        switch self {
        case .barcodes, .upright, .rulesErased, .text, .smearMeasured: false
        default: true
        }
    }
}

/// When a reader's pass runs.
public enum Trigger: Sendable, Equatable, CustomStringConvertible {
    /// On every frame read, barcodes alone included.
    case everyFrame(String)
    /// On every frame whose printed text is read.
    case everyTextPass(String)
    /// On every text pass that takes the second looks (a live window gives them to few of its
    /// passes: `TextBudget.secondLooksPerWindow`).
    case everySecondLook(String)
    /// On every reading of a page (the first and each page made easier and read again), looking
    /// in it for what it mends.
    case everyReading(mends: String)
    /// Only where a measure of the page calls for it.
    case when(String)

    public var description: String {
        switch self {
        case .everyFrame(let what): "every frame: \(what)"
        case .everyTextPass(let what): "every text pass: \(what)"
        case .everySecondLook(let what): "every text pass with the second looks: \(what)"
        case .everyReading(let mends): "every reading of a page; reads only \(mends)"
        case .when(let condition): condition
        }
    }
}
