import Companion
import Crypto
import Foundation
import Reader
import Register

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

    public var passed: Bool { failure == nil }
}

/// Checks that hold after every step of every scenario, without the author asking.
public enum Invariants {
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
        case .scan(.tapVerify), .sweep(.tapConfirm), .addByHand: confirming = true
        default: confirming = false
        }
        let counts = try? world.register.counts()
        if !confirming, let counts, counts.stamps + counts.refusedStamps != stampsBefore || counts.assets != assetsBefore {
            return
                "INTAKE-3: the register changed (stamps \(stampsBefore) → \(counts.stamps + counts.refusedStamps), assets \(assetsBefore) → \(counts.assets)) without a confirmation"
        }
        // QUEUE-2: never "All sent" while a photograph is still on the phone and not on the Mac.
        let summary = world.summary
        if summary.lines == ["All sent"] {
            for capture in (try? world.register.captures()) ?? [] {
                let onMac = world.mac.flatMap { FileManager.default.contents(atPath: "\($0.photosFolder)/\(capture.file)") }
                if onMac.map({ sha256Hex(Array($0)) }) != capture.sha256 {
                    return "QUEUE-2: the summary said “All sent” while \(capture.file) is not on the Mac"
                }
            }
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

/// Runs scenarios: each in its own world, on a virtual clock, the same transcript every run.
public final class ScenarioRunner {
    /// Where Devices/ is.
    public let devices: String

    public init(devices: String) { self.devices = devices }

    /// Runs one scenario with `reader`; `prepare` may install test doubles on the world.
    public func run(_ scenario: Scenario, reader: any FrameReading, prepare: ((World) -> Void)? = nil) -> ScenarioResult {
        let start = ContinuousClock.now
        var transcript: [String] = []
        func result(_ failure: String?) -> ScenarioResult {
            ScenarioResult(
                scenario: scenario.name, rules: scenario.rules, location: scenario.location, failure: failure, transcript: transcript,
                duration: ContinuousClock.now - start)
        }
        let world: World
        do {
            world = try World(phone: scenario.phone, reader: reader, devices: devices)
        } catch {
            return result("\(scenario.location): the phone could not be set up: \(error)")
        }
        prepare?(world)
        for step in scenario.steps {
            let counts = try? world.register.counts()
            do {
                try world.perform(step.action)
            } catch {
                transcript.append("\(step.location)  \(step.text)  ✗ \(error)")
                return result("\(step.location): \(step.text) failed: \(error)")
            }
            if case .expect(_, let check) = step.action, let problem = check(world) {
                transcript.append("\(step.location)  \(step.text)  ✗ \(problem)")
                return result("\(step.location): \(step.text), but \(problem)")
            }
            if let broken = Invariants.check(
                world, after: step, stampsBefore: (counts?.stamps ?? 0) + (counts?.refusedStamps ?? 0), assetsBefore: counts?.assets ?? 0)
            {
                transcript.append("\(step.location)  \(step.text)  ✗ \(broken)")
                return result("\(step.location): after “\(step.text)”: \(broken)")
            }
            transcript.append("\(formatClock(world.clock.now))  \(step.location)  \(step.text)  →  \(world.seen)")
        }
        return result(nil)
    }

    /// Runs `scenarios` on `jobs` threads (each with its own reader, caching frames it has read),
    /// calling `progress` as each finishes; results in the order given.
    public func runAll(
        _ scenarios: [Scenario], jobs: Int, makeReader: @escaping @Sendable () throws -> any FrameReading,
        progress: @escaping @Sendable (ScenarioResult) -> Void
    ) -> [ScenarioResult] {
        let results = Locked([ScenarioResult?](repeating: nil, count: scenarios.count))
        let next = Locked(0)
        let devices = devices
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, scenarios.count))) { _ in
            let runner = ScenarioRunner(devices: devices)
            let reader: any FrameReading
            do {
                reader = try makeReader()
            } catch {
                while let i = next.take(below: scenarios.count) {
                    let failed = ScenarioResult(
                        scenario: scenarios[i].name, rules: scenarios[i].rules, location: scenarios[i].location,
                        failure: "the reader could not be set up: \(error)", transcript: [], duration: .zero)
                    results.withLock { $0[i] = failed }
                    progress(failed)
                }
                return
            }
            while let i = next.take(below: scenarios.count) {
                let result = runner.run(scenarios[i], reader: reader)
                results.withLock { $0[i] = result }
                progress(result)
            }
        }
        return results.current.compactMap { $0 }
    }
}

func formatClock(_ d: Duration) -> String {
    let ms = d.inMilliseconds
    return String(format: "%3lld.%03lld s", ms / 1000, ms % 1000)
}
