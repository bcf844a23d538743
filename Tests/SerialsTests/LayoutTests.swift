import Model
import Testing

@testable import Serials

/// A printed line with its box: x, y, width, height.
func boxed(_ value: String, _ line: Int, _ x: Int, _ y: Int, _ width: Int, _ height: Int = 24) -> SerialReading {
    SerialReading(value: value, symbology: nil, place: "printed line \(line)", box: Box(x: x, y: y, width: width, height: height))
}

/// A printed line with its box, and the slope its words show (`slope`), or a rough one (`rough`).
func line(_ value: String, _ number: Int, _ box: Box, slope: Double? = nil, rough: Double? = nil) -> SerialReading {
    SerialReading(value: value, symbology: nil, place: "printed line \(number)", box: box, slope: slope, roughSlope: rough)
}

@Suite("Keywords and values in separate boxes")
struct LayoutTests {
    @Test("an unlabelled print a character from a barcode, set apart from its bars, goes first: a field whose keyword OCR lost")
    func unlabelledApartFromBars() {
        func bars(_ box: Box?) -> SerialReading {
            SerialReading(value: "MXP60841HL", symbology: "CODE-128", place: "CODE-128 barcode", box: box)
        }
        let located = bars(Box(x: 626, y: 185, width: 561, height: 163))
        let label = [boxed("HP ELITEBOOK 840 G8", 1, 174, 161, 316, 19), boxed("Model: HSN-FMZ7", 2, 173, 215, 225, 18)]
        // Its caption printed white in a box, lost; the value printed to the left of the bars.
        let apart = SerialExtractor.candidates(label + [boxed("MXL60841HL", 3, 174, 295, 185, 21), located])
        #expect(apart.map(\.value) == ["MXL60841HL", "MXP60841HL"])
        #expect(apart.map(\.disagreesWith) == [["MXP60841HL"], ["MXL60841HL"]])
        // So it does where the code's own line under its bars was read too, and first.
        let withLine = SerialExtractor.candidates(
            label + [boxed("MXP60841HL", 3, 719, 352, 98, 21), boxed("MXL60841HL", 4, 174, 295, 185, 21), located])
        #expect(withLine.map(\.value) == ["MXL60841HL", "MXP60841HL"])
        // Just under the bars, across them, it is their human-readable line misread: after them.
        let under = SerialExtractor.candidates(label + [boxed("MXL60841HL", 3, 800, 352, 185, 21), located])
        #expect(under.map(\.value) == ["MXP60841HL", "MXL60841HL"])
        // A speck read as a letter between them is no line between: still their line misread.
        let lower = boxed("MXL60841HL", 3, 800, 380, 185, 21)
        let speck = boxed("i", 4, 900, 356, 4, 14)
        #expect(SerialExtractor.candidates(label + [lower, speck, located]).map(\.value) == ["MXP60841HL", "MXL60841HL"])
        let between = boxed("P/N", 4, 900, 356, 40, 14)
        #expect(SerialExtractor.candidates(label + [lower, between, located]).map(\.value).first == "MXL60841HL")
        // Just over them with another line between, it is not theirs either.
        let over = [boxed("MXL60841HL", 3, 700, 130, 185, 21), boxed("Product No: GJALSH#ABA", 4, 700, 155, 326, 19)]
        #expect(SerialExtractor.candidates(label + over + [located]).map(\.value) == ["MXL60841HL", "MXP60841HL"])
        #expect(SerialExtractor.candidates(label + [over[0], located]).map(\.value) == ["MXP60841HL", "MXL60841HL"])
        // So it is, wherever it lies, where no box says where the bars are.
        for code in [bars(nil), bars(Box(x: 626, y: 185, width: 1, height: 163))] {
            let unknown = SerialExtractor.candidates(label + [boxed("MXL60841HL", 3, 174, 295, 185, 21), code])
            #expect(unknown.map(\.value) == ["MXP60841HL", "MXL60841HL"])
        }
    }

    @Test("a keyword with its value inline, and its value read again on its own: the keyword's value too")
    func inlineValueReadAgain() {
        // Read off a shadowed Lenovo label: the line read with an S too many twice, its value read
        // again on its own (the page read at another size) right.
        let c = SerialExtractor.candidates([
            boxed("Lenovo ThinkCentre M70q", 1, 130, 171, 442, 36), boxed("PF3F5LOW", 2, 298, 306, 170, 25),
            boxed("SERIAL PFS3F5SLOW", 3, 128, 298, 339, 41), boxed("MTM: 80F7UCO8HE", 4, 129, 368, 305, 25),
        ])
        #expect(c.map(\.value).contains("PF3F5L0W"), "\(c)")
        #expect(c.first { $0.value == "PF3F5L0W" }?.whereRead == ["printed line 2 (0 for O)"])
        // A value line elsewhere on the row (not over the inline value's end) is not it.
        let apart = SerialExtractor.candidates([
            boxed("SERIAL PFS3F5SLOW", 1, 128, 298, 339, 41), boxed("PF3F5LOW", 2, 700, 306, 170, 25),
        ])
        #expect(!apart.map(\.value).contains("PF3F5L0W"), "\(apart)")
        // One that holds the inline value whole, and more, comes first: read off a Cisco label
        // under glare, the line read with the serial's last character lost, and the value read
        // again whole over its end. The barcode's disagrees (a planted L for the J).
        let cisco = SerialExtractor.candidates([
            code("LAE4076PVR6"), boxed("PID:", 4, 167, 156, 43, 18), boxed("C9200L-24T-4G", 5, 341, 156, 172, 18),
            boxed("Serial no. JAE4076PVR", 9, 167, 239, 322, 19), boxed("JAE4076PVR6", 10, 341, 243, 162, 14),
            boxed("Serial no.", 11, 167, 239, 99, 18),
        ])
        #expect(cisco.map(\.value).prefix(2) == ["JAE4076PVR6", "JAE4076PVR"], "\(cisco)")
        #expect(cisco.first?.disagreesWith == ["LAE4076PVR6"], "\(cisco)")
    }

    @Test("two fields on one row: a keyword's value is never past the next keyword on its row")
    func valuePastAnotherKeyword() {
        // Read off a faint Samsung label, "MFG Date: 2023.09   Serial Nbr: SQJKNWOH546103V": the
        // date's keyword read twice (whole, and its second word alone), the wider reading lying
        // over the serial's row better than the serial's own keyword does.
        let c = SerialExtractor.candidates([
            boxed("SAMSUNG PM9A3", 1, 175, 234, 245, 21), boxed("Serial Nbr:", 2, 561, 343, 179, 20), boxed("MFG", 3, 176, 345, 47, 18),
            boxed("Date:", 4, 244, 345, 76, 18), boxed("MFG Date:", 5, 175, 345, 145, 18), boxed("2023.09", 6, 346, 345, 115, 18),
            boxed("SQJKNWOH546103V", 7, 765, 345, 253, 24), boxed("MODEL: MZ-V8P1TOX", 8, 176, 395, 286, 18),
        ])
        #expect(c.first?.value == "SQJKNW0H546103V", "\(c)")
        // With nothing between them, a keyword's value may be far along its row (a table's column).
        let table = SerialExtractor.candidates([boxed("Serial Nbr:", 1, 175, 345, 145, 18), boxed("SQJKNWOH546103V", 2, 765, 345, 253, 24)])
        #expect(table.first?.value == "SQJKNW0H546103V", "\(table)")
    }

    @Test("a keyword's value under it is never past another keyword set between them")
    func valueUnderPastAnotherKeyword() {
        // Read off a Cisco label in perspective: "VID:", its value "V03" lost, over "SN" over the
        // serial, barcoded with an S before it; the product's barcode is the model.
        let c = SerialExtractor.candidates([
            bars("WS-C2960X-48FPD-L", 168, 481, 797, 129), bars("SFOC1779A3BH", 184, 281, 595, 133),
            boxed("CISCO WS", 1, 203, 80, 122, 23), boxed("VID:", 2, 200, 124, 48, 20), boxed("SN", 3, 196, 163, 23, 16),
            boxed("FOC1779A3BH", 4, 194, 183, 159, 25), boxed("CLEI: 1KOE1X7MMY", 5, 192, 219, 203, 24),
        ])
        #expect(c.first?.value == "FOC1779A3BH" && c.first?.evidence == .agree, "\(c)")
        // With no keyword between, the line under a keyword is still its value.
        let vid = SerialExtractor.candidates([boxed("VID:", 1, 200, 124, 48, 20), boxed("FOC1779A3BH", 2, 194, 150, 159, 25)])
        #expect(vid.isEmpty, "\(vid)")
    }

