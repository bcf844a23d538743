import Imaging

/// A decoded barcode symbol.
public struct BarcodeSymbol: Sendable, Hashable {
    public var value: String
    public var symbology: String
    public var box: Box

    /// Whether its box bounds the code, not a point or a line across it: zbar locates some Code
    /// 128 it decodes at the end of one scan line (a box one pixel wide), and zxing-cpp a code
    /// on a tilted frame along the row it decoded (988 by 19 pixels). A code's box is at least
    /// `locatedAtLeast` pixels each way, and at most `longestLocated` times as long as high: of
    /// the 4,999 codes boxed 16 pixels or more each way on the rendered development labels,
    /// 4,790 were at most eight times as long as high, and the rest spread out to 57 times.
    public var isLocated: Bool {
        let (short, long) = (Swift.min(box.width, box.height), Swift.max(box.width, box.height))
        return short >= Self.locatedAtLeast && long <= Self.longestLocated * short
    }

    static let locatedAtLeast = 16
    static let longestLocated = 8
}

extension Array where Element == BarcodeSymbol {
    /// Adds each of `found` not already here: a symbol with the same value over the same place is
    /// one code read twice (by both engines, or in two overlapping tiles). Where the one here is
    /// not located (`BarcodeSymbol.isLocated`) and the other reading is, it takes that reading's
    /// box: the box is where its bars are painted over before text is read.
    mutating func addNew(_ found: [BarcodeSymbol]) {
        for symbol in found {
            guard let same = firstIndex(where: { $0.value == symbol.value && $0.box.intersectionArea(symbol.box) > 0 }) else {
                append(symbol)
                continue
            }
            if !self[same].isLocated && symbol.isLocated { self[same].box = symbol.box }
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
