import Foundation
import Imaging
import Model
import Testing

@testable import Reader

/// The fixtures in Devices/codes (2-D, reverse video, a DataMatrix only found in a tile, two only
/// found round their patch of contrast, linear codes zbar misses, and DataBar), each with what it
/// must read as.
let codeFixtures: [String] = {
    let folder = "\(root)/Devices/codes"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".expected") }.sorted()
        .map { String($0.dropLast(9)) }
}()

/// The image of the code fixture `name` (a PNG, or a JPEG), as a frame.
func codeFixtureFrame(_ name: String) throws -> Frame {
    let folder = "\(root)/Devices/codes"
    let image = ["png", "jpg"].map { "\(folder)/\(name).\($0)" }.first { FileManager.default.fileExists(atPath: $0) } ?? name
    return try ImageFile.load(image)
}

@Suite("Codes zbar cannot read: 2-D symbologies and reverse video, through zxing-cpp")
struct MatrixCodeTests {
    @Test("there is a fixture for each 2-D symbology, an ISO/IEC 15434 envelope, reverse video, linear codes zbar misses, and DataBar")
    func fixturesPresent() {
        #expect(codeFixtures.count == 15, "\(codeFixtures)")
    }

    @Test("each fixture reads as its expected symbology and value, once", arguments: codeFixtures)
    func reads(name: String) throws {
        let folder = "\(root)/Devices/codes"
        let expected = try String(contentsOfFile: "\(folder)/\(name).expected", encoding: .utf8).trimmingCharacters(in: .newlines)
        let parts = expected.split(separator: "\t", maxSplits: 1).map(String.init)
        let frame = try codeFixtureFrame(name)
        let symbols = try BarcodeReader().read(frame)
        #expect(symbols.map(\.symbology) == [parts[0]])
        let shown = symbols.map {
            $0.value.replacingOccurrences(of: "\u{1D}", with: "<GS>").replacingOccurrences(of: "\u{1E}", with: "<RS>")
                .replacingOccurrences(of: "\u{04}", with: "<EOT>")
        }
        #expect(shown == [parts[1]])
    }

    @Test("GS1 DataMatrix keeps its element strings and the FNC1 separator between variable-length ones")
    func gs1() throws {
        let frame = try ImageFile.load("\(root)/Devices/codes/gs1-datamatrix.png")
        let value = try BarcodeReader().read(frame).first?.value
        #expect(value == "0109506000134352" + "17261231" + "10ABC123\u{1D}" + "21SN4711")
    }

    @Test("a frame with no code gives nothing from either engine, upright or inverted")
    func nothing() throws {
        let frame = Frame(width: 200, height: 100, bytes: (0..<20_000).map { UInt8(truncatingIfNeeded: ($0 % 200) / 50 * 60) })
        #expect(try BarcodeReader().read(frame).isEmpty)
    }

    @Test("every format on a noisy Code 128 that made zxing-cpp 1.4 abort: read, its bars' height found, no abort")
    func noisyLinear() throws {
        // Rendered by Devices/serial-corpus/generate (a Dell label, Gaussian noise). Asked for
        // every linear symbol, zxing-cpp 1.4 compared two rows' readings and hit an assertion.
        let frame = try ImageFile.load("\(root)/Devices/codes/noisy-code128.jpg")
        let symbols = MatrixCodeReader().read(frame, formats: .all)
        #expect(symbols.map(\.value) == ["BSJB5K7"])
        #expect(symbols.map(\.symbology) == ["CODE-128"])
        // One row read; the box reaches over the bars (about 40 rows at this scale).
        #expect(symbols.first.map { $0.box.height >= 30 && $0.box.width > 400 } == true, "\(symbols.map(\.box))")
    }

    @Test("a DataMatrix at the side of a dim label, which zxing-cpp misses in the whole frame, is found in a tile")
    func dataMatrixInTiles() throws {
        // Rendered by Devices/serial-corpus/generate (an HP label, dimmed): zxing-cpp 1.4 looks
        // for a DataMatrix outward from the middle of the picture and does not reach this one.
        let frame = try ImageFile.load("\(root)/Devices/codes/edge-datamatrix.png")
        let matrix = MatrixCodeReader()
        #expect(matrix.read(frame).isEmpty)
        let tiled = matrix.readDataMatrixInTiles(frame)
        #expect(tiled.map(\.value) == ["CND15664RD"])
        // The box is in the frame's own pixels, round the code on the label's left side.
        #expect(tiled.first.map { $0.box.x < 640 && $0.box.width > 100 && $0.box.width < 200 } == true, "\(tiled.map(\.box))")
    }