    @Test("a small caption boxed short still names the value under it")
    func shortCaptionAbove() {
        // Read off a faint Supermicro label: "SER NO" boxed 7 pixels high, its value 22 below.
        let c = SerialExtractor.candidates([
            boxed("SUPERMICRO X11DPi-N", 1, 289, 86, 263, 14), boxed("SER NO", 2, 288, 173, 40, 7),
            boxed("ZM10CK824940", 3, 289, 202, 140, 13), boxed("REV: 1.01", 4, 288, 238, 104, 13), code("3BC3B3208F92"),
        ])
        #expect(c.first?.value == "ZM10CK824940", "\(c)")
        #expect(
            Layout.joined([boxed("SER NO", 1, 288, 173, 40, 7), boxed("ZM10CK824940", 2, 289, 202, 140, 13)]).map(\.value) == [
                "SER NO ZM10CK824940"
            ])
        // Three of its heights below is another row's.
        #expect(Layout.joined([boxed("SER NO", 1, 288, 173, 40, 13), boxed("ZM10CK824940", 2, 289, 228, 140, 13)]).count == 2)
    }

    @Test("a caption on a tilted label lying lower than its value: a manufacturing date beside it is not taken for the serial")
    func tiltedCaption() {
        // Boxes as read off an APC label turned a few degrees: "(SN)" overlaps the date's row
        // more than its own value's; the date has a keyword of its own.
        let readings = [
            boxed("354896377680", 4, 162, 169, 203, 44), boxed("(SN)", 5, 443, 202, 49, 27), boxed("Mfg: 2022-08", 6, 156, 213, 192, 41),
            code("3S4896377670"),
        ]
        let candidates = SerialExtractor.candidates(readings)
        // The print, its 5 read for the barcode's S, disagrees with the barcode by one digit.
        #expect(Set(candidates.map(\.value)) == ["3S4896377680", "3S4896377670"], "\(candidates.map(\.value))")
        #expect(candidates.allSatisfy { !$0.disagreesWith.isEmpty })
    }

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
        // Without the boxes the values are orphans: nothing names them, and with a barcode on the
        // label (no fallback offer of values shaped like codes) none is a candidate.
        let blind = readings.map { SerialReading(value: $0.value, symbology: nil, place: $0.place) }
        #expect(SerialExtractor.candidates(blind + [code("CND1234XYZ")]).map(\.value) == ["CND1234XYZ"])
    }

    @Test("the value under its keyword; a part number's value under its own keyword is not a serial")
    func valueUnder() {
        let readings = [
            boxed("Part No.", 1, 60, 100, 110, 20), boxed("M8BORLL/A", 2, 60, 128, 160),
            boxed("Serial Number", 3, 60, 170, 180, 20), boxed("C02GN0Q27VYX", 4, 60, 198, 230),
        ]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["C02GN0Q27VYX"])
    }

    @Test("a second reading of the value's print, lying over it, is the keyword's value too; one holding the first reading whole first")
    func readTwoWays() {
        // Boxes as read off a Supermicro label under glare: "SN" over its value, which the first
        // reading read in part and the page read again stretched read whole.
        let readings = [
            boxed("SN", 5, 679, 292, 21, 12), boxed("285974", 6, 699, 318, 82, 19), boxed("OM80FK285974", 7, 598, 318, 183, 19),
            boxed("REV: 1.03", 8, 640, 357, 99, 18), code("E3E9CC8626A0"),
        ]
        let joined = Layout.joined(readings)
        #expect(joined.map(\.value) == ["SN OM80FK285974", "SN 285974", "REV: 1.03", "E3E9CC8626A0"])
        #expect(joined.first?.place == "printed line 7")
        #expect(SerialExtractor.candidates(readings).map(\.value).first == "OM80FK285974")
        // Two readings neither of which holds the other keep the order they were read in; a
        // line beside the value, not over it, is not a reading of it.
        let apart = [
            boxed("Serial Number", 1, 60, 170, 180, 20), boxed("WFK2261KN", 2, 60, 198, 150), boxed("KFK2261KN", 3, 61, 197, 150),
            boxed("MADE IN THAILAND", 4, 260, 198, 200),
        ]
        #expect(Layout.joined(apart).map(\.value) == ["Serial Number WFK2261KN", "Serial Number KFK2261KN", "MADE IN THAILAND"])
        // Holding a later reading whole is not holding the first: a Lenovo serial read right
        // first, then at other sizes with a 2 for its Z and a stray character.
        let lenovo = [
            boxed("S/N:", 4, 769, 303, 61, 22), boxed("PF91341Z", 5, 710, 345, 182, 24), boxed("PF913412", 6, 710, 345, 182, 24),
            boxed("PF913412Z", 7, 710, 345, 182, 24),
        ]
        #expect(Layout.joined(lenovo).map(\.value) == ["S/N: PF91341Z", "S/N: PF913412", "S/N: PF913412Z"])
        #expect(SerialExtractor.candidates(lenovo).map(\.value).first == "PF91341Z")
        // A box tesseract drew round a whole tilted line above, three times as high, lies over
        // the value too, and is not another reading of it.
        let tall = [boxed("CISCO C9200L q", 0, 40, 150, 900, 90)] + apart
        #expect(
            Layout.joined(tall).map(\.value) == [
                "CISCO C9200L q", "Serial Number WFK2261KN", "Serial Number KFK2261KN", "MADE IN THAILAND",
            ])
    }

    @Test(
        "of two readings of a value's print, the one in the format of the maker the label names first; with no maker named, the first read")
    func readingInMakersFormat() {
        func label(_ title: String) -> [SerialReading] {
            [
                boxed(title, 1, 434, 88, 326, 27), boxed("S/N", 2, 436, 206, 36, 18), boxed("5CGO0087LYE", 3, 436, 245, 206, 26),
                boxed("5CG0087LYE", 4, 436, 245, 206, 26), boxed("Model: HSN-96VF", 5, 435, 296, 253, 25),
            ]
        }
        #expect(SerialExtractor.candidates(label("HP EliteBook 840 G8")).first?.value == "5CG0087LYE")
        // No maker named: the reading read first stays first (as the known formats mend it).
        #expect(SerialExtractor.candidates(label("EliteBook 840 G8")).first?.value == "5C600087LYE")
        // A value OCR read in pieces is judged whole: "FVF 7WX4ESFUF" is Apple's twelve
        // characters, and "7WX4ESFJUF" of another reading is no ten-character Apple serial.
        let apple = [
            boxed("iPad Air", 1, 111, 214, 149, 19), boxed("Serial No.", 2, 110, 362, 163, 17),
            boxed("FVF 7WX4ESFJUF", 3, 364, 361, 202, 18), boxed("FVF 7WX4ESFUF", 4, 364, 361, 203, 18),
        ]
        #expect(SerialExtractor.candidates(apple).first?.value == "FVF7WX4ESFUF")
    }

    @Test("a keyword read twice in one place is one keyword: its value read two ways follows it, the one holding the other whole first")
    func keywordReadTwice() {
        // Boxes as read off a WD label under glare: the first reading lost the W of the value, the
        // page read again stretched read it whole, and both read the keyword alike.
        let readings = [
            boxed("D-WCC4NQ67UG2Y", 4, 445, 318, 318, 27), boxed("WD-WCC4NQ67UG2Y", 5, 417, 318, 346, 27),
            boxed("SERIAL", 6, 162, 320, 116, 22), boxed("SERIAL", 7, 163, 320, 117, 22),
        ]
        #expect(Layout.joined(readings).map(\.value) == ["SERIAL WD-WCC4NQ67UG2Y", "SERIAL D-WCC4NQ67UG2Y"])
        #expect(SerialExtractor.candidates(readings).map(\.value).first == "WD-WCC4NQ67UG2Y")
        // The same keyword elsewhere on the label is another keyword, with its own value.
        let two = [
            boxed("SN", 1, 100, 100, 30, 20), boxed("AB12CD34", 2, 150, 100, 120), boxed("SN", 3, 100, 300, 30, 20),
            boxed("EF56GH78", 4, 150, 300, 120),
        ]
        #expect(Layout.joined(two).map(\.value) == ["SN AB12CD34", "SN EF56GH78"])
        // Alike up to a colon: read off a faint Supermicro label, its serial printed before its
        // keyword, the model's keyword read "Model" and, the page read again, "Model:". The second
        // took the serial under it for a model's, and no value was listed.
        let supermicro = [
            code("7FD2CF1D3854"), code("OM36NX481375"), boxed("SUPERMICRO SYS-1029P-WTR", 2, 269, 66, 360, 18),
            boxed("Model", 3, 269, 114, 62, 15), boxed("Model:", 4, 268, 113, 74, 16), boxed("SYS-2073P-HFT", 5, 361, 114, 166, 15),
            boxed("OM36NX481375", 6, 270, 152, 165, 15), boxed("Nbr", 7, 601, 154, 32, 12), boxed("~erial", 8, 525, 158, 63, 9),
            boxed("Serial Nbr", 9, 524, 153, 109, 14), boxed("MAC: 7F:D2:CF:1D:38:54", 10, 267, 189, 285, 17),
        ]
        #expect(Layout.joined(supermicro).map(\.value).contains("Model SYS-2073P-HFT"))
        #expect(SerialExtractor.candidates(supermicro).first?.value == "OM36NX481375")
    }

    @Test("a keyword set just before another on its row is one keyword with it: the first takes no value from under it")
    func keywordBeforeKeyword() {
        // Read off a Samsung label turned eight degrees, "MFG" and "Date:" boxed apart, its serial
        // under "SER. NO". "MFG" found its row's value past another keyword and took the serial
        // under it for a date, and nothing was listed.
        let readings = [
            line("SAMSUNG SSD", 1, Box(x: 302, y: 223, width: 241, height: 60), rough: 0.149),
            line("980 PRO", 2, Box(x: 564, y: 262, width: 154, height: 46), rough: 0.142),
            line("MFG", 3, Box(x: 332, y: 295, width: 60, height: 31)), line("Date:", 4, Box(x: 411, y: 307, width: 93, height: 36)),
            line("2023.01", 5, Box(x: 530, y: 324, width: 139, height: 43)),
            line("SER. NO", 6, Box(x: 439, y: 374, width: 105, height: 32), rough: 0.136),
            line("SX8YBGOV835060F", 7, Box(x: 319, y: 393, width: 333, height: 76)),
            line("FW: SEHFGQQ4", 8, Box(x: 359, y: 462, width: 237, height: 64)),
        ]
        #expect(Layout.joined(readings).map(\.value).contains("MFG Date: 2023.01"), "\(Layout.joined(readings).map(\.value))")
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["SX8YBG0V835060F"])
    }

    @Test("a keyword OCR boxed in two on its row is one keyword: its second box is not its value")
    func keywordInTwoBoxes() {
        // A Supermicro label, its serial printed before the keyword, "Serial" and "no." boxed apart.
        let readings = [
            boxed("SUPERMICRO X11DPi-N", 1, 261, 81, 322, 19), boxed("Model: SYS-0957P-WFH", 2, 259, 134, 301, 16),
            boxed("VM55CU48 1567", 3, 260, 172, 190, 20), boxed("Serial", 5, 527, 177, 81, 15), boxed("no.", 6, 624, 181, 36, 11),
            boxed("REV: 1.02", 7, 259, 218, 133, 16), code("B9E9A597239E"),
        ]
        #expect(Layout.joined(readings).map(\.value).contains("Serial no. VM55CU48 1567"))
        #expect(SerialExtractor.candidates(readings).first?.value == "VM55CU481567")
        // A value beside a keyword is still its value.
        #expect(
            Layout.joined([boxed("Serial", 1, 100, 100, 81, 15), boxed("AB12CD34", 2, 200, 100, 120, 15)]).map(\.value) == [
                "Serial AB12CD34"
            ])
    }

    @Test("a keyword read alone where another reading of the same ink has its value takes no other line's value")
    func keywordReadAloneAndWithValue() {
        // Boxes as read off a motion-blurred nameplate: "MODEL" read alone and with its value;
        // the serial under it is the value of the "SER. NO" printed after it.
        let readings = [
            boxed("MODEL", 5, 162, 240, 70, 13), boxed("MODEL EYG-0671L", 6, 161, 239, 196, 14), boxed("5207286608", 7, 163, 276, 147, 15),
            boxed("SER. NO", 8, 353, 275, 86, 24), boxed("LOT 408597", 9, 163, 315, 138, 14), code("S5207286608"),
        ]
        #expect(Layout.joined(readings).map(\.value).contains("SER. NO 5207286608"))
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["5207286608"])
        // Alone, the keyword still takes the value under it.
        let alone = [boxed("MODEL", 1, 162, 240, 70, 13), boxed("EYG0671L", 2, 163, 276, 147, 15)]
        #expect(Layout.joined(alone).map(\.value) == ["MODEL EYG0671L"])
    }

    @Test("a lone mark beside a keyword is not its value: the value under it is")
    func loneMark() {
        // A speck read as "v" touching the keyword's box on its row.
        let readings = [boxed("SN", 1, 679, 292, 21, 12), boxed("v", 2, 698, 292, 2, 12), boxed("OM80FK285974", 3, 598, 318, 183, 19)]
        #expect(Layout.joined(readings).map(\.value) == ["SN OM80FK285974", "v"])
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

    @Test("a caption OCR lost a parenthesis of, or set far from its value, still names it; its words are never the value")
    func looseCaption() {
        let lost = [boxed("JSSFSNY", 3, 158, 150, 104, 18), boxed("(Service Tag (S/N)", 4, 316, 152, 192, 20), code("JS5F5NY")]
        #expect(SerialExtractor.candidates(lost).map(\.value) == ["JS5F5NY"])
        #expect(SerialExtractor.candidates(lost).first?.evidence == .agree)
        // A value set apart by the width its characters were given, four of its heights and more.
        let far = [boxed("EC0041355890", 3, 250, 231, 165, 18), boxed("(SN)", 4, 489, 235, 36, 16)]
        #expect(SerialExtractor.candidates(far).map(\.value) == ["EC0041355890"])
        // The words of a keyword alone are not a value: "(Service" is what is left of a caption.
        #expect(SerialExtractor.candidates([text("S/N (Service Tag", 1)]).isEmpty)
    }

    @Test("a keyword in parentheses names the value beside it, as a caption to its left or heading a table row to its right")
    func parenthesisedKeyword() {
        let row = [boxed("WHM82642", 2, 403, 196, 162, 23), boxed("(21)", 3, 252, 198, 53, 24), boxed("981107", 4, 403, 239, 100, 23)]
        #expect(SerialExtractor.candidates(row).map(\.value) == ["WHM82642"])
        let caption = [boxed("AMU25078", 3, 369, 294, 167, 24), boxed("(21)", 4, 562, 300, 47, 20)]
        #expect(SerialExtractor.candidates(caption).map(\.value) == ["AMU25078"])
    }

    @Test(
        "a keyword ending in a bracketed one ('Serial Number (S/N)') heads the value to its right in a table, not the row's value before it"
    )
    func bracketedKeywordHeadsTableRow() {
        // Read off a medical pump's label: "(01)" and its GTIN, then "Serial Number (S/N)" and the
        // serial, on one row a hair off level; a barcode planted to disagree with the print.
        let level = 0.5 / 130.5
        let pump = [
            code("BSV55025"), line("INFUSION PUMP IP-300", 1, Box(x: 240, y: 307, width: 312, height: 20), slope: 0),
            boxed("02205332054013", 2, 440, 357, 153, 17), boxed("BSV55525", 3, 835, 357, 97, 17),
            line("Serial Number (S/N)", 4, Box(x: 635, y: 359, width: 177, height: 16), slope: level, rough: level),
            boxed("(01)", 5, 240, 360, 32, 16), boxed("275481", 6, 440, 394, 64, 17), boxed("231115", 7, 835, 394, 65, 17),
            boxed("REF", 8, 240, 396, 39, 15), boxed("(11)", 9, 635, 397, 32, 15),
        ]
        #expect(Layout.joined(pump).map(\.value).contains("Serial Number (S/N) BSV55525"), "\(Layout.joined(pump).map(\.value))")
        let c = SerialExtractor.candidates(pump)
        #expect(c.map(\.value).sorted() == ["BSV55025", "BSV55525"], "\(c)")
        #expect(c.allSatisfy { $0.disagreesWith.count == 1 }, "\(c)")
        // A parenthesis lost keeps the caption a caption: its value is before it.
        #expect(Layout.caption("Serial Number (S/N)") == nil)
        #expect(Layout.caption("(Serial Number") != nil && Layout.caption("Serial #)") != nil)
    }

    @Test("a keyword printed after its value without parentheses, or a caption OCR cut a parenthesis from, names the value before it")
    func keywordAfter() {
        // "FDO4551MA2D SERIAL": nothing to the keyword's right or under it but another field.
        let cisco = [
            boxed("CLEI:", 1, 316, 128, 84, 19), boxed("KH62ZZHJE6", 2, 425, 127, 181, 20), boxed("FDO4551MA2D", 3, 314, 173, 213, 22),
            boxed("SERIAL", 4, 576, 177, 96, 18), boxed("VID: vVO1", 5, 315, 224, 144, 19), code("C1111-8P"),
        ]
        #expect(SerialExtractor.candidates(cisco).first?.value == "FDO4551MA2D")
        // "(Serial #)" read as "(Serial".
        let supermicro = [
            boxed("SUPERMICRO SYS-1029P-WTR", 1, 293, 164, 352, 19), boxed("Model: SYS-6470P-GXD", 2, 293, 209, 236, 17),
            boxed("OM51JD127055", 3, 293, 243, 170, 18), boxed("(Serial", 4, 556, 246, 56, 17), boxed("REV: 1.02", 5, 293, 279, 92, 17),
        ]
        #expect(SerialExtractor.candidates(supermicro).first?.value == "OM51JD127055")
        // A whole line ending in a parenthesis is no caption: its value stays its own.
        #expect(Layout.caption("WD-WCC4N1234567 (SN)") == nil)
        #expect(Layout.caption("(Serial") == "Serial")
        // Read as one line with its value, the caption without its closing parenthesis names the
        // value before it all the same.
        let wd = [
            boxed("WD Red Plus 4TB", 1, 357, 141, 312, 30), boxed("WD-WMC4NN26FXM8 (Serial", 2, 356, 266, 469, 32),
            boxed("MDL: WD63EFRX-A7XEY2", 3, 358, 323, 404, 27),
        ]
        #expect(Layout.joined(wd).map(\.value).contains("Serial WD-WMC4NN26FXM8"))
        #expect(SerialExtractor.candidates(wd).map(\.value) == ["WD-WMC4NN26FXM8"])
    }

    @Test("a caption set under its value names it; a caption with its value under it keeps that one")
    func captionUnderValue() {
        // "ZRDFPDPC" over a smaller "S/N", the next line another field's: no barcode.
        let seagate = [
            boxed("Seagate IronWolf 8TB", 1, 267, 293, 363, 45), boxed("P/N: LNHUIR-359", 2, 263, 359, 247, 29),
            boxed("ZRDFPDPC", 3, 258, 406, 174, 30), boxed("S/N", 4, 255, 452, 38, 17), boxed("Date Code: 90396", 5, 251, 489, 232, 29),
        ]
        #expect(SerialExtractor.candidates(seagate).map(\.value) == ["ZRDFPDPC"])
        // The print under its caption is the serial, shown disagreeing with the barcode.
        let intel = [
            code("BTHV926962WLBPGN"), boxed("Intel SSD D3-S4610", 1, 303, 158, 217, 26),
            boxed("WWN: 55CD2E4154002E5F", 2, 299, 205, 268, 25), boxed("BTHV946962WLBPGN", 3, 294, 240, 274, 27),
            boxed("SERIAL NO", 4, 292, 276, 83, 15), boxed("Model: SSDSC2KB566G8", 5, 289, 304, 242, 24),
        ]
        let found = SerialExtractor.candidates(intel)
        #expect(found.map(\.value) == ["BTHV946962WLBPGN", "BTHV926962WLBPGN"])
        #expect(found.first?.disagreesWith == ["BTHV926962WLBPGN"])
        // A caption over its value takes the value under it, not another field's line over it.
        let over = [
            boxed("Model: MZ-V8P1T0B", 1, 100, 100, 240, 24), boxed("4200", 2, 100, 140, 60, 24),
            boxed("Serial Number", 3, 100, 172, 160, 18), boxed("S4EWNX0R123456K", 4, 100, 196, 220, 24),
        ]
        #expect(Layout.joined(over).map(\.value).contains("Serial Number S4EWNX0R123456K"))
        // A tilted label whose value OCR boxed beside its caption, lower: the title two lines up,
        // another field between, is not the caption's value.
        let tilted = [
            boxed("SAMSUNG PM9A3", 1, 433, 247, 216, 63), boxed("MFG Date: 2023.08", 2, 434, 304, 191, 57),
            boxed("SER NO", 3, 488, 366, 65, 28), boxed("SDOOWSOR854569H", 4, 388, 378, 251, 72),
            boxed("FW: OFSDB1SX", 5, 424, 435, 161, 52),
        ]
        #expect(SerialExtractor.candidates(tilted).first?.value == "SD00WS0R854569H")
        // Another field's keyword whose value OCR lost takes no serial over it for its own.
        let mac = [
            code("SK1663739372"), boxed("Juniper Ex2300-24T", 1, 340, 193, 254, 20), boxed("SK1663739372", 2, 340, 297, 149, 19),
            boxed("Mac-", 3, 335, 333, 50, 25),
        ]
        #expect(SerialExtractor.candidates(mac).first?.value == "SK1663739372")
        // A keyword over a barcode with no printed value: the field over it, its keyword
        // misread, is not the serial.
        let apc = [
            code("5A9204097309", "CODE-39"), boxed("C Smart-upg", 1, 330, 113, 144, 52), boxed("Mfg: 2022.98", 2, 287, 155, 124, 46),
            boxed("Nut: 230V", 3, 284, 201, 100, 39), boxed("SER No", 4, 268, 256, 67, 28),
        ]
        #expect(SerialExtractor.candidates(apc).first?.value == "5A9204097309")
    }

    @Test("a value and the keyword after it that OCR took for one line: the keyword names the value; a line with more before it is not one")
    func keywordAfterInOneLine() {
        let wd = [boxed("WD Blue 1TB", 1, 434, 173, 210, 64), boxed("WD-WMC4N0WA3300 SER. NO.", 2, 426, 239, 421, 101), code("Q5BYW4XX")]
        let candidates = SerialExtractor.candidates(wd)
        #expect(candidates.first?.value == "WD-WMC4N0WA3300")
        #expect(candidates.first?.whereRead == ["printed line 2"])
        #expect(Layout.trailingKeyword("ZLU0BRGB Serial no.")! == ("ZLU0BRGB", "Serial no."))
        #expect(Layout.trailingKeyword("MFG DATE 2023 SERIAL") == nil)
        #expect(Layout.trailingKeyword("REV A SERIAL") == nil)
        #expect(SerialExtractor.candidates([boxed("FOO 12345 SERIAL", 1, 400, 200, 300, 30)]).isEmpty)
        // A value in widely spaced print, which OCR split at a space, before its keyword.
        let spaced = [boxed("WD Red Plus 4TB", 1, 341, 146, 276, 25), boxed("WD-WMC4NEP 3UKEP SER. NO.", 2, 341, 261, 454, 20)]
        #expect(SerialExtractor.candidates(spaced).map(\.value) == ["WD-WMC4NEP3UKEP"])
        #expect(Layout.trailingKeyword("WD-WMC4NEP 3UKEP SER. NO.")! == ("WD-WMC4NEP3UKEP", "SER. NO."))
        #expect(Layout.trailingKeyword("ZLU0BRGB SER. NO.")! == ("ZLU0BRGB", "SER. NO."))
    }

    @Test("a value of capitals alone and the keyword after it, OCR's one line, lower-cased: the keyword names the value")
    func lettersBeforeKeyword() {
        let lenovo = [
            boxed("Lenovo ThinkCentre M70q", 1, 330, 332, 329, 34), boxed("MTM: 36X1XGAASV", 2, 326, 396, 238, 28),
            boxed("PFCLPMRD sN", 3, 323, 447, 245, 30), boxed("Type/Model: 36X1-XGAASV", 4, 320, 500, 324, 35),
        ]
        #expect(SerialExtractor.candidates(lenovo).map(\.value) == ["PFCLPMRD"])
        // Type/Model names the machine type and model, never a serial.
        #expect(Keywords.fields(in: "Type/Model: 36X1-XGAASV").first?.kind == .other)
        #expect(Layout.trailingKeyword("PFCLPMRD sN")! == ("PFCLPMRD", "sN"))
        // A word in lower case, or one too short, is no value.
        #expect(Layout.trailingKeyword("Lenovo SN") == nil)
        #expect(Layout.trailingKeyword("ABCD SN") == nil)
    }

    @Test("a word boxed far wider than its characters could print (a dark band read as \"Sn\") is no keyword")
    func stretchedKeyword() {
        let samsung = [
            boxed("Sn", 1, 298, 38, 776, 23), boxed("SAMSUNG PM9A3", 2, 348, 72, 220, 19), boxed("MFG Date: 2023.04", 3, 348, 122, 188, 15),
            boxed("SSTOVKOS864901T", 4, 348, 158, 212, 17), boxed("(SERIAL NBR)", 5, 636, 162, 115, 13),
            boxed("MODEL: MZ-V8P1T0C", 6, 349, 198, 220, 15),
        ]
        let candidates = SerialExtractor.candidates(samsung)
        #expect(candidates.first?.value == "SST0VK0S864901T")
        #expect(!candidates.contains { $0.value == "SAMSUNG" })
        #expect(Layout.stretched(boxed("Sn", 1, 298, 38, 776, 23)))
        #expect(!Layout.stretched(boxed("S/N", 1, 532, 314, 28, 11)))
    }

    @Test("a keyword centred over its value, on a label set centred, names it")
    func centredUnder() {
        let supermicro = [
            boxed("SUPERMICRO X11DPi-N", 1, 395, 229, 302, 16), boxed("1.02", 2, 555, 274, 51, 14), boxed("REV:", 3, 484, 275, 49, 13),
            boxed("S/N", 4, 532, 314, 28, 11), boxed("OM48XG849532", 5, 458, 336, 176, 17),
            boxed("Model: SYS-2305P-XNP", 6, 406, 374, 278, 14),
            code("3FCA629F5A59"),
        ]
        let candidates = SerialExtractor.candidates(supermicro)
        #expect(candidates.first?.value == "OM48XG849532")
        #expect(candidates.first?.whereRead == ["printed line 5"])
        #expect(Layout.joined(supermicro).map(\.value).contains("S/N OM48XG849532"))
        // Neither from its left edge nor on its axis: not the keyword's.
        let aside = [boxed("S/N", 1, 700, 314, 28, 11), boxed("OM48XG849532", 2, 458, 336, 176, 17)]
        #expect(!Layout.joined(aside).map(\.value).contains("S/N OM48XG849532"))
    }

    @Test("a caption set smaller than the value under it: the gap between them is measured in the value's height")
    func smallCaptionOverValue() {
        // "SER NO" 16 pixels high, its value 22 high, 26 below: more than one and a half
        // captions, less than one and a half values.
        let lenovo = [
            boxed("Lenovo ThinkPad T14", 1, 241, 98, 395, 24), boxed("SER NO", 2, 242, 211, 93, 16),
            boxed("PFA0C28K", 3, 242, 253, 156, 22),
            code("ZZ12345678"),
        ]
        #expect(SerialExtractor.candidates(lenovo).first?.value == "PFA0C28K")
        #expect(SerialExtractor.candidates(lenovo).first?.evidence == .text)
        // The value two of its lines below is not the caption's.
        let far = [boxed("SER NO", 2, 242, 211, 93, 16), boxed("PFA0C28K", 3, 242, 280, 156, 22), code("ZZ12345678")]
        #expect(SerialExtractor.candidates(far).map(\.value) == ["ZZ12345678"])
    }

    @Test("a table's value column past a long keyword is still the row's value")
    func wideTable() {
        let readings = [
            boxed("FYIQGSW", 2, 526, 226, 130, 20), boxed("SVC TAG:", 3, 105, 230, 119, 16), boxed("34723936400", 4, 527, 262, 173, 16),
            boxed("Express Service Code:", 5, 104, 265, 281, 22),
        ]
        // (Read as FYIQGSW; the Express Service Code on the next row proves FY9QGSW, which then has
        // no second reading: no 5 for its S.)
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["FY9QGSW"])
    }

    @Test(
        "with no keyword and no barcode left, the printed values in the maker's serial format are offered; failing them, the ones shaped like codes"
    )
    func shapedLikeASerial() {
        let lost = [
            text("APC Back-UPS Pro 900", 1), text("Model: SMT4705I", 2), text("AS1659919994", 3), text("(SM)", 4), text("Mfg: 2022-11", 5),
        ]
        #expect(SerialExtractor.candidates(lost).map(\.value) == ["AS1659919994"])
        #expect(SerialExtractor.candidates(lost).first?.whereRead == ["printed line 3"])
        #expect(SerialExtractor.candidates([text("HP ProDesk 400 G7", 1), text("2UA2493F3E", 2)]).map(\.value) == ["2UA2493F3E"])
        // A maker's format that fits, or none: the values shaped like codes (letters and digits,
        // six or more), never a word, a hyphenated model or what a keyword names.
        #expect(
            SerialExtractor.candidates([
                text("Juniper EX2300-24T", 1), text("MAC: 07B6599CB34A", 2), text("S|", 3), text("WZ2934306903", 4),
            ])
            .map(\.value) == ["WZ2934306903"])
        #expect(SerialExtractor.candidates([text("ZAQAMSKE", 1), text("JSXP4-654", 2)]).isEmpty)
        // With no maker named, APC's factory code is not read into it; its S is
        // read again as 5, after it, as any print's is.
        #expect(
            SerialExtractor.candidates([text("RACK PDU 32A", 1), text("AS1659919994", 2)]).map(\.value) == ["AS1659919994", "A51659919994"])
        // Where anything else is a candidate, a bare value is not added.
        #expect(
            SerialExtractor.candidates([text("HP ProDesk 400 G7", 1), text("2UA2493F3E", 2), code("CND1234XYZ")]).map(\.value) == [
                "CND1234XYZ"
            ])
    }

    @Test("a word OCR split into two boxes a few pixels apart is one value again; words a space apart are not joined")
    func splitWord() {
        let readings = [
            boxed("Model: A8039", 2, 152, 136, 146, 19), boxed("(Serial Number)", 3, 375, 166, 149, 19),
            boxed("G8WVZM7W8SJ", 4, 150, 167, 142, 21), boxed("H", 5, 295, 167, 12, 18), code("G8WVZM7W8AJH"),
        ]
        let candidates = SerialExtractor.candidates(readings)
        #expect(candidates.map(\.value) == ["G8WVZM7W8SJH", "G8WVZM7W8AJH"])
        #expect(candidates.first?.disagreesWith == ["G8WVZM7W8AJH"])
        let spaced = [boxed("S/N:", 1, 100, 100, 40, 20), boxed("ZA1B2C3D", 2, 148, 100, 120, 20)]
        #expect(Layout.mended(spaced).map(\.value) == ["S/N:", "ZA1B2C3D"])
        // A piece too short to be a value, a space's width before a code, starts it; a short
        // keyword ("SN") or a piece of punctuation ("REV:") does not.
        let split = [boxed("SN", 1, 318, 301, 22, 13), boxed("NT1", 2, 319, 326, 46, 20), boxed("997478916", 3, 372, 326, 141, 21)]
        #expect(Layout.mended(split).map(\.value) == ["SN", "NT1997478916"])
        #expect(SerialExtractor.candidates(split).map(\.value) == ["NT1997478916"])
        let words = [
            boxed("SN", 1, 100, 100, 24, 20), boxed("ZA1B2C3D", 2, 130, 100, 120, 20), boxed("REV:", 3, 300, 140, 40, 20),
            boxed("06", 4, 346, 140, 20, 20),
        ]
        #expect(Layout.mended(words).map(\.value) == ["SN", "ZA1B2C3D", "REV:", "06"])
        // On a label ten degrees off level, the serial at the end of its keyword's row ends
        // beside the next row's start, and its box reaches down past that row's top: rows are
        // followed along the tilt, and the two are not one word.
        let wd = [
            boxed("WD Blue 1TB", 1, 285, 211, 231, 72), boxed("DCM: YDE2DWY1G9", 2, 275, 281, 326, 86),
            boxed("Serial", 3, 263, 339, 89, 41),
            boxed("WD-WMC4NHCF8Y6T", 4, 459, 377, 349, 89), boxed("R/N: B2JJPA", 5, 253, 397, 195, 61),
            boxed("MDL: WD72EFRX-8Y891X", 6, 242, 456, 406, 100),
        ]
        #expect(Layout.tilt(of: wd) > 0.15)
        #expect(Layout.mended(wd, tilt: Layout.tilt(of: wd)).count == wd.count)
        #expect(SerialExtractor.candidates(wd).map(\.value) == ["WD-WMC4NHCF8Y6T"])
    }

    @Test("a quotation mark OCR read into a small keyword from a speck beside it does not hide the keyword")
    func quotedKeyword() {
        let readings = [
            boxed("Infusion Pump IP-300", 1, 301, 313, 233, 21), boxed("REF 732922", 2, 300, 347, 104, 14),
            boxed("‘S/N", 3, 300, 376, 25, 12),
            boxed("FUG96286", 4, 301, 397, 87, 14), boxed("(11) 231815", 5, 302, 424, 112, 17),
        ]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["FUG96286"])
    }

    @Test("a keyword's value is the nearest on its row, never one rows away or far to the left")
    func nearestOnly() {
        let readings = [
            boxed("S/N:", 1, 60, 100, 50), boxed("ZA1B2C3D", 2, 60, 300, 120), boxed("ZZ9Y8X7W", 3, 900, 160, 120), code("CND1234XYZ"),
        ]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["CND1234XYZ"])
    }

    @Test("a table on a label turned six degrees: each keyword takes the value along its tilted row, not the row above")
    func tiltedTable() {
        // Boxes as read off a Dell label turned clockwise: the Express Service Code's value
        // overlaps the service tag's row more than the tag does, square to the frame.
        let readings = [
            line("DELL Latitude 5420", 1, Box(x: 126, y: 45, width: 383, height: 65), slope: 0.100),
            line("72859947764", 2, Box(x: 625, y: 150, width: 230, height: 47)),
            line("Express Service Code:", 3, Box(x: 120, y: 101, width: 367, height: 61), slope: 0.089),
            line("XGYXJHW", 4, Box(x: 618, y: 197, width: 171, height: 46)),
            line("Service Tag (S/N):", 5, Box(x: 116, y: 148, width: 298, height: 59), slope: 0.095),
            line("0AL3WA", 6, Box(x: 614, y: 245, width: 144, height: 38)),
            line("DP/N:", 7, Box(x: 110, y: 197, width: 97, height: 35)),
        ]
        #expect(SerialExtractor.candidates(readings).map(\.value) == ["XGYXJHW"])
    }

    @Test(
        "a label turned ten degrees: a value longer than its caption, its box starting above the caption's middle, is under it along the tilt"
    )
    func tiltedUnder() {
        // An Apple label turned anticlockwise: "SERIAL NO" 39 high, its value 75 high round the
        // slope of a line twice as long, starting 12 pixels lower.
        let readings = [
            code("FVF7QZMA0UDY"), line("Mac mini", 1, Box(x: 97, y: 190, width: 145, height: 48)),
            line("Model: A5313", 2, Box(x: 108, y: 248, width: 194, height: 54), rough: -0.16),
            line("SERIAL NO", 3, Box(x: 118, y: 317, width: 133, height: 39), rough: -0.16),
            line("FVF7QZMA4UDY", 4, Box(x: 141, y: 329, width: 280, height: 75)),
            line("EMC: 0450", 5, Box(x: 134, y: 407, width: 151, height: 48)),
        ]
        #expect(Layout.tilt(of: readings) < -0.1)
        #expect(Layout.joined(readings).map(\.value).contains("SERIAL NO FVF7QZMA4UDY"))
        let found = SerialExtractor.candidates(readings)
        #expect(found.map(\.value) == ["FVF7QZMA4UDY", "FVF7QZMA0UDY"])
        #expect(found.first?.disagreesWith == ["FVF7QZMA0UDY"])
    }

    @Test("a tilted label whose lines are too short to show it: the drift of its columns does, and a line round a barcode does not")
    func tiltFromColumns() {
        // An Apple table turned clockwise: the serial's value lies across its keyword's row and
        // the next one's; the keyword column drifts left going down.
        let apple = [
            boxed("Mac mini", 1, 442, 189, 153, 38), boxed("Serial No.", 2, 437, 247, 148, 34),
            boxed("CO2LLMJ4ZSH9", 3, 720, 268, 235, 47), boxed("Model:", 4, 435, 295, 100, 32),
            boxed("A1414", 5, 716, 318, 100, 30), boxed("Part No.:", 6, 431, 345, 129, 33),
            boxed("MRU7SLL/A", 7, 714, 367, 176, 39),
            SerialReading(
                value: "SC02LLMJ1ZSH9", symbology: "CODE-128", place: "CODE-128 barcode", box: Box(x: 420, y: 475, width: 702, height: 107)),
        ]
        let candidates = SerialExtractor.candidates(apple)
        #expect(candidates.map(\.value) == ["C02LLMJ4ZSH9", "C02LLMJ1ZSH9"])
        #expect(candidates.first?.disagreesWith == ["C02LLMJ1ZSH9"])
        // A Cisco label turned the other way; what OCR made of the bars' ends lies level, by
        // its words, and is not taken for the label's tilt.
        var cisco = [
            boxed("crIsco WS", 1, 94, 252, 141, 31), boxed("FD00629NE7B", 2, 269, 286, 173, 32), boxed("SN:", 3, 97, 308, 41, 22),
            boxed("vo4", 4, 270, 336, 47, 23), boxed("VID:", 5, 99, 349, 58, 22), boxed("@A3MS2I572", 6, 274, 369, 157, 31),
            boxed("CLEL:", 7, 103, 388, 73, 24), boxed("TT in| min", 8, 321, 409, 245, 46), boxed("LLL Le", 9, 358, 563, 207, 30),
            SerialReading(
                value: "WS-C2960X-48FPD-L", symbology: "CODE-128", place: "CODE-128 barcode",
                box: Box(x: 113, y: 447, width: 878, height: 95)),
        ]
        cisco[7].slope = -0.014
        cisco[8].slope = 0.016
        #expect(SerialExtractor.candidates(cisco).first?.value == "FDO0629NE7B")
        // Boxes with no height (as no reader gives, but nothing stops a caller) tilt nothing.
        let flat = (0..<4).map { boxed("LINE\($0)", $0 + 1, 100, 100, 80, 0) }
        #expect(Layout.tilt(of: flat) == 0)
    }

    @Test("a table held twelve degrees off level: its columns still show the tilt; centred lines drifting either way do not")
    func steepTilt() {
        // A Supermicro table turned anticlockwise; every line is one word, so only the columns
        // (drifting right going down, a fifth of a pixel per pixel) show it.
        let supermicro = [
            boxed("SUPERMICRO X11DPi-N", 1, 146, 194, 335, 88), boxed("REV.", 2, 158, 311, 57, 33), boxed("1.03", 3, 323, 280, 53, 33),
            boxed("Model", 4, 169, 362, 73, 36), boxed("SYS-0192P-HVZ", 5, 332, 306, 203, 61), boxed("SN#", 6, 178, 419, 54, 33),
            boxed("OM78CB384154", 7, 342, 361, 199, 60), boxed("MAC", 8, 189, 472, 60, 34),
            boxed("74:8F:CF:14:B6:9E", 9, 352, 410, 226, 65),
            SerialReading(
                value: "748FCF14B69E", symbology: "CODE-128", place: "CODE-128 barcode", box: Box(x: 207, y: 541, width: 665, height: 33)),
        ]
        #expect(Layout.tilt(of: supermicro) < -0.15)
        #expect(SerialExtractor.candidates(supermicro).first?.value == "OM78CB384154")
        // Centred lines of different lengths: each starts a little left or right of the last.
        let centred = [
            boxed("SAMSUNG PM9A3", 1, 400, 100, 180, 24), boxed("MODEL: MZ-V8P1T0C", 2, 388, 148, 204, 24),
            boxed("FW: H924MGJ5", 3, 400, 196, 180, 24), boxed("MFG Date: 2023.08", 4, 388, 244, 204, 24),
        ]
        #expect(Layout.tilt(of: centred) == 0)
    }

    @Test("a tilted label whose lines are too short to show it and whose columns drift too steeply: its lines' rough slopes do")
    func roughTilt() {
        func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Word {
            Word(text: text, box: Box(x: x, y: y, width: width, height: height), confidence: 90)
        }
        func line(_ number: Int, _ box: Box, _ words: [Word]) -> SerialReading {
            SerialReading(Reading(value: words.map(\.text).joined(separator: " "), source: .text(line: number), box: box, words: words))
        }
        // A Juniper label turned eleven degrees anticlockwise: the caption after the serial lies
        // higher than it, the rows rising to the right.
        let juniper = [
            line(
                1, Box(x: 325, y: 118, width: 320, height: 84), [word("Juniper", 325, 155, 127, 47), word("EX2300-24T", 465, 118, 180, 52)]),
            line(
                2, Box(x: 357, y: 172, width: 271, height: 67), [word("MAC:", 357, 211, 62, 28), word("3176E5AD6703", 438, 172, 190, 52)]),
            line(3, Box(x: 397, y: 212, width: 206, height: 60), [word("WH3001233218", 397, 212, 206, 60)]),
            line(4, Box(x: 690, y: 177, width: 148, height: 44), [word("(SERIAL", 690, 188, 89, 33), word("NO.)", 788, 177, 50, 26)]),
            line(5, Box(x: 452, y: 266, width: 111, height: 37), [word("REV:", 452, 276, 60, 27), word("32", 531, 266, 32, 22)]),
        ]
        #expect(juniper.allSatisfy { $0.slope == nil })
        #expect(Layout.tilt(of: juniper) < -0.15)
        #expect(SerialExtractor.candidates(juniper).first?.value == "WH3001233218")
        // Level print's rough slopes are a pixel either way, both ways: no tilt.
        let level = [
            line(1, Box(x: 100, y: 100, width: 150, height: 26), [word("REV:", 100, 101, 60, 25), word("32", 190, 100, 30, 24)]),
            line(2, Box(x: 100, y: 150, width: 150, height: 26), [word("SN:", 100, 150, 60, 24), word("AB12", 180, 152, 80, 24)]),
        ]
        #expect(level.allSatisfy { $0.slope == nil && $0.roughSlope != nil })
        #expect(Layout.tilt(of: level) == 0)
    }

    @Test("a column goes from line to line: a title band twice as high does not reach past a row to the one under it")
    func columnSkipsNoLine() {
        // A Seagate table in slight perspective (rows rising a pixel in forty to the right),
        // under a title set in a dark band whose box is twice as high as a row.
        let seagate = [
            boxed("Seagate IronWolf 8TB", 1, 621, 89, 300, 50), boxed("Date Code:", 2, 373, 149, 130, 22),
            boxed("98464", 3, 586, 147, 68, 21), boxed("P/N:", 4, 370, 193, 50, 21), boxed("NWGVJ3-310", 5, 584, 188, 155, 23),
            boxed("S/N#:", 6, 368, 236, 56, 21), boxed("WFK8HQOWF", 7, 582, 231, 162, 23), boxed("Sc45", 8, 580, 275, 62, 21),
            SerialReading(
                value: "WFK8HQ0WF", symbology: "CODE-128", place: "CODE-128 barcode", box: Box(x: 363, y: 357, width: 505, height: 147)),
        ]
        #expect(abs(Layout.tilt(of: seagate)) < 0.1)
        // Paired along the wrong tilt, P/N took the serial's row and named the barcode a part number.
        #expect(SerialExtractor.candidates(seagate).map(\.value) == ["WFK8HQ0WF"])
    }

    @Test("a line's slope runs from its first word's centre to its last's, where they are far enough apart to show it")
    func lineSlope() throws {
        func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Word {
            Word(text: text, box: Box(x: x, y: y, width: width, height: height), confidence: 90)
        }
        let line = Reading(
            value: "Express Service Code:", source: .text(line: 3), box: Box(x: 120, y: 101, width: 367, height: 61),
            words: [word("Express", 120, 101, 132, 43), word("Service", 261, 115, 122, 37), word("Code:", 392, 128, 95, 34)])
        let slope = try #require(SerialReading(line).slope)
        #expect(abs(slope - 22.5 / 253.5) < 0.001)
        // Two short words side by side say too little.
        let short = Reading(
            value: "Mac mini", source: .text(line: 1), box: Box(x: 442, y: 189, width: 153, height: 38),
            words: [word("Mac", 442, 189, 70, 38), word("mini", 525, 192, 70, 35)])
        #expect(SerialReading(short).slope == nil)
        // A word boxed taller than the other by half again (cut by the frame's edge) has lost its centre.
        let cut = Reading(
            value: "KVM CONSOLE 8-PORT", source: .text(line: 1), box: Box(x: 235, y: 0, width: 359, height: 94),
            words: [word("KVM", 235, 0, 75, 62), word("CONSOLE", 315, 37, 139, 42), word("8-PORT", 474, 55, 120, 39)])
        #expect(SerialReading(cut).slope == nil)
    }
}

