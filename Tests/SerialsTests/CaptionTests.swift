import Model
import Testing

@testable import Serials

/// A barcode with its box: x, y, width, height.
func bars(_ value: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> SerialReading {
    SerialReading(value: value, symbology: "CODE-128", place: "CODE-128 barcode", box: Box(x: x, y: y, width: width, height: height))
}

@Suite("Captions over barcodes, specks beside values, fields of their own")
struct CaptionTests {
    @Test("a barcode captioned with another field's keyword holds that field, not the serial")
    func barcodeCaptionedAsOther() {
        // Read off a Kingston label in perspective: "FW" over the firmware's barcode, "Serial-No."
        // over the serial's, nothing else printed.
        let kingston = SerialExtractor.candidates([
            bars("50026B7DF9032E11", 127, 447, 754, 139), bars("SBFK94F1", 142, 221, 459, 145),
            boxed("Kingston KC3000", 1, 153, 109, 219, 31), boxed("Made in Taiwan", 2, 149, 159, 161, 21),
            boxed("FW", 3, 146, 201, 30, 16), boxed("Serial-No.", 4, 131, 416, 84, 18),
        ])
        #expect(kingston.map(\.value) == ["50026B7DF9032E11"], "\(kingston)")
        // Beside the bars on their row, the same.
        let beside = SerialExtractor.candidates([
            bars("SBFK94F1", 200, 100, 400, 120), boxed("P/N", 1, 120, 150, 40, 20), bars("50026B7DF9032E11", 200, 300, 600, 120),
        ])
        #expect(beside.map(\.value) == ["50026B7DF9032E11"], "\(beside)")
        // A keyword over the middle of the bars, its value lost, heads a row of the table over
        // them (a tilted WD label's "MDL:"): the barcode is still the serial's.
        let wd = SerialExtractor.candidates([
            bars("WD-WX12DJQLUKAY", 191, 152, 798, 315), boxed("WD Gold 12TB", 1, 557, 40, 190, 59),
            boxed("R/N: FLO2DP", 2, 574, 97, 139, 45), boxed("MDL:", 3, 494, 122, 58, 30),
        ])
        #expect(wd.map(\.value) == ["WD-WX12DJQLUKAY"], "\(wd)")
        // A keyword read alone where the page read again has it with its value ("MODEL:" over
        // "MODEL: MZ-V8P1T0OB" on a tilted Samsung label) captions nothing: the barcode under it is
        // the serial's, shown disagreeing with the print (a planted M for the S).
        let samsung = SerialExtractor.candidates([
            bars("MB4DSX0M483541Z", 167, 411, 752, 37), boxed("SAMSUNG PM9A3", 1, 125, 155, 243, 60),
            boxed("SERIAL", 2, 139, 278, 51, 19), boxed("SB4DSX0M483541Z", 3, 143, 276, 240, 57), boxed("MODEL:", 4, 150, 337, 92, 32),
            boxed("MODEL: MZ-V8P1T0OB", 5, 150, 314, 237, 55),
        ])
        #expect(samsung.first { $0.value == "MB4DSX0M483541Z" }?.disagreesWith == ["SB4DSX0M483541Z"], "\(samsung)")
        // A caption set under a barcode, nearer to it than to the one under it, is no caption of
        // the one under it.
        let under = SerialExtractor.candidates([
            bars("SBFK94F1", 100, 100, 400, 120), boxed("P/N", 1, 100, 225, 40, 20), bars("50026B7DF9032E11", 100, 280, 600, 120),
        ])
        #expect(under.map(\.value).contains("50026B7DF9032E11"), "\(under)")
    }

    @Test("a barcode captioned with a serial's keyword is named by it, before a code only its own print backs")
    func barcodeCaptionedAsSerial() {
        // Read off a noisy Juniper label: the MAC's caption lost, its code backed by its own
        // human-readable line; "SERIAL" over the serial's code.
        let juniper = SerialExtractor.candidates([
            bars("MN7913417623", 383, 434, 473, 157), bars("D4B695816650", 383, 233, 517, 111),
            boxed("Juniper EX2300-24T", 1, 375, 97, 200, 21), boxed("Part No: 650-016601", 2, 376, 145, 177, 14),
            boxed("D4B6958 16650", 3, 559, 369, 166, 20), boxed("SERIAL", 4, 376, 408, 57, 12),
        ])
        #expect(juniper.map(\.value) == ["MN7913417623", "D4B695816650"], "\(juniper)")
        #expect(juniper.first?.evidence == .barcode)
        // Uncaptioned, the code its own print backs comes first.
        let bare = SerialExtractor.candidates([
            bars("MN7913417623", 383, 434, 473, 157), bars("D4B695816650", 383, 233, 517, 111),
            boxed("Juniper EX2300-24T", 1, 375, 97, 200, 21), boxed("D4B6958 16650", 3, 559, 369, 166, 20),
        ])
        #expect(bare.first?.value == "D4B695816650", "\(bare)")
    }

    @Test("a speck beside a value three times its height is not the start of the value")
    func speckBesideValue() {
        // Read off a noisy Kingston label: the caption "Serial No" read as "Ss", 9 pixels wide,
        // two pixels before its value printed larger under it.
        let c = SerialExtractor.candidates([
            boxed("Kingston A400 SSD", 1, 160, 87, 294, 33), boxed("P/N: SEDC600M/960G", 2, 159, 146, 286, 22),
            boxed("Ss", 3, 160, 197, 9, 15), boxed("50026B73091782EB", 4, 171, 202, 282, 49), boxed("Made in Taiwan", 5, 159, 274, 196, 21),
        ])
        #expect(c.map(\.value) == ["50026B73091782EB"], "\(c)")
        // Two boxes of one height two pixels apart are still one word split.
        let split = Layout.mended([boxed("50026B7", 1, 171, 202, 120, 49), boxed("3091782EB", 2, 293, 202, 160, 47)])
        #expect(split.map(\.value) == ["50026B73091782EB"])
    }

    @Test("a line naming its own field with a word the keywords do not know is no other keyword's value")
    func lineNamingItsField() {
        // Read off a noisy Intel label, the value over its caption "Serial", and "PBA: J78511-301"
        // the next line under the caption.
        let c = SerialExtractor.candidates([
            boxed("Intel SSD D3-S4510", 1, 288, 113, 204, 20), boxed("WWN: 55CD2E41C78069C1", 2, 286, 159, 228, 17),
            boxed("BTYF0254585HLPGN", 3, 287, 188, 209, 19), boxed("Serial", 4, 287, 221, 28, 11),
            boxed("PBA: J78511-301", 5, 287, 247, 137, 17),
        ])
        #expect(c.first?.value == "BTYF0254585HLPGN", "\(c)")
        #expect(!c.map(\.value).contains("J78511-301"), "\(c)")
        #expect(Layout.namesItsField("PBA: J78511-301") && Layout.namesItsField("Input: 100-240V"))
        #expect(!Layout.namesItsField("PBA:") && !Layout.namesItsField("WD-WCC4N1234567") && !Layout.namesItsField("S/N: 5CG1186"))
    }

    @Test("a value in capitals alone is a value where a barcode holds it, with its S data identifier")
    func capitalsAloneInABarcode() {
        // Read off a Seagate label whose keyword OCR lost: the print is the barcode's value
        // without its S.
        let c = SerialExtractor.candidates([
            code("SWFKLQWXTY"), boxed("SEAGATE IRONWOLE 8TB", 1, 355, 158, 453, 24), boxed("Fw: SC79", 2, 353, 225, 132, 19),
            boxed("WFKLQWXTY", 3, 385, 323, 249, 29), boxed("P/N: DLR16J-900", 4, 353, 380, 229, 19),
        ])
        #expect(c.map(\.value) == ["WFKLQWXTY"], "\(c)")
        #expect(c.first?.evidence == .agree)
        // With no barcode holding it, a word of capitals is no candidate.
        let alone = SerialExtractor.candidates([
            boxed("SEAGATE IRONWOLF 8TB", 1, 355, 158, 453, 24), boxed("WFKLQWXTY", 2, 385, 323, 249, 29),
        ])
        #expect(alone.isEmpty, "\(alone)")
    }

    @Test("a part of the print read alone comes after the reading that spans it")
    func partReadAlone() {
        // Read off a motion-blurred infusion pump's label: "KING." inside "SKN54590", the page
        // sharpened and read again.
        let c = SerialExtractor.candidates([
            boxed("SIN:", 1, 352, 324, 35, 17), boxed("KING.", 2, 466, 324, 36, 17), boxed("SKN54590", 3, 455, 324, 93, 17),
        ])
        #expect(c.first?.value == "SKN54590", "\(c)")
    }

    @Test("a serial keyword's value is no word in lower case; another field's may be")
    func lowerCaseWordBesideKeyword() {
        // Read off a shadowed Lenovo table: "Serial Number:" read as "Ser:", "clal" and "Number:".
        let lenovo = SerialExtractor.candidates([
            boxed("Lenovo ThinkCentre M70q", 1, 383, 224, 322, 20), boxed("Type/Model", 2, 202, 264, 127, 18),
            boxed("08V1-5DYLRB", 3, 403, 266, 131, 12), boxed("PFEKK59P", 4, 403, 294, 104, 15), boxed("Ser:", 5, 202, 297, 35, 12),
            boxed("clal", 6, 231, 297, 41, 12), boxed("Number:", 7, 285, 297, 80, 12), boxed("MIM", 8, 201, 328, 36, 12),
            boxed("O8V15DYLRB", 9, 403, 328, 119, 12),
        ])
        #expect(lenovo.first?.value == "PFEKK59P", "\(lenovo)")
        // Read off an HP label under glare: "ly/ly/Oy" is the warranty's, and the line under
        // "Warranty:" is not.
        let hp = SerialExtractor.candidates([
            boxed("HP ELITEBOOK 840 G8", 1, 320, 75, 356, 19), boxed("ly/ly/Oy", 2, 492, 132, 132, 24),
            boxed("Warranty:", 3, 319, 135, 147, 21),
            boxed("MXL5253KRM", 4, 321, 174, 211, 25), boxed("SERIAL NO", 5, 321, 216, 114, 12),
        ])
        #expect(hp.first?.value == "MXL5253KRM", "\(hp)")
    }

    @Test("a caption in brackets over a tilted barcode names it, and a serial keyword takes no title for its value")
    func bracketedCaptionOverTiltedBars() {
        // Read off a tilted WD label, its serial printed before "(Serial Nbr)" and lost under
        // the paint over the bars: "R/N:" (its value lost too) before the bars' tilted box, and
        // the title to the caption's left along the tilt.
        let readings = [
            bars("WD-WCC4NQNS4JSZ", 333, 261, 817, 324), line("WD Blue 1TB", 1, Box(x: 290, y: 192, width: 159, height: 54), slope: -0.3),
            boxed("R/N:", 2, 303, 268, 48, 31), boxed("(Serial Nbr)", 3, 643, 234, 95, 35),
        ]
        #expect(Layout.captions(readings) == [0: .serial])
        #expect(!Layout.joined(readings).contains { $0.value.contains("WD Blue") && $0.value.contains("Serial") })
        let c = SerialExtractor.candidates(readings)
        #expect(c.map(\.value) == ["WD-WCC4NQNS4JSZ"], "\(c)")
    }

    @Test("a caption over its own bars, on the row of the digits printed under the code above, names its own code")
    func captionBesideAnotherCodesDigits() {
        // Read off webcam frames of a nameplate: "MODEL" over the upper code (lost), its digits
        // under its bars, and "S/N" at their left over the serial's bars, about as far from the
        // upper bars' box as from its own. Where the digits lie beside the caption it is not the
        // upper code's caption set under it, and it takes no value on its row from them.
        let apart = [
            bars("55699246", 292, 417, 270, 107), bars("RHH-9157", 315, 229, 383, 95),
            boxed("RACK PDU 32A", 1, 334, 87, 165, 38), boxed("LOT 475928", 2, 329, 131, 109, 30), boxed("een", 3, 505, 334, 97, 23),
            boxed("RHH-9157", 4, 448, 345, 99, 30), boxed("S/N", 5, 302, 360, 31, 20), boxed("me", 6, 450, 403, 44, 18),
        ]
        #expect(Layout.captions(apart) == [0: .serial])
        #expect(SerialExtractor.candidates(apart).first?.value == "55699246")
        let paired = [
            bars("55699246", 336, 427, 267, 113), bars("RHH-9157", 355, 237, 380, 101),
            boxed("RACK PDU 32A", 1, 367, 99, 166, 39), boxed("LOT 475928", 2, 364, 147, 110, 27), boxed("ai", 3, 470, 211, 73, 32),
            boxed("RHH-9157", 4, 489, 359, 98, 27), boxed("S/N", 5, 342, 376, 31, 19), boxed("anne", 6, 339, 401, 104, 34),
        ]
        #expect(Layout.captions(paired) == [0: .serial])
        #expect(!Layout.joined(paired).contains { $0.value.contains("S/N") && $0.value.contains("RHH") })
        #expect(SerialExtractor.candidates(paired).first?.value == "55699246")
        // Without the digits beside it, the caption nearer the upper bars is theirs, as before.
        let under = apart.filter { $0.value != "RHH-9157" || $0.isBarcode }
        #expect(Layout.captions(under)[0] == nil)
    }

    @Test("noise read in lower case between a caption and its bars does not hide the caption")
    func noiseUnderCaption() {
        // Read off a noisy Kingston label: "SN" over the serial's bars, "ey" and "ed" read in the
        // noise just over them; the firmware's caption lost.
        let kingston = [
            bars("50026B75D0B602FC", 394, 422, 781, 157), bars("SBFK20F1", 394, 190, 473, 157),
            boxed("Kingston A400 SSD", 1, 387, 81, 246, 28), boxed("Made in Taiwan", 2, 386, 129, 168, 18),
            boxed("SN", 3, 386, 391, 21, 15),
            boxed("ey", 4, 976, 410, 12, 14), boxed("ed", 5, 1077, 410, 12, 14),
        ]
        #expect(Layout.captions(kingston) == [0: .serial])
        #expect(SerialExtractor.candidates(kingston).first?.value == "50026B75D0B602FC")
        // A keyword set in lower case is no noise: "Model" over a model's bars captions them.
        let model = [
            bars("SYS-8300P-NXG", 300, 200, 400, 120), boxed("Model", 1, 300, 170, 60, 20), bars("VM58YW672198", 300, 400, 500, 120),
        ]
        #expect(Layout.captions(model) == [0: .other])
        #expect(SerialExtractor.candidates(model).map(\.value) == ["VM58YW672198"])
    }
}