    /// A DataMatrix alone on a label that zxing-cpp misses whole and in tiles: its fixture, its
    /// value, and where it is in the frame (x, y, and at least how wide).
    struct LoneCode: Sendable, CustomTestStringConvertible {
        var fixture: String
        var value: String
        var x: Int
        var y: Int
        var width: Int
        var testDescription: String { fixture }
    }

    @Test(
        "a rectangular DataMatrix alone on a label, missed whole and in tiles, is found round its patch of contrast",
        arguments: [
            // Rendered by Devices/serial-corpus/generate: an Apple label, small in the picture
            // (the code at 310,252, 198 by 48).
            LoneCode(fixture: "small-rect-datamatrix", value: "C02U7EXWDP8Y", x: 310, y: 252, width: 180),
            // An Apple label whose code's modules are ten pixels: in 8-pixel cells the code is
            // patches of cells within one module, none mostly busy; in 16-pixel cells it is one.
            LoneCode(fixture: "large-module-datamatrix", value: "FVFU8WTF9TA5", x: 322, y: 208, width: 300),
        ])
    func dataMatrixAroundPatch(code: LoneCode) throws {
        let frame = try ImageFile.load("\(root)/Devices/codes/\(code.fixture).png")
        let matrix = MatrixCodeReader()
        #expect(matrix.read(frame).isEmpty)
        #expect(matrix.readDataMatrixInTiles(frame).isEmpty)
        let found = matrix.readAroundDensePatches(frame)
        #expect(found.map(\.value) == [code.value])
        // In the frame's own pixels, round the code.
        #expect(
            found.first.map { abs($0.box.x - code.x) < 12 && abs($0.box.y - code.y) < 12 && $0.box.width > code.width } == true,
            "\(found.map(\.box))")
    }

    @Test("a frame of even gray has no patch of contrast to look round")
    func noPatch() {
        #expect(
            MatrixCodeReader().readAroundDensePatches(Frame(width: 640, height: 480, bytes: [UInt8](repeating: 128, count: 640 * 480)))
                .isEmpty)
    }

    @Test("zxing-cpp's format names become zbar's, so a reading has one shape whichever engine read it")
    func names() {
        #expect(MatrixCodeReader.zbarName("DataMatrix") == "DATAMATRIX")
        #expect(MatrixCodeReader.zbarName("Code128") == "CODE-128")
        #expect(MatrixCodeReader.zbarName("QRCode") == "QR-Code")
        #expect(MatrixCodeReader.zbarName("MicroQRCode") == "MICRO-QR")
        #expect(MatrixCodeReader.zbarName("DataBar") == "DataBar")
        #expect(MatrixCodeReader.zbarName("DataBarExpanded") == "DataBar-Exp")
    }
}

@Suite("Linear codes zbar misses beside one it read")
struct LinearBesideTests {
    @Test("a serial's Code 128 zbar misses under noise is read by zxing-cpp, and the DataBar zbar found in the noise is not read")
    func besidePhantom() throws {
        // From the second house's development half (seed 404, apple-inline-1-noise): zbar finds a
        // DataBar in the noise when asked for one, and not the Code 128; no .expected, as it read
        // as two symbols.
        let frame = try ImageFile.load("\(root)/Devices/codes/serial-beside-phantom-databar.png")
        let symbols = try BarcodeReader().read(frame)
        #expect(symbols.map(\.value) == ["FVFU2026660H"])
        #expect(symbols.map(\.symbology) == ["CODE-128"])
    }

