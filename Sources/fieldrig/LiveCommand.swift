import Camera
import Companion
import Foundation
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
        Usage: fieldrig live --camera SOURCE [--walk-round] [--register PATH] [--fault FAULT]... [--seconds S] [--virtual]

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
        """
    static let notes = """
        Tags for the demo register: fieldrig tag make MF-0004 --register-id REG-4F2A --key ... (see
        Devices/tags/generate), or the frames in Devices/tags.
        """

    enum Option: CommandOption {
        case camera, walkRound, register, fault, seconds, virtual

        var spec: OptionSpec {
            switch self {
            case .camera: .value("--camera", "SOURCE", "where frames come from (required)")
            case .walkRound: .flag("--walk-round", "open the sheet for a walk-round (hits draw the card) instead of Scan")
            case .register: .value("--register", "PATH", "the register to use (default: a fresh demo register)")
            case .fault: .repeated("--fault", "FAULT", "inject a fault, as for 'fieldrig read --camera'")
            case .seconds: .integer("--seconds", "S", 1...86_400, default: 10, "stop after S seconds (default: run until q)")
            case .virtual: .flag("--virtual", "run on a virtual clock, as fast as frames can be read (for scripts)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.isEmpty else { throw UsageError("takes no FILE") }
        guard let source = options.value(.camera) else { throw UsageError("--camera SOURCE is required") }
        let limit = options.given(.seconds) ? Duration.seconds(options.integer(.seconds)) : nil
        let camera = try openCamera(source, faults: options.all(.fault))
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
        let virtual = options.has(.virtual)
        let clock: any SessionClock = virtual ? VirtualClock() : RealClock()
        let reader: any FrameReading = virtual ? CachingReader(try LiveRead.wrapReader()) : try LiveRead.wrapReader()
        let driver = try ScanDriver(
            purpose: options.has(.walkRound) ? .walkRound : .intake, camera: camera, reader: reader, register: register,
            clock: clock)
        driver.send(.opened)
        var serial: SerialDriver? = nil
        var openings = 0
        var shown = ""
        var logged = (scan: 0, serial: 0)
        var reportedDrops = (count: 0, at: Duration.zero)
        let input = virtual ? nil : LineInput()
        while limit.map({ driver.clock.now < $0 }) ?? true {
            let step = driver.clock.now + .milliseconds(virtual ? 100 : 50)
            if let chooser = serial {
                chooser.run(until: step)
                if chooser.handedBack != nil || chooser.usedSerial != nil {
                    // Cancel (or the serial used, or nothing read) hands back to Scan, re-armed.
                    emit(TerminalText.serialChooser(chooser.chooser).joined(separator: "\n"))
                    serial = nil
                    logged.serial = 0
                    driver.send(.opened)
                }
            } else {
                driver.run(until: step)
            }
            while logged.scan < driver.log.count {
                emit("  · \(driver.log[logged.scan])")
                logged.scan += 1
            }
            while let chooser = serial, logged.serial < chooser.log.count {
                emit("  · \(chooser.log[logged.serial])")
                logged.serial += 1
            }
            let newlyOpened = driver.opened[openings...]
            openings = driver.opened.count
            if newlyOpened.contains(.open(.photographSerial)), serial == nil {
                // The serial chooser takes the camera; the scan sheet gives it up.
                driver.send(.wentToBackground)
                let chooser = SerialDriver(camera: camera, reader: reader, clock: clock)
                chooser.send(.opened)
                serial = chooser
            }
            // A reader slower than the camera reads the newest frame; say how many went unread,
            // at most once a second of the session.
            let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
            if dropped > reportedDrops.count, driver.clock.now - reportedDrops.at >= .seconds(1) {
                emit("  · camera: \(dropped) frames skipped unread so far (the reader is slower than the camera; the newest is read)")
                reportedDrops = (dropped, driver.clock.now)
            }
            let screen =
                serial.map { ["── Photograph a serial ─────────"] + TerminalText.serialChooser($0.chooser, keys: true) }
                .map { $0.joined(separator: "\n") } ?? render(driver)
            if screen != shown {
                emit(screen)
                shown = screen
            }
            if let line = input?.next() {
                if line == "q" { break }
                if let chooser = serial {
                    if let event = serialEvent(for: line) { chooser.send(event) } else { emit("  (keys: 1-9 u a c q)") }
                } else if let event = event(for: line) {
                    if event == .returnedToForeground { driver.returnToForeground() } else { driver.send(event) }
                } else {
                    emit("  (keys: v o n d 1 2 3 s b f q)")
                }
            }
        }
        let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
        emit("  · camera: \(driver.pump.framesRead + (serial?.pump.framesRead ?? 0)) frames read, \(dropped) skipped unread")
        return ExitCode.success
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
