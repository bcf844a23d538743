import Foundation
import Imaging
import Model

/// The pale print pass: print washed pale, or a page where nothing was read, stretched.
extension FrameReader {
    /// Whether some of the print in `page`, as `lines` found it, is pale: a word of three letters
    /// or digits or more whose light and dark lie under `paleBelow` levels apart (black ink on
    /// white paper lies over 200 apart; faint grey ink, or ink under glare, under 100). A grainy
    /// page is not counted pale: stretching its contrast stretches the grain, and tesseract then
    /// reads the grain for seconds.
    static func isPale(_ lines: [TextLine], in page: Frame) -> Bool {
        hasPaleWord(lines, in: page) && page.grain < grainyAbove
    }

    /// Whether the page is grainy and some of its print, as `lines` found it, pale, or none of it
    /// read: a webcam's frame of faint grey ink, which `PaleStretched` leaves alone. A reading of
    /// more than `mostLabelLines` lines is a desk's texture, not a label's print (its words are
    /// pale too), and so is a page without print's contrast (`FrameQuality.hasPrintContrast`: a
    /// plain desk under a webcam's noise, which sharpened reads as more noise).
    static func isPaleUnderGrain(_ lines: [TextLine], in page: Frame) -> Bool {
        guard lines.count <= mostLabelLines, page.grain >= grainyAbove, page.quality().hasPrintContrast else { return false }
        return judgedWords(lines).isEmpty || hasPaleWord(lines, in: page)
    }

    /// Whether a word of three letters or digits or more in `lines` has its light and dark under
    /// `paleBelow` levels apart in `page`.
    static func hasPaleWord(_ lines: [TextLine], in page: Frame) -> Bool {
        guard let palest = judgedWords(lines).compactMap({ page.levelSpread(in: $0.box) }).min() else { return false }
        return palest < paleBelow
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
}

/// Print washed pale (glare on the label, faint ink), or a page where nothing was read at all,
/// with its contrast stretched locally and read again.
struct PaleStretched: SecondLook {
    var pass: ReaderPass { .paleStretched }

    func trigger(_ reading: PageReading) -> Void? {
        FrameReader.isPale(reading.first, in: reading.page) || FrameReader.readNothing(reading.first, in: reading.page) ? () : nil
    }

    func look(_: Void, at reading: inout PageReading, with reader: FrameReader) {
        let page = reading.page
        reader.readAgain(reader.pass(.paleStretched) { page.contrastStretchedLocally() }, into: &reading)
    }
}

/// Pale print on a grainy page (faint grey ink at a webcam's distance, under its noise and JPEG)
/// sharpened and read again: each pixel drawn 1.5 times its difference away from the mean of the
/// 5-pixel square round it, so thin grey strokes stand out from the paper, where a contrast
/// stretch stretches the grain as much as the ink.
struct PaleSharpened: SecondLook {
    var pass: ReaderPass { .paleSharpened }

    func trigger(_ reading: PageReading) -> Void? {
        FrameReader.isPaleUnderGrain(reading.first, in: reading.page) ? () : nil
    }

    func look(_: Void, at reading: inout PageReading, with reader: FrameReader) {
        let page = reading.page
        reader.readAgain(reader.pass(.paleSharpened) { page.unsharpMasked(halfwidth: 2, amount: 1.5) }, into: &reading)
    }
}
