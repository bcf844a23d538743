import Companion
import Foundation
import Model
import Register
import Shell

/// `fieldrig queue PATH`: what this iPhone is still holding.
enum QueueCommand: Command {
    static let name = ["queue"]
    static let summary = "print the upload queue's summary (\"All sent\" only when it is) and its rows"
    static let about = """
        Usage: fieldrig queue PATH [--json] [--mac-unreachable]

        Prints what the register at PATH still holds, as the queue screen and the More screen say
        it: "All sent" only when nothing is going up, nothing needs a decision and nothing is kept
        on the phone unqueued; otherwise the counts, and the queue's explanation when it knows why
        nothing moves. Then the rows that are not done.
        """

    enum Option: CommandOption {
        case json, macUnreachable, seed, macFolder, ops

        var spec: OptionSpec {
            switch self {
            case .json: .flag("--json", "{\"summary\": [...], \"explanation\", \"goingUp\", \"needDecision\", \"kept\", \"rows\": [...]}")
            case .macUnreachable: .flag("--mac-unreachable", "say the paired Mac is not on this network (the shell's knowledge)")
            case .seed: .integer("--seed", "N", 0...Int.max, default: 1, "the crash harness child's seed", hidden: true)
            case .macFolder: .value("--mac-folder", "DIR", "the crash harness's receiving folder", hidden: true)
            case .ops: .value("--ops", "N", "the crash harness child's operations", hidden: true)
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard let path = options.positional.first else { throw UsageError("name the register PATH") }
        if options.positional.count == 2, options.positional[1] == "churn" {
            guard let mac = options.value(.macFolder) else { throw UsageError("churn needs --mac-folder") }
            try QueueChurn.run(path: path, macFolder: mac, seed: UInt64(options.integer(.seed)), say: emit)
            return ExitCode.success
        }
        guard options.positional.count == 1 else {
            throw UsageError("unknown subcommand '\(options.positional.dropFirst().joined(separator: " "))'")
        }
        let register = try Register(path: path, readOnly: true)
        let summary = try QueueSummary.of(register, macReachable: !options.has(.macUnreachable))
        let screen = QueueScreen(summary: summary, rows: try register.queueRows())
        if options.has(.json) {
            emit(
                JSON.object([
                    ("summary", .array(summary.lines.map(JSON.string))), ("explanation", summary.explanation.map(JSON.string) ?? .null),
                    ("goingUp", .int(summary.counts.goingUp)), ("needDecision", .int(summary.counts.needDecision)),
                    ("kept", .int(summary.counts.kept)),
                    (
                        "rows",
                        .array(
                            screen.rows.map {
                                .object([
                                    ("file", .string($0.file)), ("state", .string($0.state)),
                                    ("problem", $0.problem.map(JSON.string) ?? .null),
                                ])
                            })
                    ),
                ]).text)
        } else {
            for line in screen.header { emit(line) }
            for row in screen.rows { emit("  \(row.file)  \(row.state)" + (row.problem.map { ": \($0)" } ?? "")) }
        }
        return ExitCode.success
    }
}
