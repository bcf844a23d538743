import CTesseract
import Imaging
import Model

#if canImport(Glibc)
    import Glibc
#endif

/// Reads printed text in a gray frame with tesseract: lines and their words, with boxes.
///
/// Initialising an engine costs about 50 ms, so one engine is kept per reader and reused across
/// frames. Not for sharing between threads: give each thread its own reader (a reader with
/// `workers` over one reads the parts of a page side by side on engines of its own, `read(_:
/// [TextPart])`). Tesseract is built with OpenMP here and runs about 5x slower unless
/// `OMP_THREAD_LIMIT=1` was in the environment when the process started (see `ThreadLimit`).
public final class TextReader {
    /// How tesseract looks for text on the page.
    public enum Layout: Int32, Sendable {
        /// Text anywhere, in no particular order: a device label (PSM 11).
        case sparse = 11
        /// One line of text (PSM 7).
        case singleLine = 7
        /// Automatic page layout (PSM 3).
        case page = 3
        /// One block of text, line under line (PSM 6).
        case block = 6
    }

    private let engine: OpaquePointer
    let layout: Layout
    let language: String
    /// Engines that read the parts of a page side by side: this one and `workers - 1` others.
    public let workers: Int
    /// The other engines, made when first needed.
    var helpers: [TextReader] = []
    /// The CPU time the other engines spent reading parts, on threads other than the caller's
    /// (the caller's own thread counts its own).
    public internal(set) var cpuElsewhere = Duration.zero
    /// Whether this engine reports each character's alternatives (tesseract's
    /// `lstm_choice_mode`). Reporting them changes what an engine reads (a letter it hesitates
    /// over can be spelled twice, confidences move), so a reader's own engine does not, and asks
    /// `choosing`, word by word (`secondChoice(of:in:)`).
    let choices: Bool
    /// The engine that reads a word again with its characters' alternatives, made when first
    /// needed.
    private var choosing: TextReader?

    /// An engine for `language` ("eng"), looking for text as `layout` says; the parts of a page
    /// are read on `workers` engines side by side.
    public convenience init(language: String = "eng", layout: Layout = .sparse, workers: Int = 1) throws(ReaderError) {
        try self.init(language: language, layout: layout, workers: workers, choices: false)
    }

    init(language: String, layout: Layout, workers: Int, choices: Bool) throws(ReaderError) {
        let engine = TessBaseAPICreate()!
        // Tesseract reports "Estimating resolution" and similar chatter to debug_file; init's own
        // chatter goes to stderr before any variable can be set, so it is given as a config value.
        let keys = ["debug_file"]
        let values = ["/dev/null"]
        let status = withCStringArray(keys) { k in
            withCStringArray(values) { v in
                TessBaseAPIInit4(engine, nil, language, OEM_LSTM_ONLY, nil, 0, k, v, 1, 0)
            }
        }
        guard status == 0 else {
            TessBaseAPIDelete(engine)
            throw ReaderError(kind: .tesseractDataMissing(language: language))
        }
        TessBaseAPISetPageSegMode(engine, TessPageSegMode(UInt32(layout.rawValue)))
        if choices { TessBaseAPISetVariable(engine, "lstm_choice_mode", "2") }
        self.engine = engine
        self.layout = layout
        self.language = language
        self.workers = max(1, workers)
        self.choices = choices
    }

    deinit {
        TessBaseAPIEnd(engine)
        TessBaseAPIDelete(engine)
    }

    /// Every line of text tesseract finds in `frame`, top to bottom, with its words.
    public func read(_ frame: Frame) -> [TextLine] {
        recognise(frame, within: nil)
    }

    /// The lines of text in the part of `frame` inside `area`, looked for as `layout` says (for
    /// this one reading), with boxes in the frame's pixels.
    public func read(_ frame: Frame, within area: Box, as layout: Layout) -> [TextLine] {
        guard let area = frame.part(area) else { return [] }
        TessBaseAPISetPageSegMode(engine, TessPageSegMode(UInt32(layout.rawValue)))
        defer { TessBaseAPISetPageSegMode(engine, TessPageSegMode(UInt32(self.layout.rawValue))) }
        return recognise(frame, within: area)
    }