@Suite("A barcode and its print through OCR's confusions")
struct ConfusionTests {
    @Test("a print OCR could have made of the barcode's value is the same value: the barcode's text, agreeing")
    func sameValue() {
        for (printed, exact) in [("386885391200", "3S6885391200"), ("FDO40719320", "FDO4071Q320"), ("G8WQS5LUVJDBK", "G8WQ5LUVJDBK")] {
            let candidates = SerialExtractor.candidates([text("S/N: \(printed)", 1), code(exact)])
            #expect(candidates.map(\.value) == [exact], "\(printed)")
            #expect(candidates.first?.evidence == .agree)
            #expect(candidates.first?.disagreesWith == [])
        }
    }

    @Test("a difference no confusion explains is a disagreement; the confused characters in the print are the barcode's")
    func disagreement() {
        let candidates = SerialExtractor.candidates([text("S/N: PFUCHKOS", 1), code("PFUZHK0S")])
        #expect(Set(candidates.map(\.value)) == ["PFUCHK0S", "PFUZHK0S"])
        #expect(candidates.allSatisfy { $0.disagreesWith.count == 1 })
        // One character read twice is not a difference: it only joins when it sits beside its look-alike.
        #expect(Tokens.readAs("G8WQS5L", "G8WQ5L"))
        #expect(!Tokens.readAs("G8WQX5L", "G8WQ5L"))
        #expect(!Tokens.readAs("58668823", "58638823"))
        // One or two letters read in lower case stand for whatever the barcode has there; a
        // reading with more is junk, not the value.
        #expect(Tokens.readAs("nW5109081198", "RW5109081198"))
        #expect(Tokens.readAs("onF4K5A9", "ZAF4K5A9"))
        #expect(!Tokens.readAs("Eveeszgosss2", "EY8692808502"))
        #expect(!Tokens.readAs("NW5109081198", "RW5109081198"))
    }

