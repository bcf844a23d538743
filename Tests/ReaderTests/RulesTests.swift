import Model
import Testing

@testable import Reader

@Suite("Ruled lines painted out before text is read")
struct RulesTests {
    /// A paper-white frame with dark rectangles painted on it.
    func frame(_ width: Int, _ height: Int, dark: [Box], level: UInt8 = 30) -> Frame {
        var bytes = [UInt8](repeating: 235, count: width * height)
        for box in dark {
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX { bytes[y * width + x] = level }
            }
        }
        return Frame(width: width, height: height, bytes: bytes)
    }

    @Test("a table's long thin rules go; a letter's strokes, a letter crossing a rule and a thick block stay")
    func rulesGo() {
        let rowRule = Box(x: 40, y: 100, width: 420, height: 2)
        let columnRule = Box(x: 200, y: 20, width: 2, height: 160)
        let stroke = Box(x: 300, y: 40, width: 30, height: 3)  // the bar of an E
        let stem = Box(x: 350, y: 30, width: 3, height: 40)  // the stem of an I
        let crossing = Box(x: 400, y: 85, width: 3, height: 30)  // a descender through the rule
        let block = Box(x: 60, y: 130, width: 120, height: 40)  // a dark band, not a rule
        let original = frame(480, 200, dark: [rowRule, columnRule, stroke, stem, crossing, block])
        let cleared = Rules.erased(original)
        #expect(cleared[250, 100] == 235 && cleared[250, 101] == 235, "the row's rule is painted out")
        #expect(cleared[201, 60] == 235 && cleared[200, 160] == 235, "the column's rule is painted out")
        #expect(cleared[310, 41] == 30 && cleared[351, 50] == 30, "letters' strokes stay")
        #expect(cleared[401, 90] == 30 && cleared[401, 110] == 30, "a stroke crossing the rule stays either side of it")
        #expect(cleared[120, 150] == 30, "a thick dark block stays")
        #expect(cleared.width == original.width && cleared.height == original.height)
    }

    @Test("a rule a little off level is followed across the rows it steps through")
    func slantedRule() {
        // A rule a pixel thick falling one row every forty pixels (under the shortest rule), as
        // a label photographed a degree and a half off level.
        let steps = (0..<10).map { Box(x: 40 + $0 * 40, y: 50 + $0, width: 40, height: 1) }
        let cleared = Rules.erased(frame(480, 120, dark: steps))
        for (n, step) in steps.enumerated() {
            #expect(cleared[step.x + 20, step.y] == 235, "step \(n)")
        }
    }

    @Test("a box ruled round a value, shorter than a table's rules, goes; the value in it stays")
    func boxGoes() {
        // On a frame 1280 wide a table's rules are 160 long or more. A box 140 wide and 40 high:
        // rules 2 pixels thick, uprights 2 wide, and "letters" standing off the rules by 8
        // pixels (tesseract reads nothing of a value boxed so).
        let rules = [
            Box(x: 100, y: 40, width: 140, height: 2), Box(x: 100, y: 78, width: 140, height: 2), Box(x: 100, y: 40, width: 2, height: 40),
            Box(x: 238, y: 40, width: 2, height: 40),
        ]
        let letters = (0..<5).map { Box(x: 112 + $0 * 24, y: 50, width: 12, height: 20) }
        let cleared = Rules.erased(frame(1280, 120, dark: rules + letters))
        #expect(cleared[170, 40] == 235 && cleared[170, 79] == 235, "the rules over and under the value are painted out")
        #expect(cleared[100, 60] == 235 && cleared[239, 60] == 235, "so are its uprights")
        #expect(letters.allSatisfy { cleared[$0.x + 6, $0.y + 10] == 30 }, "the value stays")
    }

    @Test("lines that are no box stay: a square ring, print whose tops and feet run together, a box open at one end")
    func notBoxes() {
        // A ring as high as wide (a QR code's finder) is no box round a value.
        let ring = [
            Box(x: 40, y: 20, width: 50, height: 2), Box(x: 40, y: 68, width: 50, height: 2), Box(x: 40, y: 20, width: 2, height: 50),
            Box(x: 88, y: 20, width: 2, height: 50),
        ]
        // Letters smeared sideways: their tops and feet run on into lines, and their stems run
        // from the one to the other, at both ends too, with no paper between print and "rule".
        let smeared =
            [Box(x: 150, y: 20, width: 123, height: 2), Box(x: 150, y: 48, width: 123, height: 2)]
            + (0..<7).map { Box(x: 150 + $0 * 20, y: 20, width: 3, height: 30) }
        // Two rules and one upright: a value underlined and overlined, not boxed.
        let open = [
            Box(x: 100, y: 150, width: 140, height: 2), Box(x: 100, y: 188, width: 140, height: 2),
            Box(x: 100, y: 150, width: 2, height: 40), Box(x: 120, y: 160, width: 12, height: 20),
        ]
        let cleared = Rules.erased(frame(1280, 220, dark: ring + smeared + open))
        #expect(cleared[60, 20] == 30 && cleared[41, 40] == 30, "the ring stays")
        #expect(cleared[230, 20] == 30 && cleared[151, 35] == 30 && cleared[271, 35] == 30, "the smeared print stays")
        #expect(cleared[170, 150] == 30 && cleared[101, 170] == 30, "the box open at one end stays")
    }

    @Test(
        "a value boxed on a rendered label is read: the box's uprights are not read into it, nor is the boxed row passed over",
        arguments: [("kingston-value-in-a-box", "50026B7BB44051AA"), ("hp-value-in-a-box", "CND9673C9A")])
    func boxedValueRead(name: String, serial: String) throws {
        // Third-house labels at a low resolution: tesseract read "|50026B7BB44051,<A |" (the
        // uprights and the last A run together), and nothing at all of "SN : [CND9673C9A]".
        let readings = try FrameReader().read(image(name))
        #expect(readings.contains { $0.value.contains(serial) }, "\(readings.map(\.value))")
    }

    @Test("a frame with nothing ruled on it is returned as it is")
    func nothingRuled() {
        let original = frame(300, 100, dark: [Box(x: 20, y: 20, width: 40, height: 3), Box(x: 100, y: 10, width: 3, height: 30)])
        #expect(Rules.erased(original) == original)
        let tiny = frame(10, 10, dark: [Box(x: 0, y: 5, width: 10, height: 1)])
        #expect(Rules.erased(tiny) == tiny)
    }
}
