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

    @Test("a frame with nothing ruled on it is returned as it is")
    func nothingRuled() {
        let original = frame(300, 100, dark: [Box(x: 20, y: 20, width: 40, height: 3), Box(x: 100, y: 10, width: 3, height: 30)])
        #expect(Rules.erased(original) == original)
        let tiny = frame(10, 10, dark: [Box(x: 0, y: 5, width: 10, height: 1)])
        #expect(Rules.erased(tiny) == tiny)
    }
}