    @Test("a code's line read with a small letter where the code has a capital agrees with the code: no disagreement shown")
    func smallLetter() {
        // A Juniper label's 2-D code and its line (a development label of the second corpus,
        // under JPEG): tesseract read the line's R as "n".
        let c = SerialExtractor.candidates([text("Juniper EX4300-48T", 1), text("nW5109081198", 2), code("RW5109081198", "QR-Code")])
        #expect(c.map(\.value) == ["RW5109081198"], "\(c)")
        #expect(c.map(\.evidence) == [.agree], "\(c)")
    }

    @Test("a print with a character read twice beside a barcode one shorter that differs besides: once, and disagreeing")
    func doubledAndDifferent() {
        let candidates = SerialExtractor.candidates([text("Seagate Exos X18", 1), text("S/N: ZA8MGGXYY", 2), code("ZA8NGGXY")])
        #expect(candidates.map(\.value) == ["ZA8MGGXY", "ZA8NGGXY"])
        #expect(candidates.map(\.disagreesWith) == [["ZA8NGGXY"], ["ZA8MGGXY"]])
        // Where a barcode is the same field as the print stands, nothing is taken out of it.
        let whole = SerialExtractor.candidates([text("Serial No.: SRRAHG0T437729S", 1), code("SXRAHG0T437729S")])
        #expect(whole.first?.value == "SRRAHG0T437729S")
        #expect(whole.first?.disagreesWith == ["SXRAHG0T437729S"])
    }

