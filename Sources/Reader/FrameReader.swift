import Foundation
import Imaging
import Model

/// Reads barcodes and printed text in the same pass over each frame (SCAN-1).
///
/// One call returns every reading: barcodes decoded exactly, and printed lines with junk dropped
/// (words that are the "text" tesseract sees in a QR code or in the bars of a barcode, and words
/// with no letter or digit). A frame is read by named passes (`ReaderPass`): the barcode pass, the
/// page made ready and read by tesseract, then the repairs, each where its trigger calls for it
/// (`TextPipeline`). Owns one tesseract engine, reused across frames (zbar scanners are made for
/// each scan); not for sharing between threads.
public final class FrameReader {
    /// What to read in a frame.
    public struct Passes: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let barcodes = Passes(rawValue: 1)
        public static let text = Passes(rawValue: 2)
        public static let all: Passes = [.barcodes, .text]
    }

    public let barcodes: BarcodeReader
    public let text: TextReader
    /// Where each pass's cost is added up, when it is measured (`bench read`).
    public var costs: PassCosts? = nil
    /// Repairs that do not run, whatever their triggers say: a test turns one off to show what
    /// it reads. Passes that are no repair (`ReaderPass.isRepair`) always run.
    public var turnedOff: Set<ReaderPass> = []
    /// The most pixels `readBarcodes` scans a frame at (`BarcodeReader.read(_:scanningAtMost:)`):
    /// a camera's larger frame has its barcodes read at what a frame of this many costs.
    public var liveScanPixels = FrameReader.standardLiveScan

    /// 1280x720, the size a webcam is asked for (`CameraSetup`): measured on the live corpus
    /// rendered at 1920x1080 (`fieldrig bench live --barcode-scan`).
    public static let standardLiveScan = 1280 * 720

    /// A reader whose page is read by tesseract as `layout` says, the rows its repairs read again
    /// read on `textWorkers` engines side by side (`TextReader.read(_: [TextPart])`).
    public init(layout: TextReader.Layout = .sparse, textWorkers: Int = 1) throws(ReaderError) {
        barcodes = try BarcodeReader()
        text = try TextReader(layout: layout, workers: textWorkers)
    }

    /// Runs `body` as `pass`, measured when costs are kept.
    func pass<T>(_ pass: ReaderPass, _ body: () throws -> T) rethrows -> T {
        guard let costs else { return try body() }
        return try costs.measure(pass.name, body)
    }

    /// Whether the repair `pass` runs on this reader.
    func runs(_ pass: ReaderPass) -> Bool { !pass.isRepair || !turnedOff.contains(pass) }

    /// The last frame whose barcodes were read alone, and what was read: a full reading of the
    /// same frame goes on from it. The frame's pixels are held, so its buffer cannot be reused.
    private var lastBarcodePass: (frame: Frame, symbols: [BarcodeSymbol])? = nil

    /// The barcode pass alone: what a screen can act on before printed text is read (a proven
    /// tag fires on it), as the live path reads every frame a camera delivers: a frame of more
    /// than `liveScanPixels` pixels is scanned as one of that many. A `read` of the same frame
    /// afterwards does not read its barcodes again; a still image `read` alone is scanned whole.
    public func readBarcodes(_ frame: Frame) -> [Reading] {
        let symbols = pass(.barcodes) { barcodes.read(frame, scanningAtMost: liveScanPixels) }
        lastBarcodePass = (frame, symbols)
        return Self.combine(symbols: Self.acrossBars(symbols, in: frame), lines: [])
    }

    /// The barcodes of `frame`, from the barcode pass when it was this very frame (the same
    /// buffer of pixels), else read now (and measured as the barcode pass).
    private func barcodePass(_ frame: Frame) -> [BarcodeSymbol] {
        if let last = lastBarcodePass, last.frame.sameBuffer(as: frame) { return last.symbols }
        return pass(.barcodes) { barcodes.read(frame) }
    }

    /// Every reading in `frame`: barcodes first, in zbar's order, then printed lines top to bottom.
    public func read(_ frame: Frame, passes: Passes = .all) -> [Reading] {
        let symbols = passes.contains(.barcodes) ? barcodePass(frame) : []
        guard passes.contains(.text) else { return Self.combine(symbols: Self.acrossBars(symbols, in: frame), lines: []) }
        var reading = firstReading(frame, symbols: symbols, readsBarcodes: passes.contains(.barcodes))
        for look in TextPipeline.secondLooks where runs(look.pass) { look.run(on: &reading, with: self) }
        if runs(.secondChoices) { reading.lines = pass(.secondChoices) { offeringSecondChoices(reading.lines, on: reading.page) } }
        let lines = reading.lines.map { $0.movingBoxes(reading.upright.originalBox) }
        let turned = reading.symbols.compactMap { $0.turnedBars(in: frame) }.filter(\.isTurned)
        return Self.combine(symbols: Self.acrossBars(reading.symbols, in: frame), lines: lines, skew: reading.upright.angle, turned: turned)
    }

    /// `symbols` with their boxes grown across their bars (`BarcodeSymbol.boundedAcrossBars`),
    /// for what the frame's readings say of them: where each code lies (its caption's gap, the
    /// line printed under it) and which words lie on its bars. The page read for text was painted
    /// with zbar's boxes: a box grown part of the way over a code the hand turned would cut the
    /// line under it, and leave what is left read as print.
    static func acrossBars(_ symbols: [BarcodeSymbol], in frame: Frame) -> [BarcodeSymbol] {
        symbols.map { $0.boundedAcrossBars(in: frame) }
    }

    /// The page made ready for text and read once, with that reading's repairs: the frame turned
    /// upright, codes looked for again on it where none was read tilted, rules painted out.
    private func firstReading(_ frame: Frame, symbols: [BarcodeSymbol], readsBarcodes: Bool) -> PageReading {
        var symbols = symbols
        // The skew is measured on the frame as it is: painting a tilted code over cuts its bars
        // level above and below the paint, edges that read as level lines.
        let upright = pass(.upright) { UprightFrame(Self.blanking(symbols.map(Self.printedArea), in: frame), skewMeasuredOn: frame) }
        var uprightPage = upright.frame
        // Codes are looked for again with the frame upright (zxing-cpp misses a rectangular
        // DataMatrix turned ten degrees), their boxes brought back to the frame's own pixels.
        if readsBarcodes, symbols.isEmpty, upright.angle != 0, runs(.barcodesUpright) {
            let found = pass(.barcodesUpright) { barcodes.read(upright.frame) }
            uprightPage = Self.blanking(found.map(Self.printedArea), in: upright.frame)
            symbols = found.map { BarcodeSymbol(value: $0.value, symbology: $0.symbology, box: upright.originalBox($0.box)) }
        }
        let page = pass(.rulesErased) { Rules.erased(uprightPage) }
        let first = pass(.text) { text.read(page) }
        return PageReading(
            frame: frame, upright: upright, page: page, first: first, lines: completed(first, of: page), symbols: symbols,
            readsBarcodes: readsBarcodes)
    }

    /// `lines`, tesseract's reading of `page`, with the repairs every reading of a page gets
    /// (`TextPipeline.readingRepairs`), each where its trigger calls for it.
    func completed(_ lines: [TextLine], of page: Frame) -> [TextLine] {
        var read = lines
        for repair in TextPipeline.readingRepairs where runs(repair.pass) && repair.applies(to: read, of: page) {
            read = pass(repair.pass) { repair.repaired(read, of: page, with: text) }
        }
        return read
    }

    /// `again`, the page made easier to read, read and completed: what it reads differently is
    /// kept beside what was read before.
    func readAgain(_ again: Frame, into reading: inout PageReading) {
        let read = completed(pass(.text) { text.read(again) }, of: again)
        reading.lines = Self.adding(read, to: reading.lines)
    }
}

extension FrameReader: FrameReading {
    public func read(_ frame: Frame) -> [Reading] { read(frame, passes: .all) }

    /// The whole reading, without the second looks where `secondLooks` is false (besides the
    /// repairs turned off already).
    public func read(_ frame: Frame, secondLooks: Bool) -> [Reading] {
        guard !secondLooks else { return read(frame) }
        let before = turnedOff
        defer { turnedOff = before }
        turnedOff.formUnion(TextPipeline.secondLooks.map(\.pass))
        return read(frame)
    }
}

extension Frame {
    /// Whether `other` is this frame itself: the same size, index and buffer of pixels (a
    /// buffer held cannot be reused for another frame).
    func sameBuffer(as other: Frame) -> Bool {
        guard width == other.width, height == other.height, stride == other.stride, index == other.index else { return false }
        return bytes.withUnsafeBufferPointer { a in other.bytes.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
