import Imaging
import Model

/// A decoded barcode symbol.
public struct BarcodeSymbol: Sendable, Hashable {
    public var value: String
    public var symbology: String
    public var box: Box

    /// Whether its box bounds the code, not a point or a line across it (`Box.boundsACode`): zbar
    /// locates some Code 128 it decodes at the end of one scan line (a box one pixel wide).
    public var isLocated: Bool { box.boundsACode }

    /// The symbol with its box widened along its bars, where zbar located a linear code at the
    /// ends of the rows it decoded (a box a few pixels wide and as high as the bars): on the row
    /// through the box's middle, the dark bars and light spaces either side of the box are
    /// followed until a run six of the code's narrowest bars wide or more (a quiet zone).
    /// Unchanged where that does not bound the code (`isLocated`) or the symbol is 2-D.
    func boundedAlongBars(in frame: Frame) -> BarcodeSymbol {
        guard !isLocated, !Self.twoDimensional.contains(symbology), box.height >= Box.codeAtLeast,
            box.width < Box.codeAtLeast, frame.part(box) == box
        else { return self }
        let reach = Box.codeLongest * box.height
        let (start, end) = (Swift.max(0, box.x - reach), Swift.min(frame.width, box.maxX + reach))
        let row = (box.y + box.height / 2) * frame.stride
        let pixels = frame.bytes[(row + start)..<(row + end)]
        guard let low = pixels.min(), let high = pixels.max(), Int(high) - Int(low) >= 64 else { return self }
        let parting = (Int(low) + Int(high)) / 2
        // Runs of dark and light along the row: (dark, first pixel, length).
        var runs: [(dark: Bool, x: Int, length: Int)] = []
        for x in start..<end {
            let dark = Int(frame.bytes[row + x]) < parting
            if let last = runs.last, last.dark == dark {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((dark, x, 1))
            }
        }
        guard let inside = runs.firstIndex(where: { $0.x + $0.length > box.x + box.width / 2 }),
            let narrowest = runs.filter({ $0.dark && abs($0.x - box.x) <= box.height }).map(\.length).min()
        else { return self }
        // A code's bars and spaces are at most four of its narrowest wide: a run of six or more
        // is the quiet zone, or what lies past the label (a desk read as dark).
        let widest = Swift.max(6, 6 * narrowest)
        func isBreak(_ k: Int) -> Bool { runs[k].length >= widest }
        // The box's middle in the quiet zone at one end of the code: the bars lie on the side of
        // it the box reaches into.
        var anchor = inside
        if isBreak(anchor) {
            if anchor > 0, runs[anchor].x >= box.x, runs[anchor - 1].dark, !isBreak(anchor - 1) {
                anchor -= 1
            } else if anchor < runs.count - 1, runs[anchor + 1].dark, !isBreak(anchor + 1) {
                anchor += 1
            } else {
                return self
            }
        }
        var (first, last) = (anchor, anchor)
        while first > 0, !isBreak(first - 1) { first -= 1 }
        while last < runs.count - 1, !isBreak(last + 1) { last += 1 }
        while first < last, !runs[first].dark { first += 1 }
        while last > first, !runs[last].dark { last -= 1 }
        guard runs[first].dark, first > 0, last < runs.count - 1 else { return self }
        let x = runs[first].x
        var bounded = self
        bounded.box = Box(x: x, y: box.y, width: runs[last].x + runs[last].length - x, height: box.height)
        return bounded.isLocated ? bounded : self
    }

    /// The symbol with its box grown across its bars, where zbar decoded a linear code on only
    /// some of the rows its bars cross (blur, noise or JPEG's blocks on the others): from the row
    /// through the box's middle, each row up and down whose dark and light along the box match
    /// that row's (a tilted code's a pixel further along each row at most) is the code's, until
    /// two rows running match on fewer than `barsMatch` of their pixels, or at either end of the
    /// box (the paper over the bars, the code's digits under them; a tilted code's bars ending at
    /// one end first, where its axis-aligned box would take in the print beside them). Never
    /// smaller; unchanged for a 2-D code, one standing on end, or one whose middle row shows no bars.
    func boundedAcrossBars(in frame: Frame) -> BarcodeSymbol {
        guard !Self.twoDimensional.contains(symbology), box.width >= Box.codeAtLeast, box.width > box.height,
            frame.part(box) == box
        else { return self }
        let middle = box.y + box.height / 2
        guard let reference = Self.darkAndLight(in: frame, row: middle, from: box.x, to: box.maxX) else { return self }
        func lastRow(_ step: Int) -> Int {
            var (y, shift, last, misses) = (middle + step, 0, middle, 0)
            while y >= 0, y < frame.height, abs(y - middle) <= box.width, misses < 2 {
                let row = Self.darkAndLight(in: frame, row: y, from: box.x, to: box.maxX) ?? []
                let best = (shift - 1...shift + 1).map { (shift: $0, match: Self.barsMatching(reference, row, shiftedBy: $0)) }
                    .max { $0.match < $1.match }!
                if best.match >= Self.barsMatch { (last, shift, misses) = (y, best.shift, 0) } else { misses += 1 }
                y += step
            }
            return last
        }
        let (top, bottom) = (min(box.y, lastRow(-1)), max(box.maxY - 1, lastRow(1)))
        var bounded = self
        bounded.box = Box(x: box.x, y: top, width: box.width, height: bottom - top + 1)
        return bounded
    }

    /// How much of a row must match the dark and light of a code's middle row to be a row of its bars.
    static let barsMatch = 0.8

    /// Row `row` of `frame` from `start` to `end`, each pixel dark (under the row's mean) or light;
    /// nil where the row spans fewer than 48 gray levels (paper, no bars).
    static func darkAndLight(in frame: Frame, row: Int, from start: Int, to end: Int) -> [Bool]? {
        let pixels = frame.bytes[(row * frame.stride + start)..<(row * frame.stride + end)]
        guard let low = pixels.min(), let high = pixels.max(), Int(high) - Int(low) >= 48 else { return nil }
        let mean = pixels.reduce(0) { $0 + Int($1) } / pixels.count
        return pixels.map { Int($0) < mean }
    }

    /// The least share of `reference`'s pixels that `row`, moved `shift` pixels along, matches
    /// over the whole row, its first eighth and its last (over the pixels both hold).
    static func barsMatching(_ reference: [Bool], _ row: [Bool], shiftedBy shift: Int) -> Double {
        let (first, end) = (max(0, -shift), min(reference.count, row.count - shift))
        let eighth = (end - first) / 8
        guard eighth > 0 else { return 0 }
        func share(_ range: Range<Int>) -> Double {
            Double(range.filter { reference[$0] == row[$0 + shift] }.count) / Double(range.count)
        }
        return min(share(first..<end), share(first..<(first + eighth)), share((end - eighth)..<end))
    }

    static let twoDimensional: Set<String> = ["QR-Code", "DATAMATRIX", "PDF417", "AZTEC", "MICRO-QR"]
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
