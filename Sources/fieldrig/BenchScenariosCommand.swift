import Companion
import Foundation
import Reader
import ScenarioKit
import Scenarios

/// `fieldrig bench scenarios`: scenarios per second, with and without OCR.
enum BenchScenariosCommand: Command {
    static let name = ["bench", "scenarios"]
    static let summary = "scenarios per second, with OCR of the fixtures and with barcodes only"
    static let about = """
        Usage: fieldrig bench scenarios [--jobs N] [--generated N] [--shards N]

        Runs the whole suite twice in this process: reading barcodes and text (as CI does), then
        barcodes only (no OCR; scenarios that need printed text fail there, and are counted).
        Each run starts with empty frame caches.

        With --generated N, runs N generated scenarios instead, once (a busy fault at one of 20
        moments on the desk recording, the sheet checked after it), and says the process's
        memory at the end and at its peak: how the runner scales with the number of scenarios.

        With --shards N, runs each of N shards of the suite (and of the --generated scenarios with
        it) in turn, cut by count, then again cut by the times the scenarios took in those shards,
        and prints each shard's time and the spread between the slowest and the quickest.
        """

    enum Option: CommandOption {
        case jobs, generated, shards

        var spec: OptionSpec {
            switch self {
            case .jobs: .integer("--jobs", "N", 1...64, default: defaultJobs, "scenarios run side by side (default: one a core)")
            case .generated: .integer("--generated", "N", 1...1_000_000, default: 0, "run N generated scenarios instead of the suite")
            case .shards: .integer("--shards", "N", 2...64, default: 4, "time N shards cut by count and by duration")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let jobs = options.integer(.jobs)
        let devices = ScenariosCommand.devicesFolder
        if options.given(.shards) {
            let scenarios = allScenarios + (options.given(.generated) ? generated(options.integer(.generated)) : [])
            shards(options.integer(.shards), of: scenarios, jobs: jobs, devices: devices)
            return ExitCode.success
        }
        if options.given(.generated) {
            let scenarios = generated(options.integer(.generated))
            let (passed, elapsed) = timed(scenarios, jobs: jobs, devices: devices, barcodesOnly: false)
            emit(summary("generated", scenarios.count, passed, elapsed, jobs))
            emit("memory: \(ProcessMemory.resident / 1_048_576) MiB resident at the end, \(ProcessMemory.peak / 1_048_576) MiB at the peak")
            return ExitCode.success
        }
        for barcodesOnly in [false, true] {
            let (passed, elapsed) = timed(allScenarios, jobs: jobs, devices: devices, barcodesOnly: barcodesOnly)
            emit(summary(barcodesOnly ? "barcodes only (no OCR)" : "barcodes and OCR      ", allScenarios.count, passed, elapsed, jobs))
        }
        return ExitCode.success
    }

    /// Times each of `count` shards of `scenarios`, cut by count, then by the times the
    /// scenarios took in those shards (as CI cuts by the durations of its last run).
    static func shards(_ count: Int, of scenarios: [Scenario], jobs: Int, devices: String) {
        var learned: [String: Double]? = nil
        for label in ["by count", "by duration"] {
            let took = Locked<[String: Double]>([:])
            var times: [Double] = []
            for index in 1...count {
                var selection = ScenarioSelection(shard: ScenarioSelection.Shard("\(index)/\(count)"))
                selection.durations = learned
                let share = selection.apply(to: scenarios, workingDirectory: FileManager.default.currentDirectoryPath)
                let (_, elapsed) = timed(share, jobs: jobs, devices: devices, barcodesOnly: false) { result in
                    took.withLock { $0[result.scenario] = result.duration.inSeconds }
                }
                times.append(seconds(elapsed))
                emit(String(format: "%@, shard %d/%d: %d scenarios in %.2f s", label, index, count, share.count, times.last!))
            }
            let spread = (times.max()! - times.min()!) / max(times.min()!, 1e-9) * 100
            emit(String(format: "%@: the slowest shard %.1f%% over the quickest", label, spread))
            learned = took.current
        }
    }

    /// Runs `scenarios`, keeping only the count that passed; each result is handed to `each` too.
    static func timed(
        _ scenarios: [Scenario], jobs: Int, devices: String, barcodesOnly: Bool,
        each: @escaping @Sendable (ScenarioResult) -> Void = { _ in }
    ) -> (passed: Int, elapsed: Duration) {
        let start = ContinuousClock.now
        let passed = Locked(0)
        _ = ScenarioRunner(devices: devices).runAll(
            scenarios, jobs: jobs, keeping: .nothing, makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) },
            progress: { result in
                if result.passed { passed.withLock { $0 += 1 } }
                each(result)
            })
        return (passed.current, ContinuousClock.now - start)
    }

    static func summary(_ what: String, _ count: Int, _ passed: Int, _ elapsed: Duration, _ jobs: Int) -> String {
        String(
            format: "%@: %d scenarios in %.2f s, %.1f a second (%d jobs); %d passed", what, count, seconds(elapsed),
            Double(count) / seconds(elapsed), jobs, passed)
    }

    /// `count` scenarios: a busy fault at one of 20 moments on the desk recording, and the sheet
    /// saying so once it came.
    static func generated(_ count: Int) -> [Scenario] {
        (0..<count).map { index in
            let moment = Double(index % 20 + 1) / 10
            return Scenario(
                "generated \(index + 1): busy at \(moment) s", rules: ["SCAN-6"],
                phone: Phone(camera: "desk-only", faults: [.busy(at: moment)])
            ) {
                openScan()
                wait(moment + 0.2)
                expectSentence(Copy.busy)
            }
        }
    }
}

/// The process's memory, as the kernel counts it.
enum ProcessMemory {
    /// Bytes resident now (VmRSS).
    static var resident: Int { field("VmRSS:") }
    /// The most bytes ever resident (VmHWM).
    static var peak: Int { field("VmHWM:") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
