import Imaging

/// A decoded barcode symbol.
public struct BarcodeSymbol: Sendable, Hashable {
    public var value: String
    public var symbology: String
    public var box: Box
}

/// A printed line as tesseract found it, before junk words are dropped.
public struct TextLine: Sendable, Hashable {
    public var words: [Word]
    public var box: Box

    public var text: String { words.map(\.text).joined(separator: " ") }
}
