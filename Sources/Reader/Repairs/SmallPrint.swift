import Foundation
import Imaging
import Model

/// The small print pass: small print read with doubt, read again larger.
extension FrameReader {
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
}

/// Small print (a label far from the lens) read with doubt, read again at twice the size and kept
/// when that reads more of it; small print read with confidence is not: the second reading costs
/// two and a half times the first.
struct SmallPrintEnlarged: ReadingRepair {
    var pass: ReaderPass { .smallPrintEnlarged }

    /// Not on a page without print's contrast (`FrameQuality.hasPrintContrast`): what tesseract
    /// reads in a plain desk's grain under a webcam's noise is small and doubtful, and twice the
    /// size it reads as hundreds of lines, for seconds.
    func applies(to lines: [TextLine], of page: Frame) -> Bool {
        FrameReader.isSmallAndDoubtful(lines) && page.quality().hasPrintContrast
    }

    func repaired(_ lines: [TextLine], of page: Frame, with text: TextReader) -> [TextLine] {
        let enlarged = text.read(page.scaled(by: 2)).map { $0.movingBoxes(\.halved) }
        return FrameReader.characters(enlarged) > FrameReader.characters(lines) ? enlarged : lines
    }
}

extension Box {
    /// The box in a picture half the size.
    var halved: Box { Box(x: x / 2, y: y / 2, width: (width + 1) / 2, height: (height + 1) / 2) }
}
