import CZBar
import Imaging
import Model

/// Reads every barcode in a gray frame: zbar for EAN/UPC, Code 128/93/39, Codabar, ITF and QR,
/// then for the linear codes again in the frame made black and white; zxing-cpp for what zbar
/// cannot or is not asked to (DataMatrix, PDF417, Aztec, Micro QR, DataBar), and for every format
/// besides (a noisy or damaged linear code zbar missed, beside one it read); when no DataMatrix
/// was found, zxing-cpp again for one in four overlapping tiles (it misses one far from the
/// middle of a frame beside other print); and, when none of that finds anything, zxing-cpp on the
/// inverted frame for codes printed light on dark.
///
/// Each zbar scan has a scanner made for it: a scanner kept across frames carried state from one
/// frame into the next, and a QR was located differently after another label than on its own.
/// Not for sharing between threads: give each thread its own reader.
public final class BarcodeReader {
    private let matrix = MatrixCodeReader()

    public init() throws(ReaderError) {
        guard let scanner = Self.scanner(for: .gray(every: Self.scanDensity)) else { throw ReaderError(kind: .zbarUnavailable) }
        zbar_image_scanner_destroy(scanner)
    }

    /// What a zbar scanner looks for and where.
    enum Pass {
        /// The gray pass: every symbology asked for, along every Nth row and column.
        case gray(every: Int32)
        /// The black-and-white pass: linear codes only, along every Nth row.
        case rows(every: Int32)
    }

    /// A new zbar scanner for `pass`, or nil when zbar cannot make one. Making one for each scan
    /// costs nothing measurable (60 labels' barcode pass took the same CPU time).
    static func scanner(for pass: Pass) -> OpaquePointer? {
        guard let scanner = zbar_image_scanner_create() else { return nil }
        // Every symbology zbar knows, each symbol reported once per frame, except the EAN-2 and
        // EAN-5 add-ons: no device label carries one alone, and on a noisy frame zbar "finds" them
        // in the noise. And except DataBar: zbar "found" DataBars in the noise of labels that
        // carry none (on 26 of 1,449 frames of the rendered corpora and fixtures), and on two jobs
        // not always the same ones. zxing-cpp reads DataBar, on every frame. And except SQ code:
        // no device label carries one, and looking for it cost 15 to 20% of the gray scan of a
        // webcam's noisy frame, where every other symbol was read the same without it.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 1)
        for symbology in [ZBAR_EAN2, ZBAR_EAN5, ZBAR_DATABAR, ZBAR_DATABAR_EXP, ZBAR_SQCODE] {
            zbar_image_scanner_set_config(scanner, symbology, ZBAR_CFG_ENABLE, 0)
        }
        zbar_image_scanner_enable_cache(scanner, 0)
        switch pass {
        case .gray(let every):
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, every)
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, every)
        case .rows(let every):
            // Along rows only, for linear codes only: a label's linear codes lie along it, many
            // rows tall, and the gray pass has read any code standing on end, and every QR (with
            // QR the pass took 5.2 ms a frame, without it 1.7).
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, 0)
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, every)
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 0)
        }
        return scanner
    }

    /// zbar's gray pass scans every Nth row and column of a frame scanned at its size: a label's
    /// barcode is many rows tall, and every second halves the scan (measured 13.3 ms -> 8.7 ms a
    /// 1280x720 frame) with every fixture still decoded. The black-and-white pass scans every
    /// second row of those.
    public static let scanDensity: Int32 = 2

    /// Every symbol in `frame`: zbar's in the order it found them, then zxing-cpp's. A frame of
    /// more than `pixels` pixels is scanned as one of that many would be (`ScanScale`).
    public func read(_ frame: Frame, scanningAtMost pixels: Int = .max) -> [BarcodeSymbol] {
        let frame = frame.packed()
        let scale = ScanScale(frame, atMost: pixels)
        var symbols = zbarPasses(frame, every: scale.density)
        let small = scale.shrunk(frame)
        // zxing-cpp reads the 2-D codes zbar cannot, and the linear ones too: it decodes some noisy
        // or JPEG-damaged Code 128 and 39 that zbar misses, also on a label where zbar read another
        // (a serial's barcode under noise beside a MAC's it read: 2.8 ms more a frame).
        symbols.addNew(scale.inFrame(matrix.read(small, formats: .all), of: frame))
        if !symbols.contains(where: { $0.symbology == "DATAMATRIX" }) {
            symbols.addNew(scale.inFrame(matrix.readDataMatrixInTiles(small), of: frame))
        }
        if symbols.isEmpty { symbols = scale.inFrame(matrix.readAroundDensePatches(small), of: frame) }
        if symbols.isEmpty {
            // Nothing dark on light: a code printed light on dark reads as itself inverted.
            let inverted = Frame(width: small.width, height: small.height, bytes: small.bytes.map { 255 - $0 })
            symbols = scale.inFrame(matrix.read(inverted, formats: .all), of: frame)
        }
        return symbols.map { $0.boundedAlongBars(in: frame) }
    }

    /// zbar's symbols in `frame`, read in gray and then its linear codes in black and white,
    /// without zxing-cpp's passes: for a second look at a frame already read whole (drawn back
    /// along its rows, where a smear ran a code's bars together), zbar's two passes are what
    /// finds the codes missed, and zxing-cpp's searches cost more than they find.
    public func readWithZBarOnly(_ frame: Frame) -> [BarcodeSymbol] {
        let frame = frame.packed()
        return zbarPasses(frame, every: Self.scanDensity).map { $0.boundedAlongBars(in: frame) }
    }

    /// zbar's gray pass along every `density`th row and column, then its black-and-white pass.
    private func zbarPasses(_ frame: Frame, every density: Int32) -> [BarcodeSymbol] {
        var symbols = readWithZBar(frame, every: density)
        symbols.addNew(readLinearInBlackAndWhite(frame, every: density))
        return symbols
    }

    /// zbar's symbols in a packed frame, along every `density`th row and column.
    public func readWithZBar(_ frame: Frame, every density: Int32 = scanDensity) -> [BarcodeSymbol] {
        scan(frame, pass: .gray(every: density))
    }

    /// zbar's linear codes in a packed frame made black and white at its parting gray level:
    /// JPEG's ringing round the bars makes zbar miss a clean Code 128 or two in gray that it reads
    /// once the gray is gone (two codes on one label, each missed; zxing-cpp reads one linear code
    /// a call). Along every second of the rows the gray pass scans (`density`).
    public func readLinearInBlackAndWhite(_ frame: Frame, every density: Int32 = scanDensity) -> [BarcodeSymbol] {
        scan(frame.twoLevel(), pass: .rows(every: 2 * density))
    }

    /// The symbols a new scanner for `pass` finds in a packed frame.
    private func scan(_ frame: Frame, pass: Pass) -> [BarcodeSymbol] {
        guard let scanner = Self.scanner(for: pass) else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, fieldrig_zbar_fourcc_y800())
        zbar_image_set_size(image, UInt32(frame.width), UInt32(frame.height))
        return frame.bytes.withUnsafeBytes { pixels -> [BarcodeSymbol] in
            // zbar only reads the buffer during the scan below; no cleanup handler is needed.
            zbar_image_set_data(image, pixels.baseAddress, UInt(pixels.count), nil)
            guard zbar_scan_image(scanner, image) > 0 else { return [] }
            var symbols: [BarcodeSymbol] = []
            var symbol = zbar_image_first_symbol(image)
            while let s = symbol {
                let length = Int(zbar_symbol_get_data_length(s))
                let data =
                    zbar_symbol_get_data(s).map {
                        $0.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
                    } ?? []
                let points = (0..<zbar_symbol_get_loc_size(s)).map {
                    (x: Int(zbar_symbol_get_loc_x(s, $0)), y: Int(zbar_symbol_get_loc_y(s, $0)))
                }
                let name = String(cString: zbar_get_symbol_name(zbar_symbol_get_type(s)))
                symbols.append(
                    BarcodeSymbol(
                        value: String(decoding: data, as: UTF8.self),
                        symbology: name,
                        box: Box(enclosing: points) ?? frame.whole))
                symbol = zbar_symbol_next(s)
            }
            return symbols
        }
    }
}

