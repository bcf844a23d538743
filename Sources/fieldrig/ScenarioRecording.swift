import Camera
import Companion
import Foundation
import Model
import Reader
import ScenarioKit
import Shell

/// A camera whose frames are also written to a recording, each at its session time, numbered
/// as the recording numbers them (so what was read on a frame can be matched on replay).
final class RecordingCamera: CameraDevice {
    let underlying: any CameraDevice
    let recording: ScenarioRecording
    var recorder: SequenceRecorder { recording.recorder }
    let now: () -> Duration
    private var started = Duration.zero
    private var last: Duration? = nil
    private(set) var problem: String? = nil

    init(_ underlying: any CameraDevice, recording: ScenarioRecording, now: @escaping () -> Duration) {
        self.underlying = underlying
        self.recording = recording
        self.now = now
    }

    var name: String { underlying.name }
    var capabilities: CameraCapabilities { underlying.capabilities }
    var recoversOnItsOwn: Bool { underlying.recoversOnItsOwn }

    func start(_ setup: CameraSetup) throws(CameraTrouble) {
        try underlying.start(setup)
        started = now()
    }

    func nextEvent(before deadline: Duration) -> CameraEvent? {
        let event = underlying.nextEvent(before: deadline)
        guard case .frame(var frame)? = event else { return event }
        // Numbered as the recording numbers it; a frame not kept is numbered by nothing.
        frame.index = -1
        guard recording.isRecording, let origin = recording.origin, started + frame.timestamp >= origin else { return .frame(frame) }
        var recorded = frame
        recorded.timestamp = started + frame.timestamp - origin
        if problem == nil, last.map({ recorded.timestamp > $0 }) ?? true {
            do {
                try recorder.append(recorded)
                last = recorded.timestamp
                frame.index = recorder.count - 1
            } catch {
                problem = error.description
            }
        }
        return .frame(frame)
    }

    func stop() { underlying.stop() }
    func returnedToForeground() { underlying.returnedToForeground() }
}

/// What the phone showed at one moment of a live session, as a scenario can expect it.
struct ScreenSnapshot: Equatable {
    var sentence: String? = nil
    var routes: [String]? = nil
    var buttons: [String]? = nil
    var card: (tag: String, name: String, reason: String)? = nil
    var confirmation: String? = nil
    var offer: [String]? = nil
    var chooser: [String]? = nil
    var opened: [String] = []

    static func == (a: ScreenSnapshot, b: ScreenSnapshot) -> Bool { a.lines.map(\.code) == b.lines.map(\.code) }

    init(scan: ScanDriver, serial: SerialDriver?) {
        opened = scan.opened.map(\.summary)
        if let serial {
            if case .choosing = serial.chooser.phase { chooser = serial.chooser.rows.map(\.value) }
            return
        }
        let screen = scan.sheet.screen
        sentence = screen.sentence
        routes = screen.routeTitles
        buttons = screen.buttons
        switch screen.card {
        case .hit(let hit)?:
            card = (hit.tag, hit.name, hit.reason)
            confirmation = hit.confirmation
        case .offer(let offer)?: self.offer = offer.values.map(\.value)
        case nil: break
        }
    }

