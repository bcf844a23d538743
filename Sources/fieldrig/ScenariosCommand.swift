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
        Usage: fieldrig scenarios [--filter TEXT] [--rule ID] [--last-failed REPORT] [--shard I/N [--durations FILE]] [--jobs N] [--repeat N] [--report DIR] [--junit FILE] [--trace DIR [--trace-every]] [--list] [--barcodes-only]

        Runs every scenario in Scenarios/ on a virtual clock, with the recorded cameras in
        Devices/, real zbar and tesseract reading, a real SQLite register and the simulated Mac.
        After every step the invariants are checked: the route rule (SCAN-7), nothing written
        without a confirmation (INTAKE-3), never "All sent" while a photograph is not on the Mac
        (QUEUE-2), the handover never claiming an outcome (HANDOVER-8). A failure prints the
        scenario's transcript and the file and line of the step that failed.

        With --report DIR, the run writes DIR/junit.xml, DIR/results.jsonl (a line a scenario),
        DIR/durations (the seconds each took) and DIR/plan (the shard and the whole selection it
        was cut from), which `fieldrig report merge` combines across shards. --durations FILE (a
        durations file, a JUnit report or a report folder) cuts --shard by time instead of count,
        so the shards take about as long each; --last-failed REPORT runs only what failed there.

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
        case filter, rule, junit, trace, traceEvery, jobs, shard, durations, lastFailed, report, repeats, list, barcodesOnly, camera

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
            case .durations: .value("--durations", "FILE", "cut --shard by the times in FILE (durations, JUnit, or a report folder)")
            case .lastFailed: .value("--last-failed", "REPORT", "run only what failed in REPORT (a report folder or a JUnit file)")
            case .report: .value("--report", "DIR", "write DIR/junit.xml, results.jsonl, durations and plan, for report merge")
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
        let (planned, selected) = try selection(options)
        if options.has(.list) {
            for s in selected { emit("\(s.location)  \(s.name)  [\(s.rules.joined(separator: ", "))]") }
            return ExitCode.success
        }
        if options.given(.lastFailed), planned.isEmpty {
            emit("nothing failed in \(options.value(.lastFailed)!): nothing to run")
            return ExitCode.success
        }
        guard !selected.isEmpty else { throw CommandFailure("no scenario matches") }
        if options.has(.traceEvery), !options.given(.trace) { throw UsageError("--trace-every goes with --trace DIR") }
        // A webcam serves one program at a time: scenarios played through one take turns.
        var jobs = options.integer(.jobs)
        if let camera = options.value(.camera), case .device? = try? CameraSource(parsing: camera) { jobs = 1 }
        let start = ContinuousClock.now
        let report: RunReport
        do { report = try RunReport(trace: options.value(.trace)) } catch { throw CommandFailure(error.description) }
        let transcripts = play(selected, options: options, jobs: jobs, report: report)
        try repeatAndCompare(selected, options: options, jobs: jobs, first: transcripts, report: report)
        let elapsed = ContinuousClock.now - start
        let records = report.ordered
        let failed = records.filter { !$0.passed }
        for record in failed {
            emit("\nFAILED: \(record.name)\n  \(record.failure!)\n  transcript:")
            for line in record.transcript { emit("    \(line)") }
        }
        let plan = ReportFolder.planText(shard: options.value(.shard) ?? "all", names: planned.map(\.name))
        do {
            let index = try report.write(
                folder: options.value(.report), junit: options.value(.junit), plan: plan, elapsed: elapsed, title: "fieldrig scenarios")
            if let index { emit("\ntrace: \(index)") }
        } catch {
            throw CommandFailure(error.description)
        }
        emit("\n\(records.count - failed.count) passed, \(failed.count) failed")
        emit(
            String(
                format: "%d scenarios in %.1f s (%.1f a second, %d jobs)", records.count, seconds(elapsed),
                Double(records.count) / seconds(elapsed), jobs))
        return failed.isEmpty ? ExitCode.success : ExitCode.failure
    }

    /// The scenarios the options select before sharding (the plan the shards share), and this
    /// shard's share of them.
    static func selection(_ options: Parsed<Option>) throws -> (planned: [Scenario], selected: [Scenario]) {
        var selection = ScenarioSelection(filter: options.value(.filter), rule: options.value(.rule), camera: options.value(.camera))
        var scenarios = allScenarios
        if let report = options.value(.lastFailed) {
            let failed: Set<String>
            do { failed = Set(try ReportFolder.failedNames(in: report)) } catch { throw CommandFailure(error.description) }
            scenarios = scenarios.filter { failed.contains($0.name) }
        }
        let directory = FileManager.default.currentDirectoryPath
        let planned = selection.apply(to: scenarios, workingDirectory: directory)
        if options.given(.durations), !options.given(.shard) { throw UsageError("--durations goes with --shard I/N") }
        if let shard = options.value(.shard) {
            guard let parsed = ScenarioSelection.Shard(shard) else {
                throw UsageError("--shard takes I/N with 1 <= I <= N, not '\(shard)'")
            }
            selection.shard = parsed
            if let file = options.value(.durations) {
                do { selection.durations = try ReportFolder.durations(from: file) } catch { throw CommandFailure(error.description) }
            }
        }
        return (planned, selection.apply(to: scenarios, workingDirectory: directory))
    }

    /// Runs `selected` once, printing each as it ends and handing it to `report`; the transcripts,
    /// by position, when a second run will be compared with them.
    static func play(_ selected: [Scenario], options: Parsed<Option>, jobs: Int, report: RunReport) -> [Int: [String]] {
        let barcodesOnly = options.has(.barcodesOnly)
        let keepTranscripts = options.integer(.repeats) > 1
        let traces: TraceKeeping? = options.given(.trace) ? (options.has(.traceEvery) ? .every : .failures) : nil
        let done = Locked(0)
        let transcripts = Locked<[Int: [String]]>([:])
        let total = selected.count
        _ = ScenarioRunner(devices: devicesFolder).runAll(
            selected, jobs: jobs, traces: traces, keeping: .nothing, makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) },
            progress: { result in
                let n = (done.take(below: Int.max) ?? 0) + 1
                emit("[\(n)/\(total)] \(result.passed ? "pass" : "FAIL")  \(result.scenario)  (\(ms(result.duration)))")
                report.add(result, number: result.index)
                if keepTranscripts { transcripts.withLock { $0[result.index] = result.transcript } }
            })
        return transcripts.current
    }

    /// With --repeat N, runs `selected` N-1 times more and fails each scenario whose transcript
    /// differs from its first run's, naming the first step that differs.
    static func repeatAndCompare(
        _ selected: [Scenario], options: Parsed<Option>, jobs: Int, first: [Int: [String]], report: RunReport
    ) throws {
        let barcodesOnly = options.has(.barcodesOnly)
        for run in 1..<options.integer(.repeats) {
            _ = ScenarioRunner(devices: devicesFolder).runAll(
                selected, jobs: jobs, keeping: .nothing, makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) },
                progress: { later in
                    guard let difference = Transcripts.firstDifference(first[later.index] ?? [], later.transcript) else { return }
                    report.fail(later.index, "not deterministic: run 1 and run \(run + 1) differ at \(difference)")
                })
        }
    }

    /// The Devices folder: the working folder's when run from the project's root, else the one
    /// the tool was built with.
    static var devicesFolder: String {
        FileManager.default.fileExists(atPath: "Devices/sequences") ? "Devices" : ScenarioPaths.devices
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
