import Foundation
import Imaging
import Model

/// The unread ink pass: rows of print tesseract passed over, read as lines.
extension FrameReader {
    /// Lines read in rows of `page`'s print that no line of `lines` covers: rows of ink tesseract
    /// passed over, each read again as one line.
    ///
    /// Looking for text anywhere, tesseract can pass over a whole row of print and read the rows
    /// above and below it: thin grey print between bold lines (`UnreadInkTests.passedOver`). Inside
    /// the print's area (`printArea`, and two typical words' height more above and below, for a row
    /// passed over above the first row read or under the last), with its contrast stretched
    /// locally, ink is what lies darker than half way; ink under or beside a line already read is
    /// not counted, nor is ink dark down its column for longer than two typical words are high (the
    /// desk in the wedge beside a tilted label turned upright, a code's bars, an upright rule:
    /// counted, the desk beside a label's whole height joined every row of its print into one), nor
    /// are columns and rows dark across most of the area (a label's edge, the desk, a rule). What
    /// is left is cut into rows (runs of pixel rows holding ink) and each row into pieces where the
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
        var bands: [Box] = []
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
                bands.append(band)
            }
        }
        let rows = text.read(bands.map { TextPart(page, within: $0, as: .singleLine) })
        return rows.flatMap { $0.filter { $0.words.contains(where: isWorthKeeping) } }
    }

    /// Fewer pixels of ink than this on a pixel row say nothing (a speck, the end of a stroke).
    static let inkInARow = 3

    /// Whether `word`, read where no line was, is print: a code, or three letters or digits read
    /// with more than `minimumConfidence`.
    static func isWorthKeeping(_ word: Word) -> Bool {
        looksLikeCode(word.text) || (word.confidence >= minimumConfidence && lettersAndDigits(word).count >= 3)
    }
}

/// Rows of print tesseract passed over, where none was read, read as lines.
struct UnreadInk: SecondLook {
    var pass: ReaderPass { .unreadInk }

    func trigger(_ reading: PageReading) -> Void? { () }

    func look(_: Void, at reading: inout PageReading, with reader: FrameReader) {
        let (lines, page) = (reading.lines, reading.page)
        reading.lines = reader.pass(.unreadInk) { FrameReader.adding(FrameReader.unreadInk(lines, in: page, with: reader.text), to: lines) }
    }
}
