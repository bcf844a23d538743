import Foundation
import Testing

@Suite("fieldrig register and crash register")
struct RegisterCommandTests {
    /// Where a register may be made: a scratch folder of its own, removed by `discard`.
    func scratchPath() throws -> String {
        let folder = NSTemporaryDirectory() + "fieldrig-cli-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/register.sqlite"
    }

    @Test("create --demo, then list assets, walk-round, history and counts")
    func inspect() throws {
        let path = try scratchPath()
        defer { discard(path) }
        #expect(try fieldrig("register", path, "create", "--demo").stdout == "Created \(path) with the demo register (12 assets)\n")
        let assets = try fieldrig("register", path, "assets")
        #expect(assets.status == 0 && assets.stdout.split(separator: "\n").count == 12)
        #expect(assets.stdout.contains("MF-0004  Core switch"))
        let json = try fieldrig("register", path, "walk-round", "--json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let items = try #require(object["walkRound"] as? [[String: Any]])
        #expect(items.first?["reason"] as? String == "Quarterly check of the comms room")
        let verify = try fieldrig("register", path, "verify", "MF-0008")
        #expect(verify.status == 1 && verify.stderr.contains("Not recorded: this asset is disposed of in the register."))
        let history = try fieldrig("register", path, "history", "MF-0002")
        #expect(history.stdout.hasPrefix("Sam Rivera") && history.stdout.contains("  Serial  7XK2M93"))
        let counts = try fieldrig("register", path, "counts", "--json")
        #expect(counts.stdout.contains("\"refusedStamps\": 1"))
    }

    @Test("a file that is not a register is refused with its name, exit 1, and left as it was")
    func notARegister() throws {
        let run = try fieldrig("register", "Package.swift", "assets")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Package.swift: not a register (not an SQLite database)"))
        let missing = try fieldrig("register", "/nonexistent/r.sqlite", "assets")
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/r.sqlite: cannot open the register"))
        let usage = try fieldrig("register", "x.sqlite", "frobnicate")
        #expect(usage.status == 2)
    }

    @Test("50 kills of a process writing stamps and captures lose nothing and leave the register whole")
    func crashHarness() throws {
        let run = try fieldrig("crash", "register", "--kills", "50", "--seed", "2026")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("50 kills (seed 2026): "))
        #expect(run.stdout.contains("all present") && run.stdout.contains("integrity ok after every kill"))
    }
}

@Suite("fieldrig crash queue and queue")
struct QueueCommandTests {
    @Test("100 kills of a process that keeps, queues and uploads: All sent never lies, nothing is lost or counted twice")
    func crashHarness() throws {
        let run = try fieldrig("crash", "queue", "--kills", "100", "--seed", "7")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("100 kills (seed 7): "))
        #expect(run.stdout.contains("none lost") && run.stdout.contains("each time true"))
    }

    @Test("queue prints the summary of a fresh demo register")
    func summary() throws {
        let path = try freshRegister("q")
        defer { discard(path) }
        #expect(try fieldrig("queue", path).stdout == "All sent\n")
        try Data([1]).write(to: URL(fileURLWithPath: path + "-photos/stray.jpg"))
        let run = try fieldrig("queue", path, "--json")
        #expect(run.stdout.contains(#""summary": ["1 kept on this phone, not queued to send yet"]"#))
        #expect(run.stdout.contains(#""explanation": "Nothing can go up until this iPhone is paired with your Mac.""#))
    }
}
