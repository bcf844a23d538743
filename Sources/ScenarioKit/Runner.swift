import Companion
import Crypto
import Foundation
import MacLink
import PhoneFace
import Reader
import Register
import Shell

/// What became of one scenario.
public struct ScenarioResult: Sendable {
    public var scenario: String
    public var rules: [String]
    public var location: StepLocation
    /// Nil when it passed; otherwise where and what.
    public var failure: String?
    /// Every step, with what the screen said after it.
    public var transcript: [String]
    public var duration: Duration
    /// Each step with the phone, the frames and the world after it, when traces were asked for.
    public var trace: ScenarioTrace? = nil
    /// The pictures the trace's filmstrips refer to, by file name.
    public var tracePictures: [String: [UInt8]] = [:]
    /// Where the scenario was in the list `runAll` was given (0 for a scenario run alone).
    public var index = 0

    public var passed: Bool { failure == nil }
}

/// Checks that hold after every step of every scenario, without the author asking.
public enum Invariants {
    /// What the failures found by an independent QA author had in common: a screen claiming what
    /// the world does not hold, or waiting on what failed.
    static func beyondExamples(_ world: World, summary: QueueSummary) throws -> String? {
        if let broken = world.brokenByStep { return broken }
        // SCAN-2: a proven tag fires once while it stays in view; several in view take turns.
        if let again = world.scan?.firedAgainInView.first {
            return "SCAN-2: \(again) fired again while it stayed in view"
        }
        // VERIFY-2: a card names what the register says.
        if case .hit(let card)? = world.scanScreen?.card {
            let asset = try world.register.asset(tag: card.tag)
            let due = try world.register.walkRound().first { $0.asset.tag == card.tag }
            let name = asset?.name ?? Copy.notInRegister
            if card.name != name { return "VERIFY-2: the card for \(card.tag) named it “\(card.name)”; the register says “\(name)”" }
            if card.reason != (due?.reason ?? Copy.notDue) {
                return "VERIFY-2: the card for \(card.tag) gave the reason “\(card.reason)”, not the register's"
            }
        }
        // HANDOVER-6: "With NAME now" only while the Mac holds the offer.
        if world.handover != nil, let heading = world.handoverHeading, heading.hasPrefix("With ") {
            let id = try world.register.currentTransfer()?.id
            if id.flatMap({ world.mac?.offer($0) }) == nil {
                return "HANDOVER-6: the screen said “\(heading)” while the Mac holds no such offer"
            }
        }
        // QUEUE-2/4: every photograph the header says needs a decision has a row that offers it.
        let offering = try world.queueScreen().rows.filter { !$0.choices.isEmpty }.count
        if offering != summary.counts.needDecision {
            return "QUEUE-4: the header says \(summary.counts.needDecision) need a decision, but \(offering) rows offer one"
        }
        // QUEUE-3: no reason is shown that is no longer true.
        switch summary.stall {
        case .storageFull? where summary.explanation != nil:
            if try !world.register.ceilingRefusesNow() {
                return "QUEUE-3: “storage full” shown, but the ceiling refuses nothing now"
            }
        case .macNotOnNetwork? where summary.explanation != nil:
            if world.link?.reachable != false { return "QUEUE-3: “not on this network” shown while the Mac is reachable" }
        case .notThePairedMac? where summary.explanation != nil:
            if world.link.map({ $0.presented == $0.pin }) != false { return "QUEUE-3: an impostor was reported where none answers" }
        default: break
        }
        // QUEUE-3: when the world knows why nothing moves, the queue says so.
        let waiting = summary.counts.goingUp > 0 || summary.counts.kept > 0
        if waiting, summary.explanation == nil {
            if try world.register.pairing() == nil {
                return "QUEUE-3: nothing can go up (no Mac paired), and the queue does not say why"
            }
            if let link = world.link, link.reachable, link.presented != link.pin, summary.counts.goingUp > 0 {
                return "QUEUE-3: something else answers at the Mac's address, and the queue does not say so"
            }
            if world.link?.reachable == false {
                return "QUEUE-3: the Mac is not on this network, and the queue does not say so"
            }
            if summary.counts.goingUp == 0, try world.register.keptForUnsyncedAsset(), try !world.register.ceilingRefusesNow() {
                return "QUEUE-3: photographs wait for assets not yet on the Mac, and the queue does not say so"
            }
        }
        // No screen stays waiting on a camera that failed.
        if let chooser = world.serial, world.chooserReading, case .trouble(let trouble) = chooser.camera {
            return "SERIAL-8: the chooser is still reading with its camera \(trouble.kind)"
        }
        // AUDIT-3: the preview draws the name as the register will store it.
        if let provisioning = world.provisioning, let preview = world.preview {
            let stored = normalisedActorName(provisioning.name) ?? "Nobody yet"
            if preview.actorLine != stored {
                return "AUDIT-3: the preview shows “\(preview.actorLine)”; the register would sign “\(stored)”"
            }
        }
        // VERIFY-4: every stamp the register refused in a sweep is listed, by tag.
        if let sweep = world.sweep {
            let refused = sweep.outcomes.compactMap { tag, outcome -> String? in if case .refused = outcome { tag } else { nil } }
            let listed = Set(world.sweepRefused.map(\.tag))
            if let missing = refused.sorted().first(where: { !listed.contains($0) }) {
                return "VERIFY-4: the register refused \(missing)'s stamp and the sweep does not say so"
            }
        }
        return nil
    }

