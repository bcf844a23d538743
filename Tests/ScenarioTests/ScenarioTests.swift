import CSQLite
import Companion
import Foundation
import Reader
import Scenarios
import Testing

@testable import ScenarioKit

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// One reader for the whole suite, used by one test at a time: frames it has read are
/// remembered, as in `fieldrig scenarios`.
// @unchecked Sendable: `reader` is only used while holding `lock`.
final class SharedReader: @unchecked Sendable {
    private let reader = CachingReader(try! FrameReader())
    private let lock = NSLock()
    func run(_ body: (any FrameReading) -> ScenarioResult) -> ScenarioResult {
        lock.lock()
        defer { lock.unlock() }
        return body(reader)
    }
}
let sharedReader = SharedReader()

func runScenario(_ scenario: Scenario, prepare: ((World) -> Void)? = nil) -> ScenarioResult {
    sharedReader.run { ScenarioRunner(devices: "\(root)/Devices").run(scenario, reader: $0, prepare: prepare) }
}

extension Scenario: CustomTestStringConvertible {
    public var testDescription: String { name }
}

@Suite("The scenarios in Scenarios/")
struct ScenarioSuiteTests {
    @Test("each scenario passes", arguments: allScenarios)
    func scenario(_ scenario: Scenario) {
        let result = runScenario(scenario)
        #expect(result.passed, "\(result.failure ?? "")\n\(result.transcript.joined(separator: "\n"))")
    }

    @Test("every rule the project keeps is covered by a scenario, and every scenario names known rules")
    func coverage() {
        let ids = Set(ScenarioPaths.rules.map(\.id))
        #expect(ids.count == 51)
        for rule in ids { #expect(allScenarios.contains { $0.rules.contains(rule) }, "\(rule) is not covered") }
        for scenario in allScenarios {
            #expect(Set(scenario.rules).isSubset(of: ids), "\(scenario.name) names unknown rules \(scenario.rules)")
        }
    }

    @Test("the rule list matches the specification's ids")
    func rulesMatchSpecification() throws {
        let spec = "\(root)/../shared/SPEC.md"
        guard let text = try? String(contentsOfFile: spec, encoding: .utf8) else {
            Issue.record("\(spec) is not beside the project: the rule list cannot be checked against it")
            return
        }
        let specIDs = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("- "), let id = line.dropFirst(2).split(separator: " ").first, id.contains("-"), id.last!.isNumber else {
                return nil
            }
            return String(id)
        }
        #expect(specIDs == ScenarioPaths.rules.map(\.id))
    }

    @Test("the same scenario gives the same transcript on every run")
    func deterministic() throws {
        let scenario = try #require(allScenarios.first { $0.name.hasPrefix("a walk-round") })
        let first = runScenario(scenario).transcript
        #expect(!first.isEmpty && runScenario(scenario).transcript == first)
    }
}

/// A broken companion: its scan sheet offers every route, camera routes included, whenever no card
/// is up (breaking SCAN-7 in trouble states).
func offeringCameraRoutesInTrouble(_ world: World) {
    world.seams.scanScreen = { screen in
        var broken = screen
        if broken.card == nil { broken.routes = Route.allCases }
        return broken
    }
}

/// A broken scan sheet: it forgets between frames which tags it fired, so tags in view fire again.
func forgetFiredTags(_ sheet: inout ScanSheet) {
    guard sheet.hit == nil, sheet.offer == nil else { return }
    sheet = ScanSheet(purpose: sheet.purpose, context: sheet.context)
    _ = sheet.handle(.cameraStarted)
}

@Suite("The runner catches a broken companion")
struct BrokenCompanionTests {
    @Test("a companion offering a camera route in a trouble state fails the SCAN-7 scenarios, pointing at the step")
    func cameraRouteInTrouble() throws {
        let scenario = try #require(allScenarios.first { $0.name == "busy at start, on Scan" })
        let result = runScenario(scenario, prepare: offeringCameraRoutesInTrouble)
        #expect(!result.passed)
        #expect(result.failure?.contains("SCAN-7") == true, "\(result.failure ?? "")")
        #expect(result.failure?.hasPrefix("Scenarios/CameraTrouble.swift:") == true, "\(result.failure ?? "")")
    }

