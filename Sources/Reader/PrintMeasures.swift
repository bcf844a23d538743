import Foundation
import Imaging
import Model

/// Measures of print every pass shares: its words, their height, how much was read, what looks like a code.
extension FrameReader {
    /// The letters and digits `word` was read as.
    static func lettersAndDigits(_ word: Word) -> String { word.text.filter { $0.isLetter || $0.isNumber } }

    /// Where the print `lines` found lies on the page: their boxes together, with a margin of
    /// the tallest line's height above and below, and four times that at either end (print
    /// tesseract did not find beside print it did).
    static func printArea(_ lines: [TextLine]) -> Box {
        guard let all = Box.enclosing(lines.map(\.box)) else { return Box(x: 0, y: 0, width: 0, height: 0) }
        let margin = lines.map(\.box.height).max() ?? 0
        return Box(x: all.x - 4 * margin, y: all.y - margin, width: all.width + 8 * margin, height: all.height + 2 * margin)
    }

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

    /// The words of `lines` with a letter or digit: print, not a mark.
    static func printedWords(_ lines: [TextLine]) -> [Word] {
        lines.flatMap(\.words).filter { $0.text.contains { $0.isLetter || $0.isNumber } }
    }

    /// The median height of `words`; nil where there are none.
    static func typicalHeight(_ words: [Word]) -> Int? {
        let heights = words.map(\.box.height).sorted()
        return heights.isEmpty ? nil : heights[heights.count / 2]
    }

    /// Letters and digits in confident words: how much of the print a reading got.
    static func characters(_ lines: [TextLine]) -> Int {
        lines.flatMap(\.words).filter { $0.confidence >= 50 }.reduce(0) { $0 + lettersAndDigits($1).count }
    }

    /// Whether a word looks like a printed code: six or more capitals and digits, with at most
    /// hyphens between them, both letters and digits among them; or ten digits or more. Tesseract
    /// gives such words little confidence (no dictionary knows them), where the noise it reads as
    /// words is short and of mixed case.
    static func looksLikeCode(_ text: String) -> Bool {
        // OCR's symbols for a serial's characters count as those ($ for S).
        let body = text.filter { $0 != "-" }.map { OCRConfusion.symbols[$0] ?? $0 }
        guard body.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else { return false }
        let digits = body.filter(\.isNumber).count
        return (body.count >= 6 && digits > 0 && digits < body.count) || (digits >= 10 && digits == body.count)
    }

    /// `word` without the colons, semicolons, full stops and commas OCR read at its end: a code
    /// whose last character noise turned into one is still a code, and its row is worth reading
    /// again (`ResizedTests`, a code read with a colon).
    static func codeBody(_ word: String) -> String {
        String(word.reversed().drop { ":;.,".contains($0) }.reversed())
    }
}
