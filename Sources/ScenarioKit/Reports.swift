import Foundation
import Model
import PhoneFace

/// One scenario's result as a report keeps it: a line of `results.jsonl`. The transcript is kept
/// for a failure only, so a report of ten thousand scenarios stays small.
public struct ScenarioRecord: Codable, Sendable, Equatable {
    public var name: String
    public var rules: [String]
    public var location: String
    public var failure: String?
    public var seconds: Double
    public var transcript: [String]
    /// The trace page, relative to the trace folder, when one was kept.
    public var page: String?

    public var passed: Bool { failure == nil }

    public init(_ result: ScenarioResult) {
        name = result.scenario
        rules = result.rules
        location = result.location.description
        failure = result.failure
        seconds = result.duration.inSeconds
        transcript = result.passed ? [] : result.transcript
        page = nil
    }

    var indexEntry: TraceIndexEntry {
        TraceIndexEntry(
            name: name, rules: rules, location: location, passed: passed, duration: .microseconds(Int64((seconds * 1e6).rounded())),
            page: page)
    }
}

/// A report folder: what one run (or one shard of a run) wrote, and what `report merge` reads.
///
///     plan           the shard ("shard 2/4", or "all") and then every scenario the selection
///                    took before sharding, one name a line: what the shards share
///     results.jsonl  one ScenarioRecord a line, written as each scenario ends
///     durations      "SECONDS<TAB>NAME" a line, sorted by name: what --durations reads
///     junit.xml      the JUnit report
///     trace/         index.html and the pages kept (with --trace)
public enum ReportFolder {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    static let plan = "plan"
    static let results = "results.jsonl"
    static let durations = "durations"
    static let junit = "junit.xml"
    static let trace = "trace"

    /// The durations file's text for `records`.
    static func durationsText(_ records: [ScenarioRecord]) -> String {
        records.sorted { $0.name < $1.name }.map { String(format: "%.6f", $0.seconds) + "\t" + $0.name }.joined(separator: "\n") + "\n"
    }

    /// Durations by scenario name, from a durations file, a JUnit report, or a report folder.
    public static func durations(from path: String) throws(Failure) -> [String: Double] {
        let file = file(durations, of: path)
        let text = try read(file, what: "durations")
        if text.contains("<testsuite") {
            return Dictionary(JUnitReport.cases(text).compactMap { c in c.seconds.map { (c.name, $0) } }, uniquingKeysWith: { a, _ in a })
        }
        var found: [String: Double] = [:]
        for (number, line) in text.split(separator: "\n").enumerated() {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let seconds = Double(parts[0]), seconds >= 0 else {
                throw Failure("\(file):\(number + 1): not 'SECONDS<TAB>NAME' (a durations file, or give a JUnit report)")
            }
            found[String(parts[1])] = seconds
        }
        return found
    }

    /// The names of the scenarios that failed, from a report folder, its results.jsonl, or a JUnit report.
    public static func failedNames(in path: String) throws(Failure) -> [String] {
        let file = file(results, of: path)
        let text = try read(file, what: "report")
        if text.contains("<testsuite") { return JUnitReport.cases(text).filter(\.failed).map(\.name) }
        return try records(text, file: file).filter { !$0.passed }.map(\.name)
    }

    /// The report folder's file `name` when `path` is a folder, else `path` itself.
    static func file(_ name: String, of path: String) -> String {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue ? "\(path)/\(name)" : path
    }

    static func records(_ text: String, file: String) throws(Failure) -> [ScenarioRecord] {
        var found: [ScenarioRecord] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            do { found.append(try JSONDecoder().decode(ScenarioRecord.self, from: Data(line.utf8))) } catch {
                throw Failure("\(file):\(number + 1): not a scenario's result (\(error.localizedDescription))")
            }
        }
        return found
    }

    static func read(_ file: String, what: String) throws(Failure) -> String {
        do { return try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw Failure("\(file): cannot read the \(what) (\(error.localizedDescription))")
        }
    }

    static func write(_ text: String, to file: String) throws(Failure) {
        do { try text.write(toFile: file, atomically: true, encoding: .utf8) } catch {
            throw Failure("\(file): cannot write it (\(error.localizedDescription))")
        }
    }

    static func make(_ folder: String) throws(Failure) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw Failure("\(folder): cannot make the folder (\(error.localizedDescription))")
        }
    }
}

/// A run's results as they end: each trace page written at once, a small record kept; the report
/// folder, the JUnit file and the trace index written once the run is over.
public final class RunReport: Sendable {
    let traces: TraceWriter?
    private let records = Locked<[Int: ScenarioRecord]>([:])
    private let problems = Locked<[String]>([])

    public init(trace: String?) throws(TraceFolder.WriteError) {
        traces = try trace.map { folder throws(TraceFolder.WriteError) in try TraceWriter(folder: folder) }
    }

    /// Keeps `result`, the `number`-th scenario of the run (from 0), writing its trace page now.
    @discardableResult
    public func add(_ result: ScenarioResult, number: Int) -> ScenarioRecord {
        var record = ScenarioRecord(result)
        do { record.page = try traces?.page(for: result, number: number) } catch { problems.withLock { $0.append(error.description) } }
        records.withLock { $0[number] = record }
        return record
    }