    @Test("a barcode's own human-readable line disagreeing with it is shown disagreeing, after it; a labelled print still first")
    func humanReadableDisagrees() {
        let alone = SerialExtractor.candidates([text("WD -WX12DCCAL3UB", 3), code("WD-WX12DCCAL7UB")])
        #expect(alone.map(\.value) == ["WD-WX12DCCAL7UB", "WD-WX12DCCAL3UB"])
        #expect(alone.map(\.disagreesWith) == [["WD-WX12DCCAL3UB"], ["WD-WX12DCCAL7UB"]])
        // The barcode backed only by its own line still disagrees with the labelled print.
        let labelled = SerialExtractor.candidates([text("S/N: AS7553146335", 1), text("AS7556146335", 9), code("AS7556146335")])
        #expect(labelled.map(\.value) == ["AS7553146335", "AS7556146335"])
        #expect(labelled.allSatisfy { $0.disagreesWith.count == 1 })
        // Where a labelled print backs the barcode, a line that misread it is noise.
        let backed = SerialExtractor.candidates([text("Serial DMPF3K9LQ1GC", 3), text("DMPF3KSLQ1GC", 4), code("DMPF3K9LQ1GC")])
        #expect(backed.map(\.value) == ["DMPF3K9LQ1GC"])
        // The print a character from the barcode's value without its S (a keyword lost to a
        // shadow) is that value printed, disagreeing: the S is the data identifier's.
        let shadowed = SerialExtractor.candidates([text("Seagate Exos X18", 1), text("ZRE4LQT4", 3), code("SZRE5LQT4")])
        #expect(shadowed.map(\.value) == ["ZRE5LQT4", "ZRE4LQT4"])
        #expect(shadowed.last?.disagreesWith == ["ZRE5LQT4"])
    }

