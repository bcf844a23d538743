import Testing

@testable import Serials

/// A printed line with its box: x, y, width, height.
func boxed(_ value: String, _ line: Int, _ x: Int, _ y: Int, _ width: Int, _ height: Int = 24) -> SerialReading {
    SerialReading(value: value, symbology: nil, place: "printed line \(line)", box: Box(x: x, y: y, width: width, height: height))
}

@Suite("Keywords and values in separate boxes")
struct LayoutTests {
    @Test("a table row: the value column to the right, set a pixel higher and read first, is the keyword's")
    func tableRow() {
        let readings = [
            boxed("0QKVUF", 1, 350, 135, 120), boxed("DP/N:", 2, 94, 136, 80),
            boxed("WFJCH4J", 3, 350, 221, 130), boxed("Service Tag (S/N):", 4, 94, 222, 250),
            boxed("70596522163", 5, 350, 178, 190), boxed("Express Service Code:", 6, 94, 179, 300),
        ]
        let candidates = SerialExtractor.candidates(readings)
        #expect(candidates.map(\.value) == ["WFJCH4J"])
        #expect(candidates.first?.whereRead == ["printed line 3"])
        // Without the boxes the values are orphans: nothing names them.
        let blind = readings.map { SerialReading(value: $0.value, symbology: nil, place: $0.place) }
        #expect(SerialExtractor.candidates(blind).isEmpty)
    }

    @Test("the value under its keyword; a part number's value under its own keyword is not a serial")
    func valueUnder() {
        let readings = [
            boxed("Part No.", 1, 60, 100, 110, 20), boxed("M8BORLL/A", 2, 60, 128, 160),
            boxed("Serial Number", 3, 60, 170, 180, 20), boxed("C02GN0Q27VYX", 4, 60, 198, 230),
        ]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["C02GN0Q27VYX"])
    }

    @Test("a keyword in parentheses beside a value names it, in its own box or on the same line")
    func captionBeside() {
        let apart = [
            boxed("PFB609JJ", 1, 292, 305, 117, 23), boxed("(S/N)", 2, 459, 309, 49, 16), boxed("MTM: 77M1Z6MSYQ", 3, 292, 272, 244),
        ]
        #expect(SerialExtractor.candidates(apart).map(\.value) == ["PFB609JJ"])
        let together = [boxed("G8W9MCBQJLUX (Serial No.)", 1, 108, 352, 354)]
        #expect(SerialExtractor.candidates(together).map(\.value) == ["G8W9MCBQJLUX"])
    }

    @Test("a keyword's value is the nearest on its row, never one rows away or far to the left")
    func nearestOnly() {
        let readings = [boxed("S/N:", 1, 60, 100, 50), boxed("ZA1B2C3D", 2, 60, 300, 120), boxed("ZZ9Y8X7W", 3, 900, 160, 120)]
        #expect(SerialExtractor.candidates(readings).isEmpty)
    }
}
