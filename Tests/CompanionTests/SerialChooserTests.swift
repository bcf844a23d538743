import Model
import Serials
import Testing

@testable import Companion

@Suite("Photographing a serial: the chooser")
struct SerialChooserTests {
    func reading(_ frames: [[Reading]]) -> SerialChooser {
        var c = SerialChooser()
        _ = c.handle(.opened)
        _ = c.handle(.cameraStarted)
        for (i, frame) in frames.enumerated() { _ = c.handle(.frameRead(frame, at: .milliseconds(100 * i))) }
        return c
    }

    /// The window's printed lines, voted, after frames that each read one line (`lines`, in order).
    func voted(_ lines: [Reading]) -> [String] {
        var settling = Settling(startedAt: .zero, voting: true)
        for line in lines { settling.add([line]) }
        return settling.printed.map(\.value)
    }

    /// The same, each of `lines` read as printed line 1.
    func voted(_ lines: [String]) -> [String] { voted(lines.map { printed($0, line: 1) }) }

    @Test("many frames, one answer: each character of a printed line is what most frames read there")
    func voting() {
        // Five frames of one label: OCR reads the 0 as O in two of them (the first among them),
        // and the S as 5 in one. One frame alone would have shown its own reading.
        let reads = ["S/N: PFOBSL8U", "S/N: PF0BSL8U", "S/N: PFOB5L8U", "S/N: PF0BSL8U", "S/N: PF0BSL8U"]
        var c = reading(reads.map { [printed($0, line: 1)] })
        _ = c.handle(.clock(.seconds(1)))
        // After it, the extractor's own second reading of the voted value: 5 for an S a format
        // leaves open, as for any printed value.
        #expect(c.rows.map(\.value) == ["PF0BSL8U", "PF0B5L8U"])
        // A line elsewhere on the label is its own line, never a vote in another's.
        var two = reading([
            [printed("S/N: PFOBSL8U", line: 1), printed("P/N: 5B20W86124", line: 2)],
            [printed("S/N: PF0BSL8U", line: 1), printed("P/N: 5B20W86124", line: 2)],
            [printed("S/N: PF0BSL8U", line: 1), printed("P/N: 5B20W86I24", line: 2)],
        ])
        _ = two.handle(.clock(.seconds(1)))
        #expect(two.rows.map(\.value) == ["PF0BSL8U", "PF0B5L8U"])
        var settling = Settling(startedAt: .zero, voting: true)
        settling.add([printed("S/N: PF0BSL8U", line: 1), printed("P/N: 5B20W86124", line: 2)])
        settling.add([printed("S/N: PFOBSL8U", line: 1)])
        settling.add([printed("S/N: PF0BSL8U", line: 1)])
        #expect(settling.printed.map(\.value) == ["S/N: PF0BSL8U", "P/N: 5B20W86124"])
        #expect(settling.printed.map(\.frames) == [3, 1])
        // The scan sheet's offer keeps every value read, and does not vote.
        var offer = Settling(startedAt: .zero)
        offer.add([printed("S/N: PF0BSL8U", line: 1)])
        #expect(offer.printed.isEmpty && offer.values.count == 1)
    }

    @Test("a line read in another length on few frames is outvoted by the length most frames read; a lone reading is not")
    func outvotedLength() {
        // Four frames read the whole serial; one, the hand moving, lost its last character.
        let reads = ["S/N: MXL9811F7J", "S/N: MXL9811F7J", "S/N: MXL9811F7", "S/N: MXL9811F7J", "S/N: MXL9811F7J"]
        var c = reading(reads.map { [printed($0, line: 1)] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value).first == "MXL9811F7J")
        #expect(!c.rows.map(\.value).contains("MXL9811F7"))
        // Read once each way, neither outvotes the other: both are offered.
        var even = reading([[printed("S/N: MXL9811F7J", line: 1)], [printed("S/N: MXL9811F7", line: 1)]])
        _ = even.handle(.clock(.seconds(1)))
        #expect(Set(even.rows.map(\.value)).isSuperset(of: ["MXL9811F7J", "MXL9811F7"]))
    }

    @Test(
        "a line is outvoted only by the same text in another length: a title read on more frames, its box over the serial's, is another line"
    )
    func outvotedOnlyBySameText() {
        let title = Reading(value: "SAMSUNG 870 EVO", source: .text(line: 1), box: Box(x: 240, y: 188, width: 309, height: 57))
        let serial = Reading(value: "S/N: S1CYYF0D995140X", source: .text(line: 2), box: Box(x: 218, y: 208, width: 439, height: 65))
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [[title, serial], [title], [title], [title]] { settling.add(frame) }
        #expect(settling.printed.count == 2 && settling.printed[0].lies(over: settling.printed[1].box))
        #expect(settling.readings.map(\.value).contains("S/N: S1CYYF0D995140X"))
        var c = reading([[title, serial], [title], [title], [title]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value).contains("S1CYYF0D995140X"))
        // The same text a character short, on fewer frames, is still outvoted.
        let short = Reading(value: "SAMSUNG 870 EV", source: .text(line: 1), box: title.box)
        var lost = Settling(startedAt: .zero, voting: true)
        for frame in [[short], [title], [title]] { lost.add(frame) }
        #expect(lost.readings.map(\.value) == ["SAMSUNG 870 EVO"])
    }

