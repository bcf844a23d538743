import Foundation
import Imaging
import Model
import Testing

@testable import Reader

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let labelsFolder = "\(root)/Devices/labels"

/// Every label fixture's name (without .png), each with a sidecar saying what it holds.
let labelNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: labelsFolder)) ?? [])
    .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()

func sidecar(_ name: String) throws -> LabelSidecar {
    let text = try String(contentsOfFile: "\(labelsFolder)/\(name).expected", encoding: .utf8)
    return try LabelSidecar(parsing: text, name: "\(name).expected")
}

@Suite("Same-pass reading of the label fixtures")
struct LabelFixtureTests {
    @Test("there are at least 20 label fixtures, each with its sidecar")
    func fixturesExist() throws {
        #expect(labelNames.count >= 20)
        for name in labelNames { _ = try sidecar(name) }
    }

    @Test("every barcode is decoded exactly and every printed line is read", arguments: labelNames)
    func label(name: String) throws {
        let expected = try sidecar(name)
        let frame = try ImageFile.load("\(labelsFolder)/\(name).png")
        let readings = try FrameReader().read(frame)

        let barcodes = readings.compactMap { r -> LabelSidecar.Barcode? in
            guard case .barcode(let symbology) = r.source else { return nil }
            return LabelSidecar.Barcode(symbology: symbology, value: r.value)
        }
        #expect(Set(barcodes) == Set(expected.barcodes), "\(name): barcodes")

        // Printed text is a hint: only the confusions the serial extractor undoes are allowed.
        // Sparse text layout may split one printed line at a wide gap into neighbouring lines.
        let lines = readings.filter { !$0.source.isBarcode }.map { OCRConfusion.fold($0.value) }
        let joined = lines + zip(lines, lines.dropFirst()).map { "\($0) \($1)" }
        for text in expected.texts {
            // A line the sidecar records as misread must be read exactly as recorded: the
            // misreading is a known limit of the OCR, not a licence for any other.
            let want = OCRConfusion.fold(expected.misreadings[text] ?? text)
            #expect(joined.contains { $0.contains(want) }, "\(name): printed line '\(text)' not in \(lines)")
        }
    }

    @Test("no text reading is the bars or modules of a decoded barcode", arguments: labelNames)
    func noJunkOnBarcodes(name: String) throws {
        let readings = try FrameReader().read(try ImageFile.load("\(labelsFolder)/\(name).png"))
        let barcodeBoxes = readings.filter(\.source.isBarcode).map(\.box)
        for text in readings where !text.source.isBarcode {
            for word in text.words {
                let covered = barcodeBoxes.map { $0.intersectionArea(word.box) }.max() ?? 0
                #expect(covered * 2 <= word.box.area, "\(name): '\(word.text)' lies on a barcode")
            }
        }
    }

    @Test("printed lines are numbered from 1, top to bottom, and say where they were read")
    func lineNumbering() throws {
        let readings = try FrameReader().read(try ImageFile.load("\(labelsFolder)/dell-latitude.png"))
        let text = readings.filter { !$0.source.isBarcode }
        #expect(text.map(\.source) == (1...text.count).map { .text(line: $0) })
        #expect(zip(text, text.dropFirst()).allSatisfy { $0.box.y < $1.box.y })
        #expect(text[1].whereRead.hasPrefix("printed line 2 at "))
        let barcode = try #require(readings.first)
        #expect(barcode.whereRead.hasPrefix("CODE-39 barcode at "))
    }

    @Test("reading only barcodes or only text gives exactly that part of the same pass")
    func passes() throws {
        let frame = try ImageFile.load("\(labelsFolder)/hp-elitebook.png")
        let reader = try FrameReader()
        let barcodes = reader.read(frame, passes: .barcodes)
        #expect(barcodes.map(\.value) == ["5CG1234XYZ"])
        let text = reader.read(frame, passes: .text)
        #expect(!text.isEmpty && text.allSatisfy { !$0.source.isBarcode })
    }

    @Test("one reader reads many frames and gives the same answer each time")
    func reuse() throws {
        let reader = try FrameReader()
        let a = try ImageFile.load("\(labelsFolder)/cisco-switch.png")
        let b = try ImageFile.load("\(labelsFolder)/qr-asset.png")
        let first = reader.read(a)
        _ = reader.read(b)
        #expect(reader.read(a) == first)
    }

    @Test("a blank frame reads nothing")
    func blank() throws {
        let frame = Frame(width: 320, height: 240, bytes: [UInt8](repeating: 200, count: 320 * 240))
        #expect(try FrameReader().read(frame).isEmpty)
    }
}