    @Test("a QR code holding only a value of letters is a candidate, as a linear barcode's is")
    func lettersInQR() {
        #expect(SerialExtractor.candidates([text("Seagate Exos X18", 1), code("ZLPWUYYA", "QR-Code")]).map(\.value) == ["ZLPWUYYA"])
    }

    @Test("an S before a serial: the exact value first, and without the S only as a second reading")
    func sPrefix() {
        #expect(SerialExtractor.candidates([code("SC0485383502")]).map(\.value).first == "SC0485383502")
        #expect(SerialExtractor.candidates([text("(S) Serial No. C0485383502", 1), code("SC0485383502")]).first?.value == "C0485383502")
        // In no vendor's format, with or without the S: the rest is still offered, after it (the
        // S may be MH10.8.2's serial identifier), where it is shaped like a serial.
        let plain = SerialExtractor.candidates([code("S07461961")])
        #expect(plain.map(\.value) == ["S07461961", "07461961"])
        #expect(plain.map(\.evidence) == [.barcode, .barcode])
        // A word of letters is not cut: its rest is no serial.
        #expect(SerialExtractor.candidates([code("SHELVING")]).map(\.value) == ["SHELVING"])
    }

    @Test("an S before a value only a vendor's format explains without it: the value without the S first")
    func sPrefixDecisive() {
        for (data, serial) in [
            ("S5CG3458Q39", "5CG3458Q39"), ("SSW05DT0L456706M", "SW05DT0L456706M"), ("SWD-WCC4N5DTUYT5", "WD-WCC4N5DTUYT5"),
        ] {
            #expect(SerialExtractor.candidates([code(data)]).map(\.value) == [serial, data], "\(data)")
        }
        // An S-led Samsung serial is whole as it is.
        #expect(SerialExtractor.candidates([code("SW05DT0L456706M")]).map(\.value) == ["SW05DT0L456706M"])
    }

    @Test("a labelled print OCR cut short or split is the start or end of the barcode's value: one value, agreeing")
    func partialPrint() {
        let cut = SerialExtractor.candidates([text("(21) SZN5", 4), code("SZN54626")])
        #expect(cut.map(\.value) == ["SZN54626"])
        #expect(cut.first?.evidence == .agree)
        #expect(SerialExtractor.candidates([text("S/N: CND 92800M5", 2), code("SCND92800M5")]).map(\.value).first == "CND92800M5")
        #expect(SerialExtractor.candidates([text("SN: WMC4NQKV2RZK", 2), code("WD-WMC4NQKV2RZK")]).map(\.value) == ["WD-WMC4NQKV2RZK"])
        // Less than half of it, or unlabelled, is not enough.
        #expect(SerialExtractor.candidates([text("S/N: SZN5", 4), code("SZN5462699")]).count == 2)
        // Characters lost within it (a spot of glare), and a start read through a confusion
        // (E for F), are what is left of it too.
        let glare = SerialExtractor.candidates([text("SN: WN3435856", 2), code("WN3435830056")])
        #expect(glare.map(\.value) == ["WN3435830056"] && glare.first?.evidence == .agree)
        #expect(SerialExtractor.candidates([text("SN PENK", 5), code("PFNKEZP5")]).map(\.value) == ["PFNKEZP5"])
        #expect(Tokens.partOf("WN3435856", "WN3435830056") && Tokens.partOf("PENK", "PFNKEZP5"))
        // Not where its ends differ from the barcode's, nor a value as long as it.
        #expect(!Tokens.partOf("XN3435856", "WN3435830056") && !Tokens.partOf("WN3435857", "WN3435830056"))
        #expect(!Tokens.partOf("WN3435830057", "WN3435830056"))
    }

    @Test("a stray character in a long printed value is noise, not a difference: the print is the barcode's value")
    func strayInPrint() {
        #expect(Tokens.readAs("ZR6ESLMPK", "ZR6SLMPK"))
        #expect(Tokens.readAs("SG2Z2EHAOY510783M", "SG2EHA0Y510783M"))
        // Two strays in a value under twelve, a stray and a change no confusion explains, a
        // stray in a short value not beside its look-alike: none of these.
        #expect(!Tokens.readAs("ZR6ESLMPKX", "ZR6SLMPK"))
        #expect(!Tokens.readAs("ZR6ESLMPQ", "ZR6SLMPK"))
        #expect(!Tokens.readAs("G8WQX5L", "G8WQ5L"))
        let candidates = SerialExtractor.candidates([text("S/N: ZR6ESLMPK", 1), code("ZR6SLMPK")])
        #expect(candidates.map(\.value) == ["ZR6SLMPK"])
        #expect(candidates.first?.evidence == .agree)
    }

