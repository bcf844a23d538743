import Imaging
import Model

/// The second choices pass: a line with a letter tesseract took for a digit as well, offered
/// again with the digit.
extension FrameReader {
    /// `lines`, read on `page`, each line holding a code with an S or an I that tesseract, reading
    /// the word again alone, also takes for a 5 or a 1 (`TextReader.secondChoice(of:in:)`),
    /// followed by the same line read with those digits, over the same box.
    ///
    /// A printed 5 is read as S, and a 1 as I, on every frame that shows it alike: a vote of
    /// frames cannot mend that, and what the extractor offers of it ("5 for S") comes after the
    /// value as read. Where tesseract's own alternatives for the letter name the digit, the line
    /// is read both ways, as a page read again is (`adding`): the extractor takes the digit as
    /// the likelier reading of one print (`Tokens.printedAs`), the letter as another reading.
    /// The last pass of a frame's text, after the second looks: no trigger judges a page by the
    /// lines it offers.
    func offeringSecondChoices(_ lines: [TextLine], on page: Frame) -> [TextLine] {
        Self.offering(lines) { word in Self.mayHaveSecondChoice(word.text) ? text.secondChoice(of: word, in: page) : nil }
    }

    /// `lines`, each line with a word `second` reads another way followed by the line read so.
    static func offering(_ lines: [TextLine], _ second: (Word) -> String?) -> [TextLine] {
        let again = lines.compactMap { line -> TextLine? in
            var changed = false
            let words = line.words.map { word in
                guard let other = second(word) else { return word }
                changed = true
                return Word(text: other, box: word.box, confidence: word.confidence)
            }
            return changed ? TextLine(words: words, box: line.box) : nil
        }
        return adding(again, to: lines)
    }

    /// Whether `word` is worth reading again for its second choices: a code (`looksLikeCode`)
    /// with a letter a second choice reads as a digit (`TextReader.digitFor`).
    static func mayHaveSecondChoice(_ word: String) -> Bool {
        let body = codeBody(word)
        return looksLikeCode(body) && body.contains { TextReader.digitFor[String($0)] != nil }
    }
}
