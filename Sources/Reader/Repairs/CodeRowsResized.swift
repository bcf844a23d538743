import Foundation
import Imaging
import Model

/// The code rows resized pass: a row holding a doubtful code read again at other sizes.
extension FrameReader {
    /// The rows of `lines` that hold a code no barcode in `barcodes` carries (or a word that may
    /// be one, `mayBeCode`), read with less confidence than `resizeBelow`, read again at each of
    /// `resizings` times their size: the readings that read a code there differently.
    ///
    /// How tesseract reads a code depends on the size of its print, and not always better when
    /// larger: some faces read right only smaller (`ResizedTests.misreadAtItsSize`), faint print
    /// only larger. Which size reads a face best cannot be told beforehand, so a row is read at
    /// both, each as one line, and a reading that differs is kept beside what was read first, as a
    /// second reading of a sharpened page is: both are what the camera read. Lines lying over one
    /// another on a row (the page and its sharpened copy read alike) are one row, read again once.
    /// A reading is kept when it holds a code the row has not read (`readsMore`); its words are set
    /// on the row's own box (a larger picture's blur boxes them taller), so that it lies over the
    /// first reading as another reading of the same print. A code a barcode carries whole is not
    /// read again: the barcode is exact. Each row costs two line recognitions, so a code read with
    /// confidence is not read again either.
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
        var reads: [(row: Box, area: Box, known: Set<String>, factor: Double)] = []
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
            reads += resizings.map { (box, area, known, $0) }
        }
        let parts = reads.map { read in
            let resized = page.cropped(to: read.area).scaled(by: read.factor)
            return TextPart(resized, within: resized.whole, as: .singleLine)
        }
        var out: [TextLine] = []
        for (read, lines) in zip(reads, text.read(parts)) {
            let (box, area, factor) = (read.row, read.area, read.factor)
            for line in lines where readsMore(codes(line), than: read.known) {
                var moved = line.movingBoxes { word in
                    let left = max(box.x, area.x + Int(Double(word.x) / factor))
                    let right = min(box.maxX, area.x + Int(Double(word.maxX) / factor))
                    return Box(x: left, y: box.y, width: max(1, right - left), height: box.height)
                }
                moved.box = Box.enclosing(moved.words.map(\.box)) ?? box
                out.append(moved)
            }
        }
        return out
    }

    /// Whether `code`, a word's body read with `confidence`, may be a code: shaped like one
    /// (`looksLikeCode`), or six capitals or more read with less confidence than
    /// `lettersOnlyBelow`: a code whose digits tesseract read as letters, in a narrow face
    /// (`ResizedTests`, the Lenovo table's serial).
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
    /// as long as the longest of them or a character shorter (the first read a stray character
    /// in). Shorter by two or more, the reading lost part of the print.
    static func readsMore(_ codes: [String], than known: Set<String>) -> Bool {
        let longest = known.map(\.count).max() ?? 0
        return codes.contains { !known.contains($0) && $0.count + 1 >= longest }
    }
}

/// A code read with doubt, where no barcode carries it, read again smaller and larger.
struct CodeRowsResized: SecondLook {
    var pass: ReaderPass { .codeRowsResized }

    func trigger(_ reading: PageReading) -> Void? { () }

    func look(_: Void, at reading: inout PageReading, with reader: FrameReader) {
        let (lines, page, barcodes) = (reading.lines, reading.page, reading.symbols.map(\.value))
        reading.lines = reader.pass(.codeRowsResized) {
            FrameReader.adding(FrameReader.codeRowsResized(lines, in: page, besides: barcodes, with: reader.text), to: lines)
        }
    }
}
