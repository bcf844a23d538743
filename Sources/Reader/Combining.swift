import Foundation
import Imaging
import Model

/// A frame's readings made of its barcodes and its lines, junk dropped; barcodes painted out of the page.
extension FrameReader {
    /// The readings of one frame from its barcode symbols and its recognised lines.
    ///
    /// A word is junk, and dropped, when it has no letter or digit; when most of it lies on a
    /// decoded barcode (OCR of bars and QR modules), or starts under a linear one's bars where
    /// its human-readable line is printed (`ownLineBand`), or beside one with little confidence (the
    /// ends of the bars of a tilted barcode); when tesseract itself gives it almost no confidence;
    /// or when it is far taller or flatter than the frame's typical word (the bars of a barcode
    /// zbar could not decode, or a speck), unless, taller, it is read with confidence
    /// (`isSureOfTall`: print set larger than the rest). A line left with no words is dropped,
    /// and the remaining lines are numbered from 1, top to bottom.
    /// `skew` is the frame's tilt in degrees; the bars of a tilted barcode reach past the band
    /// zbar decoded by up to its width times the tangent of the tilt.
    public static func combine(symbols: [BarcodeSymbol], lines: [TextLine], skew: Double = 0) -> [Reading] {
        combine(symbols: symbols, lines: lines, skew: skew, turned: [])
    }

    /// `combine`, and a word whose middle lies on the bars of a code the hand turned, as they
    /// stand (`turned`: `BarcodeSymbol.turnedBars`), or in the band under them where its
    /// human-readable line is printed (a fifth of their height), dropped too: zbar boxes a turned
    /// code on a band of its rows, level, and the page is painted with that box, so the rest of
    /// its bars and its own line are read, where a still's paint would have covered them.
    static func combine(symbols: [BarcodeSymbol], lines: [TextLine], skew: Double, turned: [TurnedBars]) -> [Reading] {
        let turnedAreas = turned.map { $0.corners(margin: 2, band: 0.2) }
        var readings = symbols.map { Reading(value: $0.value, source: .barcode(symbology: $0.symbology), box: $0.box) }
        let barcodeAreas = symbols.map { $0.box.insetBy(4) }
        let ownLines = symbols.map(ownLineBand)
        let barcodeSurroundings = symbols.map { symbol -> Box in
            let reach = 8 + Int((Double(symbol.box.width) * abs(tan(skew * .pi / 180))).rounded())
            return Box(x: symbol.box.x - 8, y: symbol.box.y - reach, width: symbol.box.width + 16, height: symbol.box.height + 2 * reach)
        }
        func plausible(_ word: Word) -> Word? {
            let text = word.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.contains(where: { $0.isLetter || $0.isNumber }), word.confidence >= minimumConfidence || Self.looksLikeCode(text)
            else { return nil }
            let covered = barcodeAreas.map { $0.intersectionArea(word.box) }.max() ?? 0
            if covered * 2 > word.box.area || ownLines.contains(where: { startsIn(word.box, band: $0) }) { return nil }
            if turnedAreas.contains(where: { TurnedBars.holds($0, word.box) }) { return nil }
            let beside = barcodeSurroundings.map { $0.intersectionArea(word.box) }.max() ?? 0
            if beside * 2 > word.box.area && word.confidence < uncertainBesideBarcode { return nil }
            var cleaned = word
            cleaned.text = text
            return cleaned
        }
        let candidates = lines.map { $0.words.compactMap(plausible) }
        let heights = candidates.joined().map { uprightHeight($0.box, skew: skew) }.sorted()
        let typical = heights.isEmpty ? 0 : heights[heights.count / 2]
        var number = 0
        for words in candidates {
            let kept = words.filter {
                let height = uprightHeight($0.box, skew: skew)
                return (height <= typical * tallestWord || isSureOfTall($0)) && height >= typical * flattestWord
            }
            guard let box = Box.enclosing(kept.map(\.box)) else { continue }
            number += 1
            readings.append(
                Reading(value: kept.map(\.text).joined(separator: " "), source: .text(line: number), box: box, words: kept))
        }
        return readings
    }

    /// The band under a linear code's bars where its human-readable line is printed: what
    /// `printedArea` takes in past the bars, and a still image's paint covers. On a webcam's
    /// frame the bars are painted as zbar boxed them, often a part of their rows; the line under
    /// them is then read, and misread it would pass for print disagreeing with the code.
    static func ownLineBand(_ symbol: BarcodeSymbol) -> Box {
        let area = printedArea(symbol)
        return Box(x: symbol.box.x, y: symbol.box.maxY, width: symbol.box.width, height: area.maxY - symbol.box.maxY)
    }

