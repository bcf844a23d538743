import Foundation
import ScenarioKit

/// `fieldrig report merge`: one report from the shards' report folders.
enum ReportMergeCommand: Command {
    static let name = ["report", "merge"]
    static let summary = "merge the shards' report folders (scenarios --report DIR) into one"
    static let about = """
        Usage: fieldrig report merge DIR... --out DIR

        Reads the report folder each shard wrote (`fieldrig scenarios --shard I/N --report DIR`)
        and writes one: junit.xml, results.jsonl, durations (for the next run's --durations) and
        the trace folder's pages under one index. Each scenario appears once, in the order of the
        selection the shards were cut from. A scenario that no shard ran, one that two shards ran,
        and shards cut from different selections are errors: the merged report would not be true.
        """
    static let notes = """
        Exit codes: 0 merged and every scenario passed, 1 a scenario failed or the merge cannot be
        true (then the message says why, and nothing is written), 2 wrong usage.
        """

    enum Option: CommandOption {
        case out

        var spec: OptionSpec {
            switch self {
            case .out: .value("--out", "DIR", "the folder to write the merged report to (made if missing)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard !options.positional.isEmpty else { throw UsageError("name the shards' report folders") }
        guard let out = options.value(.out) else { throw UsageError("--out DIR is needed") }
        let merged: [ScenarioRecord]
        do { merged = try ReportFolder.merge(options.positional, into: out) } catch { throw CommandFailure(error.description) }
        let failed = merged.filter { !$0.passed }
        for record in failed { emit("FAILED: \(record.name)\n  \(record.failure ?? "")") }
        emit("\(merged.count - failed.count) passed, \(failed.count) failed (\(options.positional.count) shards merged into \(out))")
        return failed.isEmpty ? ExitCode.success : ExitCode.failure
    }
}
