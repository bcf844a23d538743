import Camera
import Companion
import Foundation
import Model
import PhoneFace
import Reader
import Register
import Shell

/// One `fieldrig live` session: the scan sheet (and the serial chooser when it is opened) on a
/// camera, what the terminal and the page show, and the keys that act on it.
final class LiveSession {
    let driver: ScanDriver
    let reader: any FrameReading
    let budget: TextBudget
    let web: LiveWeb?
    let recording: ScenarioRecording?
    private let observer: ((Frame, [Reading]) -> Void)?
    private var serial: SerialDriver? = nil
    private var openings = 0
    private var shown = ""
    private var logged = (scan: 0, serial: 0)
    private var reportedDrops = (count: 0, at: Duration.zero)
    private var macReachable = true
    private var queue: (screen: QueueScreen?, read: (at: Duration, macReachable: Bool)?) = (nil, nil)
    private var lines: [String] = []
    private var rates = ReadingRates()

    init(driver: ScanDriver, reader: any FrameReading, budget: TextBudget, web: LiveWeb?, recording: ScenarioRecording?) {
        self.driver = driver
        self.reader = reader
        self.budget = budget
        self.web = web
        self.recording = recording
        let clock = driver.clock
        observer = LiveCommand.frameObserver(web: web, recording: recording, clock: clock)
        driver.pump.observer = observer
        driver.send(.opened)
    }

    var now: Duration { driver.clock.now }

    /// The phone as a recorded scenario can expect it now.
    private var snapshot: ScreenSnapshot { ScreenSnapshot(scan: driver, serial: serial) }

    private func say(_ line: String) {
        emit(line)
        if web != nil {
            lines.append(line)
            if lines.count > 200 { lines.removeFirst(100) }
        }
    }

    /// A key from the terminal, the page or --keys; false when it means quit.
    func act(_ key: String) -> Bool {
        if key == "q" { return false }
        if key.hasPrefix("record:") || key.hasPrefix("expect:") {
            record(key)
            return true
        }
        let before = snapshot
        let inChooser = serial != nil
        perform(key)
        recording?.key(key, at: now, before: before, after: snapshot, inChooser: inChooser)
        return true
    }

    /// The recording's controls: Record opens the scan sheet afresh and starts it, Stop writes
    /// the scenario, "Expect this" picks a part of the phone to expect now.
    private func record(_ key: String) {
        guard let recording else { return say("  (no recording: start with --record-scenario NAME)") }
        switch key {
        case "record:start":
            guard recording.origin == nil else { return say("  · recording: \(recording.status(at: now))") }
            serial?.pump.stop()
            serial = nil
            recording.start(at: now)
            driver.send(.opened)
            say("  · recording \(recording.name) from now")
        case "record:stop":
            guard recording.isRecording else { return say("  · recording: \(recording.status(at: now))") }
            do {
                for line in try recording.finish(at: now, showing: snapshot, devices: ScenariosCommand.devicesFolder) { say(line) }
            } catch {
                say("  · recording: \(error)")
            }
        default:
            recording.pick(String(key.dropFirst("expect:".count)), at: now, showing: snapshot)
        }
    }

    private func perform(_ key: String) {
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
            if let event = LiveCommand.serialEvent(for: key) { chooser.send(event) } else { say("  (keys: 1-9 u a c q)") }
        } else if let event = LiveCommand.event(for: key) {
            if event == .returnedToForeground { driver.returnToForeground() } else { driver.send(event) }
        } else {
            say("  (keys: v o n d 1 2 3 s b f q)")
        }
    }

    /// Runs the screen in front until `step`, then says what changed.
    func turn(until step: Duration) {
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
        sayLogs()
        let newlyOpened = driver.opened[openings...]
        openings = driver.opened.count
        if newlyOpened.contains(.open(.photographSerial)), serial == nil {
            // The serial chooser takes the camera; the scan sheet gives it up.
            driver.send(.wentToBackground)
            let chooser = SerialDriver(camera: driver.pump.camera, reader: reader, clock: driver.clock, budget: budget)
            chooser.pump.observer = observer
            chooser.send(.opened)
            serial = chooser
        }
        sayRates()
        let screen =
            serial.map { ["── Photograph a serial ─────────"] + TerminalText.serialChooser($0.chooser, keys: true) }
            .map { $0.joined(separator: "\n") } ?? LiveCommand.render(driver)
        if screen != shown {
            say(screen)
            shown = screen
        }
    }

    private func sayLogs() {
        while logged.scan < driver.log.count {
            say("  · \(driver.log[logged.scan])")
            logged.scan += 1
        }
        while let chooser = serial, logged.serial < chooser.log.count {
            say("  · \(chooser.log[logged.serial])")
            logged.serial += 1
        }
    }

    /// The reading rates, and the frames a reader slower than the camera left unread (the newest
    /// is read), at most once a second of the session.
    private func sayRates() {
        let use = (serial?.textPassesInWindow ?? driver.textPassesInWindow, budget.perWindow)
        if let line = rates.tick(at: now, pumps: [driver.pump] + (serial.map { [$0.pump] } ?? []), budget: use) {
            say("  · " + line)
            web?.reading = line
        }
        let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
        if dropped > reportedDrops.count, now - reportedDrops.at >= .seconds(1) {
            say("  · camera: \(dropped) frames skipped unread so far (the reader is slower than the camera; the newest is read)")
            reportedDrops = (dropped, now)
        }
    }

    /// Shows the phone on the page; the keys the page sent since.
    func publish() -> [String] {
        guard let web else { return [] }
        // The queue is read from the register once a second, or when the Mac comes or goes, not
        // on every turn of the loop: the summary costs milliseconds with many photographs, and
        // the loop turns every 50.
        if queue.read.map({ now - $0.at >= .seconds(1) || $0.macReachable != macReachable }) ?? true {
            let register = driver.register
            let screen = (try? QueueSummary.of(register, macReachable: macReachable)).map {
                QueueScreen(summary: $0, rows: (try? register.queueRows()) ?? [])
            }
            queue = (screen, (now, macReachable))
        }
        let view =
            serial.map { PhoneView(chooser: $0.chooser, queue: queue.screen) }
            ?? PhoneView(scan: (driver.sheet.purpose, driver.sheet.screen), queue: queue.screen)
        web.recordingStatus = recording?.status(at: now) ?? ""
        web.publish(phone: view, context: driver.sheet.context, log: lines)
        return web.takeActions()
    }

    /// The session's last lines, and the recorded scenario when there is one.
    func finish() throws {
        let dropped = driver.pump.framesDropped + (serial?.pump.framesDropped ?? 0)
        emit("  · camera: \(driver.pump.framesRead + (serial?.pump.framesRead ?? 0)) frames read, \(dropped) skipped unread")
        if let web { emit("  · page: \(web.framesShown) frames sent to the page") }
        guard let recording, !recording.finished else { return }
        guard recording.isRecording else {
            // Record was never pressed: the empty recording folder goes, and nothing is written.
            try? FileManager.default.removeItem(atPath: recording.recordingFolder)
            return emit("  · recording: nothing recorded (Record was never pressed)")
        }
        if let problem = (driver.pump.camera as? RecordingCamera)?.problem {
            emit("  · recording: frames after a failed write were not kept: \(problem)")
        }
        for line in try recording.finish(at: now, showing: snapshot, devices: ScenariosCommand.devicesFolder) { emit(line) }
    }
}
