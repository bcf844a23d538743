import Imaging

/// A decoded barcode symbol.
public struct BarcodeSymbol: Sendable, Hashable {
    public var value: String
    public var symbology: String
    public var box: Box
}

extension Array where Element == BarcodeSymbol {
    /// Adds each of `found` not already here: a symbol with the same value over the same place is
    /// one code read twice (by both engines, or in two overlapping tiles).
    mutating func addNew(_ found: [BarcodeSymbol]) {
        for symbol in found where !contains(where: { $0.value == symbol.value && $0.box.intersectionArea(symbol.box) > 0 }) {
            append(symbol)
        }
    }
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