    @Test("scraps of one to three characters read on more frames, over a line read once, do not outvote it: they read like no line")
    func scrapsOutvoteNothing() {
        // A faint label: one frame read the serial's row whole; later frames read noise on it.
        let title = Reading(value: "APC Smart-UPS 1500", source: .text(line: 1), box: Box(x: 80, y: 200, width: 300, height: 30))
        let row = Reading(value: "SERIAL NO: 5A1321770780", source: .text(line: 2), box: Box(x: 80, y: 300, width: 400, height: 30))
        let code = barcode("5R1321770780", "CODE-128")
        let scraps = ["I", "x", "ae"].map { Reading(value: $0, source: .text(line: 1), box: Box(x: 300, y: 302, width: 20, height: 26)) }
        let frames = [[code, title, row]] + scraps.map { [code, $0] }
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in frames { settling.add(frame) }
        #expect(settling.printed.contains { $0.length == 1 && $0.frames == 2 })
        #expect(settling.readings.map(\.value).contains(row.value))
        var c = reading(frames)
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value) == ["5A1321770780", "5R1321770780"])
    }

    @Test("a piece of a line read whole on twice as many frames is left out, wherever the frame that read it showed the label")
    func pieceOfLineReadWhole() {
        // The label entering the view: part of the serial's line, far from where the hand then held it.
        let piece = Reading(value: "AS21251", source: .text(line: 4), box: Box(x: 1212, y: 289, width: 68, height: 14))
        let whole = Reading(value: "AS2125109922", source: .text(line: 5), box: Box(x: 344, y: 295, width: 119, height: 18))
        let code = barcode("AS2125119922", "CODE-128")
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [[piece], [code, whole], [code, whole]] { settling.add(frame) }
        #expect(settling.printed.count == 2 && !settling.readings.map(\.value).contains("AS21251"))
        // Read whole on one frame only, the piece stays.
        var once = Settling(startedAt: .zero, voting: true)
        for frame in [[piece], [code, whole]] { once.add(frame) }
        #expect(once.readings.map(\.value).contains("AS21251"))
    }

    @Test("characters read equally often: the one the others could be misreadings of")
    func tieSettledByLookAlikes() {
        // A Seagate label's serial line read in three frames: its 9 read as 9, S and Q once each.
        // Its barcode carries an S data identifier and a 5 there.
        let lines = ["SERIAL ZA9FMH6Y", "SERIAL ZASFMH6Y", "SERIAL ZAQFMH6Y"].map { printed($0, line: 1) }
        #expect(voted(lines) == ["SERIAL ZA9FMH6Y"])
        var c = reading(lines.map { [barcode("SZA5FMH6Y", "CODE-128"), $0] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(
            c.rows == [
                SerialChooser.Row(value: "ZA9FMH6Y", detail: "printed line 1: disagrees with ZA5FMH6Y"),
                SerialChooser.Row(value: "ZA5FMH6Y", detail: "CODE-128 barcode: disagrees with ZA9FMH6Y"),
            ])
        // Two characters each the other's look-alike: the one OCR reads as the other (a 0 as O,
        // a 5 as S, far more often than the other way round), whichever frame came last.
        for lines in [["S/N: PF0BSL8U", "S/N: PFOBSL8U"], ["S/N: PFOBSL8U", "S/N: PF0BSL8U"]] {
            #expect(voted(lines) == ["S/N: PF0BSL8U"])
        }
        #expect(voted(["S/N: PF0B5L8U", "S/N: PF0BSL8U"]) == ["S/N: PF0B5L8U"])
        // Neither read as the other more often (D and 0): still the latest frame's.
        #expect(voted(["S/N: PF0BSL8U", "S/N: PFDBSL8U"]) == ["S/N: PFDBSL8U"])
    }

    @Test("two places or more tied between characters that are not look-alikes are taken from one frame's reading; look-alikes as before")
    func tiesTakenFromOneReading() {
        // Faint print read on two frames: the first misread four characters of the serial, the
        // second read it as its barcode carries it. Each tie settled alone made a value neither
        // frame read, FDO065604E4, which then disagreed with the barcode and was listed first.
        let lines = ["S/N FDO06S604KA", "S/N FDO065664E4"].map { printed($0, line: 1) }
        #expect(voted(lines) == ["S/N FDO065664E4"])
        var c = reading(lines.map { [barcode("FDO065664E4", "CODE-128"), $0] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.first == SerialChooser.Row(value: "FDO065664E4", detail: "printed line 1 and CODE-128 barcode: they agree"))
        #expect(!c.rows.contains { $0.detail.contains("disagrees") })
        // Places tied between look-alikes are one print read two ways: each is settled as before,
        // and one place tied otherwise is the latest frame's.
        #expect(voted(["S/N YD-UCC4N1HUQY2D", "S/N WD-UCCANIHUQY2D"]) == ["S/N WD-UCC4N1HUQY2D"])
        #expect(voted(["S/N PFOBSL8U", "S/N PF0B5L8U"]) == ["S/N PF0B5L8U"])
    }

    @Test("a place of a line no two frames read alike is read as the window's code reads it; print read alike there still disagrees")
    func unsettledPlaceReadAsTheCode() {
        // A noisy frame's OCR reads the serial's second character another way on each of three
        // frames (C, E and K, none the others' look-alike); the QR code reads it on every frame.
        let code = barcode("S6D2RY0L592576Z")
        let lines = ["Serial SCD2RY0L592576Z", "Serial SED2RY0L592576Z", "Serial SKD2RY0L592576Z"].map { printed($0, line: 1) }
        var c = reading(lines.map { [code, $0] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.first == SerialChooser.Row(value: "S6D2RY0L592576Z", detail: "printed line 1 and QR-Code barcode: they agree"))
        #expect(!c.rows.contains { $0.detail.contains("disagrees") })
        // Without the code, the line is its vote, the latest frame's character where none leads.
        #expect(voted(lines) == ["Serial SKD2RY0L592576Z"])
        // Two frames of three reading the same other character: the print says something else
        // there, and the two are shown disagreeing.
        let settled = ["Serial SCD2RY0L592576Z", "Serial SED2RY0L592576Z", "Serial SCD2RY0L592576Z"].map { printed($0, line: 1) }
        var d = reading(settled.map { [code, $0] })
        _ = d.handle(.clock(.seconds(1)))
        #expect(d.rows.contains { $0.value == "SCD2RY0L592576Z" && $0.detail.contains("disagrees with S6D2RY0L592576Z") })
        // Two frames reading two characters there are a tie, settled as ties are: not by the code.
        var e = reading(Array(lines.prefix(2)).map { [code, $0] })
        _ = e.handle(.clock(.seconds(1)))
        #expect(e.rows.contains { $0.detail.contains("disagrees with S6D2RY0L592576Z") })
    }

    @Test(
        "a place of a line read as the window's code on as many frames as otherwise is read as the code, and its other reading is no disagreement; read otherwise on more, it is"
    )
    func tiedPlaceReadAsTheCode() {
        // Faint print: two frames read the serial's T, two read it as 1, the last of them latest;
        // the 2-D code reads it on every frame.
        let code = barcode("4YS3VTZ")
        let lines = ["SERIAL 4YS3VTZ", "SERIAL 4YS3V1Z", "SERIAL 4YS3VTZ", "SERIAL 4YS3V1Z"].map { printed($0, line: 1) }
        var c = reading(lines.map { [code, $0] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows == [SerialChooser.Row(value: "4YS3VTZ", detail: "printed line 1 and QR-Code barcode: they agree")])
        // The two frames that read the 1 led with it, disagreeing with the code; the line's other
        // two frames read the code's T there.
        var settling = Settling(startedAt: .zero, voting: true)
        for line in lines { settling.add([code, line]) }
        #expect(settling.ledDisagreement == ["4YS3V1Z": 2])
        #expect(settling.lineReadAsCode("4YS3V1Z", code: "4YS3VTZ") && !settling.lineReadAsCode("4YS3V1Z", code: "4YS3VXZ"))
        // Without the code the tie is the latest frame's, as before.
        #expect(voted(lines) == ["SERIAL 4YS3V1Z"])
        // Read as 1 on more frames than as T, the print says 1: the two are shown disagreeing.
        var d = reading((lines + [lines[1]]).map { [code, $0] })
        _ = d.handle(.clock(.seconds(1)))
        #expect(d.rows.contains { $0.value == "4YS3V1Z" && $0.detail.contains("disagrees with 4YS3VTZ") })
        #expect(d.rows.contains { $0.value == "4YS3VTZ" && $0.detail.contains("disagrees with 4YS3V1Z") })
    }

    @Test(
        "a keyword read alone on more frames does not outvote the one frame that read its value beside it; a line with junk read on is outvoted as before"
    )
    func keywordAloneDoesNotOutvoteItsValue() {
        // A planted disagreement: the code's B printed as X. Three frames read the caption alone,
        // one read it with its value.
        let code = barcode("TBK36173", "CODE-128")
        let lines = ["S/N#", "S/N#", "S/N# TXK36173", "S/N#"].map { printed($0, line: 1) }
        var c = reading(lines.map { [code, $0] })
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.contains { $0.value == "TXK36173" && $0.detail.contains("disagrees with TBK36173") }, "\(c.rows)")
        var settling = Settling(startedAt: .zero, voting: true)
        for line in lines { settling.add([code, line]) }
        #expect(settling.printed.map(\.value) == ["S/N#", "S/N# TXK36173"])
        #expect(!settling.printed[1].isOutvoted(by: settling.printed[0]))
        // A line read on three frames outvotes the one frame that read noise on after it.
        var junk = Settling(startedAt: .zero, voting: true)
        for line in ["SERIAL 73115153", "SERIAL 73115153 ee", "SERIAL 73115153", "SERIAL 73115153"] { junk.add([printed(line, line: 1)]) }
        #expect(junk.printed[1].isOutvoted(by: junk.printed[0]))
    }

    @Test("a label the hand moved between two frames read for text is one label: its lines are followed where they lie on it")
    func linesFollowedOnTheLabelMoved() {
        // Two frames a tenth of a second apart, the label moved 300 pixels right and 40 down:
        // its barcode and its title line moved with it, and its serial line is voted once.
        func frame(_ serial: String, moved dx: Int, _ dy: Int) -> [Reading] {
            [barcode("73110153", "CODE-128"), printed("KVM CONSOLE 8-PORT", line: 1), printed(serial, line: 3)].map { $0.moved(dx, dy) }
        }
        var settling = Settling(startedAt: .zero, voting: true)
        settling.add(frame("SER. NO. 73115153", moved: 0, 0))
        settling.add(frame("SER. NO. 73115158", moved: 300, 40))
        #expect(settling.shift == Shift(dx: 300, dy: 40))
        #expect(settling.printed.map(\.frames) == [2, 2])
        // A frame with no anchor (nothing read as before) is held where the last one was.
        settling.add([printed("SER. NO. 73115I53", line: 3).moved(300, 40)])
        #expect(settling.shift == Shift(dx: 300, dy: 40))
        #expect(settling.printed.map(\.frames) == [2, 3])
        #expect(settling.printed[1].value == "SER. NO. 73115153")
        // A label coming into view: its line read before any barcode, then the label moved by
        // a frame no anchor showed. The line read exactly again is that line, where it now lies;
        // read otherwise, it is another line.
        var entering = Settling(startedAt: .zero, voting: true)
        entering.add([printed("Service Tag: DP9DYT3", line: 2)])
        entering.add([barcode("DP9DYT3", "DATAMATRIX").moved(400, 0)])
        entering.add([barcode("DP9DYT3", "DATAMATRIX").moved(405, 10), printed("Service Tag: DP9DYT3", line: 2).moved(405, 10)])
        #expect(entering.shift == Shift(dx: 5, dy: 10))
        #expect(entering.printed.map(\.frames) == [2])
        entering.add([barcode("DP9DYT3", "DATAMATRIX").moved(405, 10), printed("Service Tag: DP9DYT3", line: 2).moved(405, 10)])
        #expect(entering.printed.map(\.frames) == [3])
        entering.add([printed("Service Tag: DP9DYTS", line: 2).moved(800, 10)])
        #expect(entering.printed.map(\.frames) == [3, 1])
        // Without anchors, a line read elsewhere in the frame is another line, as before.
        #expect(voted([printed("SER. NO. 73115153", line: 1), printed("SER. NO. 73115158", line: 1).moved(300, 40)]).count == 2)
    }

    @Test("a code boxed at the end of the scan line it was decoded along is no anchor: it moves nothing, and is not held there")
    func codeBoxedAtAScanLinesEndIsNoAnchor() {
        let code = barcode("73110153", "CODE-128")
        var settling = Settling(startedAt: .zero, voting: true)
        settling.add([code, printed("SER. NO. 73115153", line: 3)])
        settling.add([code.moved(200, 30)])
        #expect(settling.shift == Shift(dx: 200, dy: 30))
        var sliver = code.moved(400, 0)
        sliver.box = Box(x: sliver.box.maxX - 3, y: 10, width: 3, height: 100)
        settling.add([sliver])
        #expect(settling.shift == Shift(dx: 200, dy: 30))
        settling.add([code.moved(210, 30)])
        #expect(settling.shift == Shift(dx: 210, dy: 30))
    }

    @Test("places a line's frames are tied at are read also by its pieces: a frame that read part of the line votes there")
    func piecesBreakTies() {
        // Glare over the serial: two frames read it whole, differently at three places; two
        // read part of it (the number alone, its last digit lost). Each frame that saw a place
        // votes there once: 1 and 5 where the pieces are, and the latest frame's 3 at the last
        // place, which no piece covers.
        var settling = Settling(startedAt: .zero, voting: true)
        for line in ["SER. NO. 73105155", "SER. NO. 73113153"] { settling.add([printed(line, line: 3)]) }
        let number = Reading(value: "73115", source: .text(line: 3), box: Box(x: 120, y: 290, width: 70, height: 24))
        settling.add([number])
        settling.add([printed("SER. NO. 7311515", line: 3)])
        #expect(settling.readings.map(\.value).contains("SER. NO. 73115153"))
        #expect(settling.printed.first?.value == "SER. NO. 73113153")
        // A piece the frames of the line read too has no second say, and one that reads what
        // the frames agree on differently, or fits two places, has none.
        #expect(piecesVoted("SER. NO. 73105155", "SER. NO. 73113153", piece: "73115", sameFrame: true) == "SER. NO. 73113153")
        #expect(piecesVoted("SER. NO. 73105155", "SER. NO. 73113153", piece: "74115") == "SER. NO. 73113153")
        #expect(piecesVoted("ID 1234C1234C", "ID 1234A1234A", piece: "1234C") == "ID 1234A1234A")
        #expect(piecesVoted("SER. NO. 73105155", "SER. NO. 73113153", piece: "73115") == "SER. NO. 73115153")
    }

    /// The window's answer for a line read as `a` then `b` on two frames, then `piece` lying over
    /// it on a third frame (or on the second, `sameFrame`).
    func piecesVoted(_ a: String, _ b: String, piece: String, sameFrame: Bool = false) -> String? {
        var settling = Settling(startedAt: .zero, voting: true)
        let part = Reading(value: piece, source: .text(line: 4), box: Box(x: 100, y: 292, width: 60, height: 20))
        settling.add([printed(a, line: 3)])
        settling.add([printed(b, line: 3)] + (sameFrame ? [part] : []))
        if !sameFrame { settling.add([part]) }
        return settling.readings.first { $0.value.count == a.count }?.value
    }

    @Test("a line read again within one frame (sharpened, at another size) is one vote, its other readings kept as read")
    func secondLooksKept() {
        // One frame: the reader read the serial line, then read it twice more. The first reading
        // is the frame's vote; the others are not frames of their own.
        let frame =
            [barcode("SZA5FMH6Y", "CODE-128")] + ["SERIAL ZA9FMH6Y", "SERIAL ZASFMH6Y", "SERIAL ZAQFMH6Y"].map { printed($0, line: 1) }
        var settling = Settling(startedAt: .zero, voting: true)
        settling.add(frame)
        settling.add(frame)
        #expect(settling.printed.map(\.frames) == [2])
        #expect(settling.printed.map(\.value) == ["SERIAL ZA9FMH6Y"])
        // A still picture, held for the window: the extractor is given what the frame read, and
        // the chooser lists what the extractor makes of the picture's readings.
        #expect(settling.readings.map(\.value) == frame.map(\.value))
        var c = reading([frame, frame])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value) == SerialExtractor.candidates(from: frame).map(\.value))
        #expect(c.rows.map(\.value).contains("ZA9FMH6Y"))
        // Over frames, the latest frame's readings with each line's vote as the window settled it,
        // then a barcode and a line only earlier frames read.
        var window = Settling(startedAt: .zero, voting: true)
        window.add([barcode("OLD-CODE-1", "CODE-128"), printed("S/N: PF0BSL8U", line: 1), printed("P/N: 5B20W86124", line: 2)])
        window.add([printed("S/N: PF0BSL8U", line: 1)])
        window.add([printed("S/N: PFOBSL8U", line: 1), printed("S/N: PFOB5L8U", line: 1)])
        #expect(window.readings.map(\.value) == ["S/N: PF0BSL8U", "S/N: PFOB5L8U", "OLD-CODE-1", "P/N: 5B20W86124"])
    }

    @Test("a tilted label's table: the chooser pairs each keyword with the value along its row, as its words slope")
    func tiltedTable() {
        func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Word {
            Word(text: text, box: Box(x: x, y: y, width: width, height: height), confidence: 90)
        }
        func line(_ value: String, _ number: Int, _ box: Box, _ words: [Word] = []) -> Reading {
            Reading(value: value, source: .text(line: number), box: box, words: words)
        }
        // A Dell label turned six degrees clockwise: square to the frame, the Express Service
        // Code's value overlaps the service tag's row more than the tag does.
        let frame = [
            line("72859947764", 1, Box(x: 625, y: 150, width: 230, height: 47)),
            line(
                "Express Service Code:", 2, Box(x: 120, y: 101, width: 367, height: 61),
                [word("Express", 120, 101, 132, 43), word("Service", 261, 115, 122, 37), word("Code:", 392, 128, 95, 34)]),
            line("XGYXJHW", 3, Box(x: 618, y: 197, width: 171, height: 46)),
            line("Service Tag (S/N):", 4, Box(x: 116, y: 148, width: 298, height: 59)),
        ]
        var c = reading([frame, frame, frame])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value) == ["XGYXJHW"])
    }

    @Test("a print a character from a barcode, with a digit twice, is shown disagreeing: not the barcode's value with a digit read twice")
    func disagreementWithADigitTwice() {
        func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int, _ confidence: Double) -> Word {
            Word(text: text, box: Box(x: x, y: y, width: width, height: height), confidence: confidence)
        }
        func line(_ value: String, _ number: Int, _ box: Box, _ words: [Word]) -> Reading {
            Reading(value: value, source: .text(line: number), box: box, words: words)
        }
        // A Juniper label's table as read off a development label of the second corpus, smeared
        // sideways (`Devices/images/juniper-smeared-trailing-right.png`): the barcode carries
        // EY8692808502, the print beside "S/N." EY8692808552. Taken for a 5 read twice, the
        // print was EY869280852, which OCR could have cut short of the barcode's value: the two
        // were shown agreeing, and the disagreement hidden.
        let frame =
            [Reading(value: "EY8692808502", source: .barcode(symbology: "CODE-128"), box: Box(x: 325, y: 377, width: 475, height: 161))]
            + [
                line(
                    "Juniper EX2366-24T", 1, Box(x: 319, y: 146, width: 306, height: 29),
                    [word("Juniper", 319, 146, 117, 29, 93.2), word("EX2366-24T", 455, 148, 170, 21, 79.9)]),
                line(
                    "Juniper EX2300-24T", 2, Box(x: 318, y: 146, width: 306, height: 29),
                    [word("Juniper", 318, 146, 117, 29, 93.0), word("EX2300-24T", 453, 148, 171, 21, 89.6)]),
                line(
                    "Juniper EX2306-24T", 3, Box(x: 319, y: 146, width: 306, height: 29),
                    [word("Juniper", 319, 146, 117, 29, 96.6), word("EX2306-24T", 452, 146, 173, 29, 54.2)]),
                line("IEG", 4, Box(x: 500, y: 181, width: 45, height: 43), [word("IEG", 500, 181, 45, 43, 80.8)]),
                line("REV", 5, Box(x: 319, y: 196, width: 44, height: 18), [word("REV", 319, 196, 44, 18, 96.7)]),
                line(
                    "Part No: 656-367487", 6, Box(x: 319, y: 229, width: 347, height: 33),
                    [
                        word("Part", 319, 233, 58, 18, 96.4), word("No:", 394, 233, 39, 18, 89.5),
                        word("656-367487", 512, 229, 154, 33, 90.1),
                    ]),
                line("650-307487", 7, Box(x: 515, y: 233, width: 150, height: 18), [word("650-307487", 515, 233, 150, 18, 67.6)]),
                line(
                    "|Part No:", 8, Box(x: 310, y: 227, width: 123, height: 34),
                    [word("|Part", 310, 227, 66, 34, 89.7), word("No:", 392, 233, 41, 18, 95.7)]),
                line("16", 9, Box(x: 515, y: 196, width: 28, height: 18), [word("16", 515, 196, 28, 18, 68.9)]),
                line("MAC", 10, Box(x: 318, y: 270, width: 44, height: 18), [word("MAC", 318, 270, 44, 18, 93.9)]),
                line("Eveeszgosss2", 11, Box(x: 517, y: 298, width: 172, height: 38), [word("Eveeszgosss2", 517, 298, 172, 38, 45.2)]),
                line("imac:", 12, Box(x: 304, y: 256, width: 69, height: 50), [word("imac:", 304, 256, 69, 50, 51.4)]),
                line("S/N-", 13, Box(x: 318, y: 306, width: 55, height: 19), [word("S/N-", 318, 306, 55, 19, 79.6)]),
                line("|S/N.", 14, Box(x: 310, y: 301, width: 63, height: 34), [word("|S/N.", 310, 301, 63, 34, 69.1)]),
                line("EY8692808552", 15, Box(x: 515, y: 301, width: 172, height: 25), [word("EY8692808552", 515, 301, 172, 25, 14.5)]),
            ]
        var c = reading([frame, frame])
        _ = c.handle(.clock(.seconds(1)))
        #expect(Set(c.rows.map(\.value)) == ["EY8692808502", "EY8692808552"], "\(c.rows)")
        #expect(c.candidates.allSatisfy { $0.disagreesWith.count == 1 }, "\(c.candidates)")
    }

    @Test("a character a frame's OCR read twice from the same ink: the chooser offers the value read once too")
    func readTwice() {
        // A Lenovo label (its serials have eight characters): one frame of three boxed the 9's
        // ink twice, "9O"; that frame's reading of the line is kept with the value read once.
        let title = Reading(value: "Lenovo ThinkCentre M70q", source: .text(line: 1), box: Box(x: 200, y: 100, width: 400, height: 24))
        func serial(_ value: String, once: String? = nil) -> Reading {
            let box = Box(x: 200, y: 150, width: 260, height: 24)
            return Reading(
                value: "S/N. " + value, source: .text(line: 2), box: box,
                words: [Word(text: "S/N.", box: box, confidence: 90), Word(text: value, box: box, confidence: 80, readOnce: once)])
        }
        var c = reading([[title, serial("PF5QHU9ON")], [title, serial("PF5QHU9ON", once: "PF5QHU9N")], [title, serial("PF5QHU9ON")]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows.map(\.value) == ["PF5QHU9N", "PF5QHU90N", "PF5QHU9ON"])
        var none = reading([[title, serial("PF5QHU9ON")], [title, serial("PF5QHU9ON")]])
        _ = none.handle(.clock(.seconds(1)))
        #expect(none.rows.map(\.value) == ["PF5QHU90N", "PF5QHU9ON"])
    }

    @Test("the read settles by itself and the chooser comes up on its own, with the exact copy and no scores")
    func chooser() {
        var c = reading([[barcode("CN0KX2M1743", "CODE-128")], [printed("S/N: CN0KX2M1742", line: 2)]])
        #expect(c.title == nil && c.isReading)  // nothing to tap while it settles
        #expect(c.handle(.clock(.seconds(1))).isEmpty)
        #expect(c.title == "Which one is the serial?" && c.line == "Everything the camera read. Tap the serial.")
        #expect(
            c.rows == [
                SerialChooser.Row(value: "CN0KX2M1742", detail: "printed line 2: disagrees with CN0KX2M1743"),
                SerialChooser.Row(value: "CN0KX2M1743", detail: "CODE-128 barcode: disagrees with CN0KX2M1742"),
            ])
        #expect(c.rows.allSatisfy { !$0.detail.contains("%") })
        #expect(c.toolbar == ["Scan again", "Cancel"])
        #expect(c.useButton == nil && c.handle(.tapUse).isEmpty)  // nothing applied before a choice
        _ = c.handle(.tapRow(1))
        #expect(c.useButton?.title == "USE THIS SERIAL" && c.useButton?.value == "CN0KX2M1743")
        #expect(c.handle(.tapUse) == [.stopCamera, .useSerial("CN0KX2M1743")])
        #expect(c.phase == .used("CN0KX2M1743"))
    }

    @Test("one candidate still goes through the chooser")
    func oneCandidate() {
        var c = reading([[barcode("5CG1234XYZ", "CODE-128"), printed("S/N: 5CG1234XYZ", line: 1)]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.rows == [SerialChooser.Row(value: "5CG1234XYZ", detail: "printed line 1 and CODE-128 barcode: they agree")])
        #expect(c.useButton == nil)
    }

    @Test("nothing read at all goes straight through to typing it by hand")
    func nothingRead() {
        var c = reading([[], []])
        #expect(c.handle(.clock(.seconds(2))).isEmpty)
        #expect(c.handle(.clock(.seconds(3))) == [.stopCamera, .openTypingByHand])
        #expect(c.phase == .typingByHand && c.title == nil)
        var onlyEAN = reading([[barcode("4006381333931", "EAN-13")]])
        #expect(onlyEAN.handle(.clock(.seconds(1))) == [.stopCamera, .openTypingByHand])
    }

    @Test("print it offers nothing from (a label coming into view read as scraps) starts no window: the first frame offering a value does")
    func scrapsStartNoWindow() {
        let scraps = [printed("nN ay rad", line: 1), printed("Bhai Teta", line: 2)]
        var c = reading([scraps, scraps, [printed("S/N: 5CG1234XYZ", line: 1)]])
        #expect(c.handle(.clock(.milliseconds(1100))).isEmpty && c.isReading)  // a window opened on the scraps would be up
        _ = c.handle(.clock(.milliseconds(1200)))
        #expect(c.rows.map(\.value) == ["5CG1234XYZ"])
        var onlyScraps = reading([scraps, scraps])
        #expect(onlyScraps.handle(.clock(.seconds(3))) == [.stopCamera, .openTypingByHand])
        let code = reading([scraps, [barcode("4006381333931", "EAN-13")]])
        #expect(code.settling?.startedAt == .milliseconds(100))  // a barcode opens it, whatever it holds
    }

    @Test("Scan again takes another look; Cancel re-arms the scanner")
    func scanAgainAndCancel() {
        var c = reading([[printed("S/N: 5CG1234XYZ", line: 1)]])
        _ = c.handle(.clock(.seconds(1)))
        #expect(c.handle(.tapScanAgain).isEmpty && c.isReading)
        _ = c.handle(.frameRead([printed("S/N: 5CG1234XYZ", line: 1)], at: .seconds(2)))
        _ = c.handle(.clock(.seconds(3)))
        #expect(c.rows.map(\.value) == ["5CG1234XYZ"])
        #expect(c.handle(.tapCancel) == [.stopCamera, .rearmScanner])
        #expect(c.phase == .cancelled)
    }
}

