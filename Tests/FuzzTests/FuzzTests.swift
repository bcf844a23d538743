import Foundation
import FuzzTargets
import Testing

let devices = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Devices/fuzz").path

/// The files in a folder of `Devices/fuzz`, for one target.
func inputs(_ kind: String, _ target: String) -> [String] {
    let folder = "\(devices)/\(kind)/\(target)"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map {
        "\(folder)/\($0)"
    }
}

/// Serialized: the last test counts the folders the targets leave in the temporary folder.
@Suite("Every parser of outside input, on its seed corpus and on every input that once crashed it", .serialized)
struct FuzzTests {
    @Test("each target has a seed corpus, and runs through it and its regressions without crashing", arguments: FuzzTargets.all.map(\.name))
    func replay(target: String) throws {
        let run = try #require(FuzzTargets.all.first { $0.name == target }?.run)
        let seeds = inputs("corpus", target)
        #expect(!seeds.isEmpty, "Devices/fuzz/corpus/\(target) is empty")
        for file in seeds + inputs("regressions", target) {
            let outcome = run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            if case .broken(let promise) = outcome { Issue.record("\(file): \(promise)") }
        }
    }

    @Test("the targets take inputs no seed has: empty, huge lengths, and bytes that are not UTF-8; each refused with words")
    func edges() throws {
        let odd: [[UInt8]] = [
            [], [0xFF, 0xFE, 0x00], Array(repeating: 0xFF, count: 4096), [0x7F, 0xFF, 0xFF, 0xFF] + Array("{}".utf8),
            Array("fps 240\nhold a.png 86400\n".utf8), Array("busy@99999999999999999999\nbusy#-1\n".utf8),
        ]
        var outcomes: [String: [FuzzOutcome]] = [:]
        for target in FuzzTargets.all { outcomes[target.name] = odd.map(target.run) }
        for (name, results) in outcomes {
            for case .broken(let promise) in results { Issue.record("\(name): \(promise)") }
        }
        // None of the odd inputs is an image, a frame on the wire or a scanned code.
        for name in ["image", "wire", "payload"] {
            #expect(try #require(outcomes[name]).allSatisfy { if case .refused = $0 { true } else { false } }, "\(name)")
        }
        let hugeTime = "'99999999999999999999' is not one: write seconds from 0 to 86400 like 0.25, at most 6 decimals."
        #expect(outcomes["fault"]?.last == .refused("'busy@99999999999999999999' is not a fault: after @ comes a time; " + hugeTime))
        #expect(outcomes["fault"]?.first == .accepted)
        guard case .refused(let sequence)? = outcomes["sequence"]?[4] else { throw Failure("a day-long hold was not refused") }
        #expect(
            sequence.hasSuffix(
                "sequence:2: the sequence would list more than 120000 frames: shorten the hold, or play it with 'end loop'"))
    }

    @Test("the targets that need a folder leave nothing in the temporary folder")
    func scratchRemoved() throws {
        func scratches() -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter {
                    $0.hasPrefix(FuzzTargets.scratchPrefix)
                })
        }
        let before = scratches()
        for target in FuzzTargets.all where ["sequence", "register"].contains(target.name) {
            for file in inputs("corpus", target.name).prefix(3) { _ = target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file)))) }
        }
        #expect(scratches() == before)
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
