import Foundation
import Imaging
import Model

/// Reads barcodes and printed text in the same pass over each frame (SCAN-1).
///
/// One call returns every reading: barcodes decoded exactly, and printed lines with junk dropped
/// (words that are the "text" tesseract sees in a QR code or in the bars of a barcode, and words
/// with no letter or digit). Owns one tesseract engine, reused across frames (zbar scanners are made
/// for each scan); not for sharing between threads.
public final class FrameReader {
    /// What to read in a frame.
    public struct Passes: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let barcodes = Passes(rawValue: 1)
        public static let text = Passes(rawValue: 2)
        public static let all: Passes = [.barcodes, .text]
    }

    public let barcodes: BarcodeReader
    public let text: TextReader
    /// Where each pass's cost is added up, when it is measured (`bench read`).
    public var costs: PassCosts? = nil

    /// Runs `body` as the pass `name`, measured when costs are kept.
    private func pass<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        guard let costs else { return try body() }
        return try costs.measure(name, body)
    }

    public init(layout: TextReader.Layout = .sparse) throws(ReaderError) {
        barcodes = try BarcodeReader()
        text = try TextReader(layout: layout)
    }

    /// The last frame whose barcodes were read alone, and what was read: a full reading of the
    /// same frame goes on from it. The frame's pixels are held, so its buffer cannot be reused.
    private var lastBarcodePass: (frame: Frame, symbols: [BarcodeSymbol])? = nil

    /// The barcode pass alone: what a screen can act on before printed text is read (a proven
    /// tag fires on it). A `read` of the same frame afterwards does not read its barcodes again.
    public func readBarcodes(_ frame: Frame) -> [Reading] {
        let symbols = barcodes.read(frame)
        lastBarcodePass = (frame, symbols)
        return Self.combine(symbols: symbols, lines: [])
    }

    /// The barcodes of `frame`, from the barcode pass when it was this very frame (the same
    /// buffer of pixels), else read now.
    private func barcodePass(_ frame: Frame) -> [BarcodeSymbol] {
        if let last = lastBarcodePass, last.frame.sameBuffer(as: frame) { return last.symbols }
        return barcodes.read(frame)
    }

    /// Every reading in `frame`: barcodes first, in zbar's order, then printed lines top to bottom.
    public func read(_ frame: Frame, passes: Passes = .all) -> [Reading] {
        var symbols = passes.contains(.barcodes) ? pass("barcodes") { barcodePass(frame) } : []
        var lines: [TextLine] = []
        var skew = 0.0
        if passes.contains(.text) {
            // The skew is measured on the frame as it is: painting a tilted code over cuts its bars
            // level above and below the paint, edges that read as level lines.
            let upright = pass("upright") { UprightFrame(Self.blanking(symbols.map(Self.printedArea), in: frame), skewMeasuredOn: frame) }
            skew = upright.angle
            var uprightPage = upright.frame
            // No barcode read on a tilted frame: the codes are looked for again with the frame
            // upright (zxing-cpp misses a rectangular DataMatrix turned ten degrees), their boxes
            // brought back to the frame's own pixels, and painted over before text is read.
            if passes.contains(.barcodes), symbols.isEmpty, upright.angle != 0 {
                let found = pass("barcodes upright") { barcodes.read(upright.frame) }
                uprightPage = Self.blanking(found.map(Self.printedArea), in: upright.frame)
                symbols = found.map { BarcodeSymbol(value: $0.value, symbology: $0.symbology, box: upright.originalBox($0.box)) }
            }
            let page = pass("rules erased") { Rules.erased(uprightPage) }
            let first = pass("text") { text.read(page) }
            var read = Self.reading(first, of: page, with: text, costs: costs)
            // The page made easier to read and read again: what that reads differently is kept
            // beside what was read first.
            func readAgain(_ again: Frame) {
                read = Self.adding(Self.reading(pass("text") { text.read(again) }, of: again, with: text, costs: costs), to: read)
            }
            // Print smeared sideways (the phone moved) is drawn back together along its rows, to
            // the side the whole frame's edges say it trails. So are the barcodes round it, in the
            // frame itself: a code's bars stand upright, and a smear along the rows runs them into
            // one another until zbar reads none. A code read only so is added to those read. A
            // page whose words are too few, or too thin, to measure (smeared print tesseract read
            // as slivers a pixel or two high) is judged by the whole frame's edges instead:
            // leaning one way, it is smeared.
            let whole = frame.whole
            // The lean is measured only where it matters: on a page its words say is smeared, or
            // one they say nothing about.
            let (smearedWords, lean) = pass("smear measured") {
                let words = Self.smearedSideways(first, in: page)
                return (words, words == false ? nil : frame.smearLean(in: whole))
            }
            if smearedWords ?? Self.leansOneWay(lean) {
                let smear = Self.smear(leaning: lean)
                let area = first.isEmpty ? whole : Self.printArea(first)
                readAgain(pass("smear drawn back") { page.sharpenedAlongRows(in: area, smear: smear) })
                if passes.contains(.barcodes) {
                    pass("barcodes unsmeared") {
                        let sharpened = frame.sharpenedAlongRows(in: upright.originalBox(area), smear: smear)
                        let known = Set(symbols.map(\.value))
                        symbols += barcodes.readWithZBarOnly(sharpened).filter { !known.contains($0.value) }
                    }
                }
            }
            // Print washed pale (glare on the label, faint ink) has its contrast stretched locally;
            // so has a page where nothing was read at all.
            if Self.isPale(first, in: page) || Self.readNothing(first, in: page) {
                readAgain(pass("pale stretched") { page.contrastStretchedLocally() })
            }
            // A code is read again smaller and larger, where no barcode carries it.
            read = pass("code rows resized") {
                Self.adding(Self.codeRowsResized(read, in: page, besides: symbols.map(\.value), with: text), to: read)
            }
            // Rows of print tesseract passed over, where none was read, are read as lines.
            read = pass("unread ink") { Self.adding(Self.unreadInk(read, in: page, with: text), to: read) }
            lines = read.map { $0.movingBoxes(upright.originalBox) }
        }
        return Self.combine(symbols: symbols, lines: lines, skew: skew)
    }

    /// `read`, tesseract's first reading of `page`, completed: small print read with doubt read
    /// again larger, words boxed across two lines split, rows read in pieces read whole.
    static func reading(_ read: [TextLine], of page: Frame, with text: TextReader, costs: PassCosts? = nil) -> [TextLine] {
        func pass<T>(_ name: String, _ body: () -> T) -> T { costs.map { $0.measure(name, body) } ?? body() }
        var read = read
        // Small print (a label far from the lens) read with doubt is read again at twice the
        // size, and kept when that reads more of it; boxes are brought back to the frame's
        // own pixels. Small print read with confidence is not read again: the second reading
        // costs two and a half times the first.
        if isSmallAndDoubtful(read) {
            let enlarged = pass("small print enlarged") { text.read(page.scaled(by: 2)).map { $0.movingBoxes(\.halved) } }
            if characters(enlarged) > characters(read) { read = enlarged }
        }
        read = pass("lines split") { splittingMergedLines(read, in: page, with: text) }
        return pass("rows read whole") { rereadingRows(read, in: page, with: text) }
    }

    /// The rows of `lines` that hold a code no barcode in `barcodes` carries (or a word that may
    /// be one, `mayBeCode`), read with less confidence than `resizeBelow`, read again at each of
    /// `resizings` times their size: the readings that read a code there differently.
    ///
    /// How tesseract reads a code depends on the size of its print, and not always better when
    /// larger: a monospaced bold face's "JF", 18 pixels high, is read "UF", and read right at
    /// three quarters of that ("FVF7WX4ESFJF"); a faint "ZAD0Z9UT" read with a stray I is read
    /// right at one and a half times. Which size reads a face best cannot be told beforehand, so
    /// a row is read at both, each as one line, and a reading that differs is kept beside what
    /// was read first, as a second reading of a sharpened page is: both are what the camera
    /// read. Lines lying over one another on a row (the page and its sharpened copy read alike)
    /// are one row, read again once. A reading is kept when it holds a code the row has not read
    /// (`readsMore`); its words are set on the row's own box (a larger picture's blur boxes them
    /// taller), so that it lies over the first reading as another reading of the same print. A
    /// code a barcode carries whole is not read again: the barcode is exact. Each row costs two
    /// line recognitions, so a code read with confidence is not read again either.
    static func codeRowsResized(_ lines: [TextLine], in page: Frame, besides barcodes: [String], with text: TextReader) -> [TextLine] {
        func codes(_ line: TextLine) -> [String] { line.words.map { codeBody($0.text) }.filter(looksLikeCode) }
        func doubtful(_ word: Word) -> Bool {
            let code = codeBody(word.text)
            return mayBeCode(code, confidence: word.confidence) && word.confidence < resizeBelow && !barcodes.contains { $0.contains(code) }
        }
        var rows: [[TextLine]] = []
        for line in lines where line.words.contains(where: doubtful) {
            func sameRow(_ other: TextLine) -> Bool {
                let down = min(line.box.maxY, other.box.maxY) - max(line.box.y, other.box.y)
                return other.box.intersectionArea(line.box) > 0 && down * 2 >= min(line.box.height, other.box.height)
            }
            if let r = rows.firstIndex(where: { $0.contains(where: sameRow) }) { rows[r].append(line) } else { rows.append([line]) }
        }
        var out: [TextLine] = []
        for row in rows {
            guard var box = Box.enclosing(row.map(\.box)) else { continue }
            // A mark read as a word far taller than the code (the corner of a table's cell, read
            // as a quote) would make the band span the rows above and below: the band is then
            // the row's words as high as the code.
            let words = row.flatMap(\.words)
            let tallest = words.filter(doubtful).map(\.box.height).max() ?? box.height
            if box.height * 2 > tallest * 3, let asHigh = Box.enclosing(words.filter { $0.box.height * 2 <= tallest * 3 }.map(\.box)) {
                box = asHigh
            }
            let known = Set(row.flatMap(codes))
            // The row with half its height above and below, and its height at either end.
            let margin = max(4, box.height / 2)
            let band = Box(x: box.x - 2 * margin, y: box.y - margin, width: box.width + 4 * margin, height: box.height + 2 * margin)
            guard let area = page.part(band) else { continue }
            let crop = page.cropped(to: area)
            for factor in resizings {
                let resized = crop.scaled(by: factor)
                let whole = resized.whole
                for line in text.read(resized, within: whole, as: .singleLine) where readsMore(codes(line), than: known) {
                    var moved = line.movingBoxes { word in
                        let left = max(box.x, area.x + Int(Double(word.x) / factor))
                        let right = min(box.maxX, area.x + Int(Double(word.maxX) / factor))
                        return Box(x: left, y: box.y, width: max(1, right - left), height: box.height)
                    }
                    moved.box = Box.enclosing(moved.words.map(\.box)) ?? box
                    out.append(moved)
                }
            }
        }
        return out
    }

    /// Lines read in rows of `page`'s print that no line of `lines` covers: rows of ink tesseract
    /// passed over, each read again as one line.
    ///
    /// Looking for text anywhere, tesseract can pass over a whole row of print and read the rows
    /// above and below it: a serial in a thin grey monospaced face between two bold lines
    /// ("DMPG9UPHFAMV" beside "(Serial Number)", which was read). Inside the print's area
    /// (`printArea`, and two typical words' height more above and below, for a row passed over
    /// above the first row read or under the last), with its contrast stretched locally, ink is
    /// what lies darker than half way; ink under or beside a line already read is not counted,
    /// nor is ink dark down its column for longer than two typical words are high (the desk in
    /// the wedge beside a tilted label turned upright, a code's bars, an upright rule: counted,
    /// the desk beside a label's whole height joined every row of its print into one), nor are
    /// columns and rows dark across most of the area (a label's edge, the desk, a rule). What is
    /// left is cut into rows (runs of pixel rows holding ink) and each row into pieces where the
    /// ink breaks off for more than the row's height. A row half to twice as high as the typical
    /// word, a piece at least twice as long as high, is read as one line; a line is kept when it
    /// holds a word `isWorthKeeping`.
    static func unreadInk(_ lines: [TextLine], in page: Frame, with text: TextReader) -> [TextLine] {
        let printed = lines.filter { !printedWords([$0]).isEmpty }
        guard let typical = typicalHeight(printedWords(printed)) else { return [] }
        let print = printArea(printed)
        guard let area = page.part(Box(x: print.x, y: print.y - 2 * typical, width: print.width, height: print.height + 4 * typical)) else {
            return []
        }
        let stretched = page.cropped(to: area).contrastStretchedLocally()
        let (width, height) = (area.width, area.height)
        // Ink, in the area's own pixels, and where lines already read lie.
        var dark = [Bool](repeating: false, count: width * height)
        var darkInColumn = [Int](repeating: 0, count: width)
        var darkInRow = [Int](repeating: 0, count: height)
        // Ink dark down its column for longer than two typical words are high is not print; the
        // dark a column and a row hold is all of it counted (a noisy desk is dark across most
        // of a row, in short runs its grain breaks).
        for x in 0..<width {
            var y = 0
            while y < height {
                guard stretched[x, y] < 128 else {
                    y += 1
                    continue
                }
                let top = y
                while y < height, stretched[x, y] < 128 { y += 1 }
                darkInColumn[x] += y - top
                for inked in top..<y {
                    dark[inked * width + x] = y - top <= 2 * typical
                    darkInRow[inked] += 1
                }
            }
        }
        var read = [Bool](repeating: false, count: width * height)
        let pad = max(2, typical / 4)
        for line in lines {
            let grown = line.box.insetBy(pad)
            let (x0, x1) = (max(0, grown.x - area.x), min(width, grown.maxX - area.x))
            let (y0, y1) = (max(0, grown.y - area.y), min(height, grown.maxY - area.y))
            guard x0 < x1, y0 < y1 else { continue }
            for y in y0..<y1 { for x in x0..<x1 { read[y * width + x] = true } }
        }
        func unread(_ x: Int, _ y: Int) -> Bool {
            dark[y * width + x] && !read[y * width + x] && darkInColumn[x] * 5 < height * 3 && darkInRow[y] * 5 < width * 3
        }
        let inked = (0..<height).map { y in (0..<width).count { unread($0, y) } >= inkInARow }
        var out: [TextLine] = []
        var y = 0
        while y < height {
            guard inked[y] else {
                y += 1
                continue
            }
            let top = y
            while y < height, inked[y] { y += 1 }
            let rowHeight = y - top
            guard rowHeight >= 6, rowHeight * 2 >= typical, rowHeight <= 2 * typical else { continue }
            // The row's pieces: runs of columns holding ink, broken where it stops for longer than
            // the row is high.
            var pieces: [(left: Int, right: Int)] = []
            for x in 0..<width where (top..<y).contains(where: { unread(x, $0) }) {
                if let last = pieces.last, x - last.right < rowHeight {
                    pieces[pieces.count - 1].right = x + 1
                } else {
                    pieces.append((x, x + 1))
                }
            }
            for piece in pieces where piece.right - piece.left >= 2 * rowHeight {
                let band = Box(
                    x: area.x + piece.left - rowHeight, y: area.y + top - rowHeight / 2,
                    width: piece.right - piece.left + 2 * rowHeight, height: 2 * rowHeight)
                out += text.read(page, within: band, as: .singleLine).filter { $0.words.contains(where: isWorthKeeping) }
            }
        }
        return out
    }

    /// Fewer pixels of ink than this on a pixel row say nothing (a speck, the end of a stroke).
    static let inkInARow = 3

    /// Whether `word`, read where no line was, is print: a code, or three letters or digits read
    /// with more than `minimumConfidence`.
    static func isWorthKeeping(_ word: Word) -> Bool {
        looksLikeCode(word.text) || (word.confidence >= minimumConfidence && lettersAndDigits(word).count >= 3)
    }

    /// The letters and digits `word` was read as.
    static func lettersAndDigits(_ word: Word) -> String { word.text.filter { $0.isLetter || $0.isNumber } }

    /// Whether `code`, a word's body read with `confidence`, may be a code: shaped like one
    /// (`looksLikeCode`), or six capitals or more read with less confidence than
    /// `lettersOnlyBelow`, a code whose digits tesseract read as letters ("PEPFOBIL" at 20 of
    /// PFPF2BJL in a narrow face, its 2 an O and its J an I).
    static func mayBeCode(_ code: String, confidence: Double) -> Bool {
        looksLikeCode(code) || (confidence < lettersOnlyBelow && code.count >= 6 && code.allSatisfy { $0.isASCII && $0.isUppercase })
    }
    /// Capitals alone read with less confidence than this may be a code misread.
    static let lettersOnlyBelow = 50.0

    /// The sizes, against the page's, at which a row holding a code is read again.
    static let resizings = [0.75, 1.5]
    /// A code read with this confidence or more is not read again at other sizes: on the 2808
    /// labels of six development sets, reading those rows again too listed no serial more, and
    /// made the same pass on text-dense labels two fifths slower.
    static let resizeBelow = 90.0

    /// Whether `codes`, read again on a row, hold one the row's first readings `known` do not,
    /// as long as the longest of them or a character shorter (a stray character read in the
    /// first: "ZADOZ9IUT" for ZAD0Z9UT). Shorter by two or more, the reading lost part of the
    /// print ("CNDSE" of "CNDS87753H").
    static func readsMore(_ codes: [String], than known: Set<String>) -> Bool {
        let longest = known.map(\.count).max() ?? 0
        return codes.contains { !known.contains($0) && $0.count + 1 >= longest }
    }

    /// Whether the print in `page`, as `lines` found it, is smeared along its rows.
    ///
    /// In sharp print, strokes change the gray level across a row about as much as down a
    /// column, or more (capitals and digits stand mostly upright). Smeared sideways, the change
    /// across a row falls away and the change down a column stays. So inside each word's box,
    /// across-row energy is measured against down-column energy; where that share is under
    /// `smearedBelow` for the typical word (the median: a word tesseract made of a barcode's
    /// bars changes across its rows far more than print, and is one among many), the print moved.
    /// Words are those at least `smallestMeasured` pixels high, read with `leastMeasured`
    /// confidence or more (noise tesseract reads as a row of short words is smooth across its
    /// rows too), and at least `fewestMeasured` of them, so a speck or a lone word says nothing:
    /// nil where there are fewer.
    static func smearedSideways(_ lines: [TextLine], in page: Frame) -> Bool? {
        var shares: [Double] = []
        for word in printedWords(lines) where word.box.height >= smallestMeasured && word.confidence >= leastMeasured {
            guard let box = page.part(word.box), box.width > 1, box.height > 1 else { continue }
            var (across, down) = (0.0, 0.0)
            for y in box.y..<box.maxY - 1 {
                for x in box.x..<box.maxX - 1 {
                    let here = Int(page[x, y])
                    let right = Double(Int(page[x + 1, y]) - here)
                    let below = Double(Int(page[x, y + 1]) - here)
                    across += right * right
                    down += below * below
                }
            }
            if down > 0 { shares.append(across / down) }
        }
        guard shares.count >= fewestMeasured else { return nil }
        return shares.sorted()[shares.count / 2] < smearedBelow
    }

    /// The smear to draw print back from, on a frame whose edges lean `lean` along its rows
    /// (`Frame.smearLean`): one trailing to the left where the lean is over `trailsOver`, to the
    /// right where it is under its inverse, and as far either way otherwise (a phone moved
    /// evenly across the shutter's time smears every edge alike on both sides).
    ///
    /// Measured on the whole frame, not the print: the edges of the label against the desk,
    /// of barcodes' bars and of rules are long and steep, and the paper between words, whose
    /// grain leans neither way, weighs little beside them. Of the development sets' frames
    /// smeared to one side (747), the whole frame leans 0.17 to 0.77 or 1.22 to 6.5; of those
    /// not smeared (7605), 99 in 100 lean 0.92 to 1.08, and one (a low-resolution camera's)
    /// over 1.25. A frame that leans neither way enough is drawn back as far either way, as
    /// every smeared frame was before the lean was measured.
    static func smear(leaning lean: Double?) -> RowSmear {
        guard let lean, leansOneWay(lean) else { return .even(spread: evenSpread) }
        return lean > trailsOver ? .trailingLeft(spread: trailingSpread) : .trailingRight(spread: trailingSpread)
    }

    /// Whether a frame whose edges lean `lean` along its rows (`Frame.smearLean`) is smeared to
    /// one side: over `trailsOver`, or under its inverse. Of the development sets' frames, all 747
    /// smeared to one side do; of the 7605 others, one does (a low-resolution camera's).
    static func leansOneWay(_ lean: Double?) -> Bool {
        guard let lean else { return false }
        return lean > trailsOver || lean * trailsOver < 1
    }

    /// A frame's edges leaning more than this along its rows, or less than its inverse, trail one way.
    static let trailsOver = 1.25
    /// The spreads print is drawn back from: an even smear's (2 read the most back on development
    /// labels smeared 2.5 to 4.5 pixels), and a smear trailing one way's (the middle of those).
    static let evenSpread = 2.0
    static let trailingSpread = 3.5

    /// Where the print `lines` found lies on the page: their boxes together, with a margin of
    /// the tallest line's height above and below, and four times that at either end (print
    /// tesseract did not find beside print it did).
    static func printArea(_ lines: [TextLine]) -> Box {
        guard let all = Box.enclosing(lines.map(\.box)) else { return Box(x: 0, y: 0, width: 0, height: 0) }
        let margin = lines.map(\.box.height).max() ?? 0
        return Box(x: all.x - 4 * margin, y: all.y - margin, width: all.width + 8 * margin, height: all.height + 2 * margin)
    }

    /// A typical word changing across its rows less than this share of down its columns is smeared.
    static let smearedBelow = 0.6
    /// Words lower than this many pixels, or read with less confidence than `leastMeasured`,
    /// are not measured for smear ...
    static let smallestMeasured = 8
    static let leastMeasured = 30.0
    /// ... and fewer measured words than this say nothing about it.
    static let fewestMeasured = 3

    /// Whether some of the print in `page`, as `lines` found it, is pale: a word of three letters
    /// or digits or more whose light and dark lie under `paleBelow` levels apart (black ink on
    /// white paper lies over 200 apart; faint grey ink, or ink under glare, under 100). A grainy
    /// page is not counted pale: stretching its contrast stretches the grain, and tesseract then
    /// reads the grain for seconds.
    static func isPale(_ lines: [TextLine], in page: Frame) -> Bool {
        guard let palest = judgedWords(lines).compactMap({ page.levelSpread(in: $0.box) }).min() else { return false }
        return palest < paleBelow && page.grain < grainyAbove
    }

    /// Whether `lines`, tesseract's first reading of `page`, hold no word to judge its print by:
    /// none of three letters or digits. Faint grey ink on a label lying on a dark desk falls on
    /// the paper's side of tesseract's one threshold for the page (the desk is the dark), and
    /// nothing is read at all where a person reads every line. Such a page is read again with
    /// its contrast stretched, as pale print is; a grainy one is not, as with `isPale`.
    static func readNothing(_ lines: [TextLine], in page: Frame) -> Bool {
        judgedWords(lines).isEmpty && page.grain < grainyAbove
    }

    /// The words of `lines` the print is judged by: three letters or digits or more.
    static func judgedWords(_ lines: [TextLine]) -> [Word] {
        printedWords(lines).filter { lettersAndDigits($0).count >= 3 }
    }

    /// A word whose light and dark lie fewer levels apart than this is pale.
    static let paleBelow = 100
    /// A page grainier than this is not read again stretched.
    static let grainyAbove = 0.08

    /// `lines` with each of `more` (a second reading of the same page) that reads something
    /// they do not: a line whose text no line of `lines` in the same place has. Each comes
    /// after the last line of `lines` it overlaps, so what was read first stays first; one
    /// that overlaps none takes its place top to bottom.
    static func adding(_ more: [TextLine], to lines: [TextLine]) -> [TextLine] {
        var out = lines
        for line in more where !lines.contains(where: { $0.text == line.text && $0.box.intersectionArea(line.box) > 0 }) {
            if let last = out.lastIndex(where: { $0.box.intersectionArea(line.box) > 0 }) {
                out.insert(line, at: last + 1)
            } else {
                out.insert(line, at: out.firstIndex { ($0.box.y, $0.box.x) > (line.box.y, line.box.x) } ?? out.endIndex)
            }
        }
        return out
    }

    /// The readings of one frame from its barcode symbols and its recognised lines.
    ///
    /// A word is junk, and dropped, when it has no letter or digit; when most of it lies on a
    /// decoded barcode (OCR of bars and QR modules), or beside one with little confidence (the
    /// ends of the bars of a tilted barcode); when tesseract itself gives it almost no confidence;
    /// or when it is far taller or flatter than the frame's typical word (the bars of a barcode
    /// zbar could not decode, or a speck), unless, taller, it is read with confidence
    /// (`isSureOfTall`: print set larger than the rest). A line left with no words is dropped,
    /// and the remaining lines are numbered from 1, top to bottom.
    /// `skew` is the frame's tilt in degrees; the bars of a tilted barcode reach past the band
    /// zbar decoded by up to its width times the tangent of the tilt.
    public static func combine(symbols: [BarcodeSymbol], lines: [TextLine], skew: Double = 0) -> [Reading] {
        var readings = symbols.map { Reading(value: $0.value, source: .barcode(symbology: $0.symbology), box: $0.box) }
        let barcodeAreas = symbols.map { $0.box.insetBy(4) }
        let barcodeSurroundings = symbols.map { symbol -> Box in
            let reach = 8 + Int((Double(symbol.box.width) * abs(tan(skew * .pi / 180))).rounded())
            return Box(x: symbol.box.x - 8, y: symbol.box.y - reach, width: symbol.box.width + 16, height: symbol.box.height + 2 * reach)
        }
        func plausible(_ word: Word) -> Word? {
            let text = word.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.contains(where: { $0.isLetter || $0.isNumber }), word.confidence >= minimumConfidence || Self.looksLikeCode(text)
            else { return nil }
            let covered = barcodeAreas.map { $0.intersectionArea(word.box) }.max() ?? 0
            if covered * 2 > word.box.area { return nil }
            let beside = barcodeSurroundings.map { $0.intersectionArea(word.box) }.max() ?? 0
            if beside * 2 > word.box.area && word.confidence < uncertainBesideBarcode { return nil }
            var cleaned = word
            cleaned.text = text
            return cleaned
        }
        let candidates = lines.map { $0.words.compactMap(plausible) }
        let heights = candidates.joined().map { uprightHeight($0.box, skew: skew) }.sorted()
        let typical = heights.isEmpty ? 0 : heights[heights.count / 2]
        var number = 0
        for words in candidates {
            let kept = words.filter {
                let height = uprightHeight($0.box, skew: skew)
                return (height <= typical * tallestWord || isSureOfTall($0)) && height >= typical * flattestWord
            }
            guard let box = Box.enclosing(kept.map(\.box)) else { continue }
            number += 1
            readings.append(
                Reading(value: kept.map(\.text).joined(separator: " "), source: .text(line: number), box: box, words: kept))
        }
        return readings
    }

    /// Whether `word`, taller than `tallestWord` typical words, is print all the same: three
    /// letters or digits or more, not all of them upright strokes, read with `sureOfTall`
    /// confidence. Tesseract reads the bars of a barcode zbar could not decode as strokes
    /// ("IlIl", "1I|") or as odd letters it is unsure of; it reads a serial printed larger and
    /// bolder than the rest of a label ("45952054" under "Serial no." in small type) with
    /// confidence, and may box it taller still, taking in the space above.
    static func isSureOfTall(_ word: Word) -> Bool {
        let characters = lettersAndDigits(word)
        return word.confidence >= sureOfTall && characters.count >= 3 && !characters.allSatisfy { "Il1i|!".contains($0) }
    }

    /// How tall the print in `box` stands on a frame tilted `skew` degrees: the box bounds the
    /// tilted print, so a long word's box is taller than its letters by its length times the
    /// slope ("WD-WCC4NPBYMK33", 26 pixels high, boxed 93 high at 12 degrees). Undone, the word
    /// is measured against the others as it was printed.
    static func uprightHeight(_ box: Box, skew: Double) -> Double {
        let theta = abs(skew) * .pi / 180
        guard theta > 0, theta < .pi / 8 else { return Double(box.height) }
        let height = (Double(box.height) * cos(theta) - Double(box.width) * sin(theta)) / cos(2 * theta)
        return max(1, min(Double(box.height), height))
    }

    /// The area a decoded barcode takes on the label: its bars, and for a linear barcode the band
    /// under them (a fifth of their height) where its human-readable line is printed. That line
    /// is the barcode's own data again: reading it would cost a line's recognition and could pass
    /// for independent print agreeing with the barcode, which it is not.
    static func printedArea(_ symbol: BarcodeSymbol) -> Box {
        guard !["QR-Code", "DataBar", "DataBar-Exp"].contains(symbol.symbology) else { return symbol.box }
        return Box(x: symbol.box.x, y: symbol.box.y, width: symbol.box.width, height: symbol.box.height + symbol.box.height / 5)
    }

    /// A copy of `frame` with each box painted over in the colour around it, so text recognition
    /// does not spend its time on the bars and modules of barcodes that zbar has already decoded.
    /// The surrounding colour, not white, keeps a dim label's contrast as it was.
    static func blanking(_ boxes: [Box], in frame: Frame) -> Frame {
        guard !boxes.isEmpty else { return frame }
        var bytes = frame.bytes
        for box in boxes {
            guard let area = frame.part(box.insetBy(2)) else { continue }
            let fill = surroundingLevel(of: area, in: frame)
            for y in area.y..<area.maxY {
                bytes.replaceSubrange(
                    y * frame.stride + area.x..<y * frame.stride + area.maxX, with: repeatElement(fill, count: area.width))
            }
        }
        return Frame(
            width: frame.width, height: frame.height, stride: frame.stride, bytes: bytes, timestamp: frame.timestamp, index: frame.index)
    }

    /// The median gray level of the ring of pixels just outside `box` (a barcode's quiet zone).
    static func surroundingLevel(of box: Box, in frame: Frame) -> UInt8 {
        var counts = [Int](repeating: 0, count: 256)
        var total = 0
        func add(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < frame.width, y < frame.height else { return }
            counts[Int(frame[x, y])] += 1
            total += 1
        }
        let ring = box.insetBy(3)
        for x in ring.x..<ring.maxX {
            add(x, ring.y)
            add(x, ring.maxY - 1)
        }
        for y in ring.y..<ring.maxY {
            add(ring.x, y)
            add(ring.maxX - 1, y)
        }
        guard total > 0 else { return 255 }
        var seen = 0
        for level in 0..<256 {
            seen += counts[level]
            if seen * 2 >= total { return UInt8(level) }
        }
        return 255
    }

    /// Print whose typical word is less than this many pixels high is small ...
    static let smallPrint = 18
    /// ... and its reading doubtful when its words' mean confidence is under this.
    static let confidentReading = 88.0

    /// A first reading of more lines than this is not a label's print: a label holds a few dozen
    /// at most, and tesseract reads the texture of a desk or a camera's noise as a hundred.
    static let mostLabelLines = 40

    /// Whether a reading is of small print and doubtful: the typical word is under `smallPrint`
    /// pixels high and the words with a letter or digit have a mean confidence under
    /// `confidentReading`. A reading of more than `mostLabelLines` lines is texture, not small
    /// print: reading it again larger only reads more texture, at four times the pixels.
    static func isSmallAndDoubtful(_ lines: [TextLine]) -> Bool {
        guard lines.count <= mostLabelLines else { return false }
        let words = printedWords(lines)
        guard let typical = typicalHeight(words) else { return false }
        let confidence = words.map(\.confidence).reduce(0, +) / Double(words.count)
        return typical < smallPrint && confidence < confidentReading
    }

    /// The words of `lines` with a letter or digit: print, not a mark.
    static func printedWords(_ lines: [TextLine]) -> [Word] {
        lines.flatMap(\.words).filter { $0.text.contains { $0.isLetter || $0.isNumber } }
    }

    /// The median height of `words`; nil where there are none.
    static func typicalHeight(_ words: [Word]) -> Int? {
        let heights = words.map(\.box.height).sorted()
        return heights.isEmpty ? nil : heights[heights.count / 2]
    }

    /// `lines` with each word tesseract boxed across two lines of print read again on its own.
    ///
    /// Looking for text anywhere, tesseract can take a small line and the line under it for one
    /// word ("SN" over "ASJ00900" read as "{AS300900", boxed three lines high), which is then
    /// too tall to be print and dropped. Such a word (taller than `tallestWord` typical words,
    /// not five times taller, which is a barcode's bars) is read again alone as a block of lines;
    /// where that finds two lines or more, they replace it.
    static func splittingMergedLines(_ lines: [TextLine], in frame: Frame, with reader: TextReader) -> [TextLine] {
        guard let typical = typicalHeight(printedWords(lines)).map(Double.init) else { return lines }
        var out: [TextLine] = []
        for line in lines {
            var kept: [Word] = []
            for word in line.words {
                let height = Double(word.box.height)
                guard height > typical * tallestWord, height < typical * 5, word.box.width >= word.box.height else {
                    kept.append(word)
                    continue
                }
                let again = reader.read(frame, within: word.box.insetBy(Int(typical / 4)), as: .block)
                if again.count >= 2 { out += again } else { kept.append(word) }
            }
            if kept.count == line.words.count {
                out.append(line)
            } else if let box = Box.enclosing(kept.map(\.box)) {
                out.append(TextLine(words: kept, box: box))
            }
        }
        return out.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
    }

    /// `lines` with each row of print read again as one line, where that reads more of it.
    ///
    /// Looking for text anywhere, tesseract breaks thin or widely spaced print into pieces
    /// ("VFA33456" in a thin monospaced face read as "A3345", a fourteen-digit number as
    /// "029547773" and "383") that it reads whole as a single line. Lines that share a row
    /// (overlapping by half the smaller's height) are one row; a row is read again across its
    /// width, and a little beyond, as one line, and that reading replaces the row's when it has
    /// more letters and digits in confident words, or as many in fewer words. Only a row read with
    /// doubt is read again (a word under `rereadBelow` confidence, or one less than half the
    /// typical word's height): each costs a recognition.
    static func rereadingRows(_ lines: [TextLine], in frame: Frame, with reader: TextReader) -> [TextLine] {
        guard let typical = typicalHeight(printedWords(lines)) else { return lines }
        var rows: [[TextLine]] = []
        for line in lines.sorted(by: { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }) {
            func sharesRow(_ other: TextLine) -> Bool {
                let overlap = min(line.box.maxY, other.box.maxY) - max(line.box.y, other.box.y)
                return overlap * 2 >= min(line.box.height, other.box.height)
            }
            if let r = rows.lastIndex(where: { $0.contains(where: sharesRow) }) { rows[r].append(line) } else { rows.append([line]) }
        }
        var out: [TextLine] = []
        for row in rows {
            guard let box = Box.enclosing(row.map(\.box)) else { continue }
            guard box.height <= typical * 2 else {
                out += row
                continue
            }
            // A word read with doubt, or one less than half as tall as print (a piece of a
            // character), says the row was not read whole. So does print left unread at either
            // end of the row: tesseract read "CND9232" of "CND923234B" with 91 confidence and
            // boxed only what it read.
            let printed = Self.printExtent(box, in: frame, typical: typical)
            let doubtful =
                printedWords(row).contains { $0.confidence < Self.rereadBelow || $0.box.height * 2 < typical }
                || printed.x < box.x || printed.maxX > box.maxX
            guard doubtful else {
                out += row
                continue
            }
            let left = min(box.x - 2 * typical, printed.x - typical / 2)
            let right = max(box.maxX + 2 * typical, printed.maxX + typical / 2)
            let band = Box(x: left, y: box.y - typical / 3, width: right - left, height: box.height + typical * 2 / 3)
            let again = reader.read(frame, within: band, as: .singleLine)
            // As much read, in fewer pieces, is read better too.
            let (more, same) = (characters(again), characters(row))
            let whole = more == same && again.flatMap(\.words).count < row.flatMap(\.words).count
            out += more > same || whole ? again : row
        }
        return out.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
    }

    /// How far the print of `row` reaches: its box, widened at either end over print tesseract
    /// left unread (it read "CND9232" of "CND923234B" with 91 confidence and boxed only what it
    /// read). Print is pixels as dark as the row's own, across its middle half, a stroke's worth
    /// to a column of them; it continues while no gap wider than three quarters of the typical
    /// word's height parts it from the box (a monospaced face sets its letters half a height
    /// apart; a space between words is wider: a row read whole ends in paper).
    static func printExtent(_ row: Box, in frame: Frame, typical: Int) -> Box {
        guard let inside = frame.part(row) else { return row }
        var (darkest, lightest) = (UInt8.max, UInt8.min)
        for y in inside.y..<inside.maxY {
            for x in inside.x..<inside.maxX {
                let p = frame[x, y]
                (darkest, lightest) = (min(darkest, p), max(lightest, p))
            }
        }
        guard Int(lightest) - Int(darkest) >= 64 else { return row }
        let ink = UInt8((Int(darkest) + Int(lightest)) / 2)
        let top = min(max(0, row.y + row.height / 4), frame.height - 1)
        let bottom = max(top + 1, min(frame.height, top + max(1, row.height / 2)))
        func inked(_ x: Int) -> Bool {
            var dark = 0
            for y in top..<bottom where frame[x, y] < ink { dark += 1 }
            return dark >= min(2, bottom - top)
        }
        let widest = max(1, typical * 3 / 4)
        // Outward from each end while print continues, each gap no wider than `widest`.
        func reach(from start: Int, step: Int) -> Int {
            var (x, last) = (start, start - step)
            while x >= 0, x < frame.width, abs(x - last) <= widest {
                if inked(x) { last = x }
                x += step
            }
            return last
        }
        let right = reach(from: row.maxX, step: 1)
        let left = reach(from: row.x - 1, step: -1)
        return Box(x: min(row.x, left), y: row.y, width: max(row.maxX, right + 1) - min(row.x, left), height: row.height)
    }

    /// A row with a word read with less confidence than this is read again as one line.
    static let rereadBelow = 80.0

    /// Letters and digits in confident words: how much of the print a reading got.
    static func characters(_ lines: [TextLine]) -> Int {
        lines.flatMap(\.words).filter { $0.confidence >= 50 }.reduce(0) { $0 + lettersAndDigits($1).count }
    }

    /// Below this tesseract confidence (0-100) a word is noise, not print, unless it looks like a code.
    static let minimumConfidence = 15.0

    /// Whether a word looks like a printed code: six or more capitals and digits, with at most
    /// hyphens between them, both letters and digits among them; or ten digits or more. Tesseract
    /// gives such words little confidence (no dictionary knows them: "-WMC4NWPSEKH5" read at 12,
    /// "381052451729" at 7), where the noise it reads as words is short and of mixed case.
    static func looksLikeCode(_ text: String) -> Bool {
        // OCR's symbols for a serial's characters count as those: "$SD29892" is SSD29892 read.
        let body = text.filter { $0 != "-" }.map { OCRConfusion.symbols[$0] ?? $0 }
        guard body.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else { return false }
        let digits = body.filter(\.isNumber).count
        return (body.count >= 6 && digits > 0 && digits < body.count) || (digits >= 10 && digits == body.count)
    }
    /// `word` without the colons, semicolons, full stops and commas OCR read at its end: a code
    /// whose last character noise turned into one ("WD-WMC4NPHPBGX:" of WD-WMC4NPHPBGXX) is still
    /// a code, and its row is worth reading again.
    static func codeBody(_ word: String) -> String {
        String(word.reversed().drop { ":;.,".contains($0) }.reversed())
    }
    /// Below this confidence a word beside a barcode is taken for the ends of its bars.
    static let uncertainBesideBarcode = 40.0
    /// A word taller than this many typical words is the bars of a barcode, not print.
    static let tallestWord = 2.5
    /// A word taller than that read with this confidence or more is kept (`isSureOfTall`).
    static let sureOfTall = 90.0
    /// A word flatter than this fraction of a typical word is a speck or a rule, not print.
    static let flattestWord = 0.4
}

extension Box {
    /// The box in a picture half the size.
    var halved: Box { Box(x: x / 2, y: y / 2, width: (width + 1) / 2, height: (height + 1) / 2) }
}

extension FrameReader: FrameReading {
    public func read(_ frame: Frame) -> [Reading] { read(frame, passes: .all) }
}

extension Frame {
    /// Whether `other` is this frame itself: the same size, index and buffer of pixels (a
    /// buffer held cannot be reused for another frame).
    func sameBuffer(as other: Frame) -> Bool {
        guard width == other.width, height == other.height, stride == other.stride, index == other.index else { return false }
        return bytes.withUnsafeBufferPointer { a in other.bytes.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
