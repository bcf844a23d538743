import Companion
import Foundation
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
            return try QueueChurn.run(path: path, macFolder: mac, seed: UInt64(options.integer(.seed)))
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

/// The child of the queue's crash harness: keeps, queues and uploads in a loop, printing each
/// step only once it is on disk, until it is killed.
enum QueueChurn {
    static func run(path: String, macFolder: String, seed: UInt64) throws -> Int32 {
        let register = try Register(path: path)
        let receiver = FolderReceiver(folder: macFolder)
        let uploader = Uploader(register: register, receiver: receiver)
        let tags = try register.assets().map(\.tag)
        var random = SeededRandom(seed: seed)
        var time = Timestamp(year: 2026, month: 2, day: 1).adding(.seconds(Int64(seed % 100_000) * 60))
        for i in 0..<Int.max {
            time = time.adding(.seconds(3))
            let size = Int.random(in: 1_000...300_000, using: &random)
            var photo = [UInt8](repeating: 0, count: size)
            for j in stride(from: 0, to: size, by: 16) { photo[j] = UInt8.random(in: 0...255, using: &random) }
            let capture = try register.keepCapture(photo, tag: tags[Int.random(in: 0..<tags.count, using: &random)], at: time)
            emit("kept \(capture.file) \(capture.sha256)")
            let reason = try register.queue(capture, at: time)
            emit("queued \(capture.file) \(reason?.rawValue ?? "-")")
            if i % 7 == 6 {
                // Now and then the Mac syncs the new assets, and kept photographs are queued.
                for tag in tags { try register.markSynced(tag: tag, at: time) }
                try register.queueKept(at: time)
                emit("synced")
            }
            receiver.reachable = Int.random(in: 0..<5, using: &random) != 0  // the network comes and goes
            for outcome in try uploader.drain(at: time, limit: 3) {
                emit("upload \(outcome)")
            }
        }
        return ExitCode.success
    }
}
