import CZXing
import Imaging
import Model

/// Reads the codes zbar cannot with zxing-cpp: DataMatrix (GS1 DataMatrix too), PDF417, Aztec
/// and Micro QR, upright or rotated; and, on a frame given inverted, every format (codes printed
/// light on dark).
///
/// GS1 content keeps its element strings as encoded, FNC1 separators included (as the GS
/// character, U+001D), so the AIs can be split exactly. Symbologies are named as zbar names its
/// own ("DATAMATRIX", "CODE-128"), so a reading has one shape whichever engine read it.
public final class MatrixCodeReader {
    public init() {}

    public enum Formats {
        /// DataMatrix, PDF417, Aztec, Micro QR: what zbar does not read.
        case matrixOnly
        /// Every format zxing-cpp reads.
        case all
        /// DataMatrix alone.
        case dataMatrix

        var code: Int32 {
            switch self {
            case .matrixOnly: FIELDRIG_ZXING_MATRIX_ONLY
            case .all: FIELDRIG_ZXING_ALL
            case .dataMatrix: FIELDRIG_ZXING_DATAMATRIX_ONLY
            }
        }
    }

    /// Every symbol of `formats` in `frame`.
    public func read(_ frame: Frame, formats: Formats = .matrixOnly) -> [BarcodeSymbol] {
        read(frame, in: frame.whole, formats: formats)
    }

    /// The DataMatrix codes in `frame`, looked for in four overlapping tiles, each half the
    /// frame's width and two thirds of its height. zxing-cpp 1.4 looks for a DataMatrix outward
    /// from the middle of the picture and misses one near a frame's edge beside other print (a
    /// rectangular code at the side of a label, a GS1 DataMatrix beside its text); in a tile it
    /// is near the middle of one. Each code once, boxes in the frame's pixels.
    public func readDataMatrixInTiles(_ frame: Frame) -> [BarcodeSymbol] {
        let width = frame.width / 2
        let height = frame.height * 2 / 3
        guard width >= 64, height >= 64 else { return [] }
        var found: [BarcodeSymbol] = []
        for y in [0, frame.height - height] {
            for x in [0, frame.width - width] {
                found.addNew(read(frame, in: Box(x: x, y: y, width: width, height: height), formats: .dataMatrix))
            }
        }
        return found
    }

    /// The 2-D codes in `frame` looked for around each patch dense with contrast, each in a crop
    /// with the patch in its middle: for a small code alone in a large frame (a rectangular
    /// DataMatrix on a label with nothing else to read), which zxing-cpp 1.4 does not find in the
    /// whole frame nor in its tiles unless the code is near the middle of what it is given.
    ///
    /// The frame is cut into 8-pixel cells (failing those, 16-pixel ones); a cell is busy when
    /// its darkest and lightest pixels are far apart. Busy cells joined side by side make a
    /// patch; a patch at least three cells each way, no more than five times as long as it is
    /// high, and mostly busy, is looked at, the largest first, eight at most.
    public func readAroundDensePatches(_ frame: Frame) -> [BarcodeSymbol] {
        let found = readAroundDensePatches(frame, cell: 8)
        // A code of large modules (ten pixels and more) has whole cells of one module, dark or
        // light: in cells twice as large it is one dense patch again.
        return found.isEmpty ? readAroundDensePatches(frame, cell: 16) : found
    }