    /// The rule broken by the world as it stands after `step`, if any.
    static func check(_ world: World, after step: Step, stampsBefore: Int, assetsBefore: Int) -> String? {
        // SCAN-7: in a trouble state, nothing that needs the camera; Add it by hand unless a card is up.
        if let screen = world.scanScreen, let sheet = world.scan?.sheet, case .trouble(let trouble) = sheet.camera {
            if screen.routes.contains(where: { !$0.requirements.isEmpty }) {
                return "SCAN-7: in “\(screen.sentence)” the screen offered \(screen.routeTitles), which need the camera that failed"
            }
            if screen.card == nil, !screen.routes.contains(.addByHand) {
                return "INTAKE-1: “Add it by hand” was not offered in “\(screen.sentence)”"
            }
            if screen.buttons.contains(Copy.openSettings) != (trouble == .accessOff) {
                return "SCAN-8: Open Settings offered in “\(screen.sentence)”"
            }
        }
        // INTAKE-3: nothing the camera reads is written without somebody confirming it.
        let confirming: Bool
        switch step.action {
        case .scan(.tapVerify)?, .sweep(.tapConfirm)?, .addByHand?: confirming = true
        default: confirming = false
        }
        // Every check fails closed: a register that cannot be read fails the step, never passes it.
        let counts: RegisterCounts
        let summary: QueueSummary
        let captures: [Capture]
        do {
            counts = try world.register.counts()
            summary = try world.checkedSummary()
            captures = try world.register.captures()
        } catch {
            return "the register could not be read to check the rules: \(error)"
        }
        if !confirming, counts.stamps + counts.refusedStamps != stampsBefore || counts.assets != assetsBefore {
            return
                "INTAKE-3: the register changed (stamps \(stampsBefore) → \(counts.stamps + counts.refusedStamps), assets \(assetsBefore) → \(counts.assets)) without a confirmation"
        }
        // QUEUE-2: never "All sent" while a photograph is still on the phone and not on the Mac.
        if summary.lines == ["All sent"] {
            for capture in captures {
                let onMac = world.mac.flatMap { FileManager.default.contents(atPath: "\($0.photosFolder)/\(capture.file)") }
                if onMac.map({ sha256Hex(Array($0)) }) != capture.sha256 {
                    return "QUEUE-2: the summary said “All sent” while \(capture.file) is not on the Mac"
                }
            }
        }
        do {
            if let broken = try beyondExamples(world, summary: summary) { return broken }
        } catch {
            return "the register could not be read to check the rules: \(error)"
        }
        // HANDOVER-8: the phone never claims one outcome.
        if let status = world.handover?.screen.status {
            let text = ([status.heading] + status.lines).joined(separator: " ").lowercased()
            let claims = ["accepted", "declined", "timed out"].filter { text.contains($0) }
            if !claims.isEmpty && claims.count < 3 { return "HANDOVER-8: the handover claimed an outcome: “\(text)”" }
        }
        return nil
    }
}

/// Which scenarios' traces a run keeps.
/// What `runAll` returns: every result, or none (each is handed to `progress` as it ends, so
/// memory stays flat however many scenarios run).
public enum Keeping: Sendable {
    case everything
    case nothing
}

public enum TraceKeeping: String, Sendable {
    /// Only the failures' (the default of `fieldrig scenarios --trace`).
    case failures
    case every
}

/// Runs scenarios: each in its own world, on a virtual clock, the same transcript every run.
public final class ScenarioRunner {
    /// Where Devices/ is.
    public let devices: String

    /// The rule ids the project keeps; a scenario naming another fails before it runs.
    public let knownRules: Set<String>

    public init(devices: String, knownRules: Set<String> = Set(ScenarioPaths.rules.map(\.id))) {
        self.devices = devices
        self.knownRules = knownRules
    }

    /// What an expectation saw that it did not expect; what stopped it when it could not look.
    static func problem(_ check: @Sendable (World) throws -> String?, in world: World) -> String? {
        do { return try check(world) } catch { return "it could not be checked: \(error)" }
    }

