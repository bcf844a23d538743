import Foundation
import Testing

@testable import Serials

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// One case of the corpus: readings in, the true serial and what the chooser must show out.
struct CorpusCase: Decodable, CustomTestStringConvertible, Sendable {
    struct Item: Decodable, Sendable {
        var value: String
        var symbology: String?
        var place: String
    }

    var name: String
    var readings: [Item]
    var serial: String
    var first: Bool
    var disagreement: Bool
    var notCandidates: [String]

    var testDescription: String { name }
}

func loadCorpus(_ file: String) -> [CorpusCase] {
    guard let text = try? String(contentsOfFile: "\(root)/Devices/serials/\(file)", encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(CorpusCase.self, from: Data($0.utf8)) }
}

let corpus = loadCorpus("corpus.jsonl") + loadCorpus("regressions.jsonl")

@Suite("The serial corpus")
struct CorpusTests {
    @Test("the corpus has at least 300 cases")
    func size() {
        #expect(corpus.count >= 300)
    }

    @Test(
        "each case: the true serial is on the list (first where it must be), disagreements shown, other things not offered",
        arguments: corpus)
    func corpusCase(_ c: CorpusCase) {
        let candidates = SerialExtractor.candidates(
            c.readings.map { SerialReading(value: $0.value, symbology: $0.symbology, place: $0.place) })
        let values = candidates.map(\.value)
        #expect(values.contains(c.serial), "\(c.name): \(c.serial) not in \(values)")
        if c.first { #expect(values.first == c.serial, "\(c.name): \(c.serial) is not first in \(values)") }
        if c.disagreement {
            let truth = candidates.first { $0.value == c.serial }
            #expect(truth?.disagreesWith.isEmpty == false, "\(c.name): the disagreement is not shown: \(candidates)")
        }
        for other in c.notCandidates { #expect(!values.contains(other), "\(c.name): \(other) offered") }
    }
}
