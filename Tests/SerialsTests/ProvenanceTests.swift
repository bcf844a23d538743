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

    @Test("each place and remake is put into the person's words in one way")
    func words() {
        let line = Provenance(.printedLine(2))
        #expect(line.words == "printed line 2" && Provenance(.barcode(symbology: "QR-Code")).words == "QR-Code barcode")
        #expect(Provenance(.named("somewhere else")).words == "somewhere else")
        let looks = Provenance.Remake.lookAlikes([Provenance.LookAlike("0", for: "O"), Provenance.LookAlike("J", for: "I")])
        #expect(Provenance(.printedLine(1), remakes: [looks]).words == "printed line 1 (0 for O, J for I)")
        #expect(line.remade(.characterReadTwiceTakenOut).words == "printed line 2 (a character read twice taken out)")
        #expect(Provenance(.printedLine(4)).remade(.expressServiceCode).words == "printed line 4 (the Express Service Code)")
        #expect(Provenance(.printedLine(1)).remade(.readAsDigits).words == "printed line 1 (read as digits)")
        #expect(line.remade(.readAnotherWay).words == "printed line 2 (read another way)")
        let twice = line.remade(.characterReadTwiceTakenOut).remade(.qForO)
        #expect(twice.words == "printed line 2 (a character read twice taken out) (Q for O)")
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
