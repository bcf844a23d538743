import Foundation
import Imaging
import Model

/// The smear passes: print smeared along its rows found, and drawn back together.
extension FrameReader {
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

    /// A typical word changing across its rows less than this share of down its columns is smeared.
    static let smearedBelow = 0.6

    /// Words lower than this many pixels, or read with less confidence than `leastMeasured`,
    /// are not measured for smear ...
    static let smallestMeasured = 8

    static let leastMeasured = 30.0

    /// ... and fewer measured words than this say nothing about it.
    static let fewestMeasured = 3
}

/// Print smeared sideways (the phone moved), drawn back together along its rows to the side the
/// whole frame's edges say it trails, and the page read again; so are the barcodes round it, in
/// the frame itself (a smear along the rows runs a code's upright bars into one another), and a
/// code read only so is added. A page whose words are too few or too thin to measure is judged by
/// the whole frame's edges: leaning one way, it is smeared.
struct SmearDrawnBack: SecondLook {
    var pass: ReaderPass { .smearDrawnBack }
    var measuredAs: ReaderPass? { .smearMeasured }

    /// The smear to draw back, on a page its words say is smeared or say nothing about; the lean
    /// is measured only there.
    func trigger(_ reading: PageReading) -> RowSmear? {
        let words = FrameReader.smearedSideways(reading.first, in: reading.page)
        let lean = words == false ? nil : reading.frame.smearLean(in: reading.frame.whole)
        return words ?? FrameReader.leansOneWay(lean) ? FrameReader.smear(leaning: lean) : nil
    }

    func look(_ smear: RowSmear, at reading: inout PageReading, with reader: FrameReader) {
        let area = reading.first.isEmpty ? reading.frame.whole : FrameReader.printArea(reading.first)
        let page = reading.page
        reader.readAgain(reader.pass(.smearDrawnBack) { page.sharpenedAlongRows(in: area, smear: smear) }, into: &reading)
        guard reading.readsBarcodes, reader.runs(.barcodesUnsmeared) else { return }
        let (frame, original) = (reading.frame, reading.upright.originalBox(area))
        let known = Set(reading.symbols.map(\.value))
        let found = reader.pass(.barcodesUnsmeared) {
            reader.barcodes.readWithZBarOnly(frame.sharpenedAlongRows(in: original, smear: smear))
        }
        reading.symbols += found.filter { !known.contains($0.value) }
    }
}