    /// Whether a word's `box` starts in `band` (`ownLineBand`), more than half of it across the bars.
    static func startsIn(_ box: Box, band: Box) -> Bool {
        band.height > 0 && (band.y..<band.maxY).contains(box.y) && 2 * (min(band.maxX, box.maxX) - max(band.x, box.x)) > box.width
    }

    /// Whether `word`, taller than `tallestWord` typical words, is print all the same: three
    /// letters or digits or more, not all of them upright strokes, read with `sureOfTall`
    /// confidence. Tesseract reads the bars of a barcode zbar could not decode as strokes
    /// ("IlIl", "1I|") or as odd letters it is unsure of; it reads a serial printed larger and
    /// bolder than the rest of a label (`UnreadInkTests`, a serial printed larger) with
    /// confidence, and may box it taller still, taking in the space above.
    static func isSureOfTall(_ word: Word) -> Bool {
        let characters = lettersAndDigits(word)
        return word.confidence >= sureOfTall && characters.count >= 3 && !characters.allSatisfy { "Il1i|!".contains($0) }
    }

    /// How tall the print in `box` stands on a frame tilted `skew` degrees: the box bounds the
    /// tilted print, so a long word's box is taller than its letters by its length times the
    /// slope (`FrameReaderTests`, a long word on a tilted frame). Undone, the word
    /// is measured against the others as it was printed.
    static func uprightHeight(_ box: Box, skew: Double) -> Double {
        let theta = abs(skew) * .pi / 180
        guard theta > 0, theta < .pi / 8 else { return Double(box.height) }
        let height = (Double(box.height) * cos(theta) - Double(box.width) * sin(theta)) / cos(2 * theta)
        return max(1, min(Double(box.height), height))
    }

    /// The area a decoded barcode takes on the label: its bars, and for a linear barcode the band
    /// under them (a fifth of their height) where its human-readable line is printed. That line
    /// is the barcode's own data again: reading it would cost a line's recognition and could pass
    /// for independent print agreeing with the barcode, which it is not.
    static func printedArea(_ symbol: BarcodeSymbol) -> Box {
        guard !["QR-Code", "DataBar", "DataBar-Exp"].contains(symbol.symbology) else { return symbol.box }
        return Box(x: symbol.box.x, y: symbol.box.y, width: symbol.box.width, height: symbol.box.height + symbol.box.height / 5)
    }

    /// A copy of `frame` with each box painted over in the colour around it, so text recognition
    /// does not spend its time on the bars and modules of barcodes that zbar has already decoded.
    /// The surrounding colour, not white, keeps a dim label's contrast as it was.
    static func blanking(_ boxes: [Box], in frame: Frame) -> Frame {
        guard !boxes.isEmpty else { return frame }
        var bytes = frame.bytes
        for box in boxes {
            guard let area = frame.part(box.insetBy(2)) else { continue }
            let fill = surroundingLevel(of: area, in: frame)
            for y in area.y..<area.maxY {
                bytes.replaceSubrange(
                    y * frame.stride + area.x..<y * frame.stride + area.maxX, with: repeatElement(fill, count: area.width))
            }
        }
        return Frame(
            width: frame.width, height: frame.height, stride: frame.stride, bytes: bytes, timestamp: frame.timestamp, index: frame.index)
    }

    /// The median gray level of the ring of pixels just outside `box` (a barcode's quiet zone).
    static func surroundingLevel(of box: Box, in frame: Frame) -> UInt8 {
        var counts = [Int](repeating: 0, count: 256)
        var total = 0
        func add(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < frame.width, y < frame.height else { return }
            counts[Int(frame[x, y])] += 1
            total += 1
        }
        let ring = box.insetBy(3)
        for x in ring.x..<ring.maxX {
            add(x, ring.y)
            add(x, ring.maxY - 1)
        }
        for y in ring.y..<ring.maxY {
            add(ring.x, y)
            add(ring.maxX - 1, y)
        }
        guard total > 0 else { return 255 }
        var seen = 0
        for level in 0..<256 {
            seen += counts[level]
            if seen * 2 >= total { return UInt8(level) }
        }
        return 255
    }

    /// Below this tesseract confidence (0-100) a word is noise, not print, unless it looks like a code.
    static let minimumConfidence = 15.0

    /// Below this confidence a word beside a barcode is taken for the ends of its bars.
    static let uncertainBesideBarcode = 40.0

    /// A word taller than this many typical words is the bars of a barcode, not print.
    static let tallestWord = 2.5

    /// A word taller than that read with this confidence or more is kept (`isSureOfTall`).
    static let sureOfTall = 90.0

    /// A word flatter than this fraction of a typical word is a speck or a rule, not print.
    static let flattestWord = 0.4
}