    /// The expectations that say this, in the scenario language.
    var lines: [ScriptLine] {
        var out: [ScriptLine] = []
        if let sentence {
            out.append(.init("expectSentence(\(literal(sentence)))", part: "sentence") { expectSentence(sentence, file: $0, line: $1) })
        }
        if let routes { out.append(.init("expectRoutes(\(literal(routes)))", part: "routes") { expectRoutes(routes, file: $0, line: $1) }) }
        if let buttons, !buttons.isEmpty {
            out.append(.init("expectButtons(\(literal(buttons)))", part: "buttons") { expectButtons(buttons, file: $0, line: $1) })
        }
        if let card {
            out.append(
                .init("expectCard(tag: \(literal(card.tag)), name: \(literal(card.name)), reason: \(literal(card.reason)))", part: "card") {
                    expectCard(tag: card.tag, name: card.name, reason: card.reason, file: $0, line: $1)
                })
        }
        if let confirmation {
            // The time in "Verified at HH:MM." is the wall clock's live and the virtual one's on replay.
            if confirmation.hasPrefix("Verified at ") {
                out.append(.init("expectVerified()", part: "card") { expectVerified(file: $0, line: $1) })
            } else {
                out.append(
                    .init("expectConfirmation(\(literal(confirmation)))", part: "card") {
                        expectConfirmation(confirmation, file: $0, line: $1)
                    })
            }
        }
        if let offer {
            out.append(
                .init("expectOffer(containing: \(literal(offer)))", part: "offer") { expectOffer(containing: offer, file: $0, line: $1) })
        }
        if let chooser {
            out.append(.init("expectChooser(\(literal(chooser)))", part: "chooser") { expectChooser(chooser, file: $0, line: $1) })
        }
        let opened = opened
        out.append(.init("expectOpened(\(literal(opened)))", part: "opened") { expectOpened(opened, file: $0, line: $1) })
        return out
    }
}

/// One line of a generated scenario's body: its Swift, and the step it makes at a file and line.
struct ScriptLine {
    var code: String
    var make: (String, Int) -> Step
    /// For an expectation, the part of the phone it is about ("card", "sentence"...); nil for an action.
    var part: String? = nil
    /// Whether the person picked it ("Expect this"), rather than it being written of everything shown.
    var picked = false

    init(_ code: String, part: String? = nil, _ make: @escaping (String, Int) -> Step) {
        self.code = code
        self.part = part
        self.make = make
    }
}