    /// `body` given tesseract's results for the part of `frame` inside `area` (all of it where
    /// nil); nil where nothing could be recognised.
    private func recognised<R>(_ frame: Frame, within area: Box?, _ body: (OpaquePointer) -> R) -> R? {
        frame.bytes.withUnsafeBufferPointer { pixels in
            TessBaseAPISetImage(engine, pixels.baseAddress, Int32(frame.width), Int32(frame.height), 1, Int32(frame.stride))
            if let area { TessBaseAPISetRectangle(engine, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height)) }
            // Labels are photographed, not scanned; a nominal resolution silences the estimate.
            TessBaseAPISetSourceResolution(engine, 300)
            guard TessBaseAPIRecognize(engine, nil) == 0, let results = TessBaseAPIGetIterator(engine) else {
                TessBaseAPIClear(engine)
                return nil
            }
            defer {
                TessResultIteratorDelete(results)
                TessBaseAPIClear(engine)
            }
            return body(results)
        }
    }

    private func recognise(_ frame: Frame, within area: Box?) -> [TextLine] {
        recognised(frame, within: area) { results in
            let page = TessResultIteratorGetPageIterator(results)
            var lines: [TextLine] = []
            var current: [Word] = []
            var lineBox: Box? = nil
            func finishLine() {
                if !current.isEmpty, let box = lineBox { lines.append(TextLine(words: current, box: box)) }
                current = []
                lineBox = nil
            }
            repeat {
                if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                    finishLine()
                    lineBox = boundingBox(page, RIL_TEXTLINE)
                }
                guard let raw = TessResultIteratorGetUTF8Text(results, RIL_WORD) else { continue }
                let text = String(cString: raw)
                TessDeleteText(raw)
                if let box = boundingBox(page, RIL_WORD) {
                    let confidence = Double(TessResultIteratorConfidence(results, RIL_WORD))
                    let once = Self.readOnce(text, symbols(of: results).map { ($0.text, $0.box) })
                    current.append(Word(text: text, box: box, confidence: confidence, readOnce: once))
                    if lineBox == nil { lineBox = box }
                }
            } while TessResultIteratorNext(results, RIL_WORD) != 0
            finishLine()
            return lines.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
        } ?? []
    }

    /// One character of a word as tesseract read it, with its box and, on an engine that reports
    /// them (`choices`), the characters it took it for, each with its confidence (0 to 100).
    typealias Symbol = (text: String, box: Box, choices: [(text: String, confidence: Double)])

    /// The characters of the word (or the `level` it is part of) `results` is at, each with its
    /// box (and alternatives, on an engine that reports them), in reading order.
    private func symbols(of results: OpaquePointer, in level: TessPageIteratorLevel = RIL_WORD) -> [Symbol] {
        guard let symbol = TessResultIteratorCopy(results) else { return [] }
        defer { TessResultIteratorDelete(symbol) }
        let page = TessResultIteratorGetPageIterator(symbol)
        var out: [Symbol] = []
        repeat {
            guard let raw = TessResultIteratorGetUTF8Text(symbol, RIL_SYMBOL) else { break }
            let text = String(cString: raw)
            TessDeleteText(raw)
            guard let box = boundingBox(page, RIL_SYMBOL) else { break }
            out.append((text, box, choices ? alternatives(of: symbol) : []))
        } while TessPageIteratorIsAtFinalElement(page, level, RIL_SYMBOL) == 0 && TessResultIteratorNext(symbol, RIL_SYMBOL) != 0
        return out
    }

    /// The characters tesseract took the character `symbol` is at for, with their confidences.
    private func alternatives(of symbol: OpaquePointer) -> [(text: String, confidence: Double)] {
        guard let choice = TessResultIteratorGetChoiceIterator(symbol) else { return [] }
        defer { TessChoiceIteratorDelete(choice) }
        var out: [(text: String, confidence: Double)] = []
        repeat {
            guard let raw = TessChoiceIteratorGetUTF8Text(choice) else { break }
            out.append((String(cString: raw), Double(TessChoiceIteratorConfidence(choice))))
        } while TessChoiceIteratorNext(choice) != 0
        return out
    }

    /// `word`, read in `frame`, with each letter tesseract also takes for the digit it is often
    /// printed as read as that digit (`secondChoice(_:_:)`): its box read again alone, as a
    /// line, on an engine that reports alternatives. Nil where no letter is taken so, or the
    /// word read alone is another.
    func secondChoice(of word: Word, in frame: Frame) -> String? {
        guard let engine = choosing ?? (try? TextReader(language: language, layout: .singleLine, workers: 1, choices: true)) else {
            return nil
        }
        choosing = engine
        guard let area = frame.part(word.box.insetBy(max(2, word.box.height / 4))) else { return nil }
        guard let symbols = engine.recognised(frame, within: area, { engine.symbols(of: $0, in: RIL_TEXTLINE) }) else { return nil }
        return Self.secondChoice(word.text, symbols)
    }

    /// `word` with each letter tesseract also took for the digit it is often printed as (5 for
    /// S, 1 for I: `digitFor`) read as that digit, from `symbols`, the word read again with
    /// alternatives: a letter whose alternatives name the digit at `secondChoiceAtLeast`
    /// confidence or more, or one read twice, as the letter and then as the digit (that engine
    /// can spell both where it hesitates: "S5" for one S). Nil where no letter is taken so, or
    /// the symbols, such a digit taken out, do not spell the word.
    static func secondChoice(_ word: String, _ symbols: [Symbol]) -> String? {
        let spelled = symbols.map(\.text).joined() == word
        var letters: [(text: String, digit: Bool)] = []
        for symbol in symbols {
            if !spelled, let last = letters.last, digitFor[last.text] == symbol.text {
                letters[letters.count - 1].digit = true
                continue
            }
            let digit = digitFor[symbol.text]
            letters.append((symbol.text, symbol.choices.contains { $0.text == digit && $0.confidence >= secondChoiceAtLeast }))
        }
        guard letters.map(\.text).joined() == word else { return nil }
        let read = letters.map { $0.digit ? digitFor[$0.text] ?? $0.text : $0.text }.joined()
        return read == word ? nil : read
    }

    /// The letters a second choice reads as digits, each with the digit it is printed as.
    static let digitFor = ["S": "5", "I": "1"]
    /// The least confidence of a second choice that is taken (`secondChoice(_:_:)`).
    static let secondChoiceAtLeast = 30.0

    /// `word` with each character read twice from the same ink taken out, where its `symbols`
    /// (its characters with their boxes) show one; nil where none does.
    ///
    /// Printed characters stand apart, each box clear of its neighbours' or touching them. A
    /// blurred, bold or glaring character can be read as two ("9" as "9O", "0" as "O0"): the
    /// second one's box is then narrow (at most `narrowShare` of the word's typical character
    /// width) and lies mostly (`sharedInk` of its width or more) inside the boxes beside it. A
    /// box much wider than the typical character (`wideShare` of it: tesseract sometimes boxes
    /// one character across its neighbours) says nothing about where its neighbours' ink is.
    static func readOnce(_ word: String, _ symbols: [(text: String, box: Box)]) -> String? {
        guard symbols.count >= 3, symbols.map(\.text).joined() == word else { return nil }
        let widths = symbols.map(\.box.width).sorted()
        let typical = Double(widths[widths.count / 2])
        func overlap(_ i: Int, _ j: Int) -> Int {
            guard symbols.indices.contains(j), Double(symbols[j].box.width) <= typical * wideShare else { return 0 }
            let (a, b) = (symbols[i].box, symbols[j].box)
            return max(0, min(a.maxX, b.maxX) - max(a.x, b.x))
        }
        let twice = symbols.indices.filter { i in
            let width = Double(symbols[i].box.width)
            return width <= typical * narrowShare && Double(overlap(i, i - 1) + overlap(i, i + 1)) >= width * sharedInk
        }
        guard !twice.isEmpty, twice.count * 4 < symbols.count else { return nil }
        return symbols.indices.filter { !twice.contains($0) }.map { symbols[$0].text }.joined()
    }

    /// A character at most this share of its word's typical width, with at least `sharedInk` of
    /// it inside its neighbours' boxes, is read twice; a neighbour over `wideShare` of the
    /// typical width is not counted.
    static let narrowShare = 0.75
    static let sharedInk = 0.5
    static let wideShare = 1.5

    private func boundingBox(_ page: OpaquePointer?, _ level: TessPageIteratorLevel) -> Box? {
        var left: Int32 = 0
        var top: Int32 = 0
        var right: Int32 = 0
        var bottom: Int32 = 0
        guard TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else { return nil }
        return Box(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }
}

/// Calls `body` with a C array of C strings that lives for the call.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer {
        for pointer in pointers { free(pointer) }
    }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// Whether tesseract's OpenMP threads are limited to one, as this machine needs.
public enum ThreadLimit {
    /// The variable OpenMP reads, once, when the process starts.
    public static let variable = "OMP_THREAD_LIMIT"

    /// True when the process started with `OMP_THREAD_LIMIT` set.
    public static var isInEffect: Bool { getenv(variable) != nil }
}
