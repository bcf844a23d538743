import Testing

@testable import Serials

func text(_ value: String, _ line: Int) -> SerialReading { SerialReading(value: value, symbology: nil, place: "printed line \(line)") }
func code(_ value: String, _ symbology: String = "CODE-128") -> SerialReading {
    SerialReading(value: value, symbology: symbology, place: "\(symbology) barcode")
}

@Suite("The serial extractor")
struct ExtractorTests {
    @Test("a barcode and the print agreeing after OCR folding make one candidate, with the barcode's exact value, read in both places")
    func agreement() {
        let c = SerialExtractor.candidates([text("Serial No. CO2XK1ZJJGH5", 3), code("C02XK1ZJJGH5")])
        #expect(
            c == [
                SerialCandidate(
                    value: "C02XK1ZJJGH5", provenance: [Provenance(.printedLine(3)), Provenance(.barcode(symbology: "CODE-128"))],
                    evidence: .agree, disagreesWith: [])
            ])
        #expect(c.first?.whereRead == ["printed line 3", "CODE-128 barcode"])
    }

    @Test("a NUL in a reading is no character of it: a code padded with them reads as its characters, and none traps the search")
    func nulsTakenOut() {
        let padded = SerialExtractor.candidates([code("7XK2M93\u{0}\u{0}", "CODE-39"), text("Service Tag: 7XK2M93", 1)])
        #expect(padded.map(\.value) == ["7XK2M93"] && padded.first?.evidence == .agree)
        // Foundation's substring search stops at a NUL and traps where the text before it is
        // not ASCII: neither may reach it.
        let hostile = SerialExtractor.candidates([code("AB12345\u{E9}"), text("AB12345\u{E9}\u{0}", 1)])
        #expect(hostile.allSatisfy { !$0.value.unicodeScalars.contains("\u{0}") })
        #expect(SerialReading.withoutNULs("\u{0}A\u{0}B\u{0}") == "AB" && SerialReading.withoutNULs("AB") == "AB")
    }

    @Test("a Dell PPID (printed or as a barcode) is not the serial; the service tag is")
    func ppid() {
        let c = SerialExtractor.candidates([
            text("CN-0WV1JQ-89856-1AB-0123-A00", 1), code("CN0WV1JQ898561AB0123A00"), text("Service Tag: 7XK2M93", 2),
            code("7XK2M93", "CODE-39"),
        ])
        #expect(c.map(\.value) == ["7XK2M93"], "\(c)")
    }

    @Test("an S-prefixed barcode (MH10.8.2's serial identifier) under a print without the S is the printed serial")
    func sPrefixed() {
        for serial in ["C02XK1ZJJGH5", "9QKX2M3A", "ZR5A1B2C", "S6PTNF0R123456L"] {
            let c = SerialExtractor.candidates([text("(S) Serial No. \(serial)", 1), code("S" + serial)])
            #expect(c.map(\.value) == [serial], "\(c)")
        }
    }

    @Test("an S-prefixed barcode beside a print of exactly its rest, keyword garbled, is that print; beside one with the S, it keeps it")
    func sPrefixedUnlabelled() {
        let c = SerialExtractor.candidates([text("DELL PowerEdge R650", 1), text("Seri no", 2), text("CB2MN46", 3), code("SCB2MN46")])
        #expect(c.map(\.value) == ["CB2MN46"], "\(c)")
        #expect(c.first?.evidence == .agree)
        // Where the print has the S too, the S is the serial's own.
        let own = SerialExtractor.candidates([
            text("SAMSUNG 870 EVO", 1), text("S6PTNF0R123456L", 2), text("6PTNF0R123456L", 3), code("S6PTNF0R123456L"),
        ])
        #expect(own.first?.value == "S6PTNF0R123456L", "\(own)")
        // So where it is the same field as the whole, a character apart: the two disagree, each
        // with its S (frames that read the line whole, and one that saw it without its first).
        let field = SerialExtractor.candidates([
            text("SAMSUNG SSD 980 PRO", 1), text("Serial No", 2), text("SMW5SH0B704653N", 3), text("MW5SH0B704653N", 4),
            code("SMW5SU0B704653N"),
        ])
        #expect(Array(field.map(\.value).prefix(2)) == ["SMW5SU0B704653N", "SMW5SH0B704653N"], "\(field)")
        #expect(field.first?.disagreesWith == ["SMW5SH0B704653N"])
        #expect(!field.contains { $0.value == "MW5SU0B704653N" })
    }

    @Test("an S-prefixed barcode beside a print the same field as its rest, whose keyword OCR garbled: the two shown disagreeing")
    func sPrefixedUnlabelledDisagreeing() {
        // "SN#" read as "SNe": the print has no keyword, and differs from the barcode's rest in
        // one digit no confusion explains.
        let c = SerialExtractor.candidates([
            text("KVM CONSOLE 8-PORT", 1), text("5006904931", 2), text("SNe", 3), code("S5906904931"),
        ])
        #expect(c.map(\.value) == ["5906904931", "5006904931"], "\(c)")
        #expect(c.map(\.disagreesWith) == [["5006904931"], ["5906904931"]])
        // A print of another length is another field: the barcode stays as it is.
        let other = SerialExtractor.candidates([text("KVM CONSOLE 8-PORT", 1), text("50069049", 2), code("S5906904931")])
        #expect(other.first?.value == "S5906904931", "\(other)")
    }

    @Test("'Serial Nbr' is a keyword, whole: alone on its line (a table's row) it has no value yet")
    func serialNbr() {
        let alone = Keywords.fields(in: "SERIAL NBR:")
        #expect(alone.map(\.kind) == [.serial] && alone.map(\.value) == [""], "\(alone)")
        #expect(Keywords.fields(in: "Ser Nbr ZJ9349503918").map(\.value) == ["ZJ9349503918"])
    }

    @Test(
        "a keyword whose space OCR read as an underscore, or whose colon as a hyphen, or glued to its value by a number sign, is still the keyword"
    )
    func blurredKeyword() {
        #expect(Keywords.fields(in: "SER_NO- ZLU0BRGB").map(\.kind) == [.serial])
        #expect(Keywords.fields(in: "SER_NO- ZLU0BRGB").map(\.value) == ["ZLU0BRGB"])
        // Glued to its value by a number sign, as by a colon; a value holding one stays whole.
        #expect(SerialExtractor.candidates([text("SN#5CG11861E3", 1)]).map(\.value) == ["5CG11861E3"])
        #expect(Keywords.fields(in: "Product No: NTWDEJ#ABA").map(\.value) == ["NTWDEJ#ABA"])
        let date = Keywords.fields(in: "Date Code- 79216")
        #expect(date.allSatisfy { $0.kind == .other } && date.last?.value == "79216", "\(date)")
    }

    @Test("a value OCR split at a space (a last character, or two codes) runs on; a keyword's word cut short is no value")
    func splitEnd() {
        #expect(Tokens.serialToken("EM742493978 1") == "EM7424939781")
        #expect(Tokens.serialToken("VS039773341 1") == "VS0397733411")
        #expect(Tokens.serialToken("XD3901 409623") == "XD3901409623")
        #expect(Tokens.serialToken("504 9BGD") == "5049BGD")
        // Not a short value's last character, nor three words, nor a maker and a model, nor a
        // code and a word.
        #expect(Tokens.serialToken("AB12 C") == "AB12")
        #expect(Tokens.serialToken("EM742493978 1 X") == "EM742493978")
        // Four letters or digits at least, hyphens aside: a model number's end ("S-79"), paired
        // with a keyword along a tilted row, is no value, and the barcode is the candidate.
        #expect(Tokens.serialToken("S-79") == nil && Tokens.serialToken("S-790") == "S-790")
        #expect(SerialExtractor.candidates([text("SER, No S-79", 1), code("OM68GU235431")]).map(\.value) == ["OM68GU235431"])
        #expect(Tokens.runOn("Juniper SRX345") == ["Juniper", "SRX345"])
        #expect(Tokens.runOn("C02XK1ZJJGH5 SERIAL") == ["C02XK1ZJJGH5", "SERIAL"])
        // A hyphen within the first code; not one at its end, nor a hyphen in the second.
        #expect(Tokens.runOn("WD-WMC4NEP 3UKEP") == ["WD-WMC4NEP3UKEP"])
        #expect(Tokens.runOn("WD- 3UKEP") == ["WD-", "3UKEP"])
        #expect(Tokens.runOn("WD-WMC4NEP 3U-KEP") == ["WD-WMC4NEP", "3U-KEP"])
        // The code after the codes no keyword names, in the same way.
        let juniper = SerialExtractor.candidates([text("Juniper SRX345", 1), text("XD3901 409623", 2)])
        #expect(juniper.map(\.value) == ["XD3901409623", "SRX345"], "\(juniper)")
        let lenovo = SerialExtractor.candidates([text("Lenovo ThinkPad T14", 1), text("Serial Numbe", 2), text("PFNDOYOB", 3)])
        #expect(!lenovo.contains { $0.value == "NUMBE" }, "\(lenovo)")
    }

    @Test("where nothing names the serial, the codes of the label's top line (its maker and model) come last")
    func titleCodesLast() {
        let c = SerialExtractor.candidates([
            boxed("Juniper SRX345", 1, 250, 161, 277, 27), boxed("43", 2, 487, 222, 31, 18), boxed("ZJ9349503918", 3, 487, 273, 200, 18),
            boxed("Seri.", 4, 251, 274, 65, 17),
        ])
        #expect(c.map(\.value) == ["ZJ9349503918", "SRX345"], "\(c)")
        // A line OCR made of noise above the title (a tilted label's edge, grain) is not the
        // title: the code after the maker's name is the model all the same.
        let noisy = SerialExtractor.candidates([
            boxed("TSS i ea a Sa ae ea", 1, 154, 178, 855, 34), boxed("Juniper SRX345", 2, 217, 216, 219, 23),
            boxed("FN3982378129", 4, 369, 307, 166, 16),
        ])
        #expect(noisy.map(\.value) == ["FN3982378129", "SRX345"], "\(noisy)")
        // With its keyword boxed in two beside it ("Serial", "No:"), the serial is named: only it.
        let named = SerialExtractor.candidates([
            boxed("TSS i ea a Sa ae ea", 1, 154, 178, 855, 34), boxed("Juniper SRX345", 2, 217, 216, 219, 23),
            boxed("Serial", 3, 216, 307, 80, 15), boxed("FN3982378129", 4, 369, 307, 166, 16), boxed("No:", 5, 313, 308, 36, 14),
        ])
        #expect(named.map(\.value) == ["FN3982378129"], "\(named)")
        // A code that merely follows a word is no model: "Part 5H3Y2K1Q" is not the title's.
        let word = SerialExtractor.candidates([boxed("ACME Rack", 1, 100, 50, 200, 24), boxed("Unit 5H3Y2K1Q", 2, 100, 120, 200, 24)])
        #expect(word.map(\.value) == ["5H3Y2K1Q"], "\(word)")
    }

    @Test("a barcode backed only by its own line, out of the named maker's format, comes after a labelled print in it")
    func labelledInMakersFormatFirst() {
        // A Cisco PID barcoded under the label, its human-readable line read; the serial under its keyword.
        let c = SerialExtractor.candidates([
            text("CISCO C1111", 1), text("Serial No FOC3085E188", 2), text("C1111-8P", 3), code("C1111-8P"),
        ])
        #expect(c.map(\.value) == ["FOC3085E188", "C1111-8P"])
        // A labelled print out of the maker's format does not move it.
        let out = SerialExtractor.candidates([text("CISCO C1111", 1), text("Serial No 12345678", 2), text("C1111-8P", 3), code("C1111-8P")])
        #expect(out.first?.value == "C1111-8P")
    }

    @Test("a value OCR read in pieces is put together where a barcode is the whole, or a vendor's format with its prefix")
    func piecesJoined() {
        let apple = SerialExtractor.candidates([text("Mac mini", 1), text("S/N# DMP LMEA2 6JZV", 2), code("DMPLMEA26JZV")])
        #expect(apple.map(\.value) == ["DMPLMEA26JZV"])
        #expect(apple.first?.evidence == .agree)
        #expect(
            SerialExtractor.candidates([text("iPad Air", 1), text("Serial No. FVF 7WX4ESFJF", 2)]).map(\.value) == [
                "FVF7WX4ESFJF", "FVF7WX4E5FJF",
            ])
        // Pieces neither a barcode nor a format makes one value stay apart: the first is the value.
        #expect(SerialExtractor.candidates([text("Serial No. AB12 CD34 EF", 1)]).map(\.value) == ["AB12"])
        #expect(Tokens.piecesJoined("DMP LMEA2 6JZV", formats: [], barcodes: ["DMPLMEA26JZV"]) == "DMPLMEA26JZV")
        #expect(Tokens.piecesJoined("DMPLMEA26JZV", formats: [], barcodes: ["DMPLMEA26JZV"]) == nil)
        // Without a keyword too (OCR garbled the caption after it): Western Digital's fixed
        // "WD-W" makes one value of the pieces, a character from the barcode: a disagreement.
        let wd = SerialExtractor.candidates([text("WD Red Plus 4TB", 1), text("WD-WMC4NWY 98HVP", 2), code("WD-WMC4NWY38HVP")])
        #expect(Set(wd.map(\.value)) == ["WD-WMC4NWY38HVP", "WD-WMC4NWY98HVP"])
        #expect(wd.allSatisfy { $0.disagreesWith.count == 1 })
    }

    @Test("a Q the print shows as 0 is the same value: one candidate, the barcode's exact text")
    func agreementAcrossQ() {
        let c = SerialExtractor.candidates([text("S/N: FOC2Q45X1AB", 3), code("FOC2045X1AB")])
        #expect(c.map(\.value) == ["FOC2045X1AB"])
        #expect(c.map(\.evidence) == [.agree])
    }

    @Test("a disagreement shows both, next to each other, each naming the other; the labelled print first")
    func disagreement() {
        let c = SerialExtractor.candidates([code("CN0KX2M1743"), text("S/N: CN0KX2M1742", 2)])
        #expect(c.map(\.value) == ["CN0KX2M1742", "CN0KX2M1743"])
        #expect(c.map(\.disagreesWith) == [["CN0KX2M1743"], ["CN0KX2M1742"]])
        #expect(c.map(\.evidence) == [.text, .barcode])
        // A barcode starting with an S (its W changed) is also read without it, as a data
        // identifier; the print is not that second reading with a stray W: it disagrees.
        let wd = SerialExtractor.candidates([text("WD Blue 1TB", 1), text("SERIAL: WD-WMC4N7ULV1VJ", 2), code("SD-WMC4N7ULV1VJ")])
        #expect(Array(wd.map(\.value).prefix(2)) == ["WD-WMC4N7ULV1VJ", "SD-WMC4N7ULV1VJ"])
        #expect(wd.first?.disagreesWith == ["SD-WMC4N7ULV1VJ"])
        // Nor where the barcode's value without its S is in a vendor's format and the whole is in
        // none, so that the rest is the barcode's first reading (OC3817FM2N is in HP's).
        let cisco = SerialExtractor.candidates([text("CISCO WS", 1), text("SER NO FOC3817FM2N", 2), code("SOC3817FM2N")])
        #expect(cisco.first?.value == "FOC3817FM2N")
        #expect(cisco.first?.disagreesWith == ["SOC3817FM2N"])
        #expect(!cisco.contains { $0.evidence == .agree })
    }

    @Test("a print read with a look-alike for the barcode's character and for another reading's of it is that reading's, disagreeing")
    func printReadBothWays() {
        // The same line read three ways: S stands for a 5 or a 9, Q for a 9; only a 9 explains
        // all three, so the print is ZA9FMH6Y and disagrees with the barcode's ZA5FMH6Y.
        let readings = [
            text("SERIAL ZA9FMH6Y", 4), text("SERIAL ZASFMH6Y", 5), text("SERIAL ZAQFMH6Y", 6), code("SZA5FMH6Y"),
        ]
        let c = SerialExtractor.candidates(readings)
        let printed = c.first { $0.value == "ZA9FMH6Y" }
        #expect(printed?.disagreesWith == ["ZA5FMH6Y"], "\(c)")
        #expect(c.first { $0.value == "ZA5FMH6Y" }?.disagreesWith.contains("ZA9FMH6Y") == true, "\(c)")
        // A reading of the print that is the barcode's value as it is keeps the two agreeing.
        let exact = SerialExtractor.candidates(readings + [text("SERIAL ZA5FMH6Y", 7)])
        #expect(exact.first?.value == "ZA5FMH6Y" && exact.first?.evidence == .agree, "\(exact)")
        #expect(exact.first?.disagreesWith == [], "\(exact)")
    }

    @Test(
        "the keywords of other things keep their values off the list, as text and as barcodes",
        arguments: [
            "P/N: 3F9W7UT#ABA", "PN: 1C7B9EA", "PID: WS-C2960X-24TS-L", "MODEL H982B", "MTM: 20XW004GUS", "MAC: 9C:3D:CF:A1:22:0B",
            "IMEI: 354678109876543", "FRU: 01YR617", "FRU PN: 5B20W77567", "DCM: HBNNHT2AB", "WWN: 5000C500A1B2C3D4",
            "PSID: 4J8TXVQ2KMBS7P9R3CZW6Y1D5H0N8F2E", "CLEI: COUIA8RCRA", "TAN: 68-4521-03", "MPN: MZ-77E1T0", "Product ID: 7XK2M93AB",
            "PPID: CN0G623D44099H4NG9PN", "RATING 100-240V", "R/N: P544LS", "MDL: WD29EFRXFGRRQ1", "REF 981107", "F/W: 2B2QEXM7",
            "Batch: 2211A04", "GTIN: 00850012345675", "ICCID: 8944501234567890123", "IC: 4104A-AC7265", "CMIIT ID: 2019AP1234",
            "Order No. 7XK2M93AB", "Item No: 445566778", "Mfr: 2B7Q40X",
        ])
    func otherKeywords(line: String) {
        let value = String(line.split(separator: " ", maxSplits: 1)[1])
        #expect(SerialExtractor.candidates([text(line, 1), code(value)]).isEmpty, "\(line)")
    }

    @Test(
        "garbled serial keywords still name the serial",
        arguments: [
            "S/N:", "SN", "SIN:", "5/N:", "Serial No.", "Serial Number:", "(S)", "Service Tag:", "SER NO.", "SVC TAG:", "Seriennummer:",
            "N/S:", "SNo.", "S.No.", "S/No:", "Serial#", "SER#", "Serial-No.", "Serial Num:", "System Serial Number:", "Product Serial:",
            "Numéro de série:", "Número de serie:", "Seriennr.", "Serienummer:", "Numero di serie:", "Matricola:", "N° de série", "S / N:",
            // OCR runs a narrow face's words together.
            "SerialNum", "SerialNumber:", "SERIALNBR", "S.N.",
        ])
    func garbledKeywords(keyword: String) {
        #expect(SerialExtractor.candidates([text("\(keyword) 5CG1234XYZ", 1)]).map(\.value) == ["5CG1234XYZ"])
        // A value in no vendor's format is offered only because the keyword names it.
        #expect(SerialExtractor.candidates([text("\(keyword) 7XK2M93AB", 1)]).map(\.value) == ["7XK2M93AB"])
        // Named by the keyword, the print is shown disagreeing with a barcode a character off.
        let both = SerialExtractor.candidates([text("\(keyword) 7XK2M93AB", 1), code("7XK2M93AH")])
        #expect(both.map(\.value) == ["7XK2M93AB", "7XK2M93AH"])
        #expect(both.first?.disagreesWith == ["7XK2M93AH"])
    }

    @Test("product codes, IMEIs, MAC addresses, dates and URLs are not serials")
    func notSerials() {
        #expect(NotSerial.isGTIN("4006381333931") && NotSerial.isGTIN("731304268390") && !NotSerial.isGTIN("4006381333932"))
        #expect(NotSerial.isIMEI("354678109876543") == (luhnValid("354678109876543")))
        #expect(NotSerial.isMAC("9C:3D:CF:A1:22:0B") && !NotSerial.isMAC("9C3DCFA1220B"))
        #expect(NotSerial.isDate("2021-05-15") && NotSerial.isDate("2022-08") && NotSerial.isDate("15/05/2021"))
        // Numbers between hyphens are a date only with a year and a month or day among them.
        #expect(!NotSerial.isDate("7XK2M93") && !NotSerial.isDate("1234-5678") && !NotSerial.isDate("3100-0042"))
        // Digits of other scripts and numbers too long for an Int are not a date, and no trap.
        #expect(!NotSerial.isDate("٢٠٢٢-٠٨") && !NotSerial.isDate("2022-½") && !NotSerial.isDate("2022-99999999999999999999999"))
        #expect(
            SerialExtractor.candidates([code("4006381333931", "EAN-13"), code("https://assets.example.com/t/EX-1", "QR-Code")]).isEmpty)
    }

    @Test("a date after a serial keyword is not a serial; a manufacturing date's keyword names something else")
    func dates() {
        #expect(SerialExtractor.candidates([text("SN Mfg: 2022-08", 1)]).isEmpty)
        #expect(SerialExtractor.candidates([text("S/N: 2022-08", 1)]).isEmpty)
        #expect(SerialExtractor.candidates([text("MFG: 2022-08  S/N: 7XK2M93", 1)]).map(\.value) == ["7XK2M93"])
        #expect(SerialExtractor.candidates([text("DOM 2021-05-15", 1), code("2021-05-15")]).isEmpty)
    }

    @Test("a labelled print differing from a barcode only by E for F is shown disagreeing, the barcode first")
    func weakLookAlikeDisagrees() {
        // A planted F/E disagreement (the print says E) and a print OCR read E for F look the
        // same: both are shown, the barcode's exact value first.
        let c = SerialExtractor.candidates([text("MacBook Pro", 1), text("Serial No. G8WNET0Q24WK", 2), code("G8WNFT0Q24WK")])
        #expect(c.map(\.value) == ["G8WNFT0Q24WK", "G8WNET0Q24WK"], "\(c)")
        #expect(c.map(\.disagreesWith) == [["G8WNET0Q24WK"], ["G8WNFT0Q24WK"]])
        // The strong confusions still join: O for 0, S for 5, a print with both.
        let joined = SerialExtractor.candidates([text("Serial No. G8WNFTOQ24WK", 2), code("G8WNFT0Q24WK")])
        #expect(joined.map(\.value) == ["G8WNFT0Q24WK"] && joined.first?.evidence == .agree, "\(joined)")
        // Beside a difference no confusion explains, an E for F is OCR's and mended: the print's
        // other character is the difference (WFKTC6PUX printed, read WEKTC6PUX, barcoded WFKTC6PEX).
        let mended = SerialExtractor.candidates([text("Serial no", 1), text("WEKTC6PUX", 2), code("WFKTC6PEX")])
        #expect(mended.map(\.value).contains("WFKTC6PUX"), "\(mended)")
        #expect(mended.first { $0.value == "WFKTC6PUX" }?.disagreesWith == ["WFKTC6PEX"])
        // An unlabelled print (a barcode's own human-readable line) read E for F still backs it.
        let line = SerialExtractor.candidates([text("G8WNET0Q24WK", 3), code("G8WNFT0Q24WK")])
        #expect(line.map(\.value) == ["G8WNFT0Q24WK"] && line.first?.evidence == .agree, "\(line)")
    }

    @Test("a print disagreeing with its barcode: beside a difference no look-alike explains, the rarer look-alikes are mended")
    func misreadLookAlikesMended() {
        // Printed 73764397 beside a barcode of 03764397, read with 1 for 7: the 7 first is the
        // difference, the 1 OCR's; shown as printed.
        let c = SerialExtractor.candidates([text("Asset nameplate", 1), text("S/N: 73164397", 2), code("03764397")])
        #expect(c.map(\.value).sorted() == ["03764397", "73764397"], "\(c)")
        #expect(c.first { $0.value == "73764397" }?.disagreesWith == ["03764397"])
        // Dell's tag printed YZ4M5QD, read with N for M, beside a barcode of YZ4M8QD.
        let dell = SerialExtractor.candidates([text("DELL PowerEdge R650", 1), text("S/N: YZ4N5QD", 2), code("YZ4M8QD")])
        #expect(dell.first { $0.value == "YZ4M5QD" }?.disagreesWith == ["YZ4M8QD"], "\(dell)")
        // A rarer look-alike that is the only difference is the difference: kept as read.
        let kept = SerialExtractor.candidates([text("S/N: 03164397", 2), code("03764397")])
        #expect(kept.first { $0.value == "03164397" }?.disagreesWith == ["03764397"], "\(kept)")
    }

    @Test("a labelled print disagreeing with a barcode goes first, though the code's own line, agreeing with it, was read before it")
    func labelledBeforeCodeWithItsLine() {
        let candidates = SerialExtractor.candidates([text("MXP60841HL", 1), text("Serial No: MXL60841HL", 2), code("MXP60841HL")])
        #expect(candidates.map(\.value) == ["MXL60841HL", "MXP60841HL"])
        #expect(candidates.map(\.evidence) == [.text, .agree])
        #expect(candidates.map(\.disagreesWith) == [["MXP60841HL"], ["MXL60841HL"]])
    }

    @Test("an S data identifier before a serial the print names with one character different: one field, shown disagreeing")
    func sPrefixDisagreeing() {
        let candidates = SerialExtractor.candidates([text("S/N: JAE7208W0G3", 1), code("SJAW7208W0G3")])
        #expect(candidates.map(\.value) == ["JAE7208W0G3", "JAW7208W0G3"])
        #expect(candidates.map(\.disagreesWith) == [["JAW7208W0G3"], ["JAE7208W0G3"]])
        // A print that is not the same field leaves the barcode as it is, its value without the
        // S only a second reading after it.
        #expect(
            SerialExtractor.candidates([text("S/N: FOC1234ABCD", 1), code("SJAW7208W0G3")]).map(\.value) == [
                "FOC1234ABCD", "SJAW7208W0G3", "JAW7208W0G3",
            ])
    }

    @Test("a code's first S stays where a labelled print names the whole code, a character apart, beside a piece of it without the S")
    func sKeptWhereLabelledPrintHasIt() {
        // A webcam's frame cut the line's first character at the view's edge; another read it whole.
        let candidates = SerialExtractor.candidates([
            text("SAMSUNG SSD 980 PRO", 1), text("Serial No: SMW5SH0B704653N", 2), text("MW5SH0B704653N", 3), code("SMW5SU0B704653N"),
        ])
        #expect(candidates.map(\.value) == ["SMW5SH0B704653N", "SMW5SU0B704653N"])
        #expect(candidates.map(\.disagreesWith) == [["SMW5SU0B704653N"], ["SMW5SH0B704653N"]])
        // A labelled print that is the rest still names the rest, though another reading of it
        // (a character read twice) is a character or two from the whole.
        let dell = SerialExtractor.candidates([text("SVC TAG TODTS4R", 1), text("SVC TAG TOQDTS4R", 2), code("STQDTS4R")])
        #expect(dell.first?.value == "TQDTS4R" && dell.first?.evidence == .agree, "\(dell)")
    }

    @Test("eight digits alone in a barcode are a serial, though one in ten has an EAN-8 check digit by chance")
    func eightDigits() {
        // 5804261 has the EAN-8 check digit 8.
        #expect(SerialExtractor.candidates([code("58042618", "QR-Code")]).map(\.value) == ["58042618"])
        #expect(SerialExtractor.candidates([code("58042618", "EAN-8")]).isEmpty)
    }

    @Test("twelve hex digits in a barcode may be a MAC without separators: listed after a barcode that cannot be")
    func bareMACAfter() {
        let values = SerialExtractor.candidates([code("E1CE2383A307"), code("ZM55LC387938", "CODE-39")]).map(\.value)
        #expect(values == ["ZM55LC387938", "E1CE2383A307"])
        // Also one that happens to open like another maker's serial (D25, an Apple plant's), on a
        // label naming the maker whose format the other barcode fits.
        let supermicro = [text("SUPERMICRO X11DPi-N", 1), code("D25655CFEA53"), code("OM60LD415431")]
        #expect(SerialExtractor.candidates(supermicro).map(\.value) == ["OM60LD415431", "D25655CFEA53"])
        // Twelve digits with no letter are not taken for a MAC.
        #expect(!NotSerial.mayBeBareMAC("123456789012") && NotSerial.mayBeBareMAC("9C3DCFA1220B"))
    }

    @Test("an unlabelled print disagreeing with a barcode is shown as its vendor's format reads it: Cisco's FDO, not FD0")
    func unlabelledInFormat() {
        // The keyword lost to noise; the barcode's own human-readable line agrees with it.
        let readings = [
            text("CISCO C9200L", 1), text("PID: C9200L-24T-4G", 2), text("FD0135912DK", 3), text("FD2135912DK", 4),
            code("FDZ135912DK"),
        ]
        // FDZ is no Cisco factory: the print, in Cisco's format, is listed first.
        let candidates = SerialExtractor.candidates(readings)
        #expect(candidates.map(\.value) == ["FDO135912DK", "FDZ135912DK"])
        #expect(candidates.first?.disagreesWith == ["FDZ135912DK"])
    }

    @Test("a code the label's maker line names as its model (\"TOSHIBA HDWG480\") is no serial, as one a model's keyword names is not")
    func modelAfterMakerName() {
        // The model's caption over its code read as "WODEL", the serial's caption lost.
        let toshiba = [text("TOSHIBA HDWG480", 1), text("DATE: 2022-07", 2), code("HDWG480"), code("70Z01FSMK", "CODE-39")]
        #expect(SerialExtractor.candidates(toshiba).map(\.value) == ["70Z01FSMK"])
        #expect(SerialExtractor.modelWords(Keywords.fields(in: "Kingston DC600M")) == ["DC600M"])
        // A keyword after the maker's name names its own field; a line not opening with a maker names no model.
        #expect(SerialExtractor.modelWords(Keywords.fields(in: "DELL Service Tag: 4HYJXNF")).isEmpty)
        #expect(SerialExtractor.candidates([text("DELL Service Tag: 4HYJXNF", 1)]).map(\.value) == ["4HYJXNF"])
        #expect(SerialExtractor.modelWords(Keywords.fields(in: "HDWG480 TOSHIBA")).isEmpty)
    }

    @Test("with no keyword left, a number of seven digits or more, and letters alone in the named maker's format, are offered")
    func unlabelledNumbersAndLetters() {
        // A nameplate's caption "(Serial no.)" read as "Geral no)".
        let nameplate = [
            text("KVM CONSOLE 8-PORT", 1), text("RATING 100-240V~", 2), text("47633537", 3), text("Geral no)", 4),
            text("MODEL KEE-3483", 5),
        ]
        #expect(SerialExtractor.candidates(nameplate).map(\.value) == ["47633537"])
        // Lenovo's "SN" lost to glare; its serials may be letters alone. The title's "ThinkPad" is not one.
        let lenovo = [text("Lenovo ThinkPad T14", 1), text("MTM: 67Y03324Y3", 2), text("PFSSWYGD", 3), text("Type/Model: 67Y0-3324Y3", 4)]
        #expect(SerialExtractor.candidates(lenovo).map(\.value) == ["PFSSWYGD", "PF55WYGD"])
        // Letters alone, where no maker the print names has them in its format, are a word.
        #expect(SerialExtractor.candidates([text("ACME PRINTER", 1), text("PFSSWYGD", 2)]).isEmpty)
        // Short numbers are not offered: a rating, a year.
        #expect(SerialExtractor.candidates([text("ACME PRINTER", 1), text("RATING 2400", 2), text("123456", 3)]).isEmpty)
    }

    @Test("Apple's products name Apple: a print glare cut short comes after the barcode in Apple's format")
    func appleProducts() {
        let imac = [
            boxed("iMac", 1, 108, 315, 70, 22), boxed("Part No", 2, 108, 371, 85, 33), boxed("RLL/A", 3, 388, 375, 66, 18),
            boxed("EMC: 5386", 4, 108, 419, 347, 29), boxed("SERIAL", 5, 107, 473, 99, 18), boxed("DLEE", 6, 398, 473, 55, 18),
            boxed("FIVIC", 7, 294, 478, 48, 13), code("FVFMCA8EDLEE"),
        ]
        #expect(SerialExtractor.candidates(imac).first?.value == "FVFMCA8EDLEE")
        #expect(Tokens.makersFormats(label: "MacBook Pro 14").allSatisfy { $0.vendor == "Apple" })
        #expect(!Tokens.makersFormats(label: "MacBook Pro 14").isEmpty)
        // A MAC address is no Apple product.
        #expect(Tokens.makersFormats(label: "MAC: E1:CE:23:83:A3:07").isEmpty)
    }

    @Test("a keyword in brackets or with a slash, printed after its value with the space lost, still names the value")
    func keywordGluedAfter() {
        for line in ["WD-WMC4NPHPBGXX(S/N)", "WD-WMC4NPHPBGXXs/n)", "WD-WMC4NPHPBGXX(S/N", "WD-WMC4NPHPBGXXS/N", "WD-WMC4NPHPBGXXs/Nn)"] {
            #expect(Keywords.fields(in: line).map(\.kind) == [.none, .serial], "\(line)")
            #expect(Keywords.fields(in: line).first?.value == "WD-WMC4NPHPBGXX", "\(line)")
            // The print so named disagrees with a barcode a character from it: both are shown.
            let c = SerialExtractor.candidates([text("WD Blue 1TB", 1), text(line, 2), code("WV-WMC4NPHPBGXX")])
            #expect(c.map(\.value).sorted() == ["WD-WMC4NPHPBGXX", "WV-WMC4NPHPBGXX"], "\(line): \(c)")
            #expect(c.allSatisfy { $0.disagreesWith.count == 1 }, "\(line): \(c)")
        }
        // The longest keyword wins; a part number's keyword names no serial.
        #expect(Keywords.fields(in: "ABCD1234DP/N").map(\.kind) == [.none, .other])
        // A keyword glued before its value, a slash inside a value, a keyword alone: as they were.
        #expect(Keywords.fields(in: "Serial(S/N): ABC12345").map(\.kind) == [.serial])
        #expect(Keywords.fields(in: "Type/Model: 20U9-948XUS").map(\.kind) == [.other])
        #expect(Keywords.fields(in: "100-240V/50Hz").map(\.kind) == [.none])
        #expect(Keywords.fields(in: "(S/N)").map(\.kind) == [.serial])
    }

    @Test("a keyword of capitals with an I read as a lower-case l is the keyword; a value so read is not")
    func lowerCaseLForI() {
        #expect(Keywords.fields(in: "CLEl: D71VZ79059").map(\.kind) == [.other])
        #expect(Keywords.fields(in: "PlD: C9200L-24T").map(\.kind) == [.other])
        #expect(Keywords.fields(in: "SlN: FOC1234X5YZ").map(\.kind) == [.serial])
        // The value a garbled CLEI names is no serial; the serial's line, captioned, is.
        let label = [text("CISCO ISR4331/K9", 1), text("CLEl: D71VZ79059", 2), text("S/N: JAE8510F9RP", 3)]
        #expect(!SerialExtractor.candidates(label).map(\.value).contains("D71VZ79059"))
        #expect(SerialExtractor.candidates([text("CLEl: D71VZ79059", 1)]).isEmpty)
        // Only where the l's make a keyword, and only among capitals.
        #expect(Keywords.fields(in: "FlD 7XK2M93").map(\.kind) == [.none])
        #expect(Keywords.fields(in: "Pld: 12345678").map(\.kind) == [.none])
    }

    @Test("'Serial' with one letter lost or misread is still the keyword; a word two letters from it is not")
    func garbledSerial() {
        #expect(Keywords.fields(in: "FDO33961V6L Seral#").map(\.kind) == [.none, .serial])
        // The print the keyword names leads a barcode alone; unnamed, it would not be offered.
        #expect(SerialExtractor.candidates([text("Serlal: ZL5RNFV8", 1), code("ZZ12345678")]).map(\.value) == ["ZL5RNFV8", "ZZ12345678"])
        for word in ["SERAL", "SERIA", "ERIAL", "SERIAI", "SEBIAL"] { #expect(Keywords.garbled(word, as: "SERIAL"), "\(word)") }
        for word in ["SERIAL", "SERIES", "SPECIAL", "SOCIAL", "SERIAL1", "SER", "SERIALS"] {
            #expect(!Keywords.garbled(word, as: "SERIAL"), "\(word)")
        }
        #expect(Keywords.fields(in: "SERIES 7000 X4").map(\.kind) == [.none])
        // So is "Number", which a smeared m garbles: "NUNBER" is no serial.
        for word in ["NUNBER", "NUMBFR", "NUMBR"] { #expect(Keywords.garbled(word, as: "NUMBER"), "\(word)") }
        let smeared = [text("SERIAL NUNBER", 4), text("SERIAL NUMBER BTHV656849S1PPGN", 6), text("PBA: J85350-309", 10)]
        let listed = SerialExtractor.candidates(smeared).map(\.value)
        #expect(listed.first == "BTHV656849S1PPGN" && !listed.contains("NUNBER"), "\(listed)")
        // So is "Express" of the Express Service Code, whose code proves a misread service tag.
        for word in ["EXORESS", "EXPRES", "XPRESS", "EKPRESS"] { #expect(Keywords.garbled(word, as: "EXPRESS"), "\(word)") }
        for word in ["EXPRESS", "EXPRESSES", "PRESS", "EXPOSES"] { #expect(!Keywords.garbled(word, as: "EXPRESS"), "\(word)") }
        let dell = SerialExtractor.candidates([
            text("DELL PowerEdge R658", 1), text("TMKS406", 2), text("(Svc Tag)", 3), text("Exoress Service Code: 64491847926", 4),
            code("TMSS4C6"),
        ])
        // The print, a character from the code's tag, is that tag, and disagrees with the barcode.
        #expect(dell.first?.value == "TMKS4C6", "\(dell.map(\.value))")
        #expect(dell.first?.disagreesWith == ["TMSS4C6"])
    }

    @Test("a word in lower case with no digit is no value: OCR's reading of a dark band holding \"SN\"")
    func lowerCaseWord() {
        let juniper = [text("[aang SN wa ade Bae Dance an", 1), text("Juniper EX2300-24T", 2), code("TB9161263200", "CODE-39")]
        #expect(SerialExtractor.candidates(juniper).map(\.value) == ["TB9161263200"])
        #expect(Tokens.serialToken("wa ade Bae Dance an") == nil)
        // Capitals, or digits among lower case letters (OCR lower-cases a letter now and then): a value.
        #expect(Tokens.serialToken("PFCLPMRD") == "PFCLPMRD")
        #expect(Tokens.serialToken("PFcLPMRD") == "PFCLPMRD")
        #expect(Tokens.serialToken("5cg1234xyz") == "5CG1234XYZ")
        #expect(Tokens.serialToken("Dance FDO33961V6L") == "FDO33961V6L")
    }

    @Test("a barcode backed only by its own printed line, in no format of the maker the label names, comes after one in it")
    func agreeingOutOfMakersFormat() {
        // A Cisco PID barcoded with its human-readable line, its keyword lost; the serial's barcode alone.
        let cisco = [text("CISCO C9200L", 1), text("SERIAL", 2), text("C9200L-24T-4G", 8), code("C9200L-24T-4G"), code("JAE45751SFE")]
        #expect(SerialExtractor.candidates(cisco).map(\.value) == ["JAE45751SFE", "C9200L-24T-4G"])
        // A MAC barcoded bare beside a Supermicro board's serial.
        let board = [
            text("SUPERMICRO SYS-1029P-WTR", 1), text("MAC:", 3), text("FBBSS00AD2EA", 6), code("FBB5800AD2EA"), code("OM32MA130669"),
        ]
        #expect(SerialExtractor.candidates(board).first?.value == "OM32MA130669")
        // Where no barcode is in the maker's format, agreement still leads.
        let alone = [text("CISCO C9200L", 1), text("C9200L-24T-4G", 8), code("C9200L-24T-4G"), code("XYZ123456")]
        #expect(SerialExtractor.candidates(alone).first?.value == "C9200L-24T-4G")
    }

    @Test("a label that names its maker is not corrected into another maker's format")
    func otherMakersFormat() {
        // Twelve characters, the second an M: a Supermicro board's format would make the 6 and 1
        // letters ("YM56GI591170"). The label is a Juniper switch's.
        let juniper = [text("Juniper EX2300-24T", 1), text("S/N. YM5661591170", 2)]
        #expect(SerialExtractor.candidates(juniper).map(\.value) == ["YM5661591170"])
        #expect(SerialExtractor.candidates([text("S/N. YM5661591170", 1)]).map(\.value) == ["YM56GI591170"])
        // A Supermicro board's "VM..." is its own format's, not Apple's (Apple's plant VM never
        // has an O, so would make it a 0).
        let board = [text("SUPERMICRO X11DPi-N", 1), text("Serial VMSOSF136068", 2)]
        #expect(SerialExtractor.candidates(board).first?.value == "VM50SF136068")
        #expect(Tokens.formats(label: "Juniper EX2300").isEmpty)
        #expect(Tokens.formats(label: "SUPERMICRO X11DPi-N").first?.vendor == "Supermicro")
        // A maker of parts inside names no machine: every format still applies, as where the
        // label names no maker.
        #expect(Tokens.formats(label: "Intel Core i7").count == Tokens.formats(label: "").count)
        #expect(Tokens.formats(label: "").count > 5)
        // A label naming a maker with formats still tries the others' after its own: the shape
        // of the value decides ("Apple Inc." above an HP serial).
        let apple = [text("Apple Inc.", 1), text("SIN: 8CG14ZLDE1", 2)]
        #expect(SerialExtractor.candidates(apple).first?.value == "8CG142LDE1")
    }

    @Test("a labelled print in no format of the maker the label names comes after a barcode in that format; one in it, before")
    func printOutOfMakersFormat() {
        // OCR split the tilted tag "PG0MNFB" into "Fou" and "MINFB": five characters, no Dell tag.
        let split = [text("DELL OptiPlex 7090", 1), text("SERIAL: Fou MINFB", 2), code("PG0MNFB", "QR-Code")]
        #expect(SerialExtractor.candidates(split).first?.value == "PG0MNFB")
        // A tag of seven is a Dell tag: the print the keyword names leads.
        let whole = [text("DELL OptiPlex 7090", 1), text("SERIAL: 9J923TB", 2), code("PG0MNFB", "QR-Code")]
        #expect(SerialExtractor.candidates(whole).first?.value == "9J923TB")
        // Where the label names no maker, the print the keyword names leads.
        let unnamed = [text("OptiPlex 7090", 1), text("SERIAL: Fou MINFB", 2), code("PG0MNFB", "QR-Code")]
        #expect(SerialExtractor.candidates(unnamed).first?.value == "MINFB")
    }

    @Test("a loose maker's format makes letters of a number printed in digits alone only on a label naming that maker")
    func looseFormatOnlyForItsMaker() {
        // Lenovo's "AAxxxxxx" would make a nameplate's eight digits start with letters.
        #expect(SerialExtractor.candidates([text("KVM CONSOLE 8-PORT", 1), text("SER. NO. 15990565", 2)]).map(\.value) == ["15990565"])
        #expect(SerialExtractor.candidates([text("Lenovo ThinkPad T14", 1), text("S/N: 15990565", 2)]).first?.value == "IS990565")
        // A value with letters in it is mended as before (Apple's eleven: a digit third).
        #expect(
            SerialExtractor.candidates([text("Property of Example Ltd", 1), text("S/N: X7B9R95KUCV", 2)]).first?.value == "X789R95KUCV")
    }

    @Test("structured barcodes: GS1 AI 21, Lenovo's 1S, a serial parameter, a labelled QR")
    func structured() {
        #expect(Barcodes.serialValues("010950600013435221ABC123XYZ", symbology: "CODE-128") == ["ABC123XYZ"])
        #expect(Barcodes.serialValues("0109506000134352\u{1D}10LOT7\u{1D}21SER42", symbology: "CODE-128") == ["SER42"])
        #expect(Barcodes.serialValues("1S20XW004GUSPF2ABCDE", symbology: "CODE-128") == ["PF2ABCDE"])
        #expect(Barcodes.serialValues("1P20XW004GUS", symbology: "CODE-128").isEmpty)
        #expect(Barcodes.serialValues("https://x.example/check?sn=R58R12ABCDE&lang=en", symbology: "QR-Code") == ["R58R12ABCDE"])
        #expect(Barcodes.serialValues("SN:FOC2245X0AB;PN:73-1234", symbology: "QR-Code") == ["FOC2245X0AB"])
    }

    @Test("a GS1 Digital Link and a JSON object in a QR code give their serial; their other values are not serials")
    func linkAndJSON() {
        #expect(Barcodes.serialValues("https://id.gs1.org/01/09506000134352/21/SN4711", symbology: "QR-Code") == ["SN4711"])
        #expect(
            Barcodes.serialValues("https://d.example.com/01/09506000134352/10/LOT7/21/AB%2F12?linkType=all", symbology: "QR-Code") == [
                "AB/12"
            ])
        // Without a GTIN whose check digit holds, it is no Digital Link.
        #expect(Barcodes.serialValues("https://d.example.com/01/09506000134353/21/SN4711", symbology: "QR-Code").isEmpty)
        #expect(Barcodes.serialValues("https://d.example.com/01/09506000134352/21/%ZZ", symbology: "QR-Code").isEmpty)
        #expect(
            Barcodes.serialValues(#"{"model": "X1", "serialNumber": "ABC12345", "pn": "0WV1JQ"}"#, symbology: "QR-Code") == ["ABC12345"])
        #expect(Barcodes.serialValues(#"{"sn":"PF2\"X12"}"#, symbology: "QR-Code").isEmpty)  // an escaped quote: no serial shape
        #expect(Barcodes.serialValues(#"{"sn": "ABC12345"#, symbology: "QR-Code").isEmpty)  // cut short
        #expect(Barcodes.serialValues(#"{"part": "ABC12345"}"#, symbology: "QR-Code").isEmpty)
    }

    @Test("GS1 identifiers printed in brackets and run together are split: (21) names the serial")
    func printedAIs() {
        #expect(SerialExtractor.candidates([text("(01)09506000134352(21)SN4711", 1)]).map(\.value) == ["SN4711"])
        #expect(SerialExtractor.candidates([text("(21)SN4711", 1)]).map(\.value) == ["SN4711"])
        #expect(Keywords.spacedAIs("(01)09506000134352(21)SN4711") == "(01) 09506000134352 (21) SN4711")
        #expect(Keywords.spacedAIs("Model (X1) S/N(A)") == "Model (X1) S/N(A)")
        #expect(SerialExtractor.candidates([text("Ser.No.: 7XK2M93AB", 1)]).map(\.value) == ["7XK2M93AB"])
    }

    @Test("OCR confusions are undone only where a vendor format fixes the class")
    func grammars() {
        #expect(Tokens.correctByGrammar("F0C2Z45X0AB") == "FOC2245X0AB")  // Cisco: factory letters, year and week digits
        #expect(Tokens.correctByGrammar("5CGI234XYZ") == "5CG1234XYZ")  // HP: year and week digits
        #expect(Tokens.correctByGrammar("BD830206634") == "BD830206634")  // not a Cisco factory: left alone
        #expect(Tokens.matchESC("7XKZM93", "17266574631") == "7XK2M93")  // the Express Service Code proves the tag
    }

    @Test("a format does not undo a confusion into a difference from a barcode the print as read agrees with")
    func grammarBesideBarcode() {
        // Read off a motion-blurred HP label: OCR made S of the printed 5 and of the 9. HP's
        // format fixes the fourth place as a digit, but S is 9 misread as much as 5.
        #expect(Tokens.correctByGrammar("SCGS176ZE7", barcodes: ["5CG9176ZE7"]) == "SCGS176ZE7")
        #expect(Tokens.correctByGrammar("SCGS176ZE7", barcodes: ["5CG5176ZE7"]) == "SCG5176ZE7")
        #expect(Tokens.correctByGrammar("SCGS176ZE7") == "SCG5176ZE7")
        let hp = SerialExtractor.candidates([
            text("HP LaserJet Pro M464", 1), text("S/N#: SCGS176ZE7", 2), code("5CG9176ZE7", "DATAMATRIX"),
        ])
        #expect(hp.map(\.value) == ["5CG9176ZE7"])
        #expect(hp.first?.evidence == .agree && hp.first?.disagreesWith == [])
        // A difference no confusion explains is still one: the format's digit is shown.
        let planted = SerialExtractor.candidates([text("HP LaserJet Pro M464", 1), text("S/N#: SCGS176ZE7", 2), code("5CG4176ZE7")])
        #expect(planted.map(\.value).first == "5CG5176ZE7")
        #expect(planted.first?.disagreesWith == ["5CG4176ZE7"])
    }

    @Test("no character is taken out as read twice where a barcode is the same field as the print: the print disagrees with it")
    func noStrayBesideSameField() {
        // Twelve characters of a label that names no maker, beside a barcode a character apart:
        // taking out one of the two 7s would make a Cisco serial of it.
        #expect(Tokens.correctByGrammar("5A1321770780", barcodes: ["5R1321770780"]) == "5A1321770780")
        let c = SerialExtractor.candidates([text("SERIAL NO: 5A1321770780", 1), code("5R1321770780")])
        #expect(c.map(\.value).sorted() == ["5A1321770780", "5R1321770780"])
        #expect(c.first { $0.value == "5A1321770780" }?.disagreesWith == ["5R1321770780"])
        // With no barcode, a character read twice is still taken out where that makes a format fit.
        #expect(Tokens.correctByGrammar("5A1321770780") == "SAL32170780")
        #expect(Tokens.correctByGrammar("5A1321770780", barcodes: ["5A1321770780"]) == "5A1321770780")
    }

    @Test(
        "a character read twice beside itself is taken out, in no format of the maker, where the code one character shorter is then the same field: the print disagrees with it"
    )
    func readTwiceBesideCodeOneShorter() {
        // A Seagate label's print, its first W read twice, in none of Seagate's formats; its
        // barcode a character shorter, a character apart from the print read once.
        let seagate = Tokens.formats(label: "Seagate BarraCuda 2TB")
        #expect(Tokens.correctByGrammar("WWFK3GN5C4", formats: seagate, barcodes: ["WAK3GN5C4"]) == "WFK3GN5C4")
        let c = SerialExtractor.candidates([text("Seagate BarraCuda 2TB", 1), text("S/N: WWFK3GN5C4", 2), code("WAK3GN5C4")])
        #expect(c.first { $0.value == "WFK3GN5C4" }?.disagreesWith == ["WAK3GN5C4"], "\(c)")
        #expect(!c.contains { $0.value == "WWFK3GN5C4" })
        // Taking out a character not beside itself, or leaving more than the code's field, is not.
        #expect(Tokens.correctByGrammar("WXFK3GN5C4", formats: seagate, barcodes: ["WAK3GN5C4"]) == "WXFK3GN5C4")
        #expect(Tokens.correctByGrammar("WWFK3GN5C4", formats: seagate, barcodes: ["QAK3GX5C9"]) == "WWFK3GN5C4")
    }

    @Test("a tag one reading of its Express Service Code proves is kept, where another reading of the code was misread")
    func expressServiceCodeReadTwice() {
        // Read off a low-resolution Dell label: the code's line read twice, its last digit once
        // as 6 (the code of JC8GGYQ), once as 8 (JC8GGYS's); the barcode disagrees with the tag.
        let c = SerialExtractor.candidates([
            text("DELL PowerEdge R650", 1), text("Express Service Code: 42098663906 SIN#: JC8GGYS", 2),
            text("Express Service Code: 42098663908 SIN#: JC8GGYS", 3), code("JW8GGYS"),
        ])
        #expect(Tokens.base36("JC8GGYS") == "42098663908")
        #expect(c.first?.value == "JC8GGYS", "\(c)")
        #expect(c.first?.disagreesWith == ["JW8GGYS"])
        #expect(c.first { $0.value == "JW8GGYS" }?.disagreesWith == ["JC8GGYS"])
    }

    @Test("an Express Service Code proves its tag where the printed tag is a character or two off, whatever the misreading")
    func expressServiceCode() {
        #expect(Tokens.tag(ofESC: "45986262666") == "L4J17D6")
        #expect(Tokens.tag(ofESC: "35") == "000000Z")
        #expect(Tokens.tag(ofESC: "999999999999") == nil && Tokens.tag(ofESC: "12a") == nil && Tokens.tag(ofESC: "") == nil)
        #expect(Tokens.matchESC("L4317D6", "45986262666") == "L4J17D6")
        #expect(Tokens.matchESC("X4317Q6", "45986262666") == nil)  // three apart: another tag
        // A character read twice or lost is as far as a misread one: the code still proves the tag.
        #expect(Tokens.matchESC("L4J17D06", "45986262666") == "L4J17D6")
        #expect(Tokens.matchESC("L4J1D6", "45986262666") == "L4J17D6")
        #expect(Tokens.matchESC("XL4317Q6", "45986262666") == nil)
        let readings = [text("Service Tag: L4317D6", 1), text("Express Service Code: 45986262666", 2)]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["L4J17D6"])
        // Beside a barcode that disagrees, the code settles which is the tag: the print, first.
        let disagreeing = SerialExtractor.candidates([
            text("SVC TAG: FYIQGSW", 1), text("Express Service Code: 34723936400", 2), code("FY3QGSW"),
        ])
        #expect(disagreeing.map(\.value) == ["FY9QGSW", "FY3QGSW"])
        #expect(disagreeing.allSatisfy { $0.disagreesWith.count == 1 })
        // OCR read the caption twice, once without its number: the code on the second line
        // still proves the print (CE29Y2F for CP29Y2F), which disagrees with the barcode.
        let twice = SerialExtractor.candidates([
            text("S/N. CE29Y2F", 1), text("Express Service Code:", 2), text("Express Service Code: 27636865719", 3), code("CP29Y6F"),
        ])
        #expect(twice.map(\.value) == ["CP29Y2F", "CP29Y6F"])
        #expect(twice.first?.disagreesWith == ["CP29Y6F"])
    }

    @Test("a barcode the Express Service Code proves is first, above an S-prefixed value the print seems to back")
    func escProvesBarcode() {
        // Read off a Dell label (its maker's name lost): the tag's barcode carries an S
        // identifier, the print lost it and misread two characters ("AHY IXNF"); the code is
        // 4HYJXNF in base 36.
        let found = SerialExtractor.candidates([
            text("Serial no. AHY IXNF", 2), text("Express Service Code: 9793091355", 3), code("S4HYJXNF"),
        ])
        #expect(found.first?.value == "4HYJXNF")
        #expect(found.map(\.value).contains("S4HYJXNF"))
        // A code that proves neither leaves the order as it was.
        let unproven = SerialExtractor.candidates([
            text("Serial no. AHY IXNF", 2), text("Express Service Code: 9793091356", 3), code("S4HYJXNF"),
        ])
        #expect(unproven.first?.value == "S4HYJXNF")
        // A print the code proves is first too where it only disagrees with the barcode as a
        // hint (no keyword paired with it): VNGHWX1 is 68898684133 in base 36.
        let hint = SerialExtractor.candidates([
            text("DELL Latitude 5420", 1), text("Express Service Code: 68898684133", 2), text("VNGHWX1", 3), code("VNGHWW1"),
        ])
        #expect(hint.map(\.value) == ["VNGHWX1", "VNGHWW1"])
        #expect(hint.allSatisfy { $0.disagreesWith.count == 1 })
    }

    @Test("a print and a barcode that disagree: the one in the named maker's format first where the other is not")
    func disagreementInMakersFormat() {
        // APC's factory code 5A read as 3A: no APC serial starts so.
        let apc = SerialExtractor.candidates([text("APC Back-UPS Pro 900", 1), text("SERIAL 3A6516175123", 2), code("5A6516175123")])
        #expect(apc.map(\.value) == ["5A6516175123", "3A6516175123"])
        #expect(apc.allSatisfy { $0.disagreesWith.count == 1 })
        // Both in the format: the labelled print first, as always.
        let both = SerialExtractor.candidates([text("APC Back-UPS Pro 900", 1), text("SERIAL 5A6516175723", 2), code("5A6516175123")])
        #expect(both.map(\.value) == ["5A6516175723", "5A6516175123"])
        // An unlabelled print (its keyword read as "SERI,") in Samsung's format beside a barcode
        // that is not: the print first. Out of it, after the barcode, as a barcode's own line.
        let samsung = SerialExtractor.candidates([
            text("SAMSUNG 870", 1), text("SERI,", 2), text("SRP7AV0U910303G", 3), code("FRP7AV0U910303G"),
        ])
        #expect(samsung.map(\.value) == ["SRP7AV0U910303G", "FRP7AV0U910303G"])
        #expect(samsung.allSatisfy { $0.disagreesWith.count == 1 })
        let line = SerialExtractor.candidates([
            text("SAMSUNG 870", 1), text("SERI,", 2), text("FRP7AV0U910303G", 3), code("SRP7AV0U910303G"),
        ])
        #expect(line.map(\.value) == ["SRP7AV0U910303G", "FRP7AV0U910303G"])
    }

    @Test("an S data identifier before a barcode's value: the rest first where it is in the named maker's format and the whole is not")
    func sIdentifierBeforeFormat() {
        // Only the maker's name read (a label photographed at an angle): a Lenovo serial with its S.
        #expect(
            SerialExtractor.candidates([text("Lenovo ThinkPad T14", 1), code("SPFD3SDNM")]).map(\.value) == ["PFD3SDNM", "SPFD3SDNM"])
        // No maker named: Lenovo's loose format alone does not move it.
        #expect(SerialExtractor.candidates([code("SPFD3SDNM")]).first?.value == "SPFD3SDNM")
        // On a label naming its maker, that maker's format (a Dell tag is seven of anything).
        #expect(
            SerialExtractor.candidates([text("DELL OptiPlex 7010", 1), code("S4HYJXNF")]).map(\.value) == ["4HYJXNF", "S4HYJXNF"])
        // A Samsung serial starts with S and is in Samsung's format whole: it keeps it.
        #expect(SerialExtractor.candidates([code("S4EVNM0R123456K")]).first?.value == "S4EVNM0R123456K")
        // Without a format for the rest, the value as barcoded first.
        #expect(SerialExtractor.candidates([code("SXQ12345")]).first?.value == "SXQ12345")
    }

    @Test(
        "a print whose maker's mark a thumb or the view's edge cut short is offered first with the mark put back, on the maker's label only"
    )
    func markPutBack() {
        let wd = Grammar.known.first { $0.vendor == "WD" }!
        #expect(wd.markPutBack("-WMC4NCRZ6072")?.value == "WD-WMC4NCRZ6072")
        #expect(wd.markPutBack("-WMC4NCRZ6072")?.mark == "WD")
        #expect(wd.markPutBack("D-WMC4NCRZ6072")?.value == "WD-WMC4NCRZ6072")
        // The last two of the mark's characters at least: a value of another field is no
        // serial with its mark lost.
        #expect(wd.markPutBack("WMC4NCRZ6072") == nil)
        #expect(wd.markPutBack("-WMC4NCRZ607") == nil, "too short for the format")
        #expect(Grammar.known.first { $0.vendor == "Samsung" }!.markPutBack("3NHP0V876327B") == nil, "one fixed character is no mark")
        let cut = SerialExtractor.candidates([text("WD Blue 1TB", 1), text("S/N: -WMC4NCRZ6072", 2)])
        #expect(cut.map(\.value) == ["WD-WMC4NCRZ6072", "-WMC4NCRZ6072"], "\(cut)")
        #expect(cut.first?.whereRead == ["printed line 2 (WD put back, as the maker's format starts)"])
        // A label that does not name the maker: nothing put back.
        let unnamed = SerialExtractor.candidates([text("S/N: -WMC4NCRZ6072", 1)])
        #expect(!unnamed.map(\.value).contains("WD-WMC4NCRZ6072"), "\(unnamed)")
    }

    @Test("a labelled print cut short that a print read whole holds is that print's piece, not the barcode's the whole disagrees with")
    func pieceOfDisagreeingPrint() {
        let barcode = code("ZM17DL749583")
        let whole = text("ZM17DL749589", 2)
        let cut = SerialExtractor.candidates([barcode, text("S/N: ZM17DL749", 1), whole])
        #expect(cut.first?.value == "ZM17DL749589", "\(cut)")
        #expect(cut.first?.disagreesWith == ["ZM17DL749583"] && cut.first?.evidence == .text, "\(cut)")
        #expect(cut.first { $0.value == "ZM17DL749583" }?.evidence == .barcode, "\(cut)")
        // With no print read whole, the piece agrees with the barcode, as before.
        let alone = SerialExtractor.candidates([barcode, text("S/N: ZM17DL749", 1)])
        #expect(alone.map(\.value) == ["ZM17DL749583"] && alone.first?.evidence == .agree, "\(alone)")
    }

    @Test("a value printed in a ruled box: the box's rule, read into the value as a bar, is not part of it")
    func ruleReadIntoValue() {
        let samsung = SerialExtractor.candidates([
            text("SAMSUNG PM9A3", 1), text("MODEL: MZ-V8P1TOB", 2), text("Serial-No. |SK2RVKOD333706V", 3), text("FW: EF4VFA8M", 4),
        ])
        #expect(samsung.map(\.value) == ["SK2RVK0D333706V"])
        // Its S data identifier off a barcode of the same value: the two agree.
        let juniper = SerialExtractor.candidates([
            code("SKY8463669423"), text("Juniper EX2300-24T", 1), text("SN: |KY8463669423|", 2), text("MAC: D41CAFDFBF21", 3),
        ])
        #expect(juniper.map(\.value) == ["KY8463669423"])
        #expect(juniper.first?.evidence == .agree)
    }

    @Test("where no candidate is the tag an Express Service Code is, that tag is offered, read from the code's line")
    func tagFromESC() {
        // OCR lost the tag itself.
        let lost = SerialExtractor.candidates([
            text("DELL PowerEdge R650", 1), text("Express Service Code: 42571924156", 2), text("SERIAL NBR", 3),
        ])
        #expect(lost.map(\.value) == ["JK282WS"])
        #expect(lost.first?.whereRead == ["printed line 2 (the Express Service Code)"])
        #expect(lost.first?.evidence == .text)
        // A tag read past mending: the print as read first, the code's tag after it.
        let far = SerialExtractor.candidates([text("Service Tag: XQ3HH7C", 1), text("Express Service Code: 45986262666", 2)])
        #expect(far.map(\.value) == ["XQ3HH7C", "L4J17D6"])
        // So on a Dell label: the print is seven characters, a Dell tag's length.
        let named = SerialExtractor.candidates([
            text("DELL Latitude 5420", 1), text("Service Tag: XQ3HH7C", 2), text("Express Service Code: 45986262666", 3),
        ])
        #expect(named.map(\.value) == ["XQ3HH7C", "L4J17D6"])
        // A tag read short off blurred print is no Dell tag: the code's tag first.
        let short = SerialExtractor.candidates([
            text("DELL Latitude $420", 1), text("SVC TAG: SBRAC", 2), text("Express Service Code: 7241032164", 3),
        ])
        #expect(short.map(\.value) == ["3BR4G6C", "SBRAC"])
        // The tag's own print lost, its barcode a character from the code's tag: the two
        // disagree, the code's tag first (59745259271 is RG2S93B in base 36).
        let coded = SerialExtractor.candidates([
            text("DELL POWEREDGE R650", 1), text("Express Service Code: 59745259271", 2), text("SVC TAG:", 3), code("RG9S93B"),
        ])
        #expect(coded.map(\.value) == ["RG2S93B", "RG9S93B"], "\(coded)")
        #expect(coded.first?.disagreesWith == ["RG9S93B"] && coded.last?.disagreesWith == ["RG2S93B"], "\(coded)")
        // A barcode of another field is no disagreement.
        let other = SerialExtractor.candidates([
            text("DELL POWEREDGE R650", 1), text("Express Service Code: 59745259271", 2), code("CN0KQMAN39566VMSH2YD"),
        ])
        #expect(other.allSatisfy { $0.disagreesWith.isEmpty }, "\(other)")
    }

    func luhnValid(_ s: String) -> Bool {
        let d = s.compactMap(\.wholeNumberValue)
        return d.reversed().enumerated().reduce(0) { t, x in
            let v = x.offset % 2 == 1 ? x.element * 2 : x.element
            return t + (v > 9 ? v - 9 : v)
        } % 10 == 0
    }
}
