import Imaging
import Model
import Testing

@testable import Reader

@Suite("A letter tesseract took for a digit as well")
struct SecondChoiceTests {
    /// Characters as an engine reporting alternatives read them, each with its alternatives.
    func symbols(_ read: String, choices: [Int: [(String, Double)]] = [:]) -> [TextReader.Symbol] {
        read.enumerated().map { k, ch in
            (String(ch), Box(x: 20 * k, y: 0, width: 18, height: 20), [(String(ch), 94.0)] + (choices[k] ?? []))
        }
    }

    @Test("an S whose alternatives name a 5, or an I a 1, at the least confidence or more, is read as the digit; a weaker one is not")
    func alternatives() {
        let wd = "WD-WMC4NUPSG6TE"
        #expect(TextReader.secondChoice(wd, symbols(wd, choices: [10: [("5", 47)]])) == "WD-WMC4NUP5G6TE")
        #expect(TextReader.secondChoice(wd, symbols(wd, choices: [10: [("5", 25), ("§", 18)]])) == nil)
        #expect(TextReader.secondChoice(wd, symbols(wd, choices: [10: [("§", 47)]])) == nil)
        #expect(TextReader.secondChoice("PFIF7FYK", symbols("PFIF7FYK", choices: [2: [("1", 69)]])) == "PF1F7FYK")
        // Each letter on its own: the other S stays.
        #expect(TextReader.secondChoice("SSX8E", symbols("SSX8E", choices: [1: [("5", 60)]])) == "S5X8E")
    }

    @Test("a letter read twice, as itself and then as its digit, is the digit; a word spelled so on the page stays as it is")
    func readTwice() {
        #expect(TextReader.secondChoice("WD-WX12DX4HSCAE", symbols("WD-WX12DX4HS5CAE")) == "WD-WX12DX4H5CAE")
        #expect(TextReader.secondChoice("OSSX8E", symbols("OSS5X8E")) == "OS5X8E")
        #expect(TextReader.secondChoice("ZS5X8E", symbols("ZS5X8E")) == nil)
    }

    @Test("a digit's alternatives, a B's 8, and characters that do not spell the word say nothing")
    func nothing() {
        #expect(TextReader.secondChoice("A5146", symbols("A5146", choices: [1: [("S", 80)]])) == nil)
        #expect(TextReader.secondChoice("B8QX", symbols("B8QX", choices: [0: [("8", 80)]])) == nil)
        #expect(TextReader.secondChoice("SN42", symbols("SX42", choices: [0: [("5", 80)]])) == nil)
        #expect(TextReader.secondChoice("SN42", symbols("S5N4", choices: [0: [("5", 80)]])) == nil)
    }

    @Test("only a code with an S or an I is read again for them")
    func worthReading() {
        #expect(FrameReader.mayHaveSecondChoice("WD-WX12DX4HSCAE") && FrameReader.mayHaveSecondChoice("PFIF7FYK:"))
        #expect(!FrameReader.mayHaveSecondChoice("Serial") && !FrameReader.mayHaveSecondChoice("ZX4H8CAE"))
    }

    @Test("a line with a word read another way is followed by the line read so, over the same box; other lines stay alone")
    func lineOfferedAgain() {
        let box = Box(x: 285, y: 367, width: 245, height: 38)
        let caption = Box(x: 284, y: 330, width: 50, height: 19)
        let lines = [
            TextLine(words: [Word(text: "Serial", box: caption, confidence: 95)], box: caption),
            TextLine(words: [Word(text: "WD-WX12DX4HSCAE", box: box, confidence: 91)], box: box),
        ]
        let offered = FrameReader.offering(lines) { $0.text == "WD-WX12DX4HSCAE" ? "WD-WX12DX4H5CAE" : nil }
        #expect(offered.map(\.text) == ["Serial", "WD-WX12DX4HSCAE", "WD-WX12DX4H5CAE"])
        #expect(offered[2].box == box && offered[2].words.map(\.box) == [box])
        #expect(FrameReader.offering(lines) { _ in nil } == lines)
    }

    @Test("on a webcam's frame: the serial's 5, read as S, is offered again as 5 over the same print, and only with the pass")
    func frame() throws {
        let frame = try ImageFile.load("\(root)/Devices/images/wd-five-read-as-s.jpg").packed()
        let read = try FrameReader().read(frame).filter { $0.value.hasPrefix("WD-") }
        #expect(read.map(\.value) == ["WD-WX12DX4HSCAE", "WD-WX12DX4H5CAE"])
        #expect(read.count == 2 && read[0].box == read[1].box)
        let without = try readerTurningOff(.secondChoices).read(frame).filter { $0.value.hasPrefix("WD-") }
        #expect(without.map(\.value) == ["WD-WX12DX4HSCAE"])
    }
}
