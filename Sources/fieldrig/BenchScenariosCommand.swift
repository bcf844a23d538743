import Foundation
import Reader
import ScenarioKit
import Scenarios

/// `fieldrig bench scenarios`: scenarios per second, with and without OCR.
enum BenchScenariosCommand: Command {
    static let name = ["bench", "scenarios"]
    static let summary = "scenarios per second, with OCR of the fixtures and with barcodes only"
    static let about = """
        Usage: fieldrig bench scenarios [--jobs N]

        Runs the whole suite twice in this process: reading barcodes and text (as CI does), then
        barcodes only (no OCR; scenarios that need printed text fail there, and are counted).
        Each run starts with empty frame caches.
        """

    enum Option: CommandOption {
        case jobs

        var spec: OptionSpec {
            switch self {
            case .jobs: .integer("--jobs", "N", 1...64, default: defaultJobs, "scenarios run side by side (default: one a core)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let jobs = options.integer(.jobs)
        let devices = FileManager.default.fileExists(atPath: "Devices/sequences") ? "Devices" : ScenarioPaths.devices
        for barcodesOnly in [false, true] {
            let start = ContinuousClock.now
            let results = ScenarioRunner(devices: devices).runAll(
                allScenarios, jobs: jobs,
                makeReader: { try scenarioReader(barcodesOnly: barcodesOnly) }, progress: { _ in })
            let elapsed = ContinuousClock.now - start
            emit(
                String(
                    format: "%@: %d scenarios in %.2f s, %.1f a second (%d jobs); %d passed",
                    barcodesOnly ? "barcodes only (no OCR)" : "barcodes and OCR      ",
                    results.count, seconds(elapsed), Double(results.count) / seconds(elapsed), jobs, results.filter(\.passed).count))
        }
        return ExitCode.success
    }
}
