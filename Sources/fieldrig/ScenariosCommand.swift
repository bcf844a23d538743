import Camera
import Foundation
import Imaging
import Reader
import ScenarioKit
import Scenarios

/// `fieldrig scenarios`: run QA's scenarios.
enum ScenariosCommand: Command {
    static let name = ["scenarios"]
    static let summary = "run the scenarios in Scenarios/ (the main job): every rule, every fault, every flow"
    static let about = """
        Usage: fieldrig scenarios [--filter TEXT] [--rule ID] [--junit FILE] [--trace DIR [--trace-every]] [--jobs N] [--shard I/N] [--repeat N] [--list] [--barcodes-only]

        Runs every scenario in Scenarios/ on a virtual clock, with the recorded cameras in
        Devices/, real zbar and tesseract reading, a real SQLite register and the simulated Mac.
        After every step the invariants are checked: the route rule (SCAN-7), nothing written
        without a confirmation (INTAKE-3), never "All sent" while a photograph is not on the Mac
        (QUEUE-2), the handover never claiming an outcome (HANDOVER-8). A failure prints the
        scenario's transcript and the file and line of the step that failed.

        With --trace DIR, DIR/index.html lists every scenario with its result, time and rules,
        and each failed scenario (every one with --trace-every) gets a page to open from disk:
        each step with its clock, the phone's screen as it was, a filmstrip of the frames the
        camera delivered with the boxes of what was read, the queue and the handover, and the
        failing step marked with what was expected, what was seen, and its Scenarios/FILE:LINE.

        With --repeat N, every selected scenario is run N times and its transcripts compared, step
        by step: a scenario whose runs differ is reported as not deterministic, with the first
        step that differs, and fails the run, whether or not its runs passed.
        """
    static let notes = """
        Exit codes: 0 every scenario passed, 1 a scenario failed, 2 wrong usage.
        """

    enum Option: CommandOption {
        case filter, rule, junit, trace, traceEvery, jobs, shard, repeats, list, barcodesOnly, camera

        var spec: OptionSpec {
            switch self {
            case .filter: .value("--filter", "TEXT", "only scenarios whose name contains TEXT")
            case .rule: .value("--rule", "ID", "only scenarios covering the rule ID (e.g. SCAN-7)")
            case .junit: .value("--junit", "FILE", "also write a JUnit XML report, for CI")
            case .trace: .value("--trace", "DIR", "write DIR/index.html and a page for each failed scenario, to open in a browser")
            case .traceEvery: .flag("--trace-every", "with --trace, keep a page for every scenario, passed ones too")
            case .jobs:
                .integer("--jobs", "N", 1...64, default: defaultJobs, "scenarios at once, each thread with its own reader (default: cores)")
            case .shard: .value("--shard", "I/N", "run the I-th of N equal shares (1-based), for a CI matrix")
            case .repeats: .integer("--repeat", "N", 1...100, default: 1, "run each scenario N times; fail any whose transcripts differ")
            case .list: .flag("--list", "list the scenarios instead of running them")
            case .barcodesOnly: .flag("--barcodes-only", "read barcodes only, no OCR (faster; text-dependent steps will fail)")
            case .camera:
                .value(
                    "--camera", "SOURCE",
                    "play every selected scenario through SOURCE instead of its recording:\na webcam (/dev/videoN) runs in real time, each wait a real wait,\nwhile you hold up the labels and tags the scenario expects"
                )
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.isEmpty else { throw UsageError("takes no FILE") }
        var selection = ScenarioSelection(filter: options.value(.filter), rule: options.value(.rule), camera: options.value(.camera))
        if let shard = options.value(.shard) {
            guard let parsed = ScenarioSelection.Shard(shard) else {
                throw UsageError("--shard takes I/N with 1 <= I <= N, not '\(shard)'")
            }
            selection.shard = parsed
        }
        let selected = selection.apply(to: allScenarios, workingDirectory: FileManager.default.currentDirectoryPath)
        if options.has(.list) {
            for s in selected { emit("\(s.location)  \(s.name)  [\(s.rules.joined(separator: ", "))]") }
            return ExitCode.success
        }
        guard !selected.isEmpty else { throw CommandFailure("no scenario matches") }
        // A webcam serves one program at a time: scenarios played through one take turns.
        var jobs = options.integer(.jobs)
        if let camera = options.value(.camera), case .device? = try? CameraSource(parsing: camera) { jobs = 1 }
        let barcodesOnly = options.has(.barcodesOnly)
        let devices = FileManager.default.fileExists(atPath: "Devices/sequences") ? "Devices" : ScenarioPaths.devices
        let start = ContinuousClock.now
        let done = Locked(0)
        let total = selected.count
        if options.has(.traceEvery), !options.given(.trace) { throw UsageError("--trace-every goes with --trace DIR") }
        let traces: TraceKeeping? = options.given(.trace) ? (options.has(.traceEvery) ? .every : .failures) : nil
        var results = ScenarioRunner(devices: devices).runAll(
            selected, jobs: jobs, traces: traces,
            makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) },
            progress: { result in
                let n = (done.take(below: Int.max) ?? 0) + 1
                emit("[\(n)/\(total)] \(result.passed ? "pass" : "FAIL")  \(result.scenario)  (\(ms(result.duration)))")
            })
        for run in 1..<options.integer(.repeats) {
            let again = ScenarioRunner(devices: devices).runAll(
                selected, jobs: jobs, traces: nil, makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) }, progress: { _ in })
            for (index, later) in again.enumerated() {
                guard let difference = Transcripts.firstDifference(results[index].transcript, later.transcript) else { continue }
                results[index].failure = "not deterministic: run 1 and run \(run + 1) differ at \(difference)"
            }
        }
        let failed = results.filter { !$0.passed }
        for result in failed {
            emit("\nFAILED: \(result.scenario)\n  \(result.failure!)\n  transcript:")
            for line in result.transcript { emit("    \(line)") }
        }
        let elapsed = ContinuousClock.now - start
        if let junit = options.value(.junit) {
            do { try JUnitReport.xml(results, elapsed: elapsed).write(toFile: junit, atomically: true, encoding: .utf8) } catch {
                throw CommandFailure("\(junit): cannot write the JUnit report (\(error.localizedDescription))")
            }
        }
        if let folder = options.value(.trace) {
            do {
                let index = try TraceFolder.write(results, to: folder, title: "fieldrig scenarios")
                emit("\ntrace: \(index)")
            } catch {
                throw CommandFailure(error.description)
            }
        }
        emit("\n\(results.count - failed.count) passed, \(failed.count) failed")
        emit(
            String(
                format: "%d scenarios in %.1f s (%.1f a second, %d jobs)", results.count, seconds(elapsed),
                Double(results.count) / seconds(elapsed), jobs))
        return failed.isEmpty ? ExitCode.success : ExitCode.failure
    }
}

