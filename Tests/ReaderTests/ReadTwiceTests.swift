import Imaging
import Model
import Testing

@testable import Reader

@Suite("A character read twice from the same ink")
struct ReadTwiceTests {
    /// Characters with their boxes' left edges and widths, as tesseract boxed them (all 20 high).
    func symbols(_ word: String, _ boxes: [(x: Int, width: Int)]) -> [(text: String, box: Box)] {
        zip(word, boxes).map { (String($0), Box(x: $1.x, y: 0, width: $1.width, height: 20)) }
    }

    @Test("a narrow character boxed mostly inside its neighbours is taken out; characters standing apart are not")
    func boxes() {
        // "PF5QHU9N" with its 9 read again as an O, boxed 427 to 436 between the 9 and the N.
        let lenovo = symbols(
            "PF5QHU9ON", [(302, 17), (321, 18), (342, 15), (359, 19), (379, 18), (397, 19), (419, 14), (427, 9), (434, 20)])
        #expect(TextReader.readOnce("PF5QHU9ON", lenovo) == "PF5QHU9N")
        // Two in one word: a Q inside the 2 and an O inside the A and the 0.
        let hp = symbols(
            "2QUAO0952HY2",
            [
                (673, 14), (682, 9), (691, 15), (710, 21), (729, 9), (732, 15), (749, 15), (766, 15), (783, 14), (801, 16), (819, 17),
                (838, 14),
            ])
        #expect(TextReader.readOnce("2QUAO0952HY2", hp) == "2UA0952HY2")
        // The same word with its characters apart: nothing read twice.
        let apart = symbols("PF5QHU9ON", (0..<9).map { (302 + 20 * $0, 17) })
        #expect(TextReader.readOnce("PF5QHU9ON", apart) == nil)
        // A narrow 1 between two digits, its box clear of theirs, is a 1.
        #expect(TextReader.readOnce("A5146", symbols("A5146", [(516, 14), (532, 11), (545, 7), (553, 12), (567, 12)])) == nil)
    }

    @Test("a box tesseract drew across its neighbours says nothing of where their ink is")
    func wideBoxes() {
        // The second 4 boxed 37 wide over the first (the word's characters are 17 wide).
        let nameplate = symbols("71884460", [(329, 15), (352, 7), (367, 16), (385, 17), (400, 22), (403, 37), (442, 17), (461, 17)])
        #expect(TextReader.readOnce("71884460", nameplate) == nil)
        // The narrow 8 and J overlap the W and N, each boxed twice as wide as a character.
        let apple = symbols(
            "G8WNJXLOKGYB",
            [
                (396, 16), (414, 13), (413, 33), (447, 26), (461, 14), (473, 14), (489, 11), (500, 32), (518, 14), (532, 16), (549, 15),
                (565, 13),
            ])
        #expect(TextReader.readOnce("G8WNJXLOKGYB", apple) == nil)
    }

    @Test("characters that do not spell the word, or too few of them, say nothing")
    func unusable() {
        let lenovo = symbols(
            "PF5QHU9ON", [(302, 17), (321, 18), (342, 15), (359, 19), (379, 18), (397, 19), (419, 14), (427, 9), (434, 20)])
        #expect(TextReader.readOnce("PF5QHU9OM", lenovo) == nil)
        #expect(TextReader.readOnce("9O", symbols("9O", [(419, 14), (427, 9)])) == nil)
    }

    @Test("on a photographed label: the serial and the machine type each with a character read twice, the other words whole")
    func label() throws {
        // A Lenovo label with noise and JPEG artefacts: "PF5QHU9N" read "PF5QHU9ON", and the
        // machine type "35Y6SX3QTM" (printed again below as "35Y6-SX3QTM") read "35Y6SX30Q0TM".
        let frame = try image("lenovo-read-twice")
        let words = try FrameReader().read(frame).flatMap(\.words)
        let twice = Dictionary(words.compactMap { word in word.readOnce.map { (word.text, $0) } }) { first, _ in first }
        #expect(twice == ["PF5QHU9ON": "PF5QHU9N", "35Y6SX30Q0TM": "35Y6SX3QTM"], "\(words.map(\.text))")
        #expect(words.contains { $0.text == "35Y6-SX3QTM" })
    }
}