    @Test("a companion saying All sent too early fails, naming QUEUE-2 and the step")
    func allSentTooEarly() throws {
        let scenario = try #require(allScenarios.first { $0.name.hasPrefix("kept first, queued second") })
        let result = runScenario(scenario) { world in
            world.seams.summary = { _ in QueueSummary(counts: .init(goingUp: 0, needDecision: 0, kept: 0), stall: nil) }
        }
        #expect(!result.passed)
        #expect(result.failure?.contains("QUEUE-2: the summary said “All sent” while") == true, "\(result.failure ?? "")")
        #expect(result.failure?.hasPrefix("Scenarios/Queue.swift:") == true)
        #expect(result.transcript.last?.contains("✗") == true)
    }
}

@Suite("The explorer, selection and reports, as libraries")
struct ScenarioToolsTests {
    func explorer(broken: Bool) -> Explorer {
        let prepare: ((World) -> Void)? = broken ? { offeringCameraRoutesInTrouble($0) } : nil
        return Explorer(runner: ScenarioRunner(devices: "\(root)/Devices"), reader: CachingReader(try! FrameReader()), prepare: prepare)
    }

    @Test("a broken companion is caught and shrunk to the one step that shows it; the same seed finds the same run")
    func catchesAndShrinks() throws {
        let finding = try #require(explorer(broken: true).explore(seed: 1, steps: 20, runs: 10))
        #expect(finding.failure.contains("SCAN-7"))
        #expect(finding.moves.count < finding.original && finding.moves.count <= 2)
        #expect(finding.scenarioSource.hasPrefix("let explored1x\(finding.run) = Scenario("))
        #expect(finding.scenarioSource.contains(finding.moves.map(\.code).joined(separator: "\n    ")))
        let again = try #require(explorer(broken: true).explore(seed: 1, steps: 20, runs: 10))
        #expect(again.run == finding.run && again.moves.map(\.code) == finding.moves.map(\.code))
    }