    @Test("two Code 128s on a JPEG label: zbar reads them on the frame made black and white where it misses them in gray")
    func twoCodesJPEG() throws {
        // From the second house's development half (seed 101, supermicro-barcode-5-jpeg): zbar
        // reads neither code in the gray frame, zxing-cpp reads one linear code a call; zbarimg
        // reads both once ImageMagick thresholds the frame.
        let frame = try ImageFile.load("\(root)/Devices/codes/two-codes-jpeg.png")
        let reader = try BarcodeReader()
        #expect(reader.readWithZBar(frame).isEmpty)
        let values = Set(reader.read(frame).map(\.value))
        #expect(values == ["VM39TR396416", "0308ABCEC469"])
        // The parting level lies between the label's white and the bars' black.
        #expect((60...200).contains(Int(frame.partingLevel)))
        let twoLevel = frame.twoLevel()
        #expect(Set(twoLevel.bytes) == [0, 255] && twoLevel.width == frame.width && twoLevel.height == frame.height)
    }
}

@Suite("A frame's barcodes do not depend on what the reader read before")
struct ReaderHistoryTests {
    @Test("a QR read after another label is read as a new reader reads it")
    func qrAfterAnotherLabel() throws {
        // Two development labels of the rendered corpora (seed 1010's apple-2d-1-noise-jpeg, the
        // first house's lenovo-2d-5-jpeg): a zbar scanner kept across frames carried state from
        // the first into the second, and put the QR's box a row lower and shorter (113,265 169x169
        // against 113,264 169x170). Of 158 QR labels read after the first, this one changed.
        let before = try ImageFile.load("\(root)/Devices/codes/scanner-state-before.png")
        let qr = try ImageFile.load("\(root)/Devices/codes/scanner-state-qr.png")
        let fresh = try BarcodeReader().read(qr)
        #expect(fresh.map(\.symbology) == ["QR-Code"])
        let reader = try BarcodeReader()
        _ = reader.read(before)
        let after = reader.read(qr)
        #expect(after.map(\.value) == fresh.map(\.value))
        #expect(after.map(\.box) == fresh.map(\.box))
    }
}

@Suite("Codes read again on the frame turned upright")
struct UprightCodeTests {
    @Test("a rectangular DataMatrix on a label turned about eleven degrees is read once the frame is upright; its box is the frame's")
    func tiltedRectangularDataMatrix() throws {
        // From the second house's development half (seed 202, apple-2d-3-tilt): zxing-cpp reads no
        // code in the frame as it is; no .expected, as BarcodeReader alone reads nothing here.
        let frame = try ImageFile.load("\(root)/Devices/codes/tilted-rect-datamatrix.png")
        #expect(try BarcodeReader().read(frame).isEmpty)
        let readings = try FrameReader().read(frame)
        let code = readings.first { $0.source == .barcode(symbology: "DATAMATRIX") }
        #expect(code?.value == "DMPBUUPDTRCX", "\(readings)")
        #expect(try readerTurningOff(.barcodesUpright).read(frame).filter(\.source.isBarcode).isEmpty)
        // Where the code is printed on the original frame: left of the middle, in the upper half.
        if let box = code?.box { #expect(box.x > 250 && box.maxX < 720 && box.y > 120 && box.maxY < 380, "\(box)") }
        // No text is read off its modules.
        #expect(readings.filter { !$0.source.isBarcode }.allSatisfy { $0.box.intersectionArea(code?.box ?? $0.box) * 2 <= $0.box.area })
        // Barcodes alone are read as they are: the frame is turned only for the text pass.
        #expect(try FrameReader().read(frame, passes: .barcodes).isEmpty)
    }
}

@Suite("zxing-cpp's failed assertions")
struct ZXingAssertionTests {
    @Test(
        "a frame on which zxing-cpp fails an assertion is read without it, not the end of the process",
        arguments: ["zxing-assertion-datamatrix-edge", "zxing-assertion-entering-label"])
    func survives(name: String) throws {
        let frame = try ImageFile.load("\(root)/Devices/images/\(name).jpg")
        // The 2-D pass on the whole frame is where zxing-cpp fails its assertion: it reads nothing.
        #expect(MatrixCodeReader().read(frame, formats: .all).isEmpty)
        let codes = try FrameReader().readBarcodes(frame).map(\.value)
        #expect(codes == (name.hasSuffix("edge") ? ["5A6369913863"] : []))
        // The same reader goes on reading other frames.
        let again = try FrameReader()
        _ = again.readBarcodes(frame)
        #expect(again.readBarcodes(try ImageFile.load("\(root)/Devices/labels/dell-latitude.png")).map(\.value).contains("7XK2M93"))
    }
}