/// The reader a scenario worker uses: the real one, or barcodes only, with held frames read once.
func scenarioReader(barcodesOnly: Bool) throws -> any FrameReading {
    let reader = try FrameReader()
    return CachingReader(barcodesOnly ? BarcodesOnly(reader) : reader)
}

/// A reader that reads barcodes only: scenarios without OCR, for throughput.
final class BarcodesOnly: FrameReading {
    let reader: FrameReader
    init(_ reader: FrameReader) { self.reader = reader }
    func read(_ frame: Frame) -> [Reading] { reader.read(frame, passes: .barcodes) }
    func readBarcodes(_ frame: Frame) -> [Reading] { reader.readBarcodes(frame) }
}

/// `fieldrig rules`: every rule, with the scenarios that cover it.
enum RulesCommand: Command {
    static let name = ["rules"]
    static let summary = "every rule of the specification, with the scenarios that cover it"
    static let about = """
        Usage: fieldrig rules [--json]

        Prints every rule id the project keeps (Scenarios/RULES, checked against the specification
        by a test) with the scenarios that name it, and flags the rules no scenario covers.
        """
    static let notes = """
        Exit codes: 0 every rule is covered, 1 a rule is not, 2 wrong usage.
        """

    enum Option: CommandOption {
        case json

        var spec: OptionSpec {
            switch self {
            case .json: .flag("--json", "{\"rules\": [{\"id\": \"SCAN-7\", \"scenarios\": [\"...\"]}]}")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let rules = ScenarioPaths.rules
        guard !rules.isEmpty else { throw CommandFailure("the rule list (Scenarios/RULES) could not be read") }
        let coverage = rules.map { rule in (rule, allScenarios.filter { $0.rules.contains(rule.id) }.map(\.name)) }
        if options.has(.json) {
            emit(
                JSON.object([
                    ("rules", .array(coverage.map { .object([("id", .string($0.0.id)), ("scenarios", .array($0.1.map(JSON.string)))]) }))
                ]).text)
        } else {
            for (rule, names) in coverage {
                emit(
                    "\(rule.id.padding(toLength: 11, withPad: " ", startingAt: 0)) \(names.isEmpty ? "UNCOVERED" : "\(names.count) scenario\(names.count == 1 ? "" : "s")")  \(rule.text)"
                )
            }
            let uncovered = coverage.filter { $0.1.isEmpty }.count
            emit("\n\(rules.count - uncovered) of \(rules.count) rules covered" + (uncovered > 0 ? "; \(uncovered) uncovered" : ""))
        }
        return coverage.contains { $0.1.isEmpty } ? ExitCode.failure : ExitCode.success
    }
}
