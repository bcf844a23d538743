import Camera
import Companion
import Foundation
import Model
import PageServer
import PhoneFace
import Reader
import Register
import Shell

#if canImport(Glibc)
    import Glibc
#endif

/// `fieldrig live`: the scan sheet against a camera, on the real clock, in the terminal.
enum LiveCommand: Command {
    static let name = ["live"]
    static let summary = "run the scan sheet against a webcam, a recording or a fault, and watch the rules work"
    static let about = """
        Usage: fieldrig live --camera SOURCE [--web [HOST:]PORT [--web-token TOKEN]] [--walk-round] [--register PATH] [--fault FAULT]... [--seconds S] [--virtual] [--text-budget N] [--record-scenario NAME [--record-into DIR]] [--keys T:KEY,...]

        Runs the companion's scan sheet against SOURCE (a V4L2 device such as /dev/video0, a
        sequence folder, or a folder of images played in name order at 30 frames a second) on the
        real clock, and shows in the terminal what the phone would show: the sentence, the routes
        offered, the settled offer or the walk-round card. Hold a label or a tag up to the webcam
        and watch. Type a key and Enter to act:

          v VERIFY     o OPEN THE RECORD     n NEXT     d put the offer away
          1 Photograph a serial instead   2 Sweep a rack instead   3 Add it by hand
          s Open Settings     b go to the background     f come back to the foreground     q quit

        Photograph a serial instead opens the serial chooser on the same camera: hold the label up
        and the list comes up by itself; then a row's number chooses it, u USE THIS SERIAL,
        a Scan again, c Cancel (back to Scan).

        With --web, the first line printed is the address of a page to open in a browser: the
        newest camera frame with boxes around what was read (a proven tag marked as proven), the
        phone's screen beside it, its buttons to press, and controls for the phone's world (the
        background, a camera fault, the Mac leaving and coming back). The terminal's keys still
        work. The page is served on 127.0.0.1 unless a HOST is given.

        The page's buttons write the register, so it obeys only the person who started it: the
        address printed carries a secret made for the run (?token=...), which the page keeps as
        a cookie no other site's requests carry; a request without it is refused (403), as is an
        action sent from another page, and a request naming the page by another host (421: a
        site that rebinds its name to this machine reads nothing). Served on an address other
        machines can reach (0.0.0.0:PORT), a warning says so; the secret is still required.

        With --record-scenario NAME, the session becomes a scenario (with --web, from the page's
        Record button to its Stop button, and "Expect this" picks what is expected; otherwise the
        whole session, every expectation written): the camera's frames are kept
        as a recording in Devices/recordings/NAME (with what was read live on each frame in its
        `readings` file), every key (from the terminal, the page or --keys) with its time, and on
        quitting Scenarios/NAME.swift is written: Phone(recording: "NAME"), the steps with the waits
        between them, and after each the expectations of what the phone showed (the sentence,
        routes, buttons, card, confirmation, offer, chooser, what was opened). It is replayed on
        the virtual clock at once; an expectation the replay does not meet is kept as a comment
        saying what the replay saw, and printed, as are frames read differently than live.
        --keys T:KEY,... presses keys at session times (seconds), for scripts: v, n, fault:busy...
        """
    static let notes = """
        Tags for the demo register: fieldrig tag make MF-0004 --register-id REG-4F2A --key ... (see
        Devices/tags/generate), or the frames in Devices/tags.
        """

    enum Option: CommandOption {
        case camera, web, webToken, walkRound, register, fault, seconds, virtual, textBudget, textWorkers, recordScenario, recordInto, keys