    /// Fails the `number`-th scenario with `failure` (a second run that told another story).
    public func fail(_ number: Int, _ failure: String) {
        records.withLock { $0[number]?.failure = failure }
    }

    /// The records, in the run's order.
    public var ordered: [ScenarioRecord] { records.current.sorted { $0.key < $1.key }.map(\.value) }

    /// Writes the report folder (with `plan`), the JUnit file and the trace index, as asked; the
    /// index's path when there is one.
    public func write(folder: String?, junit: String?, plan: String, elapsed: Duration, title: String) throws(ReportFolder.Failure)
        -> String?
    {
        if let problem = problems.current.first { throw ReportFolder.Failure(problem) }
        let all = ordered
        var named: [String: String] = [:]
        for record in all {
            if let other = named.updateValue(record.location, forKey: record.name), folder != nil {
                throw ReportFolder.Failure(
                    "two scenarios are named '\(record.name)' (\(other) and \(record.location)): a report folder needs each name once")
            }
        }
        let xml = JUnitReport.xml(all, elapsed: elapsed)
        if let junit { try ReportFolder.write(xml, to: junit) }
        if let folder {
            try ReportFolder.make(folder)
            try ReportFolder.write(plan, to: "\(folder)/\(ReportFolder.plan)")
            try ReportFolder.write(ReportFolder.jsonLines(all), to: "\(folder)/\(ReportFolder.results)")
            try ReportFolder.write(ReportFolder.durationsText(all), to: "\(folder)/\(ReportFolder.durations)")
            try ReportFolder.write(xml, to: "\(folder)/\(ReportFolder.junit)")
        }
        guard let traces else { return nil }
        do { return try traces.index(all.map(\.indexEntry), title: title) } catch { throw ReportFolder.Failure(error.description) }
    }
}

extension ReportFolder {
    /// The plan file's text: the shard and every scenario the selection took before sharding.
    public static func planText(shard: String, names: [String]) -> String {
        ([shard] + names).joined(separator: "\n") + "\n"
    }

    static func jsonLines(_ records: [ScenarioRecord]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return records.map { String(decoding: (try? encoder.encode($0)) ?? Data(), as: UTF8.self) }.joined(separator: "\n") + "\n"
    }

    /// One report of the shards in `folders`, written to `out`: each scenario once, in the plan's
    /// order. A scenario no shard ran, or two did, or shards cut from different plans, is an error.
    public static func merge(_ folders: [String], into out: String) throws(Failure) -> [ScenarioRecord] {
        guard let first = folders.first else { throw Failure("name the shards' report folders") }
        let plan = try planNames(first)
        var owner: [String: String] = [:]
        var byName: [String: ScenarioRecord] = [:]
        for folder in folders {
            guard try planNames(folder) == plan else {
                throw Failure("\(folder): its plan differs from \(first)'s: the shards were not cut from the same selection")
            }
            let file = "\(folder)/\(results)"
            for record in try records(try read(file, what: "results"), file: file) {
                if let other = owner[record.name] { throw Failure("'\(record.name)' was run by two shards: \(other) and \(folder)") }
                owner[record.name] = folder
                byName[record.name] = record
            }
        }
        if let missing = plan.first(where: { byName[$0] == nil }) { throw Failure("'\(missing)' was run by no shard") }
        if let stray = byName.keys.sorted().first(where: { !plan.contains($0) }) { throw Failure("'\(stray)' is in no shard's plan") }
        let merged = plan.map { byName[$0]! }
        try make(out)
        try write(planText(shard: "all", names: plan), to: "\(out)/\(ReportFolder.plan)")
        try write(jsonLines(merged), to: "\(out)/\(results)")
        try write(durationsText(merged), to: "\(out)/\(durations)")
        let elapsed = Duration.microseconds(Int64((merged.reduce(0) { $0 + $1.seconds } * 1e6).rounded()))
        try write(JUnitReport.xml(merged, elapsed: elapsed), to: "\(out)/\(junit)")
        try mergeTraces(folders, merged, into: "\(out)/\(trace)")
        return merged
    }

    static func planNames(_ folder: String) throws(Failure) -> [String] {
        Array(
            try read("\(folder)/\(plan)", what: "plan").split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(
                String.init)
        )
        .filter { !$0.isEmpty }
    }

    /// Copies the shards' trace pages and pictures (named by digest, so shared) and indexes them.
    static func mergeTraces(_ folders: [String], _ merged: [ScenarioRecord], into out: String) throws(Failure) {
        let files = FileManager.default
        let sources = folders.map { "\($0)/\(trace)" }.filter { files.fileExists(atPath: "\($0)/index.html") }
        guard !sources.isEmpty else { return }
        do {
            let writer = try TraceWriter(folder: out)
            for source in sources {
                for part in ["scenarios", "frames"] {
                    for name in (try? files.contentsOfDirectory(atPath: "\(source)/\(part)")) ?? []
                    where !files.fileExists(atPath: "\(out)/\(part)/\(name)") {
                        try files.copyItem(atPath: "\(source)/\(part)/\(name)", toPath: "\(out)/\(part)/\(name)")
                    }
                }
            }
            _ = try writer.index(merged.map(\.indexEntry), title: "fieldrig scenarios")
        } catch {
            throw Failure("\(out): cannot write the merged trace (\(error))")
        }
    }
}