    private func readAroundDensePatches(_ frame: Frame, cell: Int) -> [BarcodeSymbol] {
        let columns = frame.width / cell
        let rows = frame.height / cell
        guard columns >= 3, rows >= 3 else { return [] }
        var busy = [Bool](repeating: false, count: columns * rows)
        frame.bytes.withUnsafeBufferPointer { pixels in
            for row in 0..<rows {
                for column in 0..<columns {
                    var low: UInt8 = 255
                    var high: UInt8 = 0
                    for y in row * cell..<(row + 1) * cell {
                        let start = y * frame.stride + column * cell
                        for p in pixels[start..<start + cell] {
                            low = min(low, p)
                            high = max(high, p)
                        }
                    }
                    busy[row * columns + column] = Int(high) - Int(low) >= 96
                }
            }
        }
        // Patches: busy cells joined side by side, found by flood fill.
        var seen = [Bool](repeating: false, count: columns * rows)
        var patches: [(box: Box, cells: Int)] = []
        for start in busy.indices where busy[start] && !seen[start] {
            var stack = [start]
            seen[start] = true
            var (minX, minY, maxX, maxY, count) = (columns, rows, 0, 0, 0)
            while let at = stack.popLast() {
                let (x, y) = (at % columns, at / columns)
                (minX, minY, maxX, maxY, count) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y), count + 1)
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && nx < columns && ny >= 0 && ny < rows {
                    let next = ny * columns + nx
                    if busy[next] && !seen[next] {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            let (w, h) = (maxX - minX + 1, maxY - minY + 1)
            guard w >= 3, h >= 3, w <= 5 * h, h <= 5 * w, count * 3 >= w * h * 2 else { continue }
            patches.append((Box(x: minX * cell, y: minY * cell, width: w * cell, height: h * cell), count))
        }
        var found: [BarcodeSymbol] = []
        for patch in patches.sorted(by: { $0.cells > $1.cells }).prefix(8) {
            // The patch in the middle of a crop twice its size each way.
            let box = patch.box
            let crop = Box(x: box.x - box.width / 2, y: box.y - box.height / 2, width: box.width * 2, height: box.height * 2)
            guard let crop = frame.part(crop) else { continue }
            found.addNew(read(frame, in: crop, formats: .matrixOnly))
        }
        return found
    }

    /// Every symbol of `formats` in the part of `frame` inside `area`, boxes in the frame's pixels.
    func read(_ frame: Frame, in area: Box, formats: Formats) -> [BarcodeSymbol] {
        frame.bytes.withUnsafeBufferPointer { pixels -> [BarcodeSymbol] in
            var found: UnsafeMutablePointer<fieldrig_zxing_symbol>? = nil
            let count = fieldrig_zxing_read(
                pixels.baseAddress! + area.y * frame.stride + area.x, Int32(area.width), Int32(area.height), Int32(frame.stride),
                formats.code, &found)
            guard count > 0, let found else { return [] }
            defer { fieldrig_zxing_free(found, count) }
            return (0..<Int(count)).map { i in
                let s = found[i]
                let corners = withUnsafeBytes(of: s.x) { xs in
                    withUnsafeBytes(of: s.y) { ys in
                        (0..<4).map {
                            (
                                x: area.x + Int(xs.load(fromByteOffset: $0 * 4, as: Int32.self)),
                                y: area.y + Int(ys.load(fromByteOffset: $0 * 4, as: Int32.self))
                            )
                        }
                    }
                }
                let format = s.format.map { String(cString: $0) } ?? "?"
                var box = Box(enclosing: corners) ?? frame.whole
                // A linear code is read on one row; its bars reach above and below it.
                if box.height < 4, box.width >= 8 { box = Self.barsAround(box, in: frame) }
                return BarcodeSymbol(
                    value: Self.zbarValue(s.text.map { String(cString: $0) } ?? "", format: format), symbology: Self.zbarName(format),
                    box: box)
            }
        }
    }

    /// The rows above and below the one a linear code was read on whose light and dark fall
    /// where that row's do (four in five pixels alike): the height of its bars.
    static func barsAround(_ row: Box, in frame: Frame) -> Box {
        let x0 = max(0, row.x)
        let x1 = min(frame.width, row.maxX)
        let y = min(max(0, row.y + row.height / 2), frame.height - 1)
        guard x1 - x0 >= 8 else { return row }
        func profile(_ y: Int) -> [Bool] {
            let line = (x0..<x1).map { Int(frame[$0, y]) }
            let threshold = (line.min()! + line.max()!) / 2
            return line.map { $0 < threshold }
        }
        let reference = profile(y)
        func alike(_ other: Int) -> Bool {
            zip(reference, profile(other)).filter { $0 == $1 }.count * 5 >= reference.count * 4
        }
        var top = y
        while top > 0, alike(top - 1) { top -= 1 }
        var bottom = y
        while bottom < frame.height - 1, alike(bottom + 1) { bottom += 1 }
        return Box(x: x0, y: top, width: x1 - x0, height: bottom - top + 1)
    }

    /// zxing-cpp's text as zbar gives the same data. A DataBar carries one GTIN, and zxing-cpp
    /// gives its 14 digits alone where zbar gives the element string, AI 01 in front: without it
    /// the GTIN would read as a bare number. (DataBar Expanded comes in the bracketed form,
    /// "(01)09501101530003(21)ABC123", which GS1 element strings are read in too.)
    static func zbarValue(_ text: String, format: String) -> String {
        format == "DataBar" && text.count == 14 && text.allSatisfy { $0.isASCII && $0.isNumber } ? "01" + text : text
    }

    /// zxing-cpp's name for a format as zbar names the same symbology.
    static func zbarName(_ format: String) -> String {
        switch format {
        case "DataMatrix": "DATAMATRIX"
        case "PDF417": "PDF417"
        case "Aztec": "AZTEC"
        case "MicroQRCode": "MICRO-QR"
        case "QRCode": "QR-Code"
        case "Code128": "CODE-128"
        case "Code39": "CODE-39"
        case "Code93": "CODE-93"
        case "EAN-13": "EAN-13"
        case "EAN-8": "EAN-8"
        case "UPC-A": "UPC-A"
        case "UPC-E": "UPC-E"
        case "ITF": "I2/5"
        case "Codabar": "CODABAR"
        case "DataBar": "DataBar"
        case "DataBarExpanded": "DataBar-Exp"
        default: format.uppercased()
        }
    }
}
