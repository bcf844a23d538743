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
        let writer = try TraceWriter(folder: folder)
        var entries: [TraceIndexEntry] = []
        for (number, result) in results.enumerated() {
            entries.append(
                TraceIndexEntry(
                    name: result.scenario, rules: result.rules, location: result.location.description, passed: result.passed,
                    duration: result.duration, page: try writer.page(for: result, number: number)))
        }
        return try writer.index(entries, title: title)
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

/// Writes a run's trace pages as each scenario ends, and the index once it is over: only the
/// index's lines are held, never the pages or their pictures.
public struct TraceWriter: Sendable {
    public let folder: String

    public init(folder: String) throws(TraceFolder.WriteError) {
        self.folder = folder
        try Self.make(folder + "/scenarios")
        try Self.make(folder + "/frames")
    }

    /// Writes the page of `result` (the `number`-th of the run, from 0) and its pictures when its
    /// trace was kept; the page's path under the folder, or nil.
    public func page(for result: ScenarioResult, number: Int) throws(TraceFolder.WriteError) -> String? {
        guard let trace = result.trace else { return nil }
        let name = "scenarios/\(String(format: "%03d", number + 1))-\(TraceFolder.slug(result.scenario)).html"
        for (picture, bytes) in result.tracePictures where !FileManager.default.fileExists(atPath: "\(folder)/\(picture)") {
            try Self.put(bytes, "\(folder)/\(picture)")
        }
        try Self.put(Array(TracePages.scenario(trace, index: "../index.html").utf8), "\(folder)/\(name)")
        return name
    }

    /// Writes the index of `entries`; its path.
    public func index(_ entries: [TraceIndexEntry], title: String) throws(TraceFolder.WriteError) -> String {
        let index = "\(folder)/index.html"
        try Self.put(Array(TracePages.index(entries, title: title).utf8), index)
        return index
    }

    static func make(_ path: String) throws(TraceFolder.WriteError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw TraceFolder.WriteError(description: "\(path): cannot make the folder (\(error.localizedDescription))")
        }
    }

    static func put(_ bytes: some Sequence<UInt8>, _ path: String) throws(TraceFolder.WriteError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw TraceFolder.WriteError(description: "\(path): cannot write the trace (is the folder writable and the disk not full?)")
        }
    }
}
