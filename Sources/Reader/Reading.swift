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

    /// The line with its box and every word's box moved by `move` (into another picture's pixels).
    func movingBoxes(_ move: (Box) -> Box) -> TextLine {
        var line = self
        line.box = move(box)
        for i in line.words.indices { line.words[i].box = move(line.words[i].box) }
        return line
    }
}
