import Camera
import Companion
import Crypto
import Foundation
import Imaging
import MacLink
import Register
import Serials

/// What a parser did with an input: took it, refused it with a message for a person, or broke a
/// promise its target checks (the fuzzer stops on that, as on a crash).
public enum FuzzOutcome: Equatable, Sendable {
    case accepted
    case refused(String)
    case broken(String)

    /// Accepted, or refused with what `error` says: a refusal always says something.
    static func of(_ body: () throws -> Void) -> FuzzOutcome {
        do {
            try body()
            return .accepted
        } catch {
            let said = "\(error)"
            return said.isEmpty ? .broken("refused without a word") : .refused(said)
        }
    }
}

/// Every parser of outside input, each as a function of raw bytes that must return (whatever the
/// bytes) without crashing, hanging or allocating without bound, and keep the promise its target
/// checks. libFuzzer drives them through `fieldrig-fuzz`; the seed corpora and every input that
/// ever crashed one (`Fuzz/`) are replayed by the tests.
public enum FuzzTargets {
    public static let all: [(name: String, run: @Sendable ([UInt8]) -> FuzzOutcome)] = [
        ("image", image), ("sequence", sequence), ("fault", fault), ("payload", payload), ("serials", serials), ("wire", wire),
        ("register", register),
    ]

    /// An image file as the reader loads it.
    static func image(_ bytes: [UInt8]) -> FuzzOutcome {
        .of { _ = try ImageFile.decode(bytes, path: "fuzz") }
    }

    /// A sequence description, its frames looked for in an empty folder.
    static func sequence(_ bytes: [UInt8]) -> FuzzOutcome {
        withScratch { folder in .of { _ = try FrameSequence(description: String(decoding: bytes, as: UTF8.self), folder: folder) } }
    }

    /// Fault strings, one a line, as `--fault` and `Phone(faults:)` take them: each refused with a
    /// message quoting it, or accepted; the first refusal is the outcome.
    static func fault(_ bytes: [UInt8]) -> FuzzOutcome {
        var script = FaultScript()
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(16) {
            let outcome = FuzzOutcome.of { try script.add(parsing: String(line)) }
            guard case .refused(let said) = outcome else { continue }
            return said.contains("'\(line)'") ? outcome : .broken("the refusal of '\(line)' does not quote it: \(said)")
        }
        return .accepted
    }

    /// A scanned QR payload, as the scan sheet proves it: an asset tag, or a Mac's pairing code,
    /// never both.
    static func payload(_ bytes: [UInt8]) -> FuzzOutcome {
        let text = String(decoding: bytes, as: UTF8.self)
        let tag = AssetTagCode.prove(text, registerID: "REG-4F2A", key: Array("manifest-demo-tag-key-0001".utf8))
        let pairing = PairingCode.prove(text, checking: P256.checker)
        if tag != nil, pairing != nil { return .broken("proved both an asset tag and a pairing code") }
        return tag != nil || pairing != nil ? .accepted : .refused("neither an asset tag nor a pairing code")
    }

    /// Readings as the serial extractor takes them: each line a printed line, or a barcode when it
    /// starts with "barcode SYMBOLOGY ". No candidate out of no readings, none empty, each saying
    /// where it was read.
    static func serials(_ bytes: [UInt8]) -> FuzzOutcome {
        var line = 0
        let readings = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(64).map { raw -> SerialReading in
            let words = raw.split(separator: " ", maxSplits: 2)
            if words.count == 3, words[0] == "barcode" {
                return SerialReading(value: String(words[2]), symbology: String(words[1]), place: "\(words[1]) barcode")
            }
            line += 1
            return SerialReading(value: String(raw), symbology: nil, place: "printed line \(line)")
        }
        let candidates = SerialExtractor.candidates(readings)
        if readings.isEmpty, !candidates.isEmpty { return .broken("candidates out of no readings") }
        if let odd = candidates.first(where: { $0.value.isEmpty || $0.whereRead.isEmpty }) {
            return .broken("a candidate empty or read nowhere: '\(odd.value)' \(odd.whereRead)")
        }
        return candidates.isEmpty ? .refused("no serial in the readings") : .accepted
    }

    /// A frame on the wire, as the Mac's server reads a request.
    static func wire(_ bytes: [UInt8]) -> FuzzOutcome {
        .of { _ = try Framing.request(from: bytes) }
    }

    /// A file opened as a register: refused or opened, never a crash, and never written when refused.
    static func register(_ bytes: [UInt8]) -> FuzzOutcome {
        withScratch { folder in
            let path = folder + "/register.sqlite"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return .broken("no scratch file") }
            let outcome = FuzzOutcome.of { _ = try Register(path: path, create: false).counts() }
            if case .refused = outcome, FileManager.default.contents(atPath: path) != Data(bytes) {
                return .broken("a refused register was written to")
            }
            return outcome
        }
    }

    /// The prefix of the folders the targets make in the temporary folder.
    public static let scratchPrefix = "fieldrig-fuzz-"

    /// Runs `body` with a new empty folder of its own, removed afterwards with all that was put in it.
    static func withScratch(_ body: (String) -> FuzzOutcome) -> FuzzOutcome {
        var template = Array((NSTemporaryDirectory() + scratchPrefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            return .broken("no scratch folder")
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return body(folder)
    }
}