@Suite("What each frame read alone puts first")
struct FirstOnFramesTests {
    @Test("each frame read for text counts its own first candidate; frames of barcodes alone count nothing")
    func counted() {
        var settling = Settling(startedAt: .zero, voting: true)
        let keyword = Reading(value: "Serial No: ABC123456", source: .text(line: 1), box: Box(x: 10, y: 10, width: 300, height: 24))
        let other = Reading(value: "Serial No: XYZ987654", source: .text(line: 1), box: Box(x: 10, y: 10, width: 300, height: 24))
        let code = Reading(value: "ABC123456", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 60, width: 300, height: 40))
        settling.add([keyword])
        settling.add([keyword])
        settling.add([other])
        settling.add([code])
        #expect(settling.firstOnFrames == ["ABC123456": 2, "XYZ987654": 1])
        #expect(Settling(startedAt: .zero).firstOnFrames.isEmpty)
    }

    @Test("print has offered a value once a frame read for text put one read in print first; a barcode's value alone is not print's")
    func printOffered() {
        let code = Reading(value: "ABC123456", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 60, width: 300, height: 40))
        let scraps = Reading(value: "~ ,", source: .text(line: 1), box: Box(x: 10, y: 10, width: 40, height: 24))
        let line = Reading(value: "Serial No: ABC123456", source: .text(line: 1), box: Box(x: 10, y: 10, width: 300, height: 24))
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [[code], [code, scraps], [code]] { settling.add(frame) }
        #expect(!settling.printOffered)
        settling.add([code, line])
        #expect(settling.printOffered)
    }

    @Test("a frame that read nothing but the label's title, a maker's name and model, puts nothing first; the model is still offered")
    func titleOnlyFramesPutNothingFirst() {
        // Glare over the serial's line on two frames: each read the title alone. A third read
        // the line's start under its caption.
        let title = Reading(value: "Kingston DC600M", source: .text(line: 1), box: Box(x: 10, y: 10, width: 300, height: 30))
        let serial = Reading(value: "Ser. No. 50026B7F18", source: .text(line: 2), box: Box(x: 10, y: 60, width: 300, height: 24))
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [[title], [title], [title, serial]] { settling.add(frame) }
        #expect(settling.firstOnFrames == ["50026B7F18": 1])
        var rows = SerialExtractor.candidates(from: [title, serial])
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.first?.value == "50026B7F18")
        // Where nothing else was read, the model is there to tap rather than typing by hand.
        #expect(SerialExtractor.candidates(from: [title]).map(\.value) == ["DC600M"])
        #expect(SerialExtractor.candidates(from: [title], titles: false).isEmpty)
    }

    @Test("two values are a character apart when one is the other with one character more, anywhere")
    func characterApart() {
        #expect(SerialChooser.oneCharacterApart("PF5QHU90N", "PF5QHU9N"))
        #expect(SerialChooser.oneCharacterApart("ABC", "XABC") && SerialChooser.oneCharacterApart("ABCX", "ABC"))
        #expect(!SerialChooser.oneCharacterApart("ABC", "ABD") && !SerialChooser.oneCharacterApart("ABC", "ABCDE"))
        #expect(!SerialChooser.oneCharacterApart("29870", "ZR4YEDSQ"))
    }

    @Test("a piece is held by a value two characters longer or more, up to look-alikes and one character more")
    func pieces() {
        #expect(SerialChooser.isPiece("W0W7HVGSF9", of: "G8W0W7MVG5F9"))
        #expect(SerialChooser.isPiece("-WMC4NCRZ6072", of: "WD-WMC4NCRZ6072") && SerialChooser.isPiece("D8WDCJNP", of: "C02KD8WDCJNP"))
        #expect(!SerialChooser.isPiece("C02KD8WDCJNP", of: "D8WDCJNP"), "the longer is no piece of the shorter")
        #expect(!SerialChooser.isPiece("ABC1234", of: "ABC12345"), "a character more is the vote's, not a piece")
        #expect(!SerialChooser.isPiece("W1W7HVGSF9", of: "G8W0W7MVG5F9"), "two characters besides look-alikes")
        #expect(!SerialChooser.isPiece("ABC", of: "ABCDEF"), "three characters say nothing")
    }

    func text(_ value: String) -> SerialCandidate {
        SerialCandidate(value: value, provenance: [Provenance(.printedLine(1))], evidence: .text, disagreesWith: [])
    }

    @Test(
        "the value most frames put first leads; lost by the window, it is listed as its first frame listed it; not on a tie, nor one apart"
    )
    func framesFirstValueLost() {
        var settling = Settling(startedAt: .zero, voting: true)
        for value in ["(21) HWD79015", "(21) HWD79015", "S/N: D79015"] { settling.add([printed(value, line: 1)]) }
        #expect(settling.firstOnFrames == ["HWD79015": 2, "D79015": 1])
        var rows = [text("D79015")]
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["HWD79015", "D79015"])
        #expect(rows.first == settling.firstCandidates["HWD79015"])
        // Put first on as many frames as another value: the frames do not say which.
        var tie = settling
        tie.add([printed("S/N: QX12345678", line: 1)])
        tie.add([printed("S/N: QX12345678", line: 1)])
        var tied = [text("D79015")]
        SerialChooser.putFramesFirstValueFirst(&tied, tie)
        #expect(tie.firstOnFrames["QX12345678"] == 2 && tied.map(\.value) == ["D79015"])
        // Not over a value it disagrees with where no frame read both (`disagreementLedByFramesThatReadBoth`).
        var disagreeing = [
            SerialCandidate(value: "HWD79016", provenance: [], evidence: .agree, disagreesWith: ["HWD79015"]),
            SerialCandidate(value: "HWD79015", provenance: [], evidence: .text, disagreesWith: ["HWD79016"]),
        ]
        SerialChooser.putFramesFirstValueFirst(&disagreeing, settling)
        #expect(disagreeing.map(\.value) == ["HWD79016", "HWD79015"])
        // The window's first value is the frames' with one character more: the extractor's to say.
        var apart = [text("HWD790155")]
        SerialChooser.putFramesFirstValueFirst(&apart, settling)
        #expect(apart.map(\.value) == ["HWD790155"])
    }

    @Test(
        "a code's S data identifier the window took off, a serial's keyword naming the rest on its lines, stays off however many frames read the rest without the keyword"
    )
    func dataIdentifierOffWhereKeywordNamesRest() {
        // A nameplate's frame as read: its title, its model, the serial's line, noise over the bars.
        let code = Reading(value: "S02473387", source: .barcode(symbology: "CODE-128"), box: Box(x: 213, y: 337, width: 452, height: 155))
        func frame(_ serial: String) -> [Reading] {
            [
                code, Reading(value: "KVM CONSOLE 8-PORT", source: .text(line: 1), box: Box(x: 219, y: 152, width: 330, height: 32)),
                Reading(value: "MODEL GLZ-4642 LOT", source: .text(line: 2), box: Box(x: 215, y: 211, width: 396, height: 33)),
                Reading(
                    value: serial, source: .text(line: 3),
                    box: Box(x: 364 - (serial.count - 8) * 13, y: 260, width: 100 + (serial.count - 8) * 13, height: 20)),
                Reading(value: "Bll ee eee", source: .text(line: 4), box: Box(x: 209, y: 319, width: 294, height: 20)),
            ]
        }
        var settling = Settling(startedAt: .zero, voting: true)
        for line in ["02473387", "02473387", "02473387", "SERIAL NO. 02473387", "SERIAL NO. 02473387"] { settling.add(frame(line)) }
        #expect(settling.firstOnFrames == ["S02473387": 3, "02473387": 2])
        let window = SerialCandidate(value: "02473387", provenance: [], evidence: .agree, disagreesWith: [])
        var rows = [window]
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["02473387"])
        // No keyword read on any frame: the frames' value, the code as barcoded, leads.
        var unlabelled = Settling(startedAt: .zero, voting: true)
        for _ in 0..<5 { unlabelled.add(frame("02473387")) }
        #expect(unlabelled.firstOnFrames == ["S02473387": 5])
        var led = [window]
        SerialChooser.putFramesFirstValueFirst(&led, unlabelled)
        #expect(led.first?.value == "S02473387")
    }

    @Test(
        "a value frames put first, disputed by one listed lower that the frames which read both led with: that one goes first; where none led with it, the frames' value does"
    )
    func disputedFramesValueGivesWayToLedDisagreement() {
        let code = Reading(value: "14939342", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 60, width: 300, height: 40))
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [
            [code, printed("14939342", line: 2)], [code, printed("14939342", line: 2)], [code, printed("SN# 14539342", line: 1)],
        ] {
            settling.add(frame)
        }
        #expect(settling.firstOnFrames == ["14939342": 2, "14539342": 1] && settling.ledDisagreement == ["14539342": 1])
        let print = SerialCandidate(value: "14539342", provenance: [], evidence: .text, disagreesWith: ["14939342"])
        let coded = SerialCandidate(value: "14939342", provenance: [], evidence: .agree, disagreesWith: ["14539342"])
        var rows = [text("1453934"), text("624106"), print, coded]
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["14539342", "1453934", "624106", "14939342"])
        var unled = Settling(startedAt: .zero, voting: true)
        for frame in [
            [code, printed("14939342", line: 2)], [code, printed("14939342", line: 2)], [code, printed("LOT 624106", line: 3)],
        ] {
            unled.add(frame)
        }
        #expect(unled.ledDisagreement.isEmpty)
        var led = [text("1453934"), text("624106"), print, coded]
        SerialChooser.putFramesFirstValueFirst(&led, unled)
        #expect(led.map(\.value) == ["14939342", "1453934", "624106", "14539342"])
    }

    @Test(
        "two prints put first on as many frames: the one tesseract read more confidently leads; read as confidently, or a code among them, the window's order stands"
    )
    func tiedPrintsLedByConfidence() {
        func frame(_ serial: String, _ confidence: Double) -> [Reading] {
            let box = Box(x: 10, y: 230, width: 200, height: 24)
            let words = [Word(text: "S/N:", box: box, confidence: 93), Word(text: serial, box: box, confidence: confidence)]
            return [Reading(value: "S/N: \(serial)", source: .text(line: 1), box: box, words: words)]
        }
        func played(_ frames: [[Reading]]) -> (Settling, [String]) {
            var settling = Settling(startedAt: .zero, voting: true)
            for readings in frames { settling.add(readings) }
            var rows = [text("KX7M4R2T"), text("KX7H4R2T")]
            SerialChooser.putFramesFirstValueFirst(&rows, settling)
            return (settling, rows.map(\.value))
        }
        let (settling, rows) = played([frame("KX7M4R2T", 61), frame("KX7H4R2T", 88), frame("KX7M4R2T", 70), frame("KX7H4R2T", 79)])
        #expect(settling.firstOnFrames == ["KX7M4R2T": 2, "KX7H4R2T": 2])
        #expect(settling.firstConfidence == ["KX7M4R2T": 131, "KX7H4R2T": 167])
        #expect(rows == ["KX7H4R2T", "KX7M4R2T"])
        #expect(
            played([frame("KX7M4R2T", 80), frame("KX7H4R2T", 88), frame("KX7M4R2T", 80), frame("KX7H4R2T", 72)]).1 == [
                "KX7M4R2T", "KX7H4R2T",
            ])
        let code = Reading(value: "KX7M4R2T", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 60, width: 300, height: 40))
        let coded = [code, printed("MODEL X1", line: 2)]
        #expect(played([coded, frame("KX7H4R2T", 88), coded, frame("KX7H4R2T", 79)]).1 == ["KX7M4R2T", "KX7H4R2T"])
        // Confidence is a word's that holds the value whole: not a barcode's, nor two words'.
        #expect(Settling.printConfidence(of: "KX7H4R2T", in: frame("kx7h4r2t.", 64)) == 64)
        #expect(Settling.printConfidence(of: "KX7M4R2T", in: [code]) == 0)
        let split = [Word(text: "KX7M", box: code.box, confidence: 90), Word(text: "4R2T", box: code.box, confidence: 90)]
        #expect(
            Settling.printConfidence(of: "KX7M4R2T", in: [Reading(value: "KX7M 4R2T", source: .text(line: 1), box: code.box, words: split)])
                == 0)
    }

    @Test("two readings of one print, alike up to look-alikes, are one print's frames: it leads, in the reading more of them read")
    func readingsOfOnePrintCountTogether() {
        // Two frames read the serial's 1 as I, two as 1, one misread it otherwise; the window
        // joined the line with the next into a longer value.
        var settling = Settling(startedAt: .zero, voting: true)
        for value in [
            "SERIAL NBR: PFIF7FYK", "SERIAL NBR: PF1F7FYK", "SERIAL NBR: PFIF7FYK", "SERIAL NBR: PF1F7FYK", "SERIAL NBR: PRIFTFYK",
        ] {
            settling.add([printed(value, line: 1)])
        }
        #expect(settling.firstOnFrames == ["PFIF7FYK": 2, "PF1F7FYK": 2, "PRIFTFYK": 1])
        // As many frames read each: the one the window lists first leads, else the one OCR reads
        // the other for.
        let listed = ["PFAIF7FYKMTM", "PF1F7FYK"]
        let (ranked, votes) = SerialChooser.framesFirstByPrint(settling.firstOnFrames, listed: listed)
        #expect(ranked == ["PF1F7FYK", "PFIF7FYK", "PRIFTFYK"] && votes == ["PFIF7FYK": 4, "PF1F7FYK": 4, "PRIFTFYK": 1])
        #expect(SerialChooser.framesFirstByPrint(settling.firstOnFrames, listed: ["PFIF7FYK", "PF1F7FYK"]).ranked.first == "PFIF7FYK")
        #expect(SerialChooser.framesFirstByPrint(settling.firstOnFrames, listed: []).ranked.first == "PF1F7FYK")
        var rows = listed.map(text)
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["PF1F7FYK", "PFAIF7FYKMTM"])
        // Read so on more frames, the I leads; a print of fewer frames than another value does not.
        settling.add([printed("SERIAL NBR: PFIF7FYK", line: 1)])
        #expect(SerialChooser.framesFirstByPrint(settling.firstOnFrames, listed: listed).ranked.first == "PFIF7FYK")
        var other = Settling(startedAt: .zero, voting: true)
        for value in ["S/N: AB12345678", "S/N: AB12345678", "S/N: AB12345678", "S/N: PFIF7FYK", "S/N: PF1F7FYK"] {
            other.add([printed(value, line: 1)])
        }
        var kept = [text("PF1F7FYK")]
        SerialChooser.putFramesFirstValueFirst(&kept, other)
        #expect(kept.map(\.value) == ["AB12345678", "PF1F7FYK"])
    }

    @Test("two frames that each saw part of a line, its start and its end: the whole no frame read is joined, and leads on their votes")
    func piecesOfOneLineJoined() {
        // A MAC address's barcode decoded on two frames; three frames read the serial's line
        // cut short, each where a thumb or the edge of the view hid the rest.
        let mac = Reading(value: "1C4032441289", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 60, width: 300, height: 40))
        var settling = Settling(startedAt: .zero, voting: true)
        let title = printed("SUPERMICRO X11DPi-N", line: 1)
        for frame in [
            [mac, title], [mac, title], [printed("S/N: VM02KW85260", line: 1)], [printed("S/N: 2KW852604", line: 1)],
            [printed("S/N: VM02KV", line: 1)],
        ] {
            settling.add(frame)
        }
        #expect(settling.firstOnFrames == ["1C4032441289": 2, "VM02KW85260": 1, "2KW852604": 1, "VM02KV": 1])
        let (counts, firsts) = SerialChooser.withPiecesJoined(settling.firstOnFrames, settling.firstCandidates)
        #expect(counts["VM02KW852604"] == 3, "its two pieces and the piece VM02KV")
        #expect(firsts["VM02KW852604"]?.whereRead == ["printed line 1 (joined with what another frame read of the line)"])
        var rows = [text("VM02KV"), SerialCandidate(value: "1C4032441289", provenance: [], evidence: .barcode, disagreesWith: [])]
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["VM02KW852604", "VM02KV", "1C4032441289"])
        // The end of one is the start of the other over six characters at least, and the whole
        // is longer than either.
        #expect(SerialChooser.joined("VM02KW85260", "2KW852604") == "VM02KW852604")
        #expect(SerialChooser.joined("VMO2KW85260", "2KW852604") == "VMO2KW852604", "look-alikes folded")
        #expect(SerialChooser.joined("2KW852604", "VM02KW85260") == nil)
        #expect(SerialChooser.joined("VM02KW8526", "52604") == nil)
        #expect(SerialChooser.joined("VM02KW85260", "02KW85260") == nil, "one holds the other")
        // Where a frame read the line whole, no pieces are joined.
        var whole = settling
        whole.add([printed("S/N: VM02KW852604", line: 1)])
        #expect(SerialChooser.withPiecesJoined(whole.firstOnFrames, whole.firstCandidates).counts == whole.firstOnFrames)
        // Nor values a frame read with a barcode's.
        #expect(SerialChooser.withPiecesJoined(["VM02KW85260": 1, "2KW852604": 1], [:]).counts.count == 2)
    }

    @Test("read once whole and once with a character lost at the edge of what was seen, the whole leads; not a data identifier's S read on")
    func edgeCharacterPutBack() {
        // One frame read the line whole; the next showed it up to the edge of the view, its
        // last character cut off. The window's joined lines list the short one.
        var settling = Settling(startedAt: .zero, voting: true)
        settling.add([printed("Serial No.: MXL2791YSA", line: 1)])
        settling.add([printed("Serial No.: MXL2791YS", line: 1)])
        #expect(settling.firstOnFrames == ["MXL2791YSA": 1, "MXL2791YS": 1])
        var rows = [text("MXL2791YS"), text("MXL2791Y5")]
        SerialChooser.putEdgeCharacterBack(&rows, settling)
        #expect(rows.map(\.value) == ["MXL2791YSA", "MXL2791YS", "MXL2791Y5"])
        // Read short on more frames than whole: as listed.
        var more = settling
        more.add([printed("Serial No.: MXL2791YS", line: 1)])
        var kept = [text("MXL2791YS")]
        SerialChooser.putEdgeCharacterBack(&kept, more)
        #expect(kept.map(\.value) == ["MXL2791YS"])
        // An S before the value is a data identifier's or a keyword's, read on: as listed.
        var prefixed = Settling(startedAt: .zero, voting: true)
        prefixed.add([printed("Serial No.: SAZ1223469295", line: 1)])
        prefixed.add([printed("Serial No.: AZ1223469295", line: 1)])
        var plain = [text("AZ1223469295")]
        SerialChooser.putEdgeCharacterBack(&plain, prefixed)
        #expect(plain.map(\.value) == ["AZ1223469295"])
    }

    @Test("the frames' value goes over itself with a character lost, not over itself with a character read twice taken out")
    func characterLostOrReadTwice() {
        var settling = Settling(startedAt: .zero, voting: true)
        for _ in 0..<2 { settling.add([printed("Serial # HYH03955", line: 1)]) }
        settling.add([printed("Serial # YH03955", line: 1)])
        var lost = [text("YH03955"), text("HYH03955")]
        SerialChooser.putFramesFirstValueFirst(&lost, settling)
        #expect(lost.map(\.value) == ["HYH03955", "YH03955"])
        #expect(!SerialChooser.tookOutReadTwice("HYH03955", giving: "YH03955", settling))
        // A word whose 0 lies inside its neighbours' ink: read once, it is PF5QHU9N.
        let box = Box(x: 10, y: 230, width: 200, height: 24)
        let words = [Word(text: "S/N:", box: box, confidence: 90), Word(text: "PF5QHU9ON", box: box, confidence: 90, readOnce: "PF5QHU9N")]
        var twice = Settling(startedAt: .zero, voting: true)
        twice.add([Reading(value: "S/N: PF5QHU9ON", source: .text(line: 1), box: box, words: words)])
        #expect(SerialChooser.tookOutReadTwice("PF5QHU9ON", giving: "PF5QHU9N", twice))
        #expect(SerialChooser.tookOutReadTwice("PF5QHU90N", giving: "PF5QHU9N", twice), "look-alikes folded")
        #expect(!SerialChooser.tookOutReadTwice("PF5QHU9ON", giving: "F5QHU9ON", twice))
    }

    @Test("the frames' value goes over itself with a character read twice inside the line, where it leads on twice the frames")
    func characterReadTwiceInside() {
        var settling = Settling(startedAt: .zero, voting: true)
        for _ in 0..<4 { settling.add([printed("Serial no. WFK0CZ5GC", line: 1)]) }
        for _ in 0..<2 { settling.add([printed("Serial no. WFK00CZ5GC", line: 1)]) }
        #expect(settling.firstOnFrames == ["WFK0CZ5GC": 4, "WFK00CZ5GC": 2])
        var doubled = [text("WFK00CZ5GC"), text("WFK0CZ5GC")]
        SerialChooser.putFramesFirstValueFirst(&doubled, settling)
        #expect(doubled.map(\.value) == ["WFK0CZ5GC", "WFK00CZ5GC"])
        // Look-alikes are one character: an O beside a 0 is a 0 read twice.
        #expect(SerialChooser.readDoubledOnFewerFrames("WFK0CZ5GC", "WFKO0CZ5GC", ["WFK0CZ5GC": 4, "WFKO0CZ5GC": 2]))
        // On fewer than twice as many frames, the extractor's order stands.
        #expect(!SerialChooser.readDoubledOnFewerFrames("WFK0CZ5GC", "WFK00CZ5GC", ["WFK0CZ5GC": 3, "WFK00CZ5GC": 2]))
        // A character more at either end is a frame that saw part of the line, not this.
        #expect(!SerialChooser.readDoubledOnFewerFrames("FK0CZ5GC", "FFK0CZ5GC", ["FK0CZ5GC": 4]))
        #expect(!SerialChooser.readDoubledOnFewerFrames("WFK0CZ5GC", "WFK0CZ5GCC", ["WFK0CZ5GC": 4]))
        // A character more that doubles no neighbour is not one read twice.
        #expect(!SerialChooser.readDoubledOnFewerFrames("WFK0CZ5GC", "WFK0CXZ5GC", ["WFK0CZ5GC": 4]))
        // The frames' value with a character lost at the edge still does not go over the whole.
        var edge = Settling(startedAt: .zero, voting: true)
        for _ in 0..<4 { edge.add([printed("Serial no. FK0CZ5GC", line: 1)]) }
        edge.add([printed("Serial no. WFK0CZ5GC", line: 1)])
        var whole = [text("WFK0CZ5GC"), text("FK0CZ5GC")]
        SerialChooser.putFramesFirstValueFirst(&whole, edge)
        #expect(whole.map(\.value) == ["WFK0CZ5GC", "FK0CZ5GC"])
    }

    @Test(
        "of two values that disagree, the window's order stands where a frame that read both led with its first; a frame that read one alone has no say"
    )
    func disagreementLedByFramesThatReadBoth() {
        var settling = Settling(startedAt: .zero, voting: true)
        // Two frames read the code and other print, not the serial's line: the code first, alone.
        for _ in 0..<2 { settling.add([barcode("4G8NC72", "CODE-128"), printed("DELL OptiPlex 7090", line: 2)]) }
        // One frame read the serial's caption and line too: the print first, disagreeing.
        settling.add([barcode("4G8NC72", "CODE-128"), printed("SN# 8G8NC72", line: 1)])
        #expect(settling.firstOnFrames == ["4G8NC72": 2, "8G8NC72": 1] && settling.ledDisagreement == ["8G8NC72": 1])
        func rows(_ values: [String]) -> [SerialCandidate] {
            values.map { value in
                SerialCandidate(
                    value: value, provenance: [], evidence: value == "4G8NC72" ? .barcode : .text,
                    disagreesWith: values.filter { $0 != value })
            }
        }
        var kept = rows(["8G8NC72", "4G8NC72"])
        SerialChooser.putFramesFirstValueFirst(&kept, settling)
        #expect(kept.map(\.value) == ["8G8NC72", "4G8NC72"])
        // Two frames that read the line without its caption, just under the bars where a code's
        // human-readable line is printed, put the code first over it: the window's order still
        // stands, a frame read alone having led with the print.
        let underBars = Reading(value: "8G8NC72", source: .text(line: 1), box: Box(x: 10, y: 115, width: 100, height: 24))
        for _ in 0..<2 { settling.add([barcode("4G8NC72", "CODE-128"), underBars]) }
        #expect(settling.ledDisagreement == ["8G8NC72": 1, "4G8NC72": 2])
        var stands = rows(["8G8NC72", "4G8NC72"])
        SerialChooser.putFramesFirstValueFirst(&stands, settling)
        #expect(stands.map(\.value) == ["8G8NC72", "4G8NC72"])
        // Where no frame read alone led with the window's first, the frames' value leads.
        var codeFirst = Settling(startedAt: .zero, voting: true)
        for _ in 0..<2 { codeFirst.add([barcode("4G8NC72", "CODE-128"), underBars]) }
        var moved = rows(["8G8NC72", "4G8NC72"])
        SerialChooser.putFramesFirstValueFirst(&moved, codeFirst)
        #expect(moved.map(\.value) == ["4G8NC72", "8G8NC72"] && moved.allSatisfy { $0.disagreesWith.count == 1 })
    }

    @Test("a value the frames put first and the window lost, disagreeing with a value listed, is listed beside it, each naming the other")
    func lostDisagreementListed() {
        let code = Reading(value: "FDO57424UVC", source: .barcode(symbology: "CODE-128"), box: Box(x: 10, y: 10, width: 300, height: 100))
        var settling = Settling(startedAt: .zero, voting: true)
        for _ in 0..<2 { settling.add([code, printed("Serial Num: FDO57424FVC", line: 1)]) }
        let window = [SerialCandidate(value: "FDO57424UVC", provenance: [], evidence: .barcode, disagreesWith: [])]
        var over = window
        SerialChooser.putFramesFirstValueFirst(&over, settling)
        #expect(over.map(\.value) == ["FDO57424FVC", "FDO57424UVC"])
        #expect(over.map(\.disagreesWith) == [["FDO57424UVC"], ["FDO57424FVC"]])
        // Where a frame read alone led with the window's first, the lost value is listed after it.
        let underBars = Reading(value: "FDO57424FVC", source: .text(line: 1), box: Box(x: 10, y: 115, width: 200, height: 24))
        settling.add([code, underBars])
        var after = window
        SerialChooser.putFramesFirstValueFirst(&after, settling)
        #expect(after.map(\.value) == ["FDO57424UVC", "FDO57424FVC"])
        #expect(after.map(\.disagreesWith) == [["FDO57424FVC"], ["FDO57424UVC"]])
        // One that disagrees with a value the window did not list is not listed so.
        var other = [SerialCandidate(value: "FOC1234ABCD", provenance: [], evidence: .text, disagreesWith: [])]
        SerialChooser.putFramesFirstValueFirst(&other, settling)
        #expect(other.map(\.value) == ["FOC1234ABCD"])
    }

    @Test(
        "a print frames led with over a code it disagrees with, which the window lost, is listed over the code where the code led on none")
    func lostDisagreementLedOnFrames() {
        let code = Reading(value: "ZL1YHPD1", source: .barcode(symbology: "CODE-128"), box: Box(x: 400, y: 10, width: 300, height: 100))
        let print = printed("Serial-No. ZL1YNPD1", line: 2)
        let underBars = Reading(value: "ZL1YHPD1", source: .text(line: 4), box: Box(x: 450, y: 115, width: 200, height: 24))
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [[code, print], [code, print], [code, underBars], [code, underBars], [code, underBars]] { settling.add(frame) }
        #expect(settling.ledDisagreement == ["ZL1YNPD1": 2])
        let window = [
            SerialCandidate(value: "ZL1YHPD1", provenance: [], evidence: .agree, disagreesWith: []),
            SerialCandidate(value: "ZLIYNPD", provenance: [], evidence: .text, disagreesWith: []),
        ]
        var rows = window
        SerialChooser.putFramesFirstValueFirst(&rows, settling)
        #expect(rows.map(\.value) == ["ZL1YHPD1", "ZLIYNPD"])
        SerialChooser.listLostDisagreement(&rows, settling)
        #expect(rows.map(\.value) == ["ZL1YNPD1", "ZL1YHPD1", "ZLIYNPD"])
        #expect(rows.map(\.disagreesWith) == [["ZL1YHPD1"], ["ZL1YNPD1"], []])
        // Led with on one frame only: as listed.
        var once = Settling(startedAt: .zero, voting: true)
        for frame in [[code, print], [code, underBars]] { once.add(frame) }
        var kept = window
        SerialChooser.listLostDisagreement(&kept, once)
        #expect(kept == window)
    }

    @Test(
        "a value a frame read whole, in print or alike in a code, takes its first piece's place, and its pieces are no rows; one no frame put first does neither"
    )
    func wholeBeforePieces() {
        var rows = [text("ABCD1234"), text("W0W7HVGSF9"), text("WOW7HVGSF9"), text("G8W0W7MVG5F9")]
        SerialChooser.putWholeBeforeFragments(&rows, firstOnFrames: ["W0W7HVGSF9": 3, "G8W0W7MVG5F9": 1])
        #expect(rows.map(\.value) == ["ABCD1234", "G8W0W7MVG5F9"])
        // A value in the maker's format first, a longer one with junk read on after it, never first on a frame.
        var tag = [text("L1P0MW3"), text("L1P0MWS3S")]
        SerialChooser.putWholeBeforeFragments(&tag, firstOnFrames: ["L1P0MW3": 2])
        #expect(tag.map(\.value) == ["L1P0MW3", "L1P0MWS3S"])
        // A barcode's value is exact: no print goes above it for holding it.
        var code = [SerialCandidate(value: "ABC12345", provenance: [], evidence: .barcode, disagreesWith: []), text("XABC12345YZ")]
        SerialChooser.putWholeBeforeFragments(&code, firstOnFrames: ["XABC12345YZ": 4])
        #expect(code.map(\.value) == ["ABC12345", "XABC12345YZ"])
        // A code and its print read alike, put first on a frame, is read whole as well: its print's
        // pieces go; disagreeing with another value, it takes none off.
        let agreed = SerialCandidate(value: "VS3150330258", provenance: [], evidence: .agree, disagreesWith: [])
        var both = [agreed, text("VS315"), text("V5315")]
        SerialChooser.putWholeBeforeFragments(&both, firstOnFrames: ["VS3150330258": 2])
        #expect(both.map(\.value) == ["VS3150330258"])
        var disputed = [agreed, text("VS315")]
        disputed[0].disagreesWith = ["VS3150330256"]
        SerialChooser.putWholeBeforeFragments(&disputed, firstOnFrames: ["VS3150330258": 2])
        #expect(disputed.map(\.value) == ["VS3150330258", "VS315"])
    }

    @Test(
        "a value frames put first, lost by the window while it listed a piece of it, goes above the piece; lost with no piece listed, it does not"
    )
    func lostWholeAbovePieces() {
        var settling = Settling(startedAt: .zero, voting: true)
        for value in ["S/N: HWD7901588", "S/N: HWD7901588", "S/N: QX12345678", "S/N: QX12345678"] {
            settling.add([printed(value, line: 1)])
        }
        #expect(settling.firstOnFrames == ["HWD7901588": 2, "QX12345678": 2])
        var rows = [text("ABCDEF12"), text("D790158"), text("D79015B")]
        SerialChooser.listLostWholes(&rows, settling)
        #expect(rows.map(\.value) == ["ABCDEF12", "HWD7901588", "D790158", "D79015B"])
        #expect(rows[1] == settling.firstCandidates["HWD7901588"])
        // Listed already, it stays where it is; a barcode is no piece of print.
        var listed = [text("D790158"), text("HWD7901588")]
        SerialChooser.listLostWholes(&listed, settling)
        #expect(listed.map(\.value) == ["D790158", "HWD7901588"])
        var code = [SerialCandidate(value: "D790158", provenance: [], evidence: .barcode, disagreesWith: [])]
        SerialChooser.listLostWholes(&code, settling)
        #expect(code.map(\.value) == ["D790158"])
    }

    @Test("the frames' first values, most frames first; of two look-alikes put first as often, the one OCR reads the other for")
    func framesFirstValuesOrdered() {
        let counts = ["S0SVTY0A863588J": 2, "S05VTY0A863588J": 2, "S05VTY0A863588": 1, "QX12345678": 3]
        #expect(SerialChooser.framesFirstOrder(counts) == ["QX12345678", "S05VTY0A863588J", "S0SVTY0A863588J", "S05VTY0A863588"])
        #expect(SerialChooser.framesFirstOrder(["A8C7": 1, "ASC7": 1]) == ["ASC7", "A8C7"], "an S is read as 8, not 8 as S")
        #expect(SerialChooser.framesFirstOrder(["XI12": 2, "XJ12": 2]) == ["XJ12", "XI12"])
        #expect(
            SerialChooser.framesFirstOrder(["ABC": 1, "ABD": 1]) == ["ABC", "ABD"], "no look-alikes: in the order of their characters")
        var settling = Settling(startedAt: .zero, voting: true)
        for value in ["S/N: QX12345678", "S/N: HWD79015", "S/N: HWD79015"] { settling.add([printed(value, line: 1)]) }
        #expect(SerialChooser.framesFirstValues(settling).map(\.value) == ["HWD79015", "QX12345678"])
        #expect(SerialChooser.framesFirstValues(Settling(startedAt: .zero, voting: true)).isEmpty)
    }

    @Test(
        "a line read before the label moved where nothing read showed it is not measured against the bars read after: a code's own line misread as the label came into view stays after the code"
    )
    func linesReadBeforeAnUnshownMove() {
        // The label coming into view at the frame's left edge: its code not decoded, the code's
        // own line read with a Y for its V. Then the label 200 pixels to the right, the code
        // decoded, and none of the first frame's lines read again.
        let entering = [
            Reading(value: "Made in USA", source: .text(line: 3), box: Box(x: 0, y: 640, width: 150, height: 30)),
            Reading(value: "URY56763", source: .text(line: 2), box: Box(x: 6, y: 536, width: 136, height: 40)),
        ]
        let code = Reading(value: "URV56763", source: .barcode(symbology: "CODE-128"), box: Box(x: 201, y: 339, width: 543, height: 164))
        let held = [code, Reading(value: "Patient Monitor PM-12", source: .text(line: 1), box: Box(x: 201, y: 79, width: 510, height: 46))]
        var settling = Settling(startedAt: .zero, voting: true)
        for frame in [entering, held, held] { settling.add(frame) }
        #expect(settling.unshownMoves == 1)
        let unplaced = settling.readings.filter(\.unplaced).map(\.value)
        #expect(unplaced == ["Made in USA", "URY56763"], "\(unplaced)")
        var c = SerialChooser()
        _ = c.handle(.opened)
        _ = c.handle(.cameraStarted)
        for (i, frame) in [entering, held, held].enumerated() { _ = c.handle(.frameRead(frame, at: .milliseconds(100 * i))) }
        _ = c.handle(.clock(.seconds(2)))
        #expect(c.rows.map(\.value) == ["URV56763", "URY56763"])
        #expect(c.rows.last?.detail.contains("disagrees with URV56763") == true)
        // Read again once the label is held, a line lies where the frames after read it.
        var again = Settling(startedAt: .zero, voting: true)
        for frame in [entering, held, held + [entering[1].moved(200, 0)]] { again.add(frame) }
        #expect(again.readings.filter(\.unplaced).map(\.value) == ["Made in USA"])
        // A frame that read a code (zbar's box a point at one end of its bars) and no print says
        // nothing of where print lies: no move is counted.
        let point = Reading(value: "URV56763", source: .barcode(symbology: "CODE-128"), box: Box(x: 744, y: 339, width: 1, height: 1))
        var codeOnly = Settling(startedAt: .zero, voting: true)
        for frame in [held, [point], held] { codeOnly.add(frame) }
        #expect(codeOnly.unshownMoves == 0)
        // The label's code first decoded on a frame read for barcodes only, where the label had
        // moved to: that frame holds the code, and the move is counted there.
        var codeFirst = Settling(startedAt: .zero, voting: true)
        for frame in [entering, [code], held] { codeFirst.add(frame) }
        #expect(codeFirst.unshownMoves == 1)
        #expect(codeFirst.readings.filter(\.unplaced).map(\.value) == ["Made in USA", "URY56763"])
    }
}

extension Reading {
    /// This reading as read on a frame the label was moved `dx` pixels right and `dy` down in.
    func moved(_ dx: Int, _ dy: Int) -> Reading {
        var moved = self
        moved.box = box.moved(dx, dy)
        return moved
    }
}