@Suite("Junk words")
struct JunkTests {
    func word(_ text: String, _ x: Int, _ y: Int, h: Int = 20, confidence: Double = 90) -> Word {
        Word(text: text, box: Box(x: x, y: y, width: 10 * text.count, height: h), confidence: confidence)
    }

    @Test("words with no letter or digit, on a barcode, near-zero confidence, or far too tall are dropped")
    func dropped() {
        let qr = BarcodeSymbol(value: "https://x", symbology: "QR-Code", box: Box(x: 500, y: 0, width: 200, height: 200))
        let lines = [
            TextLine(words: [word("S/N:", 0, 0), word("ABC123", 50, 0), word("~~", 120, 0)], box: Box(x: 0, y: 0, width: 140, height: 20)),
            TextLine(words: [word("moxd", 520, 50)], box: Box(x: 520, y: 50, width: 40, height: 20)),
            TextLine(words: [word("IlIl", 0, 300, h: 120)], box: Box(x: 0, y: 300, width: 40, height: 120)),
            TextLine(words: [word("zq", 0, 500, confidence: 3)], box: Box(x: 0, y: 500, width: 20, height: 20)),
            TextLine(words: [word("P/N:", 0, 600), word("X1", 50, 600)], box: Box(x: 0, y: 600, width: 70, height: 20)),
        ]
        let readings = FrameReader.combine(symbols: [qr], lines: lines)
        #expect(readings.map(\.value) == ["https://x", "S/N: ABC123", "P/N: X1"])
        #expect(readings.map(\.source) == [.barcode(symbology: "QR-Code"), .text(line: 1), .text(line: 2)])
        #expect(readings[1].box == Box(x: 0, y: 0, width: 110, height: 20))
    }

