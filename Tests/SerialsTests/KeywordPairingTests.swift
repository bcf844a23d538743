import Model
import Testing

@testable import Serials

/// The lines `readings` are rebuilt into, every pass run or one left out.
func paired(_ readings: [SerialReading], without pass: KeywordPairing.Pass? = nil) -> [String] {
    KeywordPairing(readings, inFormat: { _ in false }, without: pass.map { [$0] } ?? []).joined().map(\.value)
}

/// A label's lines for one pass: what they become with every pass, and with that one left out.
struct PassCase: Sendable, CustomTestStringConvertible {
    var pass: KeywordPairing.Pass
    var readings: [SerialReading]
    var with: [String]
    var without: [String]
    var testDescription: String { pass.rawValue }
}

@Suite("Keyword pairing, pass by pass")
struct KeywordPairingTests {
    static let cases: [PassCase] = [
        PassCase(
            pass: .joinSplitKeywords,
            readings: [boxed("Serial", 1, 10, 10, 50, 20), boxed("No:", 2, 66, 10, 30, 20), boxed("ABC123456", 3, 150, 10, 120, 20)],
            with: ["Serial No: ABC123456"], without: ["Serial ABC123456", "No:"]),
        PassCase(
            pass: .dropKeywordsReadTwice,
            readings: [
                boxed("Serial No:", 1, 10, 10, 100, 20), boxed("ABC123456", 2, 150, 10, 120, 20), boxed("Serial No.", 3, 10, 11, 100, 20),
            ],
            with: ["Serial No: ABC123456"], without: ["Serial No: ABC123456", "Serial No."]),
        PassCase(
            pass: .dropKeywordsReadWithTheirValue,
            readings: [
                boxed("MODEL", 1, 10, 10, 60, 20), boxed("MODEL EYG-0671L", 2, 10, 10, 200, 20), boxed("5207286608", 3, 10, 40, 120, 20),
            ],
            with: ["MODEL", "MODEL EYG-0671L", "5207286608"], without: ["MODEL 5207286608", "MODEL EYG-0671L"]),
        PassCase(
            pass: .pairOnRows, readings: [boxed("Serial No:", 1, 10, 10, 100, 20), boxed("ABC123456", 2, 150, 10, 120, 20)],
            with: ["Serial No: ABC123456"], without: ["Serial No:", "ABC123456"]),
        PassCase(
            pass: .pairUnder, readings: [boxed("Serial No:", 1, 10, 10, 100, 20), boxed("ABC123456", 2, 10, 40, 120, 20)],
            with: ["Serial No: ABC123456"], without: ["Serial No:", "ABC123456"]),
        PassCase(
            pass: .pairBefore, readings: [boxed("ABC123456", 1, 10, 10, 120, 20), boxed("SERIAL", 2, 140, 10, 60, 20)],
            with: ["SERIAL ABC123456"], without: ["ABC123456", "SERIAL"]),
        PassCase(
            pass: .pairOver, readings: [boxed("ABC123456", 1, 10, 10, 120, 20), boxed("S/N", 2, 10, 35, 30, 12)],
            with: ["S/N ABC123456"], without: ["ABC123456", "S/N"]),
        PassCase(
            pass: .addOtherReadingsOfValues,
            readings: [boxed("SN", 1, 10, 10, 30, 20), boxed("285974", 2, 60, 10, 80, 20), boxed("OM80FK285974", 3, 60, 10, 150, 20)],
            with: ["SN OM80FK285974", "SN 285974"], without: ["SN", "OM80FK285974"]),
        PassCase(
            pass: .nameValuesWithinLines, readings: [boxed("ABC123456 (Serial No.)", 1, 10, 10, 260, 20)],
            with: ["Serial No. ABC123456"], without: ["ABC123456 (Serial No.)"]),
        PassCase(
            pass: .addInlineValuesReadAgain,
            readings: [boxed("SERIAL PFS3F5SLOW", 1, 128, 298, 339, 41), boxed("PF3F5LOW", 2, 298, 306, 170, 25)],
            with: ["SERIAL PFS3F5SLOW", "SERIAL PF3F5LOW"], without: ["SERIAL PFS3F5SLOW", "PF3F5LOW"]),
    ]

    @Test("a serial's keyword read with marks no serial is (a box's edge, bars beside it) waits for its value under it")
    func keywordWithMarksAfterIt() {
        // Read off a webcam's frames of a caption printed white in a box over its value.
        let value = boxed("G8WM2WGDBN5P", 2, 10, 40, 200, 20)
        #expect(paired([boxed("Serial No iim", 1, 10, 10, 150, 20), value]) == ["Serial No G8WM2WGDBN5P"])
        #expect(paired([boxed("Serial No Re", 1, 10, 10, 150, 20), value]) == ["Serial No G8WM2WGDBN5P"])
        // Read alone too, the keyword lying over that reading of it still takes it.
        let twice = paired([boxed("Serial No", 1, 10, 10, 100, 20), boxed("Serial No ii", 2, 10, 10, 130, 22), value])
        #expect(twice.first == "Serial No G8WM2WGDBN5P", "\(twice)")
        // A value with a digit, or one that could be a serial, is the keyword's own.
        #expect(paired([boxed("Serial No A1B2C3D", 1, 10, 10, 150, 20), value]) == ["Serial No A1B2C3D", "G8WM2WGDBN5P"])
        #expect(paired([boxed("Serial No ii7", 1, 10, 10, 150, 20), value]) == ["Serial No ii7", "G8WM2WGDBN5P"])
        // Another field's keyword names what follows it, whatever it is.
        #expect(paired([boxed("Model iim", 1, 10, 10, 150, 20), value]) == ["Model iim", "G8WM2WGDBN5P"])
    }

    @Test("a caption in angle brackets after its value names it, as one in parentheses does")
    func captionInAngleBrackets() {
        let readings = [boxed("ZM92AH582200", 1, 10, 10, 120, 20), boxed("<Serial No>", 2, 160, 12, 60, 12)]
        #expect(paired(readings) == ["<Serial No> ZM92AH582200"])
        // Beside a barcode a character apart, the value its caption names is first.
        let candidates = SerialExtractor.candidates([code("ZM92AH542200")] + readings)
        #expect(candidates.map(\.value) == ["ZM92AH582200", "ZM92AH542200"])
        #expect(candidates.map(\.disagreesWith) == [["ZM92AH542200"], ["ZM92AH582200"]])
    }

    @Test("every pass has a label it changes", arguments: KeywordPairing.Pass.allCases)
    func covered(pass: KeywordPairing.Pass) {
        #expect(Self.cases.contains { $0.pass == pass })
    }

    @Test("each pass turned off: its label's lines come out as they would without the rule", arguments: cases)
    func eachPass(_ fixture: PassCase) {
        #expect(paired(fixture.readings) == fixture.with)
        #expect(paired(fixture.readings, without: fixture.pass) == fixture.without)
    }
}
