import Model
import Testing

@testable import Serials

@Suite("Where a candidate was read, typed")
struct ProvenanceTests {
    @Test("a candidate's provenance names the place and each remake; the person's words are made of it in one place")
    func typed() {
        let candidates = SerialExtractor.candidates([text("S/N: ZLBTMJDO", 1)])
        let zeroed = candidates.first { $0.value == "ZLBTMJD0" }
        #expect(zeroed?.provenance == [Provenance(.printedLine(1), remakes: [.lookAlikes([Provenance.LookAlike("0", for: "O")])])])
        #expect(zeroed?.whereRead == ["printed line 1 (0 for O)"])
        let q = candidates.first { $0.value == "ZLBTMJDQ" }
        #expect(q?.provenance.first?.remakes == [.qForO], "\(candidates)")
        let agreed = SerialExtractor.candidates([text("Serial No. C02XK1ZJJGH5", 3), code("C02XK1ZJJGH5")]).first
        #expect(agreed?.provenance.map { $0.place } == [.printedLine(3), .barcode(symbology: "CODE-128")])
    }

    @Test(
        "every provenance the extractor renders reads back as itself",
        arguments: [
            "printed line 2", "CODE-128 barcode", "printed line 1 (0 for O, J for I)", "printed line 2 (a character read twice taken out)",
            "printed line 4 (the Express Service Code)", "printed line 1 (read as digits)", "printed line 2 (read another way)",
            "printed line 2 (a character read twice taken out) (0 for O)", "QR-Code barcode", "somewhere else",
        ])
    func roundTrip(_ words: String) {
        #expect(Provenance(words: words).words == words)
    }

    @Test("places from a reading are typed from its source, not its words")
    func fromReading() {
        let line = Reading(value: "SN 123", source: .text(line: 4), box: Box(x: 0, y: 0, width: 10, height: 10))
        let code = Reading(value: "123", source: .barcode(symbology: "CODE-39"), box: Box(x: 0, y: 0, width: 10, height: 10))
        #expect(SerialReading(line).at == .printedLine(4))
        #expect(SerialReading(code).at == .barcode(symbology: "CODE-39"))
        #expect(Provenance.Place(words: "barcode") == .named("barcode"))
        #expect(Provenance.Place(words: "printed line x") == .named("printed line x"))
    }
}
