import Testing

@testable import Serials

/// A GS1 key with its check digit appended (mod 10, weights 3 and 1 from the right).
func withCheckDigit(_ body: String) -> String {
    let sum = body.compactMap(\.wholeNumberValue).reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
    return body + String((10 - sum % 10) % 10)
}

@Suite("GS1 element strings")
struct GS1Tests {
    let gtin = "09506000134352"

    func pairs(_ data: String) -> [String]? {
        GS1.parse(data)?.map { "\($0.ai)=\($0.value)" }
    }

    @Test("fixed-length AIs need no separator; a variable one ends at FNC1 (GS) or the end")
    func separators() {
        #expect(pairs("01\(gtin)17261231" + "10ABC123\u{1D}" + "21SN4711") == ["01=\(gtin)", "17=261231", "10=ABC123", "21=SN4711"])
        // GS1-128 as a scanner without a symbology prefix gives it: 01 + 14, 11 + 6, then 21.
        #expect(pairs("01\(gtin)11260101" + "21SN4711") == ["01=\(gtin)", "11=260101", "21=SN4711"])
    }

    @Test("symbology identifiers, a leading FNC1 and the bracketed printed form all give the same elements")
    func forms() {
        let expected = ["01=\(gtin)", "21=SN4711"]
        #expect(pairs("]C101\(gtin)21SN4711") == expected)
        #expect(pairs("]d201\(gtin)21SN4711") == expected)
        #expect(pairs("\u{1D}01\(gtin)21SN4711") == expected)
        #expect(pairs("(01)\(gtin)(21)SN4711") == expected)
    }

    @Test("three- and four-digit AIs have their own lengths: GLNs, trade measures, SSCCs")
    func longerAIs() {
        let gln = withCheckDigit("950600013435")
        let sscc = withCheckDigit("10614141123456789")
        #expect(pairs("00\(sscc)" + "3103000150" + "414\(gln)" + "21X1") == ["00=\(sscc)", "3103=000150", "414=\(gln)", "21=X1"])
    }

    @Test("a failed check digit, an unknown AI, a short fixed value or a too-long variable one is not GS1")
    func refused() {
        #expect(GS1.parse("0109506000134353" + "21SN4711") == nil)  // GTIN check digit off by one
        #expect(GS1.parse("]C1" + "01\(gtin)" + "05XYZ") == nil)  // no AI 05
        #expect(GS1.parse("01\(gtin)1726") == nil)  // 17 needs six digits
        #expect(GS1.parse("01\(gtin)21" + String(repeating: "A", count: 21)) == nil)  // 21 holds at most 20
        #expect(GS1.parse("(01)\(gtin)(17)2612") == nil)
    }

    @Test("plain data is not taken for GS1 on a guess")
    func notGS1() {
        #expect(GS1.parse("ABC123") == nil)
        #expect(GS1.parse("2112345") == nil)  // digits that happen to start like AI 21
        #expect(GS1.parse("") == nil)
    }

    @Test("the serial of a GS1 barcode is its AI 21, whichever form the barcode gives")
    func serialFromBarcode() {
        #expect(Barcodes.serialValues("01\(gtin)11260101" + "21SN4711", symbology: "CODE-128") == ["SN4711"])
        #expect(Barcodes.serialValues("01\(gtin)17261231" + "10ABC123\u{1D}" + "21SN4711", symbology: "DATAMATRIX") == ["SN4711"])
        #expect(Barcodes.serialValues("01\(gtin)17261231", symbology: "CODE-128") == [])
    }
}

@Suite("MH10.8.2 data identifiers in an ISO/IEC 15434 envelope")
struct DataIdentifierTests {
    let envelope = "[)>\u{1E}06\u{1D}1P0WV1JQ\u{1D}SCN7XK2M93\u{1D}Q1\u{1E}\u{04}"

    @Test("the fields of a format-06 record are split by their data identifiers")
    func fields() {
        #expect(DataIdentifiers.parse(envelope)?.map { "\($0.identifier)=\($0.value)" } == ["1P=0WV1JQ", "S=CN7XK2M93", "Q=1"])
    }

    @Test("the serial of an envelope is its S (or 25S) value, never its part number or quantity")
    func serial() {
        #expect(Barcodes.serialValues(envelope, symbology: "DATAMATRIX") == ["CN7XK2M93"])
        #expect(Barcodes.serialValues("[)>\u{1E}06\u{1D}1P0WV1JQ\u{1E}\u{04}", symbology: "DATAMATRIX") == [])
        #expect(Barcodes.serialValues("[)>\u{1E}06\u{1D}25SUN123456789ABC\u{1E}\u{04}", symbology: "PDF417") == ["UN123456789ABC"])
    }

    @Test("what is not an envelope, or a field that is not a data identifier, is not split")
    func refused() {
        #expect(DataIdentifiers.parse("1P0WV1JQ") == nil)
        #expect(DataIdentifiers.parse("[)>\u{1E}06\u{1D}1234P9\u{1E}\u{04}") == nil)  // four digits
        #expect(DataIdentifiers.parse("[)>\u{1E}06\u{1D}1p9\u{1E}\u{04}") == nil)  // not a capital
    }
}
