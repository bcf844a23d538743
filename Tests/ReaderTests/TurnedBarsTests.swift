import Foundation
import Imaging
import Model
import Testing

@testable import Reader

@Suite("A code the hand turned: its bars followed as they stand, and what is read on them or its own line dropped")
struct TurnedBarsTests {
    /// A white frame (240) with a Code 128's bars turned `degrees` about (200, 130): in the code's
    /// own rows and columns (`t` along it, `k` down its bars), bars of 3 and 6 pixels with spaces
    /// of 3 and 9 from t = -75 to 75, on rows k = -40 to 39; strokes of print (a pixel every 7
    /// along) for its human-readable line under them (k = 44 to 55), a caption over them (k = -62
    /// to -51) and a field beside their upper end (t = 95 to 150, k = -40 to -29).
    static func turnedCode(degrees: Double) -> Frame {
        let (width, height) = (400, 260)
        let phi = degrees * .pi / 180
        let bars = barColumns()
        var bytes = [UInt8](repeating: 240, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (dx, dy) = (Double(x) - 200, Double(y) - 130)
                let t = Int((dx * cos(phi) - dy * sin(phi)).rounded(.down))
                let k = Int((dx * sin(phi) + dy * cos(phi)).rounded(.down))
                if region(t, k) != nil, region(t, k) == .bars ? bars.contains(t) : (t + 1000) % 7 == 0 { bytes[y * width + x] = 10 }
            }
        }
        return Frame(width: width, height: height, bytes: bytes)
    }

    enum Region { case bars, ownLine, caption, beside }

    /// What the code's rows and columns `t`, `k` hold, if anything.
    static func region(_ t: Int, _ k: Int) -> Region? {
        switch (t, k) {
        case (-75..<75, -40..<40): .bars
        case (-50..<50, 44..<56): .ownLine
        case (-75..<(-20), -62..<(-50)): .caption
        case (95..<150, -40..<(-28)): .beside
        default: nil
        }
    }

    /// The columns (`t`) the bars take.
    static func barColumns() -> Set<Int> {
        var (t, wide, columns) = (-75, false, Set<Int>())
        while t < 75 {
            columns.formUnion(t..<min(75, t + (wide ? 6 : 3)))
            t += wide ? 15 : 6
            wide.toggle()
        }
        return columns
    }

    /// zbar's box for a code turned 8 degrees: level, on the 16 rows through its middle.
    static let strip = BarcodeSymbol(value: "ABC123", symbology: "CODE-128", box: Box(x: 124, y: 122, width: 152, height: 16))

    /// The frame's point at `t` along the code turned `degrees` and `k` down its bars.
    static func point(_ t: Double, _ k: Double, degrees: Double) -> TurnedBars.Point {
        let phi = degrees * .pi / 180
        return TurnedBars.Point(x: 200 + t * cos(phi) + k * sin(phi), y: 130 - t * sin(phi) + k * cos(phi))
    }

    @Test(
        "a turned code's bars are followed to their four corners, from its first bar to its last and from the top of its bars to their foot"
    )
    func followedTurned() throws {
        let bars = try #require(Self.strip.turnedBars(in: Self.turnedCode(degrees: 8)))
        let found = [bars.topLeft, bars.topRight, bars.bottomRight, bars.bottomLeft]
        let corners = [(-75.0, -40.0), (75, -40), (75, 40), (-75, 40)].map { Self.point($0.0, $0.1, degrees: 8) }
        for (point, corner) in zip(found, corners) {
            #expect(abs(point.x - corner.x) <= 3 && abs(point.y - corner.y) <= 3, "\(point) against \(corner)")
        }
    }

    @Test("level bars are followed to the corners of their box; not a 2-D code, one standing on end, or a picture without bars")
    func followedLevel() throws {
        let frame = Self.turnedCode(degrees: 0)
        let level = BarcodeSymbol(value: "ABC123", symbology: "CODE-128", box: Box(x: 125, y: 122, width: 150, height: 16))
        let bars = try #require(level.turnedBars(in: frame))
        typealias P = TurnedBars.Point
        #expect(
            [bars.topLeft, bars.topRight, bars.bottomRight, bars.bottomLeft]
                == [P(x: 125, y: 90), P(x: 275, y: 90), P(x: 275, y: 169), P(x: 125, y: 169)], "\(bars)")
        var matrix = level
        matrix.symbology = "QR-Code"
        #expect(matrix.turnedBars(in: frame) == nil)
        #expect(
            BarcodeSymbol(value: "A", symbology: "CODE-128", box: Box(x: 190, y: 90, width: 16, height: 80)).turnedBars(in: frame) == nil)
        let flat = Frame(width: 400, height: 260, bytes: [UInt8](repeating: 200, count: 400 * 260))
        #expect(level.turnedBars(in: flat) == nil)
    }

    /// A line of one word at `t`, `k` of the code turned 8 degrees (its box's middle there).
    static func word(_ text: String, _ t: Double, _ k: Double) -> TextLine {
        let middle = point(t, k, degrees: 8)
        let box = Box(x: Int(middle.x) - 30, y: Int(middle.y) - 6, width: 60, height: 12)
        return TextLine(words: [Word(text: text, box: box, confidence: 80)], box: box)
    }

    @Test(
        "words read under a turned code's bars, where its own line is printed, or on its bars are dropped; its caption and the print beside it stay"
    )
    func wordsInTurnedShapeDropped() throws {
        let bars = try #require(Self.strip.turnedBars(in: Self.turnedCode(degrees: 8)))
        #expect(bars.isTurned)
        let lines = [Self.word("SN", -50, -56), Self.word("ABC12E", 0, 50), Self.word("IlIl", 40, 30), Self.word("REV 2", 120, -34)]
        let symbols = [Self.strip]
        let asBefore = FrameReader.combine(symbols: symbols, lines: lines).filter { !$0.source.isBarcode }.map(\.value)
        #expect(Set(asBefore) == ["SN", "ABC12E", "IlIl", "REV 2"], "\(asBefore)")
        let dropped = FrameReader.combine(symbols: symbols, lines: lines, skew: 0, turned: [bars])
        #expect(Set(dropped.filter { !$0.source.isBarcode }.map { $0.value }) == ["SN", "REV 2"])
    }
}

@Suite("A webcam's frame of a label held turned: what is read on its codes dropped")
struct TurnedWebcamFrameTests {
    @Test(
        "an Intel label's two Code 128s turned six degrees: the lines read under and on their bars are dropped, and the serial's caption read"
    )
    func turnedCodesOwnLines() throws {
        // zbar boxes each on a band of its rows: its level box painted, the rest of the bars and
        // the line under them were read ("SSDSC2KB13568" beside the caption "S/N", which then
        // named it).
        let frame = try ImageFile.load("\(root)/Devices/codes/code128-turned-two-codes.jpg")
        let read = try FrameReader().read(frame)
        #expect(Set(read.filter(\.source.isBarcode).map(\.value)) == ["PHYF752763QM2PGN", "SSDSC2KB135G8"])
        let lines = read.filter { !$0.source.isBarcode }.map(\.value)
        #expect(lines.contains("S/N"), "\(lines)")
        #expect(!lines.contains { $0.contains("PHYF") || $0.contains("SDSC") }, "\(lines)")
    }
}
