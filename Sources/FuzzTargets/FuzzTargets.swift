import Camera
import Companion
import Crypto
import Foundation
import Imaging
import MacLink
import Register
import Serials

/// Every parser of outside input, each as a function of raw bytes that must return (whatever the
/// bytes) without crashing, hanging or allocating without bound. libFuzzer drives them through
/// `fieldrig-fuzz`; the seed corpora and every input that ever crashed one (`Fuzz/`) are replayed
/// by the tests.
public enum FuzzTargets {
    public static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("image", image), ("sequence", sequence), ("fault", fault), ("payload", payload), ("serials", serials), ("wire", wire),
        ("register", register),
    ]

    /// An image file as the reader loads it.
    static func image(_ bytes: [UInt8]) {
        _ = try? ImageFile.decode(bytes, path: "fuzz")
    }

    /// A sequence description, its frames looked for in an empty folder.
    static func sequence(_ bytes: [UInt8]) {
        withScratch { folder in _ = try? FrameSequence(description: String(decoding: bytes, as: UTF8.self), folder: folder) }
    }

    /// Fault strings, one a line, as `--fault` and `Phone(faults:)` take them.
    static func fault(_ bytes: [UInt8]) {
        var script = FaultScript()
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(16) {
            try? script.add(parsing: String(line))
        }
    }

    /// A scanned QR payload, as the scan sheet proves it: an asset tag, or a Mac's pairing code.
    static func payload(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = AssetTagCode.prove(text, registerID: "REG-4F2A", key: Array("manifest-demo-tag-key-0001".utf8))
        _ = PairingCode.prove(text, checking: P256.checker)
    }

    /// Readings as the serial extractor takes them: each line a printed line, or a barcode when it
    /// starts with "barcode SYMBOLOGY ".
    static func serials(_ bytes: [UInt8]) {
        var line = 0
        let readings = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(64).map { raw -> SerialReading in
            let words = raw.split(separator: " ", maxSplits: 2)
            if words.count == 3, words[0] == "barcode" {
                return SerialReading(value: String(words[2]), symbology: String(words[1]), place: "\(words[1]) barcode")
            }
            line += 1
            return SerialReading(value: String(raw), symbology: nil, place: "printed line \(line)")
        }
        _ = SerialExtractor.candidates(readings)
    }

    /// A frame on the wire, as the Mac's server reads a request.
    static func wire(_ bytes: [UInt8]) {
        _ = try? Framing.request(from: bytes)
    }

    /// A file opened as a register: refused or opened, never a crash, and never written when refused.
    static func register(_ bytes: [UInt8]) {
        withScratch { folder in
            let path = folder + "/register.sqlite"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
            _ = try? Register(path: path, create: false).counts()
        }
    }

    /// The prefix of the folders the targets make in the temporary folder.
    public static let scratchPrefix = "fieldrig-fuzz-"

    /// Runs `body` with a new empty folder of its own, removed afterwards with all that was put in it.
    static func withScratch(_ body: (String) -> Void) {
        var template = Array((NSTemporaryDirectory() + scratchPrefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        body(folder)
    }
}
