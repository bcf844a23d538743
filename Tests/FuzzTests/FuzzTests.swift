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
            run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        }
    }

    @Test("the targets take inputs no seed has: empty, huge lengths, and bytes that are not UTF-8")
    func edges() {
        let odd: [[UInt8]] = [
            [], [0xFF, 0xFE, 0x00], Array(repeating: 0xFF, count: 4096), [0x7F, 0xFF, 0xFF, 0xFF] + Array("{}".utf8),
            Array("fps 240\nhold a.png 86400\n".utf8), Array("busy@99999999999999999999\nbusy#-1\n".utf8),
        ]
        for target in FuzzTargets.all {
            for bytes in odd { target.run(bytes) }
        }
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
            for file in inputs("corpus", target.name).prefix(3) { target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file)))) }
        }
        #expect(scratches() == before)
    }
}
