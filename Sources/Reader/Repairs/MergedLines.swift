import Foundation
import Imaging
import Model

/// The lines split pass: a word boxed across two lines of print read again alone.
extension FrameReader {
    /// `lines` with each word tesseract boxed across two lines of print read again on its own.
    ///
    /// Looking for text anywhere, tesseract can take a small line and the line under it for one
    /// word, boxed lines high, which is then too tall to be print and dropped. Such a word (taller
    /// than `tallestWord` typical words, not five times taller, which is a barcode's bars) is read
    /// again alone as a block of lines; where that finds two lines or more, they replace it.
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
}

/// Words tesseract boxed across two lines of print, read again alone.
struct LinesSplit: ReadingRepair {
    var pass: ReaderPass { .linesSplit }

    func repaired(_ lines: [TextLine], of page: Frame, with text: TextReader) -> [TextLine] {
        FrameReader.splittingMergedLines(lines, in: page, with: text)
    }
}
