import Foundation
import Testing

@testable import ScenarioKit

/// A result as a shard's run would have it.
func result(_ name: String, failure: String? = nil, seconds: Double = 1) -> ScenarioResult {
    ScenarioResult(
        scenario: name, rules: ["SCAN-1"], location: StepLocation(file: "/p/Scenarios/A.swift", line: 1), failure: failure,
        transcript: ["step"], duration: .microseconds(Int64(seconds * 1e6)))
}

/// Writes one shard's report folder: `names` run out of the whole `plan`.
func shardFolder(_ folder: String, shard: String, plan: [String], ran names: [String], failing: Set<String> = []) throws {
    let report = try RunReport(trace: nil)
    for (number, name) in names.enumerated() {
        report.add(result(name, failure: failing.contains(name) ? "it broke" : nil), number: number)
    }
    _ = try report.write(
        folder: folder, junit: nil, plan: ReportFolder.planText(shard: shard, names: plan), elapsed: .seconds(1), title: "t")
}

func scratchFolder() -> String {
    NSTemporaryDirectory() + "fieldrig-report-\(UUID().uuidString.prefix(8))"
}

@Suite("Shards by time, merged reports, reruns of what failed")
struct ReportTests {
    @Test("shards cut by durations sum to within 10% of each other, the same cut every time; unknown ones spread by count")
    func cutByTime() {
        let names = (1...40).map { "s\($0)" }
        var durations: [String: Double] = [:]
        for (i, name) in names.enumerated() where i < 30 { durations[name] = Double((i * 7) % 11 + 1) }
        let owners = ScenarioSelection.cut(names, durations: durations, into: 4)
        #expect(owners == ScenarioSelection.cut(names, durations: durations, into: 4))
        let mean = durations.values.reduce(0, +) / Double(durations.count)
        var totals = [Double](repeating: 0, count: 4)
        for (name, owner) in zip(names, owners) { totals[owner] += durations[name] ?? mean }
        #expect(totals.max()! <= totals.min()! * 1.1, "\(totals)")
        let unknown = ScenarioSelection.cut(["a", "b", "c", "d", "e", "f"], durations: [:], into: 3)
        #expect((0..<3).allSatisfy { shard in unknown.filter { $0 == shard }.count == 2 })
    }

    @Test("the merge puts every shard's scenarios in one report, in the plan's order, with durations for the next cut")
    func merge() throws {
        let base = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let plan = ["one", "two", "three", "four"]
        try shardFolder("\(base)/1", shard: "1/2", plan: plan, ran: ["three", "one"])
        try shardFolder("\(base)/2", shard: "2/2", plan: plan, ran: ["two", "four"], failing: ["four"])
        let merged = try ReportFolder.merge(["\(base)/1", "\(base)/2"], into: "\(base)/all")
        #expect(merged.map(\.name) == plan)
        #expect(merged.filter { !$0.passed }.map(\.name) == ["four"])
        #expect(try ReportFolder.failedNames(in: "\(base)/all") == ["four"])
        #expect(try ReportFolder.failedNames(in: "\(base)/all/junit.xml") == ["four"])
        #expect(try ReportFolder.durations(from: "\(base)/all") == ["one": 1, "two": 1, "three": 1, "four": 1])
        #expect(try ReportFolder.durations(from: "\(base)/all/junit.xml") == ["one": 1, "two": 1, "three": 1, "four": 1])
    }

    @Test("a scenario no shard ran, one two shards ran, or shards from different plans is an error, and nothing is written")
    func untrueMerges() throws {
        let base = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let plan = ["one", "two"]
        try shardFolder("\(base)/a", shard: "1/2", plan: plan, ran: ["one"])
        try shardFolder("\(base)/b", shard: "2/2", plan: plan, ran: ["one"])
        try shardFolder("\(base)/c", shard: "2/2", plan: ["one", "two", "three"], ran: ["two"])
        func failure(_ folders: [String]) -> String {
            do { _ = try ReportFolder.merge(folders.map { "\(base)/\($0)" }, into: "\(base)/out") } catch { return error.description }
            return "merged"
        }
        #expect(failure(["a"]) == "'two' was run by no shard")
        #expect(failure(["a", "b"]) == "'one' was run by two shards: \(base)/a and \(base)/b")
        #expect(failure(["a", "c"]).hasSuffix("its plan differs from \(base)/a's: the shards were not cut from the same selection"))
        #expect(!FileManager.default.fileExists(atPath: "\(base)/out"))
    }

    @Test("a durations file with a line that is not one is refused, naming the line")
    func badDurations() throws {
        let file = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "1.5\tone\nsoon\ttwo\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ReportFolder.Failure.self) { try ReportFolder.durations(from: file) }
        do { _ = try ReportFolder.durations(from: file) } catch {
            #expect(error.description.hasPrefix("\(file):2: not 'SECONDS<TAB>NAME'"))
        }
    }
}
