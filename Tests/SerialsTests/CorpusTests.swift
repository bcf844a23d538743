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

/// The cases of a corpus file, and each line that is not one (FILE:LINE: why); a missing file is one.
func loadCorpus(_ file: String) -> (cases: [CorpusCase], problems: [String]) {
    let text: String
    do { text = try String(contentsOfFile: "\(root)/Devices/serials/\(file)", encoding: .utf8) } catch {
        return ([], ["\(file): cannot be read (\(error.localizedDescription))"])
    }
    var cases: [CorpusCase] = []
    var problems: [String] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
        do { cases.append(try JSONDecoder().decode(CorpusCase.self, from: Data(line.utf8))) } catch {
            problems.append("\(file):\(number + 1): not a case (\(error))")
        }
    }
    return (cases, problems)
}

let corpusFiles = [loadCorpus("corpus.jsonl"), loadCorpus("regressions.jsonl")]
let corpus = corpusFiles.flatMap(\.cases)

@Suite("The serial corpus")
struct CorpusTests {
    @Test("the corpus has at least 300 cases, and every line of its files is one")
    func size() {
        #expect(corpus.count >= 300)
        #expect(corpusFiles.flatMap(\.problems) == [])
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
