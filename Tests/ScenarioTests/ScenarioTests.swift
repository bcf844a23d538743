import Companion
import Foundation
import Reader
import ScenarioKit
import Scenarios
import Testing

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

@Suite("The runner catches a broken companion")
struct BrokenCompanionTests {
    @Test("a companion offering a camera route in a trouble state fails the SCAN-7 scenarios, pointing at the step")
    func cameraRouteInTrouble() throws {
        let scenario = try #require(allScenarios.first { $0.name == "busy at start, on Scan" })
        let result = runScenario(scenario) { world in
            world.scanScreenDouble = { screen in
                var broken = screen
                if broken.card == nil { broken.routes = Route.allCases }
                return broken
            }
        }
        #expect(!result.passed)
        #expect(result.failure?.contains("SCAN-7") == true, "\(result.failure ?? "")")
        #expect(result.failure?.hasPrefix("Scenarios/CameraTrouble.swift:") == true, "\(result.failure ?? "")")
    }

    @Test("a companion saying All sent too early fails, naming QUEUE-2 and the step")
    func allSentTooEarly() throws {
        let scenario = try #require(allScenarios.first { $0.name.hasPrefix("kept first, queued second") })
        let result = runScenario(scenario) { world in
            world.summaryDouble = { _ in QueueSummary(counts: .init(goingUp: 0, needDecision: 0, kept: 0), stall: nil) }
        }
        #expect(!result.passed)
        #expect(result.failure?.contains("QUEUE-2: the summary said “All sent” while") == true, "\(result.failure ?? "")")
        #expect(result.failure?.hasPrefix("Scenarios/Queue.swift:") == true)
        #expect(result.transcript.last?.contains("✗") == true)
    }
}
