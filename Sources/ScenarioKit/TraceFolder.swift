import Foundation
import PhoneFace

/// Writes a run's traces as pages to open from disk: `index.html` (every scenario, its result,
/// time and rules, linked to its page when its trace was kept), `scenarios/NNN-name.html`, and
/// the filmstrips' pictures in `frames/`.
public enum TraceFolder {
    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `results` under `folder` (made if missing); the path of the index.
    @discardableResult
    public static func write(_ results: [ScenarioResult], to folder: String, title: String = "Scenarios") throws(WriteError) -> String {
        let files = FileManager.default
        func make(_ path: String) throws(WriteError) {
            do { try files.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw WriteError(description: "\(path): cannot make the folder (\(error.localizedDescription))")
            }
        }
        func put(_ bytes: some Sequence<UInt8>, _ path: String) throws(WriteError) {
            guard files.createFile(atPath: path, contents: Data(bytes)) else {
                throw WriteError(description: "\(path): cannot write the trace (is the folder writable and the disk not full?)")
            }
        }
        try make(folder + "/scenarios")
        try make(folder + "/frames")
        var entries: [TraceIndexEntry] = []
        for (number, result) in results.enumerated() {
            var page: String? = nil
            if let trace = result.trace {
                let name = "scenarios/\(String(format: "%03d", number + 1))-\(slug(result.scenario)).html"
                for (picture, bytes) in result.tracePictures where !files.fileExists(atPath: "\(folder)/\(picture)") {
                    try put(bytes, "\(folder)/\(picture)")
                }
                try put(Array(TracePages.scenario(trace, index: "../index.html").utf8), "\(folder)/\(name)")
                page = name
            }
            entries.append(
                TraceIndexEntry(
                    name: result.scenario, rules: result.rules, location: result.location.description, passed: result.passed,
                    duration: result.duration, page: page))
        }
        let index = "\(folder)/index.html"
        try put(Array(TracePages.index(entries, title: title).utf8), index)
        return index
    }

    /// A file name from a scenario's name: lower-case letters, digits and dashes.
    static func slug(_ name: String) -> String {
        var out = ""
        for c in name.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber) {
                out.append(c)
            } else if !out.hasSuffix("-") {
                out.append("-")
            }
        }
        return String(out.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(60))
    }
}
