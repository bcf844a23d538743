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

        Runs the companion's scan sheet against SOURCE (a V4L2 device such as /dev/video0, or a
        sequence folder) on the real clock, and shows in the terminal what the phone would show:
        the sentence, the routes offered, the settled offer or the walk-round card. Hold a label or
        a tag up to the webcam and watch. Type a key and Enter to act:

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

        With --record-scenario NAME, the session becomes a scenario: the camera's frames are kept
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
        case camera, web, webToken, walkRound, register, fault, seconds, virtual, textBudget, recordScenario, recordInto, keys

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
        let web = try options.value(.web).map { try LiveWeb(address: $0, source: source, token: options.value(.webToken)) }
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
        if let recording { camera = RecordingCamera(camera, recorder: recording.recorder, now: { clock.now }) }
        var script = try ScriptedKeys(options.value(.keys))
        var temporary: String? = nil
        let path: String
        if let given = options.value(.register) {
            path = given
        } else {
            temporary = NSTemporaryDirectory() + "fieldrig-live-\(getpid())"
            try? FileManager.default.createDirectory(atPath: temporary!, withIntermediateDirectories: true)
            path = temporary! + "/register.sqlite"
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let register = try Register(path: path, create: temporary != nil)
        if temporary != nil { try register.apply(.demo, at: RegisterCommand.now()) }
        let reader: any FrameReading = virtual ? CachingReader(try LiveRead.wrapReader()) : try LiveRead.wrapReader()
        var budget = TextBudget.standard
        budget.perWindow = options.integer(.textBudget)
        let driver = try ScanDriver(
            purpose: options.has(.walkRound) ? .walkRound : .intake, camera: camera, reader: reader, register: register,
            clock: clock, budget: budget)
        let observer = frameObserver(web: web, recording: recording, clock: clock)
        driver.pump.observer = observer
        driver.send(.opened)
        var serial: SerialDriver? = nil
        var openings = 0
        var shown = ""
        var logged = (scan: 0, serial: 0)
        var reportedDrops = (count: 0, at: Duration.zero)
        var macReachable = true
        var queue: (screen: QueueScreen?, read: (at: Duration, macReachable: Bool)?) = (nil, nil)
        var lines: [String] = []
        var rates = ReadingRates()
        var budgetUse: (spent: Int, of: Int) { (serial?.textPassesInWindow ?? driver.textPassesInWindow, budget.perWindow) }
        func say(_ line: String) {
            emit(line)
            if web != nil {
                lines.append(line)
                if lines.count > 200 { lines.removeFirst(100) }
            }
        }
        /// A key from the terminal or the page; false when it means quit.
        func act(_ key: String) -> Bool {
            if key == "q" { return false }
            let before = ScreenSnapshot(scan: driver, serial: serial)
            let inChooser = serial != nil
            defer {
                recording?.key(
                    key, at: driver.clock.now, before: before, after: ScreenSnapshot(scan: driver, serial: serial), inChooser: inChooser)
            }
            if let (title, _, trouble) = LiveWeb.faults.first(where: { $0.1 == key }) {
                // The page injects a camera fault: the camera in use reports it, as a real one would.
                say("  · the page injected a fault: \(title.lowercased())")
                if let chooser = serial {
                    chooser.pump.stop()
                    chooser.send(.cameraFailed(trouble))
                } else {
                    driver.pump.stop()
                    driver.send(.cameraFailed(trouble))
                }
            } else if key == "mac:leaves" || key == "mac:returns" {
                macReachable = key == "mac:returns"
                say("  · the Mac \(macReachable ? "came back to" : "left") the network")
            } else if let chooser = serial {
                if let event = serialEvent(for: key) { chooser.send(event) } else { say("  (keys: 1-9 u a c q)") }
            } else if let event = event(for: key) {
                if event == .returnedToForeground { driver.returnToForeground() } else { driver.send(event) }
            } else {
                say("  (keys: v o n d 1 2 3 s b f q)")
            }
            return true
        }
        let input = virtual ? nil : LineInput()
        running: while limit.map({ driver.clock.now < $0 }) ?? true {
            let step = driver.clock.now + .milliseconds(virtual ? 100 : 50)
            while let key = script.due(at: driver.clock.now) {
                if !act(key) { break running }
            }
            if let chooser = serial {
                chooser.run(until: step)
                if chooser.handedBack != nil || chooser.usedSerial != nil {
                    // Cancel (or the serial used, or nothing read) hands back to Scan, re-armed.
                    say(TerminalText.serialChooser(chooser.chooser).joined(separator: "\n"))
                    serial = nil
                    logged.serial = 0
                    driver.send(.opened)
                }
            } else {
                driver.run(until: step)
            }
            while logged.scan < driver.log.count {
                say("  · \(driver.log[logged.scan])")
                logged.scan += 1
            }
            while let chooser = serial, logged.serial < chooser.log.count {
                say("  · \(chooser.log[logged.serial])")
                logged.serial += 1
            }
            let newlyOpened = driver.opened[openings...]
            openings = driver.opened.count
            if newlyOpened.contains(.open(.photographSerial)), serial == nil {
                // The serial chooser takes the camera; the scan sheet gives it up.
                driver.send(.wentToBackground)
                let chooser = SerialDriver(camera: camera, reader: reader, clock: clock, budget: budget)
                chooser.pump.observer = observer
                chooser.send(.opened)
                serial = chooser
            }
            if let line = rates.tick(at: driver.clock.now, pumps: [driver.pump] + (serial.map { [$0.pump] } ?? []), budget: budgetUse) {
                say("  · " + line)
                web?.reading = line
            }
            // A reader slower than the camera reads the newest frame; say how many went unread,
            // at most once a second of the session.
            let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
            if dropped > reportedDrops.count, driver.clock.now - reportedDrops.at >= .seconds(1) {
                say("  · camera: \(dropped) frames skipped unread so far (the reader is slower than the camera; the newest is read)")
                reportedDrops = (dropped, driver.clock.now)
            }
            let screen =
                serial.map { ["── Photograph a serial ─────────"] + TerminalText.serialChooser($0.chooser, keys: true) }
                .map { $0.joined(separator: "\n") } ?? render(driver)
            if screen != shown {
                say(screen)
                shown = screen
            }
            if let web {
                // The queue is read from the register once a second, or when the Mac comes or
                // goes, not on every turn of the loop: the summary costs milliseconds with many
                // photographs, and the loop turns every 50.
                if queue.read.map({ driver.clock.now - $0.at >= .seconds(1) || $0.macReachable != macReachable }) ?? true {
                    let screen = (try? QueueSummary.of(register, macReachable: macReachable)).map {
                        QueueScreen(summary: $0, rows: (try? register.queueRows()) ?? [])
                    }
                    queue = (screen, (driver.clock.now, macReachable))
                }
                let view =
                    serial.map { PhoneView(chooser: $0.chooser, queue: queue.screen) }
                    ?? PhoneView(scan: (driver.sheet.purpose, driver.sheet.screen), queue: queue.screen)
                web.publish(phone: view, context: driver.sheet.context, log: lines)
                for key in web.takeActions() where !act(key) { break running }
            }
            if let line = input?.next(), !act(line) { break }
        }
        let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
        emit("  · camera: \(driver.pump.framesRead + (serial?.pump.framesRead ?? 0)) frames read, \(dropped) skipped unread")
        if let web { emit("  · page: \(web.framesShown) frames sent to the page") }
        if let recording {
            if let problem = (camera as? RecordingCamera)?.problem {
                emit("  · recording: frames after a failed write were not kept: \(problem)")
            }
            let final = ScreenSnapshot(scan: driver, serial: serial)
            for line in try recording.finish(at: driver.clock.now, showing: final, devices: ScenariosCommand.devicesFolder) { emit(line) }
        }
        return ExitCode.success
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