    @Test("a character read twice where the maker's format has no place for it: the value as read, then without it")
    func strayOnMakersLabel() {
        // Lenovo's format has eight characters; nine were read, an O beside a 0: the letter is
        // taken out, the digit kept (after the value with 0 for O, and as read); the Q beside the
        // 0 taken out instead is offered after that.
        let lenovo = SerialExtractor.candidates([text("Lenovo ThinkPad T14", 1), text("SN: PFWQO0Q8V", 2)])
        #expect(lenovo.map(\.value) == ["PFWQ00Q8V", "PFWQO0Q8V", "PFWQ0Q8V", "PFWQO08V"])
        #expect(lenovo[2].whereRead == ["printed line 2 (a character read twice taken out)"])
        #expect(lenovo.last?.whereRead == ["printed line 2 (a character read twice taken out)"])
        // A Dell tag has seven; a P beside a P is one read twice.
        #expect(
            SerialExtractor.candidates([text("DELL Latitude 5420", 1), text("S/N JX4PP2M9", 2)]).map(\.value) == ["JX4PP2M9", "JX4P2M9"])
        // Of two ways to take one out, a letter beside the digit it looks like first: two letters
        // alike are often both printed.
        let lenovoFormats = Grammar.known.filter { $0.vendor == "Lenovo" }
        #expect(Tokens.strayReadings("PFMMRGP5S", formats: lenovoFormats, barcodes: []) == ["PFMMRGP5", "PFMRGP5S"])
        // Noise read as a letter in a print a barcode one shorter disagrees with: the barcode
        // says which character is the stray one, and the two are shown disagreeing.
        let wd = SerialExtractor.candidates([
            boxed("WD Blue 1TB", 1, 236, 179, 185, 22), boxed("R/N: Y6EXR1", 2, 237, 241, 162, 18),
            boxed("WD-WCC4NQWD9YFG3", 3, 236, 290, 305, 24), boxed("SER NO", 4, 590, 292, 89, 17), code("WD-WCC4NQWD4FG3"),
        ])
        #expect(wd.map(\.value) == ["WD-WCC4NQWD9FG3", "WD-WCC4NQWD4FG3"])
        #expect(wd.first?.disagreesWith == ["WD-WCC4NQWD4FG3"])
        // A character read three times, where the maker's format has no place for two of them.
        let samsung = SerialExtractor.candidates([text("SAMSUNG PM9A3", 1), text("SERIAL NO ST53LROP578742XxX", 2)])
        #expect(samsung.map(\.value).contains("ST53LR0P578742X"))
        #expect(samsung.contains { $0.whereRead == ["printed line 2 (a character read twice taken out)"] })
        let formats = Grammar.known.filter { $0.vendor == "Samsung" }
        #expect(Tokens.strayReadings("ST53LR0P578742XXX", formats: formats, barcodes: []) == ["ST53LR0P578742X"])
        // Two characters read twice each are not one read three times.
        #expect(Tokens.strayReadings("ST53LR0P5787422XX", formats: formats, barcodes: []) == [])
        // No maker named, or a value its format fits: nothing more.
        #expect(SerialExtractor.candidates([text("SN: PFWQO0Q8V", 2)]).map(\.value) == ["PFWQ00Q8V", "PFWQO0Q8V", "PFWQQ0Q8V"])
        #expect(SerialExtractor.candidates([text("DELL Latitude 5420", 1), text("S/N JX4P2M9", 2)]).map(\.value) == ["JX4P2M9"])
        // Where the stray character's removal is decisive, the one that leaves least to correct.
        #expect(
            SerialExtractor.candidates([text("APC Back-UPS Pro 900", 1), text("Serial Number 3S89981739543", 2)]).map(\.value) == [
                "3S9981739543"
            ])
    }

    @Test("E read for F and 3 for J, as measured on the rendered labels, are confusions too")
    func moreConfusions() {
        #expect(Tokens.readAs("PEFV7PPVW", "PFV7PPVW"))
        #expect(SerialExtractor.candidates([text("S/N: G30508977684", 1), code("GJ0508977684")]).map(\.value) == ["GJ0508977684"])
    }

    @Test("S read for 9, print smeared sideways, is a confusion too; beside a real difference the print's S is the barcode's 9")
    func sForNine() {
        #expect(Tokens.readAs("DMPTFMESUHRL", "DMPTFME9UHRL"))
        let agreeing = SerialExtractor.candidates([text("S/N: DMPTFMESUHRL", 1), code("DMPTFME9UHRL")])
        #expect(agreeing.map(\.value) == ["DMPTFME9UHRL"])
        #expect(agreeing.first?.evidence == .agree)
        let disagreeing = SerialExtractor.candidates([text("Serial No.: FVFNDXHECMS7", 1), code("FVFNDXLECM97")])
        #expect(Set(disagreeing.map(\.value)) == ["FVFNDXHECM97", "FVFNDXLECM97"])
        #expect(disagreeing.allSatisfy { $0.disagreesWith.count == 1 })
        // Not a difference of one digit for another: 5 and 9 still disagree.
        #expect(!Tokens.readAs("ZA5FMH6Y", "ZA9FMH6Y"))
    }

    @Test("two printed lines that come to one value beside a barcode are one row, read in both places")
    func oneRowAValue() {
        // The second line's I and O are the barcode's J and 0: both lines are XJ5065198661,
        // which disagrees with the barcode by a 5 for its 9.
        let candidates = SerialExtractor.candidates([
            text("SERIAL: XJ5065198661", 1), text("SERIAL: XI5O65198661", 2), code("XJ9065198661"),
        ])
        #expect(candidates.map(\.value).sorted() == ["XJ5065198661", "XJ9065198661"])
        let printed = candidates.first { $0.value == "XJ5065198661" }
        #expect(printed?.whereRead == ["printed line 1", "printed line 2"])
        #expect(printed?.disagreesWith == ["XJ9065198661"])
        #expect(candidates.first { $0.value == "XJ9065198661" }?.disagreesWith == ["XJ5065198661"])
    }

    @Test("Lenovo's 1S in a QR code: the last 8 characters after the 10 of the machine type and model")
    func lenovoQR() {
        #expect(SerialExtractor.candidates([code("1S39F9W5DKKYPFLW8D5M", "QR-Code")]).map(\.value) == ["PFLW8D5M"])
    }

    @Test("Apple never prints O or I in a serial: OCR's O is a zero there")
    func appleNoO() {
        // Never the O as read; a Q that lost its tail, after the 0.
        #expect(SerialExtractor.candidates([text("Serial Number: C02GNOQ27VYX", 1)]).map(\.value) == ["C02GN0Q27VYX", "C02GNQQ27VYX"])
        // Wherever the O stands, a digit in the year's place included.
        #expect(SerialExtractor.candidates([text("Serial Number: F5K7OPQ2H3LM", 1)]).map(\.value).first == "F5K70PQ2H3LM")
        #expect(SerialExtractor.candidates([text("Serial Number: F5KO7PQ2H3LM", 1)]).map(\.value).first == "F5K07PQ2H3LM")
        #expect(!SerialExtractor.candidates([text("Serial Number: F5KO7PQ2H3LM", 1)]).contains { $0.value.contains("O") })
    }

    @Test("Samsung's seventh character is a 0; Cisco's serials, like Apple's, have no O or I")
    func vendorZeros() {
        #expect(SerialExtractor.candidates([text("S/N: SJFXPLOE682655V", 1)]).map(\.value) == ["SJFXPL0E682655V"])
        // Whatever OCR read for it: a G or a 6 from a blurred 0.
        #expect(SerialExtractor.candidates([text("S/N: SF44VCGB627241R", 1)]).map(\.value) == ["SF44VC0B627241R"])
        #expect(SerialExtractor.candidates([text("S/N: SN6TWM6J594475G", 1)]).map(\.value) == ["SN6TWM0J594475G"])
        #expect(SerialExtractor.candidates([text("SN: FCW1691ASGO", 1)]).map(\.value) == ["FCW1691ASG0", "FCW1691A5G0", "FCW1691ASGQ"])
        // Cisco's factory code keeps its O.
        #expect(SerialExtractor.candidates([text("SN: FDO4392J1Y7", 1)]).map(\.value) == ["FDO4392J1Y7"])
    }

    @Test("APC's factory code read as digits is undone, on a label that names APC only")
    func apcFactory() {
        let apc = [text("APC Smart-UPS 1500", 1), text("S/N: 387659828139", 2)]
        #expect(SerialExtractor.candidates(apc).map(\.value) == ["3S7659828139"])
        // Twelve digits on anyone else's label are twelve digits.
        #expect(SerialExtractor.candidates([text("RACK PDU 32A", 1), text("S/N: 387659828139", 2)]).map(\.value) == ["387659828139"])
    }

    @Test("a character OCR read twice is taken out where a vendor's format then fits; a barcode says which better")
    func strayCharacter() {
        #expect(SerialExtractor.candidates([text("S/N: SNXFJPO0G602322H", 1)]).map(\.value) == ["SNXFJP0G602322H"])
        #expect(SerialExtractor.candidates([text("Serial: CO2ZEN8RYYRR1", 1)]).map(\.value) == ["C02EN8RYYRR1"])
        // Both the 8 and the O could go; the barcode shows it was the O.
        let read = SerialExtractor.candidates([text("Serial No.: S8WGMMO0B052082H", 1), code("S8WGMM0B052082H")])
        #expect(read.map(\.value) == ["S8WGMM0B052082H"])
        #expect(read.first?.evidence == .agree)
        // A value no format fits is left as it was read.
        #expect(SerialExtractor.candidates([text("S/N: ZQ77KXX378820", 1)]).map(\.value) == ["ZQ77KXX378820"])
    }

    @Test("OCR's $ and @ in a serial are S and 0, and a bracket J")
    func symbols() {
        // (Not Apple's DMQ plant, which would need two of its three characters misread.)
        #expect(SerialExtractor.candidates([text("SN: OM@5GL991678", 1)]).map(\.value).first == "OM05GL991678")
        #expect(SerialExtractor.candidates([text("S/N: $CQ1TJOM736032U", 1)]).map(\.value) == ["SCQ1TJ0M736032U"])
        // A bracket is OCR's J.
        #expect(SerialExtractor.candidates([text("S/N: FCW7190M15}", 1)]).map(\.value) == ["FCW7190M15J"])
        #expect(SerialExtractor.candidates([text("Serial No FDO665565)F", 1)]).map(\.value) == ["FDO665565JF"])
        // With no keyword left, the values offered for their shape are read so too.
        #expect(
            SerialExtractor.candidates([text("SUPERMICRO SYS-1029P-WTR", 1), text("OM@5GL991678", 2)]).map(\.value) == ["OM05GL991678"])
        // Western Digital's hyphen read as a space.
        #expect(SerialExtractor.candidates([text("WD Gold 12TB", 1), text("SN WD WMC4NX6LHL24", 2)]).map(\.value) == ["WD-WMC4NX6LHL24"])
        #expect(SerialExtractor.candidates([boxed("WD-WX12DCUCVZF] (SN)", 3, 386, 328, 462, 32)]).map(\.value) == ["WD-WX12DCUCVZFJ"])
    }

    @Test(
        "a printed value with an O is offered with 0 for O too, before it, letters only or among digits; with an I, J for I and 1 for I, after it"
    )
    func zeroForO() {
        let candidates = SerialExtractor.candidates([text("S/N: EBKO7418", 1)])
        #expect(candidates.map(\.value) == ["EBK07418", "EBKO7418", "EBKQ7418"])
        #expect(candidates.map(\.whereRead) == [["printed line 1 (0 for O)"], ["printed line 1"], ["printed line 1 (Q for O)"]])
        #expect(SerialExtractor.candidates([text("SN: ZLBTMJDO", 1)]).map(\.value) == ["ZLBTMJD0", "ZLBTMJDO", "ZLBTMJDQ"])
        // J, which OCR reads as I (measured on the development labels: 19 of the 22 I's read in
        // serials were J's, none an I), likewise.
        let jays = SerialExtractor.candidates([text("Serial Number: PFGLPLIM", 1)])
        // After it, 1 for I, which OCR reads as I too.
        #expect(jays.map(\.value) == ["PFGLPLIM", "PFGLPLJM", "PFGLPL1M"])
        #expect(jays.map(\.whereRead).dropFirst() == [["printed line 1 (J for I)"], ["printed line 1 (1 for I)"]])
        let zod = SerialExtractor.candidates([text("SN: ZOD77IC7", 1)])
        #expect(zod.map(\.whereRead).suffix(2) == [["printed line 1 (0 for O, J for I)"], ["printed line 1 (1 for I)"]])
        // An S and an I both read for digits: each alone, then the two together, last.
        let both = SerialExtractor.candidates([text("S/N: ZASXIU52", 1)])
        #expect(both.map(\.value).suffix(3) == ["ZA5XIU52", "ZASX1U52", "ZA5X1U52"], "\(both.map(\.value))")
        #expect(
            both.last?.provenance.first?.remakes == [
                .lookAlikes([Provenance.LookAlike("5", for: "S"), Provenance.LookAlike("1", for: "I")])
            ])
        // Mostly digits, its letters all ones OCR makes of digits: offered as all digits.
        let digits = SerialExtractor.candidates([text("SERIAL NO. OG355481", 1)])
        #expect(digits.map(\.value) == ["OG355481", "06355481"])
        #expect(digits.last?.whereRead == ["printed line 1 (read as digits)"])
        #expect(SerialExtractor.candidates([text("S/N: GJ0508977684", 1)]).map(\.value) == ["GJ0508977684"])
        // Disagreeing with a barcode that has a digit there, an O is the print's 0.
        let disagreeing = SerialExtractor.candidates([text("S/N: LVOR72N", 1), code("LV3R72N")])
        #expect(disagreeing.map(\.value) == ["LV0R72N", "LV3R72N"])
        // Backed by a barcode, the barcode's exact text is the value: no second reading.
        #expect(SerialExtractor.candidates([text("S/N: EBKO7418", 1), code("EBK07418")]).map(\.value) == ["EBK07418"])
        // Offered for its shape alone (no keyword left), a value is read again the same way.
        #expect(
            SerialExtractor.candidates([text("Seagate IronWolf", 1), text("ZAF2YJO7", 2)]).map(\.value) == [
                "ZAF2YJ07", "ZAF2YJO7", "ZAF2YJQ7",
            ])
    }

    @Test("a printed O no barcode settles may be a Q that lost its tail: offered last, where the format leaves a letter possible")
    func qForO() {
        let samsung = SerialExtractor.candidates([text("SAMSUNG PM9A3", 1), text("SN: SOFWGSOX685666S", 2)])
        #expect(samsung.map(\.value) == ["S0FWGS0X685666S", "SOFWGS0X685666S", "SQFWGS0X685666S"])
        #expect(samsung.last?.whereRead == ["printed line 2 (Q for O)"])
        // Apple never prints an O: the O read is a 0 first, a Q second.
        let apple = SerialExtractor.candidates([text("Mac mini", 1), text("Serial No. G8WNJXLOKGYB", 2)])
        #expect(apple.map(\.value) == ["G8WNJXL0KGYB", "G8WNJXLQKGYB"])
        // A barcode settles it; a value without an O has none.
        #expect(SerialExtractor.candidates([text("SN: SOFWGSOX685666S", 1), code("S0FWGS0X685666S")]).map(\.value) == ["S0FWGS0X685666S"])
        #expect(SerialExtractor.candidates([text("S/N: FY9QGSW", 1)]).map(\.value) == ["FY9QGSW", "FY9QG5W"])
        #expect(Tokens.qReading("SOFWGSOX685666S", corrected: "SOFWGS0X685666S", formats: Grammar.known, barcodes: []) == "SQFWGS0X685666S")
        // Supermicro's plant letter is a letter as it stands; a value out of the named maker's format is left alone.
        #expect(SerialExtractor.candidates([text("S/N: OM78CB384154", 1)]).map(\.value) == ["OM78CB384154"])
        #expect(SerialExtractor.candidates([text("Lenovo ThinkPad T14", 1), text("SN: PFWQO0Q8V", 2)]).map(\.value).count == 4)
        // With no keyword read, the values in the maker's format are offered the same way.
        let unlabelled = SerialExtractor.candidates([
            boxed("SAMSUNG PM9A3", 1, 218, 245, 279, 22), boxed("2023.05", 2, 450, 312, 139, 20), boxed("MFG Date:", 3, 213, 313, 176, 19),
            boxed("SOFWGSOX685666S", 4, 451, 369, 298, 24), boxed("WEYCOSRB", 5, 448, 426, 162, 24), boxed("Fw:", 6, 214, 427, 55, 19),
        ])
        #expect(unlabelled.map(\.value).last == "SQFWGS0X685666S")
        #expect(unlabelled.last?.whereRead == ["printed line 4 (Q for O)"])
    }

    @Test("an S after the first character is offered as 5 too, after the value; not a prefix or letter a format fixes")
    func fiveForS() {
        let apple = SerialExtractor.candidates([text("S/N: C0279RNBS8VA", 1)])
        #expect(apple.map(\.value) == ["C0279RNBS8VA", "C0279RNB58VA"])
        #expect(apple.last?.whereRead == ["printed line 1 (5 for S)"])
        // On the reading listed first: with 0 for O.
        #expect(
            SerialExtractor.candidates([text("SN: WD-WMC4NOES3VVL", 1)]).map(\.value) == [
                "WD-WMC4N0ES3VVL", "WD-WMC4NOES3VVL", "WD-WMC4N0E53VVL", "WD-WMC4NQES3VVL",
            ])
        #expect(SerialExtractor.candidates([text("SN: WD-WMC4NOES3VVL", 1)])[2].whereRead == ["printed line 1 (0 for O, 5 for S)"])
        // Between letters too, every S after the first character at once, on the reading with 0 for O.
        #expect(SerialExtractor.candidates([text("S/N: FY9QGSW", 1)]).map(\.value) == ["FY9QGSW", "FY9QG5W"])
        #expect(SerialExtractor.candidates([text("Serial: ZLSRNFV8", 1)]).map(\.value) == ["ZLSRNFV8", "ZL5RNFV8"])
        #expect(SerialExtractor.candidates([text("SN: DOSKSRT4", 1)]).map(\.value) == ["D0SKSRT4", "DOSKSRT4", "D05K5RT4"])
        // First: an S.
        #expect(SerialExtractor.candidates([text("S/N: S4K7AB12", 1)]).map(\.value) == ["S4K7AB12"])
    }

    @Test("a print read twice, the readings apart only by confusions: the first is the value, the other offered after it")
    func readAnotherWay() {
        // The page read again (sharpened, or a row at another size) read a D the first reading took for a 0.
        let dell = SerialExtractor.candidates([text("S/N: Q35010D", 1), text("S/N: Q35D10D", 2)])
        #expect(dell.map(\.value) == ["Q35010D", "Q35D10D"])
        #expect(dell.last?.whereRead == ["printed line 2 (read another way)"])
        // After the value's own second readings; a reading the same as the first adds nothing.
        #expect(
            SerialExtractor.candidates([text("SN: ZLSRNFV8", 1), text("SN: ZLSRNFV8", 2), text("SN: ZL5RNFVB", 3)]).map(\.value) == [
                "ZLSRNFV8", "ZL5RNFV8", "ZL5RNFVB",
            ])
        // Backed by a barcode, the barcode's exact text is the value, and no other reading is offered.
        #expect(
            SerialExtractor.candidates([text("S/N: Q35010D", 1), text("S/N: Q35Q10D", 2), code("Q35Q10D")]).map(\.value) == ["Q35Q10D"])
        // APC's factory code on an APC label, and Samsung's leading S, are the formats'.
        #expect(
            SerialExtractor.candidates([text("APC Smart-UPS 1500", 1), text("Serial no. 3S7659828139", 2)]).map(\.value) == ["3S7659828139"]
        )
        #expect(SerialExtractor.candidates([text("SN: S6F6EY0E447000K", 1)]).map(\.value) == ["S6F6EY0E447000K"])
    }

    @Test("a print read twice, the later reading the likelier where OCR reads one's character as the other's: it is first")
    func likelierReading() {
        // Read off an iPad label: the page read again took the S OCR made of a 5 for the 5 it is.
        let apple = SerialExtractor.candidates([text("S/N#: DMPG1VSQ7VTT", 1), text("S/N#: DMPG1V5Q7VTT", 2)])
        #expect(apple.map(\.value) == ["DMPG1V5Q7VTT", "DMPG1VSQ7VTT"])
        #expect(apple.first?.whereRead == ["printed line 1", "printed line 2"])
        #expect(apple.last?.whereRead == ["printed line 1 (read another way)"])
        // A Q OCR read as 0 (the two fold alike), a J it read as I and an S it read as 8 (they do not).
        #expect(SerialExtractor.candidates([text("S/N: Q35010D", 1), text("S/N: Q35Q10D", 2)]).map(\.value) == ["Q35Q10D", "Q35010D"])
        #expect(
            SerialExtractor.candidates([text("S/N: S2HRIM0R011285A", 1), text("S/N: S2HRJM0R011285A", 2)]).map(\.value).first
                == "S2HRJM0R011285A")
        #expect(
            SerialExtractor.candidates([text("Serial: WFKS8ZVTH", 1), text("Serial: WFKSSZVTH", 2)]).map(\.value).first == "WFKSSZVTH")
        // Read the other way round, the first reading is the likelier and stays first.
        #expect(
            SerialExtractor.candidates([text("S/N#: DMPG1V5Q7VTT", 1), text("S/N#: DMPG1VSQ7VTT", 2)]).map(\.value) == [
                "DMPG1V5Q7VTT", "DMPG1VSQ7VTT",
            ])
        #expect(
            SerialExtractor.candidates([text("S/N: S2HRJM0R011285A", 1), text("S/N: S2HRIM0R011285A", 2)]).map(\.value).first
                == "S2HRJM0R011285A")
        // A reading apart by anything else besides stays after the first (an 8 read as B is no
        // sign that a B was printed).
        #expect(
            SerialExtractor.candidates([text("SN: ZLSRNFV8", 1), text("SN: ZL5RNFVB", 2)]).map(\.value) == [
                "ZLSRNFV8", "ZL5RNFV8", "ZL5RNFVB",
            ])
        // An S no reading reads as 5 is kept in the value (and offered as 5 after it, as ever).
        #expect(
            SerialExtractor.candidates([text("S/N: DMPJSN2ZBVTS", 1), text("S/N: DMPJSN2ZBVT5", 2)]).map(\.value) == [
                "DMPJSN2ZBVT5", "DMPJ5N2ZBVT5", "DMPJSN2ZBVTS",
            ])
    }

    @Test("Supermicro's serials open with a plant letter and M: an O there is a letter, a 0 read there is that O")
    func supermicroPlant() {
        #expect(SerialExtractor.candidates([text("S/N: 0M78CB384154", 1)]).map(\.value) == ["OM78CB384154"])
        #expect(SerialExtractor.candidates([text("S/N: OM78CB384154", 1)]).map(\.value) == ["OM78CB384154"])
        #expect(SerialExtractor.candidates([text("S/N: VM91SB245923", 1)]).map(\.value) == ["VM91SB245923"])
    }
}