    /// Runs one scenario with `reader`; `prepare` may install test doubles on the world. With
    /// `tracing`, the result carries the scenario's trace (`fieldrig scenarios --trace`).
    public func run(_ scenario: Scenario, reader: any FrameReading, tracing: Bool = false, prepare: ((World) -> Void)? = nil)
        -> ScenarioResult
    {
        let start = ContinuousClock.now
        var transcript: [String] = []
        let recorder = tracing ? TraceRecorder() : nil
        func result(_ failure: String?) -> ScenarioResult {
            let duration = ContinuousClock.now - start
            var result = ScenarioResult(
                scenario: scenario.name, rules: scenario.rules, location: scenario.location, failure: failure, transcript: transcript,
                duration: duration)
            if let recorder {
                result.trace = recorder.trace(scenario, failure: failure, duration: duration)
                result.tracePictures = recorder.pictures
            }
            return result
        }
        // A rule id that is not in the list is a typo, not coverage: the scenario fails at once.
        if let unknown = scenario.rules.first(where: { !knownRules.isEmpty && !knownRules.contains($0) }) {
            return result(
                "\(scenario.location) [\(scenario.name)]: names the rule “\(unknown)”, which is not in Scenarios/RULES (ids are written as the specification writes them, e.g. SCAN-7)"
            )
        }
        let world: World
        do {
            world = try World(phone: scenario.phone, reader: reader, devices: devices)
        } catch {
            return result("\(scenario.location): the phone could not be set up: \(error)")
        }
        prepare?(world)
        if let recorder { recorder.watch(world) }
        for step in scenario.steps {
            let counts: RegisterCounts
            do { counts = try world.register.counts() } catch {
                return result("\(step.location) [\(scenario.name)]: the register could not be read before “\(step.text)”: \(error)")
            }
            do {
                try world.perform(step)
            } catch {
                transcript.append("\(step.location)  \(step.text)  ✗ \(error)")
                recorder?.step(step, world: world, failure: (step.text, "it could not be done: \(error)"))
                return result("\(step.location) [\(scenario.name)]: \(step.text) failed: \(error)")
            }
            if let expectation = step.expectation, let problem = Self.problem(expectation.check, in: world) {
                transcript.append("\(step.location)  \(step.text)  ✗ \(problem)")
                recorder?.step(step, world: world, failure: (step.text, problem))
                return result("\(step.location) [\(scenario.name)]: \(step.text), but \(problem)")
            }
            if let broken = Invariants.check(
                world, after: step, stampsBefore: counts.stamps + counts.refusedStamps, assetsBefore: counts.assets)
            {
                transcript.append("\(step.location)  \(step.text)  ✗ \(broken)")
                recorder?.step(step, world: world, failure: ("every rule holds after “\(step.text)”", broken))
                return result("\(step.location) [\(scenario.name)]: after “\(step.text)”: \(broken)")
            }
            recorder?.step(step, world: world)
            transcript.append("\(formatClock(world.clock.now))  \(step.location)  \(step.text)  →  \(world.seen)")
        }
        return result(nil)
    }

    /// Runs `scenarios` on `jobs` threads (each with its own reader, caching frames it has read),
    /// calling `progress` as each finishes; results in the order given.
    public func runAll(
        _ scenarios: [Scenario], jobs: Int, traces: TraceKeeping? = nil, keeping: Keeping = .everything,
        makeReader: @escaping @Sendable () throws -> any FrameReading, progress: @escaping @Sendable (ScenarioResult) -> Void
    ) -> [ScenarioResult] {
        let results = Locked([ScenarioResult?](repeating: nil, count: keeping == .everything ? scenarios.count : 0))
        let next = Locked(0)
        let devices = devices
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, scenarios.count))) { _ in
            let runner = ScenarioRunner(devices: devices)
            let reader: any FrameReading
            do {
                reader = try makeReader()
            } catch {
                while let i = next.take(below: scenarios.count) {
                    var failed = ScenarioResult(
                        scenario: scenarios[i].name, rules: scenarios[i].rules, location: scenarios[i].location,
                        failure: "the reader could not be set up: \(error)", transcript: [], duration: .zero)
                    failed.index = i
                    if keeping == .everything { results.withLock { $0[i] = failed } }
                    progress(failed)
                }
                return
            }
            while let i = next.take(below: scenarios.count) {
                var result = runner.run(scenarios[i], reader: reader, tracing: traces != nil)
                result.index = i
                if traces == .failures, result.passed {
                    result.trace = nil
                    result.tracePictures = [:]
                }
                if keeping == .everything { results.withLock { $0[i] = result } }
                progress(result)
            }
        }
        return results.current.compactMap { $0 }
    }
}

/// The clock as a transcript column: `clockText`, right-aligned to "999.000 s".
func formatClock(_ d: Duration) -> String {
    let text = clockText(d)
    return String(repeating: " ", count: max(0, 9 - text.count)) + text
}

/// Whether two runs of a scenario told the same story.
public enum Transcripts {
    /// Where two transcripts first differ ("step 3: A / B"), nil when they are the same.
    public static func firstDifference(_ a: [String], _ b: [String]) -> String? {
        for (index, (x, y)) in zip(a, b).enumerated() where x != y { return "step \(index + 1):\n    \(x)\n    \(y)" }
        guard a.count != b.count else { return nil }
        return "step \(min(a.count, b.count) + 1): one run has \(a.count) steps, the other \(b.count)"
    }
}