    @Test("random runs reach pairing cancelled, the pairing sheet opened in place and an offer whose reply was lost")
    func milestones() {
        let survey = explorer(broken: false).survey(seed: 17, steps: 40, runs: 60)
        #expect(survey.finding == nil && survey.runs == 60)
        for milestone in Explorer.milestones { #expect(survey.reached[milestone.name, default: 0] > 0, "\(milestone.name)") }
    }

    @Test("with repeats, a run whose transcripts differ is a finding, shrunk and named as not deterministic")
    func repeats() throws {
        let worlds = Locked(0)
        let explorer = Explorer(
            runner: ScenarioRunner(devices: "\(root)/Devices"), reader: CachingReader(try FrameReader()), repeats: 2,
            prepare: { world in
                let second = (worlds.take(below: .max) ?? 0) % 2 == 1
                world.seams.scanScreen = { screen in
                    var drifting = screen
                    if second { drifting.sentence += " (again)" }
                    return drifting
                }
            })
        let finding = try #require(explorer.explore(seed: 1, steps: 20, runs: 10))
        #expect(finding.failure.hasPrefix("not deterministic: run 1 and run 2 differ at step"), "\(finding.failure)")
        #expect(finding.moves.count == 1 && finding.moves[0].code.hasPrefix("openScan("), "\(finding.moves.map(\.code))")
    }

    @Test("the companion as it is holds every invariant over seeded runs across every screen, restarts, the network and impostors")
    func holds() {
        #expect(explorer(broken: false).explore(seed: 7, steps: 40, runs: 8) == nil)
    }

    @Test("selection by name, by rule in any case, and by shard: every scenario in exactly one shard")
    func selection() throws {
        let byRule = ScenarioSelection(rule: "scan-7").apply(to: allScenarios, workingDirectory: "/w")
        #expect(!byRule.isEmpty && byRule.allSatisfy { $0.rules.contains("SCAN-7") })
        let byName = ScenarioSelection(filter: "WALK-ROUND").apply(to: allScenarios, workingDirectory: "/w")
        #expect(!byName.isEmpty && byName.allSatisfy { $0.name.lowercased().contains("walk-round") })
        var seen: [String] = []
        for i in 1...3 {
            let shard: ScenarioSelection.Shard = try #require(.init("\(i)/3"))
            seen += ScenarioSelection(shard: shard).apply(to: allScenarios, workingDirectory: "/w").map(\.name)
        }
        #expect(seen.sorted() == allScenarios.map(\.name).sorted())
        for bad in ["0/3", "4/3", "1/0", "1/", "a/b", "1/3/3", "١/3"] { #expect(ScenarioSelection.Shard(bad) == nil, "\(bad)") }
        let played = ScenarioSelection(camera: "rec/case").apply(to: Array(allScenarios.prefix(2)), workingDirectory: "/w")
        #expect(played.allSatisfy { $0.phone.camera == "/w/rec/case" })
    }

    @Test("the JUnit report escapes what XML cannot hold as it is")
    func junit() {
        let result = ScenarioResult(
            scenario: "a <b> & \"c\"", rules: [], location: StepLocation(file: "/x/Scenarios/A.swift", line: 3), failure: "bad\u{1b}[31m",
            transcript: ["one", "two"], duration: .milliseconds(1500))
        let xml = JUnitReport.xml([result], elapsed: .seconds(2))
        #expect(xml.contains(#"name="a &lt;b&gt; &amp; &quot;c&quot;""#))
        #expect(xml.contains(#"<failure message="bad\u{1b}[31m">one"#) && !xml.contains("\u{1b}"))
        #expect(xml.contains(#"tests="1" failures="1" time="2.0""#))
    }
}

@Suite("The runner and the world, played as QA met them")
struct RunnerDefectTests {
    @Test("an invariant that cannot be checked fails the step, never passes it")
    func failsClosed() throws {
        struct Unreadable: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        let scenario = try #require(allScenarios.first { $0.name.hasPrefix("kept first, queued second") })
        let result = runScenario(scenario) { world in world.seams.summaryFailure = Unreadable() }
        #expect(!result.passed)
        #expect(
            result.failure?.contains("the register could not be read to check the rules: disk I/O error") == true, "\(result.failure ?? "")"
        )
    }

    @Test("a composed camera names a frame it cannot find, with where it looked; no shots at all is refused too")
    func composedCamera() {
        let missing = runScenario(Scenario("missing", rules: [], phone: Phone(shots: [.hold("tags/nope.png", for: 1)])) { openScan() })
        #expect(missing.failure?.contains("no frame 'tags/nope.png': looked for ") == true, "\(missing.failure ?? "")")
        #expect(missing.failure?.contains("/Devices/tags/nope.png") == true, "\(missing.failure ?? "")")
        let none = runScenario(Scenario("none", rules: [], phone: Phone(shots: [])) { openScan() })
        #expect(none.failure?.contains("the camera was composed of no shots") == true, "\(none.failure ?? "")")
        let recorded = runScenario(Scenario("recorded", rules: [], phone: Phone(shots: [.recorded("no-such-recording")])) { openScan() })
        #expect(recorded.failure?.contains("no recorded sequence 'no-such-recording'") == true, "\(recorded.failure ?? "")")
    }

    @Test("a step does something or looks, never both; an expectation changes nothing in the world")
    func actionsAndExpectations() {
        let look = Step(.expect("nothing", { _ in nil }), "expect nothing", file: "f", line: 1)
        #expect(look.action == nil && look.expectation?.summary == "nothing")
        let open = openScan()
        #expect(open.expectation == nil && open.action != nil)
        #expect(expectSummary(["All sent"]).action == nil)
    }

    @Test("a rule id that is not in RULES fails the scenario before it runs, whatever its case")
    func unknownRules() {
        for rule in ["SCAN-99", "scan-6"] {
            let result = runScenario(Scenario("typo", rules: [rule], phone: Phone(camera: "desk-only")) { openScan() })
            #expect(
                result.failure?.contains("names the rule “\(rule)”, which is not in Scenarios/RULES") == true, "\(result.failure ?? "")")
            #expect(result.transcript.isEmpty)
        }
    }