@Suite("What is not a serial, and values OCR split")
struct NotSerialTests {
    @Test("a Dell PPID barcoded without its revision (20 characters) is a part, not the serial")
    func ppidWithoutRevision() {
        #expect(NotSerial.isDellPPID("CN0XJQQJ254298FD6L6G"))
        #expect(NotSerial.isDellPPID("CN-0XJQQJ-25429-8FD-6L6G"))
        #expect(NotSerial.isDellPPID("CN-0WV1JQ-89856-1AB-0123-A00"))
        #expect(!NotSerial.isDellPPID("WD-WCC4N1234567ABCDE"))
        // Printed, its 0 read as O, and named by a serial keyword it was wrongly paired with.
        #expect(NotSerial.isDellPPID("CN-OUNKHU-02032-55L-EM23"))
        #expect(SerialExtractor.candidates([text("S/N: CN-OUNKHU-02032-55L-EM23", 1), code("BLQP203")]).map(\.value) == ["BLQP203"])
        let candidates = SerialExtractor.candidates([code("CN0XJQQJ254298FD6L6G"), code("FTCJGJF")])
        #expect(candidates.map(\.value) == ["FTCJGJF"])
    }

    @Test("a MAC address printed with colons rules out its barcode without them")
    func macBarcode() {
        let candidates = SerialExtractor.candidates([text("MAC: E1:CE:23:83:A3:07", 1), code("E1CE2383A307"), code("ZM55LC387938")])
        #expect(candidates.map(\.value) == ["ZM55LC387938"])
    }

    @Test("a hyphen OCR set apart from one side joins the value again")
    func hyphen() {
        #expect(SerialExtractor.candidates([text("S/N: WD -WMC4NLVZR3RW", 1)]).map(\.value) == ["WD-WMC4NLVZR3RW"])
        #expect(Tokens.joinedHyphens("WD- WCC4N1234567") == "WD-WCC4N1234567")
        #expect(Tokens.joinedHyphens("Serial - 12345") == "Serial - 12345")
    }
}

@Suite("A character OCR read twice from the same ink, as its boxes show")
struct ReadOnceTests {
    func printed(_ value: String, _ line: Int, once: [String: String]) -> SerialReading {
        SerialReading(value: value, symbology: nil, place: "printed line \(line)", readOnce: once)
    }

    @Test("the value without it is offered too: first where the maker's format fits it and not the value as read")
    func offered() {
        // Lenovo's serials have eight characters; "PF5QHU9ON" has nine, its O boxed inside the 9.
        let lenovo = SerialExtractor.candidates([
            text("Lenovo ThinkCentre M70q", 1), printed("S/N. PF5QHU9ON", 2, once: ["PF5QHU9ON": "PF5QHU9N"]),
        ])
        #expect(lenovo.map(\.value) == ["PF5QHU9N", "PF5QHU90N", "PF5QHU9ON"])
        #expect(lenovo.first?.whereRead == ["printed line 2 (a character read twice taken out)"])
        // No maker named: after the value as read, which is still offered first.
        let plain = SerialExtractor.candidates([printed("S/N. WFKC9OTKMR", 1, once: ["WFKC9OTKMR": "WFKC9TKMR"])])
        #expect(plain.map(\.value) == ["WFKC90TKMR", "WFKC9OTKMR", "WFKC9TKMR", "WFKC9QTKMR"])
        // Where the maker's format says the same by another character, the format's reading stands.
        let strays = SerialExtractor.candidates([
            text("Lenovo ThinkPad T14", 1), printed("SN: PFMMRGP5S", 2, once: ["PFMMRGP5S": "PFMMRGPS"]),
        ])
        #expect(strays.map(\.value).contains("PFMMRGP5") && strays.first?.value == "PFMMRGP5S")
        // Found in the words of the value's own line when a keyword's line took it.
        let table = SerialExtractor.candidates([
            boxed("Lenovo ThinkCentre M70q", 1, 200, 100, 300),
            boxed("S/N", 2, 200, 200, 50),
            SerialReading(
                value: "PF5QHU9ON", symbology: nil, place: "printed line 3", box: Box(x: 400, y: 200, width: 150, height: 24),
                readOnce: ["PF5QHU9ON": "PF5QHU9N"]),
        ])
        #expect(table.first?.value == "PF5QHU9N")
    }

    @Test("never evidence that a barcode a character away agrees; not offered where the print as read agrees with one")
    func notEvidence() {
        // The boxes took the 9 and the Y both for strays: "WD-WCC4NQWDFG3" is the barcode's value
        // less a character, but the print, with its Y read twice, still differs from it by a digit.
        let wd = SerialExtractor.candidates([
            printed("SER NO WD-WCC4NQWD9YFG3", 1, once: ["WD-WCC4NQWD9YFG3": "WD-WCC4NQWDFG3"]), code("WD-WCC4NQWD4FG3"),
        ])
        #expect(!wd.contains { $0.evidence == .agree }, "\(wd)")
        #expect(wd.first?.value == "WD-WCC4NQWD9FG3" && wd.first?.disagreesWith == ["WD-WCC4NQWD4FG3"], "\(wd)")
        // The print as read is the barcode's value with one character more: they agree, and
        // nothing else is offered.
        let agreed = SerialExtractor.candidates([printed("S/N: ZR6ESLMPK", 1, once: ["ZR6ESLMPK": "ZR6ELMPK"]), code("ZR6SLMPK")])
        #expect(agreed.map(\.value) == ["ZR6SLMPK"])
        #expect(agreed.first?.evidence == .agree)
    }
}
