import Imaging
import Model

/// Anything that reads a frame in one pass: the real reader, or a cache in front of it.
public protocol FrameReading: AnyObject {
    /// Every reading: barcodes and printed text.
    func read(_ frame: Frame) -> [Reading]
    /// The barcode pass alone, which a screen acts on before printed text is read; reading the
    /// same frame whole afterwards goes on from it where the reader can.
    func readBarcodes(_ frame: Frame) -> [Reading]
    /// Every reading, with or without the reader's second looks (`TextPipeline.secondLooks`): a
    /// budget spreads them over a window's frames.
    func read(_ frame: Frame, secondLooks: Bool) -> [Reading]
}

extension FrameReading {
    /// For readers with no second looks of their own to leave out: the whole reading.
    public func read(_ frame: Frame, secondLooks: Bool) -> [Reading] { read(frame) }

    /// For readers with no barcode pass of their own: the barcodes of a whole reading.
    public func readBarcodes(_ frame: Frame) -> [Reading] { read(frame).filter(\.source.isBarcode) }
}