    @Test("a word far taller than the rest read with confidence is print (a serial printed large); read unsure, or all strokes, it is bars")
    func tallButSure() {
        let lines = [
            TextLine(words: [word("KVM", 0, -60, h: 15), word("CONSOLE", 40, -60, h: 15)], box: Box(x: 0, y: -60, width: 110, height: 15)),
            TextLine(
                words: [word("MODEL", 0, -30, h: 15), word("TSE-6331", 60, -30, h: 15)], box: Box(x: 0, y: -30, width: 140, height: 15)),
            TextLine(words: [word("Serial", 0, 0, h: 15), word("no", 70, 0, h: 15)], box: Box(x: 0, y: 0, width: 90, height: 15)),
            TextLine(words: [word("45952054", 0, 20, h: 45, confidence: 95)], box: Box(x: 0, y: 20, width: 80, height: 45)),
            TextLine(words: [word("LOT", 0, 80, h: 15), word("013361", 40, 80, h: 15)], box: Box(x: 0, y: 80, width: 100, height: 15)),
            TextLine(words: [word("MNW4", 0, 120, h: 45, confidence: 60)], box: Box(x: 0, y: 120, width: 40, height: 45)),
            TextLine(words: [word("IlI1", 0, 180, h: 45, confidence: 96)], box: Box(x: 0, y: 180, width: 40, height: 45)),
            TextLine(words: [word("W4", 0, 240, h: 45, confidence: 96)], box: Box(x: 0, y: 240, width: 20, height: 45)),
        ]
        #expect(
            FrameReader.combine(symbols: [], lines: lines).map(\.value) == [
                "KVM CONSOLE", "MODEL TSE-6331", "Serial no", "45952054", "LOT 013361",
            ])
    }

    @Test("a code tesseract read with little confidence is kept; noise of the same confidence is not")
    func uncertainCode() {
        let lines = [
            TextLine(
                words: [word("WD", 0, 0, confidence: 39), word("-WMC4NWPSEKH5", 40, 0, confidence: 12)],
                box: Box(x: 0, y: 0, width: 170, height: 20)),
            TextLine(
                words: [word("WO-tM", 0, 60, confidence: 12), word("MAAAAA", 80, 60, confidence: 12)],
                box: Box(x: 0, y: 60, width: 140, height: 20)),
        ]
        #expect(FrameReader.combine(symbols: [], lines: lines).map(\.value) == ["WD -WMC4NWPSEKH5"])
        #expect(FrameReader.looksLikeCode("C02XK1ZJJGH5") && FrameReader.looksLikeCode("WD-WMC4N1234"))
        #expect(!FrameReader.looksLikeCode("Serial") && !FrameReader.looksLikeCode("AB12") && !FrameReader.looksLikeCode("12345678"))
        // Ten digits or more are a code too: an APC serial whose S tesseract read as 8, at 7.
        let digits = [TextLine(words: [word("381052451729", 0, 0, confidence: 7)], box: Box(x: 0, y: 0, width: 226, height: 22))]
        #expect(FrameReader.combine(symbols: [], lines: digits).map(\.value) == ["381052451729"])
        #expect(!FrameReader.looksLikeCode("123456789") && !FrameReader.looksLikeCode("12345-67890x"))
    }

    @Test("on a tilted frame a long word's box is taller than its print: it is measured as printed, not taken for bars")
    func longWordTilted() {
        // The boxes of print 22 high at 12 degrees, in the original frame: short words about 32
        // high, "WD-WCC4NPBYMK33" (334 long) 93 high.
        func tilted(_ text: String, _ y: Int, width: Int, height: Int) -> TextLine {
            let box = Box(x: 400, y: y, width: width, height: height)
            return TextLine(words: [Word(text: text, box: box, confidence: 85)], box: box)
        }
        let lines = [
            tilted("WD", 100, width: 50, height: 32), tilted("Blue", 140, width: 58, height: 34),
            tilted("MDL:", 180, width: 59, height: 33),
            tilted("WD-WCC4NPBYMK33", 220, width: 332, height: 93), tilted("no", 320, width: 24, height: 18),
            tilted("DCM:", 360, width: 63, height: 34),
        ]
        #expect(
            FrameReader.combine(symbols: [], lines: lines, skew: 12).map(\.value) == [
                "WD", "Blue", "MDL:", "WD-WCC4NPBYMK33", "no", "DCM:",
            ])
        #expect(abs(FrameReader.uprightHeight(Box(x: 0, y: 0, width: 332, height: 93), skew: -12) - 25) < 2)
        // Level, a box that tall is the bars of a barcode.
        #expect(!FrameReader.combine(symbols: [], lines: lines, skew: 0).map(\.value).contains("WD-WCC4NPBYMK33"))
    }

    @Test("an uncertain word beside a tilted barcode is its bars; a confident one is print")
    func besideBarcode() {
        let bars = BarcodeSymbol(value: "X", symbology: "CODE-128", box: Box(x: 0, y: 100, width: 600, height: 100))
        let lines = [
            TextLine(words: [word("ONL", 0, 70, confidence: 20)], box: Box(x: 0, y: 70, width: 30, height: 20)),
            TextLine(words: [word("SERIAL", 0, 60, confidence: 90)], box: Box(x: 0, y: 60, width: 60, height: 20)),
        ]
        #expect(FrameReader.combine(symbols: [bars], lines: lines, skew: 4).map(\.value) == ["X", "SERIAL"])
        // Level, the same uncertain word 30 px above the bars is out of their reach and kept.
        #expect(FrameReader.combine(symbols: [bars], lines: lines, skew: 0).map(\.value) == ["X", "ONL", "SERIAL"])
    }
}

@Suite("Sidecars and OCR confusions")
struct SidecarTests {
    @Test("a sidecar parses every kind of fact")
    func parse() throws {
        let s = try LabelSidecar(
            parsing: "# c\nbarcode CODE-128 AB 1\ntext S/N: AB1\nserial AB1\ndisagree AB2 AB1\neffect blur\n", name: "x")
        #expect(s.barcodes == [.init(symbology: "CODE-128", value: "AB 1")])
        #expect(s.texts == ["S/N: AB1"] && s.serial == "AB1" && s.effects == ["blur"])
        #expect(s.disagreements.map(\.barcode) == ["AB2"])
    }

    @Test("a bad sidecar line names the file and line", arguments: ["barcode CODE-128", "colour red", "serial A B"])
    func bad(line: String) {
        #expect(throws: SidecarError.self) { try LabelSidecar(parsing: "text ok\n\(line)", name: "f.expected") }
        do {
            _ = try LabelSidecar(parsing: "text ok\n\(line)", name: "f.expected")
        } catch {
            #expect(error.message.hasPrefix("f.expected:2: "))
        }
    }

    @Test("folding makes OCR's confusions equal, and nothing else")
    func fold() {
        #expect(OCRConfusion.fold("S/N: CO2XK1ZJJGH5") == OCRConfusion.fold("5/N:  C02XKIZJJGH5"))
        #expect(OCRConfusion.fold("MTM: 20XWO04GUS") == OCRConfusion.fold("MTM: 20XW004GUS"))
        #expect(OCRConfusion.fold("ABC123") != OCRConfusion.fold("ABC124"))
        #expect(OCRConfusion.fold(" a  b ") == "A 8")
    }
}