    @Test("a failure in a scenario made in a list names the scenario, not only the shared line")
    func namesTheScenario() {
        let made = ["first", "second"].map { name in
            Scenario(name, rules: ["RIG-3"], phone: Phone(camera: "desk-only")) { expect("a failure") { _ in "it failed" } }
        }
        #expect(runScenario(made[1]).failure?.contains("[second]") == true)
    }

    @Test("one screen in front: opening a sweep stops Scan's camera; a restart drops every screen in memory")
    func oneScreen() {
        let result = runScenario(
            Scenario("screens", rules: ["RIG-2"], phone: Phone(camera: "rack-sweep", actor: nil)) {
                openScan()
                wait(0.2)
                openSweep()
                wait(1.0)
                expect("Scan's camera stopped") { world in world.scan?.pump.isRunning == true ? "Scan is still pumping" : nil }
                typeActorName("Sam")
                openPhotographSerial()
                restartApp()
                expect("nothing left in memory") { world in
                    world.serial == nil && world.provisioning == nil && world.sweep == nil && world.scan == nil ? nil : "a screen survived"
                }
            })
        #expect(result.passed, "\(result.failure ?? "")")
    }

    @Test("the Mac leaving and returning changes nothing when no Mac was ever paired")
    func neverPaired() {
        let result = runScenario(
            Scenario("never paired", rules: ["HANDOVER-5"], phone: Phone(camera: "desk-only", mac: .notPaired)) {
                openHandover()
                macLeavesNetwork()
                macReturns()
                expectSendIt(detail: "Pair with the Mac first.", enabled: false)
            })
        #expect(result.passed, "\(result.failure ?? "")")
    }

    @Test("the chooser's transcript says when its camera failed")
    func chooserTrouble() {
        let result = runScenario(
            Scenario("chooser trouble", rules: ["SERIAL-8"], phone: Phone(camera: "dell-latitude-hold", faults: ["busy"])) {
                openPhotographSerial()
                wait(0.2)
            })
        #expect(result.transcript.last?.contains("typing the serial by hand, camera busy") == true, "\(result.transcript)")
    }
}

@Suite("The always-on checks catch each defect QA found, put back")
struct DefectsPutBackTests {
    func failure(_ name: String, _ prepare: @escaping (World) -> Void) throws -> String {
        let scenario = try #require(allScenarios.first { $0.name.hasPrefix(name) }, "no scenario \(name)")
        #expect(runScenario(scenario).passed, "\(name) fails even without the defect")
        return runScenario(scenario, prepare: prepare).failure ?? "it passed"
    }

    func dropReason(_ world: World) {
        world.seams.summary = { QueueSummary(counts: $0.counts, stall: nil) }
    }

    @Test("VERIFY-2: a card named with its tag")
    func cardName() throws {
        let found = try failure("a proven tag not due") { world in
            world.seams.scanScreen = { screen in
                var broken = screen
                if case .hit(var card)? = broken.card {
                    card.name = card.tag
                    broken.card = .hit(card)
                }
                return broken
            }
        }
        #expect(found.contains("VERIFY-2: the card for MF-0001 named it “MF-0001”"), "\(found)")
    }

    @Test("HANDOVER-6: 'With Studio Mac now' while the Mac holds nothing")
    func withTheMac() throws {
        let found = try failure("an offer the impostor refused") { world in
            world.seams.handoverHeading = { $0 == nil ? nil : "With Studio Mac now" }
        }
        #expect(found.contains("HANDOVER-6"), "\(found)")
    }

    @Test("SERIAL-8: the chooser reading for ever on a failed camera")
    func chooserWaits() throws {
        let found = try failure("the camera fails as Photograph a serial opens") { world in world.seams.chooserReading = { _ in true } }
        #expect(found.contains("SERIAL-8"), "\(found)")
    }

    @Test("QUEUE-3: no reason for an unsynced asset, a stale storage reason, no word of an impostor")
    func reasons() throws {
        #expect(try failure("a photograph kept for an unsynced asset", dropReason).contains("QUEUE-3: photographs wait for assets"))
        #expect(try failure("uploads stopped by something else", dropReason).contains("QUEUE-3: something else answers"))
        let stale = try failure("storage full is said only while") { world in
            world.seams.summary = { summary in summary.counts.kept > 0 ? QueueSummary(counts: summary.counts, stall: .storageFull) : summary
            }
        }
        #expect(stale.contains("QUEUE-3: “storage full” shown"), "\(stale)")
    }

