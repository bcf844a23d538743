import Imaging
import Model

/// One frame's text pass as it goes: the frame as delivered, its page (turned upright, barcodes
/// and rules painted out), tesseract's first reading of the page, and what has been read so far.
struct PageReading {
    let frame: Frame
    let upright: UprightFrame
    let page: Frame
    /// Tesseract's first reading of `page`, before any repair: the triggers judge the page by it.
    let first: [TextLine]
    /// Every line read so far, in the page's pixels.
    var lines: [TextLine]
    /// Every barcode read so far, in the frame's pixels.
    var symbols: [BarcodeSymbol]
    let readsBarcodes: Bool
}

/// A repair of one reading of a page, run on the first reading and on each page made easier and
/// read again.
protocol ReadingRepair: Sendable {
    var pass: ReaderPass { get }
    /// Its trigger: whether the reading, of `page`, calls for it.
    func applies(to lines: [TextLine], of page: Frame) -> Bool
    /// `lines`, read on `page`, repaired.
    func repaired(_ lines: [TextLine], of page: Frame, with text: TextReader) -> [TextLine]
}

extension ReadingRepair {
    func applies(to lines: [TextLine], of page: Frame) -> Bool { true }
}

/// A second look at a frame's page after its first reading, where its trigger finds that the
/// page calls for it.
protocol SecondLook: Sendable {
    /// What the trigger found that the look goes on from (the smear's direction, ...).
    associatedtype Finding
    var pass: ReaderPass { get }
    /// The pass the trigger's own measure is counted under, when it is worth counting.
    var measuredAs: ReaderPass? { get }
    /// Its trigger: what in the page calls for the look; nil where nothing does.
    func trigger(_ reading: PageReading) -> Finding?
    /// The look itself, adding what it reads to `reading`.
    func look(_ finding: Finding, at reading: inout PageReading, with reader: FrameReader)
}

extension SecondLook {
    var measuredAs: ReaderPass? { nil }

    /// The trigger judged (measured where it is worth it), then the look where it calls for one.
    func run(on reading: inout PageReading, with reader: FrameReader) {
        let found = measuredAs.map { measure in reader.pass(measure) { trigger(reading) } } ?? trigger(reading)
        guard let found else { return }
        look(found, at: &reading, with: reader)
    }
}

/// The order the reader's repairs run in.
enum TextPipeline {
    /// Every reading of a page: small print enlarged, words boxed across two lines split, rows
    /// read in pieces read whole.
    static let readingRepairs: [any ReadingRepair] = [SmallPrintEnlarged(), LinesSplit(), RowsReadWhole()]

    /// After the first reading, once a frame: smeared print drawn back, pale print stretched or,
    /// on a grainy page, sharpened (each page read again), codes read at other sizes, rows of ink
    /// nothing was read on read as lines.
    static let secondLooks: [any SecondLook] = [SmearDrawnBack(), PaleStretched(), PaleSharpened(), CodeRowsResized(), UnreadInk()]
}
