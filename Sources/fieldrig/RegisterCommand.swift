import Companion
import Foundation
import Model
import Register
import Shell

/// `fieldrig register PATH ...`: look inside a register, or make one.
enum RegisterCommand: Command {
    static let name = ["register"]
    static let summary = "create a register, or list its assets, history, walk-round and counts"
    static let about = """
        Usage: fieldrig register PATH SUBCOMMAND [options]

        Subcommands:
          create [--demo]     create a register at PATH (with --demo: a small office's assets)
          assets              every asset: tag, name, serial, state, site
          history TAG         an asset's audit trail, drawn as the history sheet draws it
          walk-round          the assets due on the walk-round, with the reason for each
          counts              how many assets, stamps, captures, queue rows and audit entries
          verify TAG          record a verification of TAG now, as the phone's VERIFY does
        """
    static let notes = """
        PATH is the register's SQLite file; its photographs live in PATH-photos beside it. Looking
        inside opens it read-only. A file that is not a register, is damaged, or was written by a
        newer fieldrig is refused and left as it is.

        Exit codes: 0 done, 1 the register cannot be read or written, 2 wrong usage.
        """

    enum Option: CommandOption {
        case json, demo, seed, ops

        var spec: OptionSpec {
            switch self {
            case .json: .flag("--json", "for assets, history, walk-round and counts: JSON for scripts")
            case .demo: .flag("--demo", "with create: fill it with the demo register")
            case .seed: .integer("--seed", "N", 0...Int.max, default: 1, "the crash harness child's seed", hidden: true)
            case .ops: .integer("--ops", "N", 1...Int.max, default: Int.max, "the crash harness child's operations", hidden: true)
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.count >= 2 else { throw UsageError("name the register PATH and a subcommand") }
        let path = options.positional[0]
        let sub = options.positional[1]
        let rest = Array(options.positional.dropFirst(2))
        let json = options.has(.json)
        func open(readOnly: Bool) throws -> Register { try Register(path: path, readOnly: readOnly, create: false) }
        switch (sub, rest.count) {
        case ("create", 0):
            try create(path, demo: options.has(.demo))
        case ("assets", 0):
            try listAssets(open(readOnly: true), json: json)
        case ("history", 1):
            let register = try open(readOnly: true)
            guard try register.asset(tag: rest[0]) != nil else {
                throw CommandFailure("\(path): no asset with the tag \(rest[0]). 'fieldrig register \(path) assets' lists them.")
            }
            let entries = try register.history(tag: rest[0])
            if json {
                emit(JSON.object([("tag", .string(rest[0])), ("history", .array(entries.map(auditJSON)))]).text)
            } else {
                emit(entries.map { HistoryRow($0).terminal() }.joined(separator: "\n\n"))
            }
        case ("walk-round", 0):
            try listWalkRound(open(readOnly: true), json: json)
        case ("counts", 0):
            let register = try open(readOnly: true)
            let c = try register.counts()
            let fields: [(String, Int)] = [
                ("assets", c.assets), ("walkRound", c.walkRound), ("stamps", c.stamps), ("refusedStamps", c.refusedStamps),
                ("captures", c.captures),
                ("queueRows", c.queueRows), ("auditEntries", c.auditEntries),
            ]
            emit(json ? JSON.object(fields.map { ($0.0, .int($0.1)) }).text : fields.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
        case ("verify", 1):
            let register = try open(readOnly: false)
            switch register.recordVerification(tag: rest[0], at: now()) {
            case .recorded(let stamp):
                emit("Verified \(stamp.tag) at \(stamp.at.stamp)" + (stamp.actor.map { " by \($0)" } ?? " (unsigned)"))
            case .refused(let refusal):
                throw CommandFailure(refusal.sentence + (register.lastFailure.map { " (\(path): \($0))" } ?? ""))
            }
        case ("churn", 0):
            try RegisterChurn.run(path: path, seed: UInt64(options.integer(.seed)), operations: options.integer(.ops), say: emit)
            return ExitCode.success
        default:
            let takesTag = ["history", "verify"]
            let takesNothing = ["create", "assets", "walk-round", "counts"]
            if takesTag.contains(sub) { throw UsageError("'\(sub)' takes one TAG: fieldrig register PATH \(sub) TAG") }
            if takesNothing.contains(sub) { throw UsageError("'\(sub)' takes nothing after it") }
            throw UsageError("unknown subcommand '\(sub)': use create, assets, walk-round, history TAG, counts or verify TAG")
        }
        return ExitCode.success
    }

    /// Creates a register at `path`, which must not exist yet, with the demo register's assets
    /// when `demo` says so.
    static func create(_ path: String, demo: Bool) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): already exists; a new register needs a new path")
        }
        try Register.create(at: path, seed: demo ? .demo : nil, at: now())
        let register = try Register(path: path, readOnly: true, create: false)
        emit(
            "Created \(path)"
                + (demo
                    ? " with the demo register (\(try register.counts().assets) assets)"
                    : ""))
    }

    /// Every asset of `register`, a line each or as JSON.
    static func listAssets(_ register: Register, json: Bool) throws {
        let assets = try register.assets()
        if json {
            emit(JSON.object([("assets", .array(assets.map(assetJSON)))]).text)
        } else {
            if assets.isEmpty { emit("No assets.") }
            for a in assets {
                emit(
                    "\(a.tag)  \(a.name.padding(toLength: 22, withPad: " ", startingAt: 0))  \((a.serial ?? "-").padding(toLength: 14, withPad: " ", startingAt: 0))  \(a.state.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))  \(a.site ?? "")"
                )
            }
        }
    }

    /// The assets due on `register`'s walk-round, each with its reason, or as JSON.
    static func listWalkRound(_ register: Register, json: Bool) throws {
        let items = try register.walkRound()
        if json {
            emit(
                JSON.object([
                    (
                        "walkRound",
                        .array(
                            items.map {
                                .object([
                                    ("tag", .string($0.asset.tag)), ("name", .string($0.asset.name)), ("reason", .string($0.reason)),
                                ])
                            })
                    )
                ]).text)
        } else {
            if items.isEmpty { emit("Nothing is due on the walk-round.") }
            for item in items { emit("\(item.asset.tag)  \(item.asset.name)\n  \(item.reason)") }
        }
    }

    /// The real clock: the command line is a shell, not the core.
    static func now() -> Timestamp { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }

    static func assetJSON(_ a: Asset) -> JSON {
        .object([
            ("tag", .string(a.tag)), ("name", .string(a.name)), ("serial", a.serial.map(JSON.string) ?? .null),
            ("model", a.model.map(JSON.string) ?? .null),
            ("state", .string(a.state.rawValue)), ("site", a.site.map(JSON.string) ?? .null),
            ("person", a.person.map(JSON.string) ?? .null),
            ("vendor", a.vendor.map(JSON.string) ?? .null), ("agreement", a.agreement.map(JSON.string) ?? .null),
            ("synced", .bool(a.synced)),
        ])
    }

    static func auditJSON(_ e: AuditEntry) -> JSON {
        .object([
            ("at", .string(e.at.iso8601)), ("actor", e.actor.map(JSON.string) ?? .null), ("unsigned", .bool(e.actor == nil)),
            ("field", .string(e.field)),
            ("old", e.oldValue.map(JSON.string) ?? .null), ("new", e.newValue.map(JSON.string) ?? .null),
        ])
    }
}