/// A Swift string or array literal of `value`.
func literal(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 0x20: out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func literal(_ values: [String]) -> String { "[" + values.map(literal).joined(separator: ", ") + "]" }

/// A live session written down as a scenario: the camera's frames as a recording
/// (Devices/recordings/NAME, with what was read on each frame in its `readings` file), and every
/// key with its session time and what the phone showed before and after it, as
/// Scenarios/NAME.swift. On `finish` the scenario is replayed on the virtual clock, and what the
/// replay could not reproduce is said in the file, at its step.
final class ScenarioRecording {
    let name: String
    let root: String
    let purpose: ScanSheet.Purpose
    let recorder: SequenceRecorder
    private let readingsFile: FileHandle
    private var body: [ScriptLine] = []
    private var lastTime = Duration.zero
    private var shown: ScreenSnapshot? = nil
    private var rules: Set<String> = ["SCAN-6", "RIG-2", "RIG-3"]
    /// The session time the recording began at; nil until it does.
    private(set) var origin: Duration? = nil
    private(set) var finished = false
    /// Whether the person picked expectations ("Expect this"): then only those are written.
    private var picking = false

    var isRecording: Bool { origin != nil && !finished }

    /// What the page says of the recording.
    func status(at now: Duration) -> String {
        if finished { return "recorded: Scenarios/\(name).swift" }
        guard let origin else { return "ready to record \(name): press Record" }
        return String(format: "● recording %@ · %.1f s", name, (now - origin).inSeconds)
    }

    /// Begins the recording at session time `now` (the scan sheet is opened afresh then).
    func start(at now: Duration) {
        guard origin == nil else { return }
        origin = now
    }

    /// The expectations of one part of the phone ("card", "sentence"...), picked at `time`.
    func pick(_ part: String, at time: Duration, showing screen: ScreenSnapshot) {
        guard isRecording, let origin else { return }
        settle(at: time - origin, showing: shown ?? screen)
        picking = true
        body += screen.lines.filter { $0.part == part }.map { line in
            var picked = line
            picked.picked = true
            return picked
        }
    }

    var recordingFolder: String { "\(root)/Devices/recordings/\(name)" }
    var scenarioFile: String { "\(root)/Scenarios/\(name).swift" }

    /// Starts a recording named `name` under `root`; refuses a name that is not a Swift
    /// identifier, or one already recorded.
    init(name: String, root: String, purpose: ScanSheet.Purpose) throws {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        else {
            throw UsageError("--record-scenario takes a name of letters, digits and _ starting with a letter, not '\(name)'")
        }
        self.name = name
        self.root = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + (root == "." ? "" : "/" + root)
        self.purpose = purpose
        let scenario = "\(self.root)/Scenarios/\(name).swift"
        guard !FileManager.default.fileExists(atPath: scenario) else {
            throw CommandFailure("\(scenario) exists already: choose another name, or remove it to record again")
        }
        do {
            recorder = try SequenceRecorder(
                folder: "\(self.root)/Devices/recordings/\(name)", note: "Recorded at the webcam for \(name).swift")
        } catch {
            throw CommandFailure(error.description)
        }
        let readings = "\(self.root)/Devices/recordings/\(name)/readings"
        guard FileManager.default.createFile(atPath: readings, contents: nil), let handle = FileHandle(forWritingAtPath: readings)
        else { throw CommandFailure("\(readings): cannot create it") }
        readingsFile = handle
        body.append(.init(purpose == .walkRound ? "openScan(.walkRound)" : "openScan()") { openScan(purpose, file: $0, line: $1) })
    }

    /// What was read live on a recorded frame: a line "INDEX<TAB>SECONDS<TAB>VALUE | VALUE".
    func read(_ frame: Frame, _ readings: [Reading], at time: Duration) {
        guard isRecording, let origin, frame.index >= 0, frame.index < recorder.count else { return }
        let line = "\(frame.index)\t\(formatSeconds(time - origin))\t\(readings.map(\.value).joined(separator: " | "))\n"
        try? readingsFile.write(contentsOf: Data(line.utf8))
    }

    /// A key pressed at `time`, with the phone before and after it; false for a key that is no step.
    @discardableResult
    func key(_ key: String, at time: Duration, before: ScreenSnapshot, after: ScreenSnapshot, inChooser: Bool) -> Bool {
        guard isRecording, let origin, let action = Self.action(key, inChooser: inChooser) else { return false }
        settle(at: time - origin, showing: before)
        body += action.lines
        rules.formUnion(action.rules)
        let said = Set(before.lines.map(\.code))
        body += after.lines.filter { !said.contains($0.code) }
        shown = after
        return true
    }

    /// Waits until `time` and expects what the phone showed then, if it changed since last said.
    private func settle(at time: Duration, showing screen: ScreenSnapshot) {
        // The scenario's clock counts milliseconds: each wait goes to the millisecond the moment
        // rounds to, so the waits add up to the session's time.
        let milliseconds = Int((time.inSeconds * 1000).rounded()) - Int((lastTime.inSeconds * 1000).rounded())
        if milliseconds > 0 {
            let seconds = Double(milliseconds) / 1000
            body.append(.init("wait(\(seconds))") { wait(seconds, file: $0, line: $1) })
            lastTime = time
        }
        if screen != shown {
            body += screen.lines
            if screen.card != nil { rules.formUnion(["VERIFY-1", "VERIFY-2"]) }
            if screen.offer != nil { rules.insert("SCAN-3") }
            if screen.chooser != nil { rules.insert("SERIAL-5") }
        }
        shown = screen
    }

    /// The step a key makes, and the rules it touches; nil for a key that is no step.
    static func action(_ key: String, inChooser: Bool) -> (lines: [ScriptLine], rules: [String])? {
        if let (_, _, trouble) = LiveWeb.faults.first(where: { $0.1 == key }) {
            let code: String
            switch trouble {
            case .busy: code = ".busy"
            case .accessOff: code = ".accessOff"
            case .cannotScan: code = ".cannotScan"
            case .stopped(let reason): code = ".stopped(reason: \(literal(reason)))"
            }
            return ([.init("cameraFails(\(code))") { cameraFails(trouble, file: $0, line: $1) }], ["SCAN-7", "RIG-1"])
        }
        switch key {
        case "mac:leaves": return ([.init("macLeavesNetwork()") { macLeavesNetwork(file: $0, line: $1) }], ["QUEUE-3"])
        case "mac:returns": return ([.init("macReturns()") { macReturns(file: $0, line: $1) }], ["QUEUE-3"])
        default: break
        }
        return inChooser ? chooserAction(key) : scanAction(key)
    }

    static func chooserAction(_ key: String) -> (lines: [ScriptLine], rules: [String])? {
        switch key {
        case "u": return ([.init("tapUseThisSerial()") { tapUseThisSerial(file: $0, line: $1) }], ["SERIAL-1", "SERIAL-6"])
        case "a": return ([.init("tapScanAgain()") { tapScanAgain(file: $0, line: $1) }], ["SERIAL-7"])
        case "c": return ([.init("tapCancel()") { tapCancel(file: $0, line: $1) }], ["SERIAL-7"])
        default:
            guard let row = Int(key), (1...9).contains(row) else { return nil }
            return ([.init("tapRow(\(row - 1))") { tapRow(row - 1, file: $0, line: $1) }], ["SERIAL-1"])
        }
    }

    static func scanAction(_ key: String) -> (lines: [ScriptLine], rules: [String])? {
        switch key {
        case "v": return ([.init("tapVerify()") { tapVerify(file: $0, line: $1) }], ["VERIFY-4", "VERIFY-5"])
        case "o": return ([.init("tapOpenRecord()") { tapOpenRecord(file: $0, line: $1) }], ["VERIFY-3"])
        case "n": return ([.init("tapNext()") { tapNext(file: $0, line: $1) }], ["VERIFY-3"])
        case "d": return ([.init("putOfferAway()") { putOfferAway(file: $0, line: $1) }], ["SCAN-5"])
        case "1":
            return (
                [
                    .init("tap(.photographSerial)") { tap(.photographSerial, file: $0, line: $1) },
                    .init("openPhotographSerial()") { openPhotographSerial(file: $0, line: $1) },
                ], ["SERIAL-4"]
            )
        case "2": return ([.init("tap(.sweepRack)") { tap(.sweepRack, file: $0, line: $1) }], ["INTAKE-2"])
        case "3": return ([.init("tap(.addByHand)") { tap(.addByHand, file: $0, line: $1) }], ["INTAKE-1"])
        case "s": return ([.init("tapOpenSettings()") { tapOpenSettings(file: $0, line: $1) }], ["SCAN-8"])
        case "b": return ([.init("goToBackground()") { goToBackground(file: $0, line: $1) }], ["SCAN-9"])
        case "f": return ([.init("returnToForeground()") { returnToForeground(file: $0, line: $1) }], ["SCAN-9"])
        default: return nil
        }
    }
}

extension ScenarioRecording {
    /// Ends the recording at `time` with the phone as it was then: replays the scenario on the
    /// virtual clock, writes Scenarios/NAME.swift saying at each step what the replay did not
    /// reproduce, and returns the lines to print.
    func finish(at time: Duration, showing screen: ScreenSnapshot, devices: String) throws -> [String] {
        guard isRecording, let origin else { return ["no scenario recorded: Record was never pressed"] }
        settle(at: time - origin, showing: screen)
        finished = true
        try? readingsFile.close()
        // Picked expectations stand for all: the rest were only what happened to be shown.
        if picking { body = body.filter { $0.part == nil || $0.picked } }
        let header = [
            "import Companion", "import ScenarioKit", "",
            "/// Recorded at the webcam with `fieldrig live --record-scenario \(name)`: the frames are in",
            "/// Devices/recordings/\(name), with what was read live on each frame in its `readings` file.",
            "let recorded\(name.prefix(1).uppercased() + name.dropFirst()) = Scenario(",
            "    \(literal("recorded at the webcam: \(name)")),", "    rules: \(literal(rules.sorted())),",
            "    phone: Phone(recording: \(literal(name)))", ") {",
        ]
        let (notes, stop, frames) = replay(firstLine: header.count + 1, devices: devices)
        var text = header
        for (index, line) in body.enumerated() {
            if let note = notes[index] {
                text += ["    // Not so on replay (\(note)); as seen live:", "    // \(line.code)"]
            } else {
                text.append("    \(line.code)")
            }
            if let stop, stop.index == index { text.append("    // Replay stopped here: \(stop.failure)") }
        }
        text.append("}")
        do { try (text.joined(separator: "\n") + "\n").write(toFile: scenarioFile, atomically: true, encoding: .utf8) } catch {
            throw CommandFailure("\(scenarioFile): cannot write the scenario (\(error.localizedDescription))")
        }
        Self.format(scenarioFile, configuration: "\(root)/.swift-format")
        var said = ["recorded: \(scenarioFile) (\(body.count) steps), frames in \(recordingFolder) (\(recorder.count))"]
        said += notes.keys.sorted().map { "  not reproduced on replay: \(body[$0].code) (\(notes[$0]!))" }
        if let stop { said.append("  replay stopped at \(body[stop.index].code): \(stop.failure)") }
        said += frames.prefix(5)
        if notes.isEmpty, stop == nil { said.append("  replayed on the virtual clock: every step as seen live") }
        return said
    }

    /// Plays the body on the virtual clock, dropping each expectation the replay does not meet;
    /// what each dropped one saw instead, where an action or a rule stopped it, and the frames
    /// read differently than live.
    private func replay(firstLine: Int, devices: String) -> (notes: [Int: String], stop: (index: Int, failure: String)?, frames: [String]) {
        var notes: [Int: String] = [:]
        let replayed = Locked<[Int: [String]]>([:])
        guard let reader = try? scenarioReader(barcodesOnly: false) else { return ([:], (0, "the reader could not be set up"), []) }
        for _ in 0..<body.count {
            let kept = body.indices.filter { notes[$0] == nil }
            let steps = kept.map { body[$0].make(scenarioFile, firstLine + $0) }
            let scenario = Scenario(
                "recorded at the webcam: \(name)", rules: rules.sorted(), phone: Phone(recording: recordingFolder), file: scenarioFile,
                line: firstLine - 1
            ) { steps }
            let result = ScenarioRunner(devices: devices).run(scenario, reader: reader) { world in
                world.frameObserver = { frame, readings in replayed.withLock { $0[frame.index] = readings.map(\.value) } }
            }
            guard let failure = result.failure else { break }
            guard let index = Self.failedIndex(failure, file: "Scenarios/\(name).swift:", firstLine: firstLine),
                body.indices.contains(index)
            else { return (notes, (body.count - 1, failure), []) }
            guard body[index].code.hasPrefix("expect"), !failure.contains("]: after “") else {
                return (notes, (index, failure), differences(replayed.current))
            }
            notes[index] = failure.range(of: ", but ").map { String(failure[$0.upperBound...]) } ?? failure
        }
        return (notes, nil, differences(replayed.current))
    }

    /// Lays the file out as the project's lint wants it (long lines wrapped), with the
    /// toolchain's `swift format` when there is one; as written otherwise.
    static func format(_ file: String, configuration: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let settings = FileManager.default.fileExists(atPath: configuration) ? ["--configuration", configuration] : []
        process.arguments = ["swift", "format", "format", "-i"] + settings + [file]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
    }

    /// The body's index of the step a failure names ("Scenarios/NAME.swift:L …").
    static func failedIndex(_ failure: String, file: String, firstLine: Int) -> Int? {
        guard let start = failure.range(of: file) else { return nil }
        return Int(failure[start.upperBound...].prefix { $0.isNumber }).map { $0 - firstLine }
    }

    /// Frames read live and on replay that gave different values: "frame 12: read MF-0004 live, nothing now".
    private func differences(_ replayed: [Int: [String]]) -> [String] {
        guard let text = try? String(contentsOfFile: "\(recordingFolder)/readings", encoding: .utf8) else { return [] }
        var found: [String] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, let index = Int(parts[0]), let now = replayed[index] else { continue }
            let live = parts[2].isEmpty ? [] : parts[2].components(separatedBy: " | ")
            guard Set(live) != Set(now) else { continue }
            let said = { (values: [String]) in values.isEmpty ? "nothing" : values.joined(separator: ", ") }
            found.append("  frame \(index): read \(said(live)) live, \(said(now)) now")
        }
        return found
    }
}