        var spec: OptionSpec {
            switch self {
            case .camera: .value("--camera", "SOURCE", "where frames come from (required)")
            case .web: .value("--web", "[HOST:]PORT", "also show it all on a page at this address (PORT 0: a free one)")
            case .webToken:
                .value("--web-token", "TOKEN", "the page's secret, for scripts that need a fixed one (default: a new random one)")
            case .walkRound: .flag("--walk-round", "open the sheet for a walk-round (hits draw the card) instead of Scan")
            case .register: .value("--register", "PATH", "the register to use (default: a fresh demo register)")
            case .fault: .repeated("--fault", "FAULT", "inject a fault, as for 'fieldrig read --camera'")
            case .seconds: .integer("--seconds", "S", 1...86_400, default: 10, "stop after S seconds (default: run until q)")
            case .textBudget:
                .integer(
                    "--text-budget", "N", 1...1000, default: TextBudget.standard.perWindow,
                    "text passes at most in a settling window (default \(TextBudget.standard.perWindow))")
            case .textWorkers:
                .integer(
                    "--text-workers", "N", 1...64, default: defaultJobs,
                    "engines a frame's rows are read again on, side by side (default: cores)")
            case .virtual: .flag("--virtual", "run on a virtual clock, as fast as frames can be read (for scripts)")
            case .recordScenario:
                .value("--record-scenario", "NAME", "record the session as Scenarios/NAME.swift and Devices/recordings/NAME")
            case .recordInto: .value("--record-into", "DIR", "the project folder to record into (default: this one)")
            case .keys: .value("--keys", "T:KEY,...", "press KEY at T seconds of the session (e.g. 1.5:v,3:n,4:fault:busy)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.isEmpty else { throw UsageError("takes no FILE") }
        guard let source = options.value(.camera) else { throw UsageError("--camera SOURCE is required") }
        let limit = options.given(.seconds) ? Duration.seconds(options.integer(.seconds)) : nil
        // The page's address is the first line, so a script (or a person) can open it at once.
        guard options.given(.web) || !options.given(.webToken) else { throw UsageError("--web-token goes with --web") }
        let web = try options.value(.web).map {
            try LiveWeb(address: $0, source: source, token: options.value(.webToken), recordable: options.given(.recordScenario))
        }
        defer { web?.stop() }
        if let web { emit("page: \(web.address)") }
        if let web, web.exposed {
            emit(
                "warning: the page is served on \(web.server.host):\(web.server.port), where other machines can reach it: whoever has its address, secret included, can drive the phone, write the register and watch the camera"
            )
        }
        let recording = try startRecording(options)
        let virtual = options.has(.virtual)
        let clock: any SessionClock = virtual ? VirtualClock() : RealClock()
        var camera = try openCamera(source, faults: options.all(.fault))
        if let recording {
            camera = RecordingCamera(camera, recording: recording, now: { clock.now })
            // With the page, the person presses Record; without it, the session is the recording.
            if web == nil { recording.start(at: .zero) }
        }
        var script = try ScriptedKeys(options.value(.keys))
        let (register, temporary) = try openRegister(options.value(.register))
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let engines = try LiveRead.wrapReader(textWorkers: options.integer(.textWorkers))
        let reader: any FrameReading = virtual ? CachingReader(engines) : engines
        var budget = TextBudget.standard
        budget.perWindow = options.integer(.textBudget)
        let driver = try ScanDriver(
            purpose: options.has(.walkRound) ? .walkRound : .intake, camera: camera, reader: reader, register: register,
            clock: clock, budget: budget)
        let session = LiveSession(driver: driver, reader: reader, budget: budget, web: web, recording: recording)
        let input = virtual ? nil : LineInput()
        running: while limit.map({ clock.now < $0 }) ?? true {
            let step = clock.now + .milliseconds(virtual ? 100 : 50)
            while let key = script.due(at: clock.now) {
                if !session.act(key) { break running }
            }
            session.turn(until: step)
            for key in session.publish() where !session.act(key) { break running }
            if let line = input?.next(), !session.act(line) { break }
        }
        try session.finish()
        return ExitCode.success
    }

    /// The register the session writes: the one given, or a demo register in a folder of its
    /// own (the folder returned, to be removed).
    static func openRegister(_ given: String?) throws -> (Register, temporary: String?) {
        if let given { return (try Register(path: given, create: false), nil) }
        let temporary = NSTemporaryDirectory() + "fieldrig-live-\(getpid())"
        try? FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let register = try Register(path: temporary + "/register.sqlite", create: true)
        try register.apply(.demo, at: RegisterCommand.now())
        return (register, temporary)
    }

    /// The recording --record-scenario asks for; it starts from the demo register and takes
    /// faults as keys, so neither --register nor --fault goes with it.
    static func startRecording(_ options: Parsed<Option>) throws -> ScenarioRecording? {
        guard let name = options.value(.recordScenario) else {
            if options.given(.recordInto) { throw UsageError("--record-into goes with --record-scenario NAME") }
            return nil
        }
        if options.given(.register) { throw UsageError("a recorded scenario starts from the demo register: leave out --register") }
        if options.given(.fault) {
            throw UsageError("faults are recorded as they are pressed (the page's buttons, or --keys T:fault:busy): leave out --fault")
        }
        return try ScenarioRecording(
            name: name, root: options.value(.recordInto) ?? ".", purpose: options.has(.walkRound) ? .walkRound : .intake)
    }

    /// What is done with each frame read: shown on the page, written beside the recording.
    static func frameObserver(web: LiveWeb?, recording: ScenarioRecording?, clock: any SessionClock) -> ((Frame, [Reading]) -> Void)? {
        guard web != nil || recording != nil else { return nil }
        return { frame, readings in
            web?.frame(frame, readings, at: clock.now)
            recording?.read(frame, readings, at: clock.now)
        }
    }

    static func serialEvent(for key: String) -> SerialChooser.Event? {
        switch key {
        case "u": return .tapUse
        case "a": return .tapScanAgain
        case "c": return .tapCancel
        default: return Int(key).flatMap { (1...9).contains($0) ? .tapRow($0 - 1) : nil }
        }
    }

    static func event(for key: String) -> ScanSheet.Event? {
        switch key {
        case "v": return .tapVerify
        case "o": return .tapOpenRecord
        case "n": return .tapNext
        case "d": return .dismissOffer
        case "1": return .tapRoute(.photographSerial)
        case "2": return .tapRoute(.sweepRack)
        case "3": return .tapRoute(.addByHand)
        case "s": return .tapOpenSettings
        case "b": return .wentToBackground
        case "f": return .returnedToForeground
        default: return nil
        }
    }

    /// The sheet as text: sentence, routes, buttons and card.
    static func render(_ driver: ScanDriver) -> String {
        let screen = driver.sheet.screen
        let keys: [Route: String] = [.photographSerial: "1", .sweepRack: "2", .addByHand: "3"]
        var lines = ["── \(driver.sheet.purpose == .walkRound ? "Walk-round" : "Scan") ─────────────", screen.sentence]
        if !screen.routes.isEmpty { lines.append("  " + screen.routes.map { "[\(keys[$0]!)] \($0.title)" }.joined(separator: "   ")) }
        if !screen.buttons.isEmpty { lines.append("  " + screen.buttons.map { "[s] \($0)" }.joined(separator: "   ")) }
        switch screen.card {
        case .hit(let card)?:
            lines.append("  ┌ \(card.tag)  \(card.name)")
            lines.append("  │ \(card.reason)")
            lines.append("  │ [v] VERIFY   [o] OPEN THE RECORD   [n] NEXT")
            if let confirmation = card.confirmation { lines.append("  └ \(confirmation)") }
        case .offer(let offer)?:
            lines.append("  ┌ What the camera read:")
            for value in offer.values { lines.append("  │ \(value.value)    (\(value.whereRead.joined(separator: ", ")))") }
            lines.append("  └ [d] done")
        case nil:
            break
        }
        return lines.joined(separator: "\n")
    }
}

/// The reading's rates, said once a second of the session: frames the camera delivered, read for
/// barcodes and read for text, and the text budget's use in the window now settling.
struct ReadingRates {
    private var last: (at: Duration, delivered: Int, barcodes: Int, text: Int)? = nil

    /// The line to say at `now`, once a second has passed since the last.
    mutating func tick(at now: Duration, pumps: [CameraPump], budget: (spent: Int, of: Int)) -> String? {
        let delivered = pumps.map { $0.framesRead + $0.framesDropped }.reduce(0, +)
        let barcodes = pumps.map(\.framesRead).reduce(0, +)
        let text = pumps.map(\.framesTextRead).reduce(0, +)
        guard let before = last else {
            last = (now, delivered, barcodes, text)
            return nil
        }
        guard now - before.at >= .seconds(1) else { return nil }
        last = (now, delivered, barcodes, text)
        let seconds = (now - before.at).inSeconds
        func rate(_ n: Int) -> String { String(format: "%.0f", Double(n) / seconds) }
        return
            "reading: \(rate(delivered - before.delivered)) frames/s delivered, \(rate(barcodes - before.barcodes)) read for barcodes, \(rate(text - before.text)) for text (text budget: \(budget.spent) of \(budget.of) passes in this window)"
    }
}

/// Lines typed at the terminal, read without blocking.
final class LineInput {
    private var buffer = Data()

    /// The next whole line typed, if one is waiting.
    func next() -> String? {
        var pfd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, 0) > 0 {
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = read(0, &chunk, chunk.count)
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
        }
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
    }
}

/// Keys pressed at session times, from --keys "1.5:v,3:n,4:fault:busy".
struct ScriptedKeys {
    private var pending: [(at: Duration, key: String)]

    init(_ text: String?) throws {
        pending = []
        for item in (text ?? "").split(separator: ",") {
            guard let colon = item.firstIndex(of: ":"), let at = parseSeconds(String(item[..<colon])),
                item.index(after: colon) < item.endIndex
            else { throw UsageError("--keys takes SECONDS:KEY items separated by commas (1.5:v,3:n), not '\(item)'") }
            pending.append((at, String(item[item.index(after: colon)...])))
        }
        pending.sort { $0.at < $1.at }
    }

    /// The next key due by `now`, taken off the script.
    mutating func due(at now: Duration) -> String? {
        guard let first = pending.first, first.at <= now else { return nil }
        pending.removeFirst()
        return first.key
    }
}
