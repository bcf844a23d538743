import Companion
import Crypto
import Foundation
import Register
import Shell

#if canImport(Glibc)
    import Glibc
#endif

/// `fieldrig crash register`: kill a writing process at random moments and check nothing is lost.
enum CrashRegisterCommand: Command {
    static let name = ["crash", "register"]
    static let summary = "kill a process writing stamps and captures, and check the register after each kill"
    static let about = """
        Usage: fieldrig crash register [--kills N] [--seed S] [--keep FOLDER]

        Runs a child 'fieldrig register PATH churn' that records verifications and keeps
        photographs in a loop, printing each one only after it has committed, and kills it with
        SIGKILL at a moment drawn from the seed: N times, on the same register. After each kill the
        register must open, pass PRAGMA integrity_check, hold every stamp and capture the child
        reported, with each capture's photograph on disk and its digest right, and no capture row
        pointing at a missing file. A photograph written but not yet recorded is found and kept.
        """
    static let notes = """
        Exit codes: 0 every check held, 1 a check failed (the message says which kill, and how to
        replay it), 2 wrong usage.
        """

    typealias Option = CrashOption

    static func run(_ options: Parsed<CrashOption>) throws -> Int32 {
        let harness = try CrashHarness(options, defaultKills: 50, name: "register")
        defer { withExtendedLifetime(harness) {} }  // its folder lives until the run ends
        let (kills, seed, path) = (harness.kills, harness.seed, harness.path)
        try Register(path: path).apply(.demo, at: Timestamp(year: 2026, month: 1, day: 1))

        var random = SeededRandom(seed: UInt64(seed))
        var checks = RegisterCrashCheck()
        for kill in 1...kills {
            // Kill after this many reported writes, plus up to 2 ms more: mid-write as often as not.
            let afterWrites = Int.random(in: 0...12, using: &random)
            let extra = Duration.microseconds(Int.random(in: 0...2000, using: &random))
            checks.absorb(
                try CrashHarness.runAndKill(
                    ["register", path, "churn", "--seed", String(UInt64(seed) &* 1000 &+ UInt64(kill))], afterLines: afterWrites,
                    extra: extra))
            do {
                try checks.check(try Register(path: path))
            } catch {
                throw CommandFailure(
                    "kill \(kill) of \(kills): \(error). Replay with: fieldrig crash register --seed \(seed) --kills \(kill) --keep FOLDER")
            }
        }
        emit(
            "\(kills) kills (seed \(seed)): \(checks.stamps.count) stamps and \(checks.captures.count) captures reported, all present; \(checks.orphans) photographs written but not yet recorded were found and kept; integrity ok after every kill"
        )
        return ExitCode.success
    }
}

/// The crash harnesses' options.
enum CrashOption: CommandOption {
    case kills, seed, keep

    var spec: OptionSpec {
        switch self {
        case .kills: .integer("--kills", "N", 1...100_000, default: 1, "how many kills (default 50 for the register, 100 for the queue)")
        case .seed: .integer("--seed", "S", 0...Int.max, default: 1, "the seed: the same seed draws the same kill points (default 1)")
        case .keep: .value("--keep", "FOLDER", "keep the register there instead of in a temporary folder")
        }
    }
}

/// What both crash harnesses share: their options and folder, and killing a child mid-work.
final class CrashHarness {
    let kills: Int
    let seed: Int
    let folder: String
    let path: String
    private let keep: Bool

    init(_ options: Parsed<CrashOption>, defaultKills: Int, name: String) throws {
        guard options.positional.isEmpty else { throw UsageError("takes no FILE") }
        kills = options.given(.kills) ? options.integer(.kills) : defaultKills
        seed = options.integer(.seed)
        folder = options.value(.keep) ?? NSTemporaryDirectory() + "fieldrig-crash-\(name)-\(getpid())"
        keep = options.value(.keep) != nil
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = "\(folder)/register.sqlite"
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path): already exists; --keep needs an empty folder")
        }
    }

    deinit { if !keep { try? FileManager.default.removeItem(atPath: folder) } }

    /// Runs `fieldrig ARGUMENTS`, kills it with SIGKILL after `afterLines` lines and `extra` more,
    /// and returns every line it wrote before it died.
    static func runAndKill(_ arguments: [String], afterLines: Int, extra: Duration) throws -> [String] {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = arguments
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let reader = LineReader(out.fileHandleForReading)
        var lines: [String] = []
        while lines.count < afterLines, let line = reader.next() { lines.append(line) }
        let until = ContinuousClock.now + extra
        while ContinuousClock.now < until {}  // a spin, not a sleep: the child runs meanwhile
        Glibc.kill(child.processIdentifier, SIGKILL)
        while let line = reader.next() { lines.append(line) }  // written before it died
        child.waitUntilExit()
        return lines
    }
}