    @Test("QUEUE-2/4: a missing file's row still 'going up' while the header counts a decision")
    func rowsAndHeader() throws {
        let found = try failure("a queued photograph whose file is gone") { world in
            world.seams.queueRows = { rows in
                rows.map {
                    var row = $0
                    row.fileMissing = false
                    return row
                }
            }
        }
        #expect(found.contains("QUEUE-4"), "\(found)")
    }

    @Test("AUDIT-3: a preview that keeps the pasted line break")
    func preview() throws {
        let found = try failure("a pasted name with a line break") { world in
            world.seams.preview = { row in
                var broken = row
                if !row.actorIsFaint { broken.actorLine += "\n" }
                return broken
            }
        }
        #expect(found.contains("AUDIT-3"), "\(found)")
    }

    @Test("VERIFY-4: a sweep that closes without listing the refused stamp")
    func sweepRefusal() throws {
        let found = try failure("a sweep past a disposed machine") { world in world.seams.sweepRefused = { _ in [] } }
        #expect(found.contains("VERIFY-4: the register refused MF-0008's stamp"), "\(found)")
    }

    @Test("SCAN-9: a sweep that does not try again when the app comes back")
    func sweepRetry() throws {
        let found = try failure("a sweep that starts while the camera is busy") { world in world.seams.sweepForeground = { _ in } }
        #expect(found.contains("SCAN-9"), "\(found)")
    }

    @Test("SERIAL-8: the chooser reading on from a failed camera, as Scan again once put it back")
    func scanAgainReadsOn() throws {
        let found = try failure("the chooser up, the camera fails (stopped@1.3)") { world in world.seams.chooserReading = { _ in true } }
        #expect(found.contains("SERIAL-8"), "\(found)")
    }

    @Test("SCAN-2: tags in view firing again and again")
    func flicker() throws {
        let found = try failure("three proven tags in view on Scan") { world in world.seams.beforeScanFrame = forgetFiredTags }
        #expect(found.contains("SCAN-2: MF-0004 fired again while it stayed in view"), "\(found)")
    }
}

@Suite("Expectations fail closed")
struct FailClosedTests {
    /// Drops the register's table of stamps behind the app's back, from another connection.
    func damage(_ path: String) {
        var db: OpaquePointer? = nil
        guard sqlite3_open(path, &db) == SQLITE_OK else { return }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "DROP TABLE stamps", nil, nil, nil)
    }

    @Test("an expectation that cannot read the register fails its step, naming the register, where it passed with nothing")
    func unreadableRegister() throws {
        let step = expectStamps([])
        guard let check = step.expectation?.check else {
            Issue.record("expectStamps is not an expectation")
            return
        }
        let scenario = Scenario("stamps read from a damaged register", rules: ["VERIFY-1"], phone: Phone(camera: "desk-only")) {
            openScan()
        }
        let seen = Locked<(path: String, problem: String?)>(("", nil))
        let result = runScenario(scenario) { world in
            damage(world.register.path)
            seen.withLock { $0 = (world.register.path, ScenarioRunner.problem(check, in: world)) }
        }
        let (path, problem) = seen.current
        #expect(!path.isEmpty)
        #expect(problem?.hasPrefix("it could not be checked: \(path): ") == true, "\(problem ?? "nil")")
        // The scenario fails too, at its first step, naming the register.
        #expect(!result.passed && result.failure?.contains(path) == true)
    }
}

@Suite("Repeated runs")
struct RepeatTests {
    @Test("two transcripts' first difference names the step and both lines; the same transcripts have none")
    func firstDifference() {
        let a = ["0.000 s  open Scan", "1.000 s  wait 1.0 s  →  ready"]
        #expect(Transcripts.firstDifference(a, a) == nil)
        let b = ["0.000 s  open Scan", "1.000 s  wait 1.0 s  →  busy"]
        #expect(Transcripts.firstDifference(a, b) == "step 2:\n    \(a[1])\n    \(b[1])")
        #expect(Transcripts.firstDifference(a, [a[0]]) == "step 2: one run has 2 steps, the other 1")
    }
}
