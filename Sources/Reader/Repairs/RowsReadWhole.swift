import Foundation
import Imaging
import Model

/// The rows read whole pass: a row read in pieces read again as one line.
extension FrameReader {
    /// `lines` with each row of print read again as one line, where that reads more of it.
    ///
    /// Looking for text anywhere, tesseract breaks thin or widely spaced print into pieces that it
    /// reads whole as a single line (`RowRereadTests.thinMonospaced`). Lines that share a row
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
        let bands = rows.map { rereadBand($0, in: frame, typical: typical) }
        let parts = bands.compactMap { $0.map { TextPart(frame, within: $0, as: .singleLine) } }
        var again = reader.read(parts).makeIterator()
        var out: [TextLine] = []
        for (row, band) in zip(rows, bands) {
            guard band != nil, let again = again.next() else {
                out += row
                continue
            }
            // As much read, in fewer pieces, is read better too.
            let (more, same) = (characters(again), characters(row))
            let whole = more == same && again.flatMap(\.words).count < row.flatMap(\.words).count
            out += more > same || whole ? again : row
        }
        return out.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
    }

    /// The band `row` is read again in, as one line, where it was read in doubt; nil where it was
    /// read whole, or is more than two print lines high (not one row).
    static func rereadBand(_ row: [TextLine], in frame: Frame, typical: Int) -> Box? {
        guard let box = Box.enclosing(row.map(\.box)), box.height <= typical * 2 else { return nil }
        // A word read with doubt, or one less than half as tall as print (a piece of a
        // character), says the row was not read whole. So does print left unread at either
        // end of the row, read in part with confidence (`RowRereadTests.cutWord`).
        let printed = Self.printExtent(box, in: frame, typical: typical)
        let doubtful =
            printedWords(row).contains { $0.confidence < Self.rereadBelow || $0.box.height * 2 < typical }
            || printed.x < box.x || printed.maxX > box.maxX
        guard doubtful else { return nil }
        let left = min(box.x - 2 * typical, printed.x - typical / 2)
        let right = max(box.maxX + 2 * typical, printed.maxX + typical / 2)
        return Box(x: left, y: box.y - typical / 3, width: right - left, height: box.height + typical * 2 / 3)
    }

    /// How far the print of `row` reaches: its box, widened at either end over print tesseract left
    /// unread (it boxes only what it read, however confidently). Print is pixels as dark as the
    /// row's own, across its middle half, a stroke's worth to a column of them; it continues while
    /// no gap wider than three quarters of the typical word's height parts it from the box (a
    /// monospaced face sets its letters half a height apart; a space between words is wider: a row
    /// read whole ends in paper).
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
}

/// Rows tesseract read in pieces, read again whole.
struct RowsReadWhole: ReadingRepair {
    var pass: ReaderPass { .rowsReadWhole }

    func repaired(_ lines: [TextLine], of page: Frame, with text: TextReader) -> [TextLine] {
        FrameReader.rereadingRows(lines, in: page, with: text)
    }
}