/// Lines from a pipe, one at a time, without waiting for the writer to finish.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    private var finished = false

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next whole line, or nil at the end of the stream.
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            if finished { return nil }
            let chunk = handle.availableData
            if chunk.isEmpty { finished = true } else { buffer.append(chunk) }
        }
    }
}

/// `fieldrig crash queue`: kill a process that keeps, queues and uploads; "All sent" must never lie.
enum CrashQueueCommand: Command {
    static let name = ["crash", "queue"]
    static let summary = "kill a process that keeps, queues and uploads photographs, and check \"All sent\" never lies"
    static let about = """
        Usage: fieldrig crash queue [--kills N] [--seed S] [--keep FOLDER]

        Runs a child 'fieldrig queue PATH churn' that keeps photographs, queues them and pushes
        them to a receiving end (a folder standing for the Mac), with the network coming and
        going, and kills it with SIGKILL at a moment drawn from the seed: N times, between keeping
        and queueing, during uploads, anywhere. After each kill the register is opened again and
        the summary recomputed, and checked against the truth (what the Mac really holds): it never
        says "All sent" while a photograph is not on the Mac, never counts a photograph twice or
        not at all, never marks a row done whose file the Mac does not hold whole, and no
        photograph the child kept is lost.
        """

    typealias Option = CrashOption

    static func run(_ options: Parsed<CrashOption>) throws -> Int32 {
        let harness = try CrashHarness(options, defaultKills: 100, name: "queue")
        defer { withExtendedLifetime(harness) {} }  // its folder lives until the run ends
        let (kills, seed, path) = (harness.kills, harness.seed, harness.path)
        let mac = "\(harness.folder)/mac-photos"
        let start = Timestamp(year: 2026, month: 1, day: 1)
        do {
            // Closed before the first child starts: a register is used by one process at a time.
            let register = try Register(path: path)
            try register.apply(.demo, at: start)
            try register.pair(
                Pairing(macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: String(repeating: "ab", count: 32), pairedAt: start))
        }
        var random = SeededRandom(seed: UInt64(seed))
        var checks = QueueCrashCheck(macFolder: mac)
        func check(_ kill: Int, _ body: () throws -> Void) throws {
            do { try body() } catch {
                throw CommandFailure(
                    "kill \(kill) of \(kills): \(error). Replay with: fieldrig crash queue --seed \(seed) --kills \(kill) --keep FOLDER")
            }
        }
        for kill in 1...kills {
            let afterLines = Int.random(in: 0...14, using: &random)
            let extra = Duration.microseconds(Int.random(in: 0...3000, using: &random))
            checks.absorb(
                try CrashHarness.runAndKill(
                    ["queue", path, "churn", "--mac-folder", mac, "--seed", String(UInt64(seed) &* 1000 &+ UInt64(kill))],
                    afterLines: afterLines, extra: extra))
            let register: Register
            do { register = try Register(path: path) } catch {
                throw CommandFailure("kill \(kill) of \(kills): the register did not open: \(error)")
            }
            try check(kill) { try checks.check(register) }
            // Every fourth restart, the app finishes the job with the Mac in reach: sync, queue, push.
            if kill % 4 == 0 {
                for asset in try register.assets() { try register.markSynced(tag: asset.tag, at: start) }
                try register.queueKept(at: start)
                for row in try register.queueRows() where row.state == .needsDecision { try register.retryUpload(row, at: start) }
                try Uploader(register: register, receiver: FolderReceiver(folder: mac)).drain(at: start)
                try check(kill) { try checks.check(register) }
            }
        }
        emit(
            "\(kills) kills (seed \(seed)): \(checks.kept.count) photographs kept, none lost; every one counted exactly once after every kill; no row done without the whole file on the Mac; \"All sent\" said \(checks.allSentSeen) times, each time true"
        )
        return ExitCode.success
    }
}
