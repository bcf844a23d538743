/// Where a reading came from: a barcode (with its symbology) or a printed line of text.
public enum ReadingSource: Sendable, Hashable {
    /// A decoded barcode; `symbology` is zbar's name for it, e.g. "CODE-128", "EAN-13", "QR-Code".
    case barcode(symbology: String)
    /// A printed line; `line` counts the frame's printed lines from 1, top to bottom.
    case text(line: Int)

    public var isBarcode: Bool {
        if case .barcode = self { return true }
        return false
    }
}

/// One value read from a frame, with its source and where in the frame it was read.
public struct Reading: Sendable, Hashable {
    public var value: String
    public var source: ReadingSource
    public var box: Box
    /// For printed text, the words of the line with their own boxes; empty for barcodes.
    public var words: [Word]

    public init(value: String, source: ReadingSource, box: Box, words: [Word] = []) {
        self.value = value
        self.source = source
        self.box = box
        self.words = words
    }

    /// How a printed line slopes (a tilted label), in pixels down per pixel to the right: from the
    /// centre of its first word to the centre of its last, where they are at least four word
    /// heights apart (closer, a parenthesis or a descender moving a centre by a pixel or two
    /// tilts it too much) and of much the same height; nil for a barcode or a line of one word.
    /// A tilted word's box is wider and taller than the word, but its centre is the word's own.
    public var slope: Double? { slope(apart: 4) }

    /// The same measure from words closer together, at least two and a half word heights apart
    /// ("REV: 32", "(SERIAL NO.)"): a pixel moved is more tilt, so it is only a rough one, for
    /// a label on which no line shows its slope (`slope`).
    public var roughSlope: Double? { slope(apart: 2.5) }

    private func slope(apart: Double) -> Double? {
        guard let first = words.first, let last = words.last, words.count >= 2 else { return nil }
        let run = Double(last.box.x + last.box.maxX - first.box.x - first.box.maxX) / 2
        let rise = Double(last.box.y + last.box.maxY - first.box.y - first.box.maxY) / 2
        let height = Double(min(first.box.height, last.box.height))
        // A word half as tall again as the other was boxed with something else (a box cut by
        // the frame's edge, a rule under it): its centre is not the word's.
        guard run >= apart * height, run > 0, Double(max(first.box.height, last.box.height)) <= 1.5 * height else { return nil }
        return rise / run
    }

    /// The line's words OCR read a character of twice, from the same ink, each with the word
    /// read once (`Word.readOnce`): "PF5QHU9ON": "PF5QHU9N".
    public var readOnce: [String: String] {
        Dictionary(words.compactMap { word in word.readOnce.map { (word.text, $0) } }) { first, _ in first }
    }

    /// Which barcode or printed line, without the box: "CODE-128 barcode", "printed line 2". Boxes
    /// move a little from frame to frame; this does not.
    public var place: String {
        switch source {
        case .barcode(let symbology): return "\(symbology) barcode"
        case .text(let line): return "printed line \(line)"
        }
    }

    /// Where the value was read, for a person: "CODE-128 barcode at 120,340 400x80" or
    /// "printed line 2 at 80,40 300x24".
    public var whereRead: String {
        "\(place) at \(box)"
    }
}

/// A recognised word and its box; `confidence` is tesseract's, 0 to 100 (never shown to a person).
public struct Word: Sendable, Hashable {
    public var text: String
    public var box: Box
    public var confidence: Double
    /// The word with each character tesseract read a second time from ink it had already read
    /// taken out ("PF5QHU9ON", its O boxed inside the 9 and the N, for "PF5QHU9N"); nil where
    /// every character has ink of its own.
    public var readOnce: String?

    public init(text: String, box: Box, confidence: Double, readOnce: String? = nil) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.readOnce = readOnce
    }
}