/// How the barcode pass scans a frame: whole, or, for a frame of more pixels than it is to scan
/// (a camera's 1920x1080 on the live path), as one of that many would be, so that it costs what
/// such a frame does: zbar along rows and columns as much farther apart as the frame is larger
/// (every third of a 1920x1080 frame, as every second of a 1280x720 one: a code crosses as many
/// scan lines, and each line sees it at the frame's own resolution), and zxing-cpp on the frame
/// shrunk to that many pixels, its codes' boxes then put back in the frame's pixels.
struct ScanScale {
    /// The frame's side over the side it is scanned at; 1 for a frame scanned whole.
    let factor: Double

    init(_ frame: Frame, atMost pixels: Int) {
        let count = frame.width * frame.height
        factor = count > pixels ? (Double(pixels) / Double(count)).squareRoot() : 1
    }

    /// zbar's gray pass scans every Nth row and column (the black-and-white pass every 2Nth row).
    var density: Int32 {
        Swift.max(BarcodeReader.scanDensity, Int32((Double(BarcodeReader.scanDensity) / factor + 1e-6).rounded(.down)))
    }

    /// What zxing-cpp is given: the frame, shrunk when it is scanned smaller.
    func shrunk(_ frame: Frame) -> Frame { frame.shrunk(by: factor) }

    /// Symbols found in the frame `shrunk` gave, their boxes in `frame`'s own pixels.
    func inFrame(_ symbols: [BarcodeSymbol], of frame: Frame) -> [BarcodeSymbol] {
        guard factor < 1 else { return symbols }
        func back(_ side: Int) -> Int { Int((Double(side) / factor - 1e-6).rounded(.up)) }
        return symbols.map {
            var symbol = $0
            let (x, y) = (Int(Double($0.box.x) / factor), Int(Double($0.box.y) / factor))
            let box = Box(x: x, y: y, width: back($0.box.maxX) - x, height: back($0.box.maxY) - y)
            symbol.box = frame.part(box) ?? box
            return symbol
        }
    }
}
