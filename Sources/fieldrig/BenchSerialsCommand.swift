import Foundation
import Reader
import Serials

/// `fieldrig bench serials DIR`: how well the true serial makes the chooser's list.
enum BenchSerialsCommand: Command {
    static let name = ["bench", "serials"]
    static let summary = "how often the true serial is on the chooser's list, and first, over labelled images"
    static let about = """
        Usage: fieldrig bench serials [DIR]

        Reads every NAME.png in DIR (default Devices/labels) that has a NAME.expected sidecar with
        a 'serial' line, and reports: how often the true serial is on the chooser's list, how often
        it is first, the mean list length, and how often a planted barcode/print disagreement
        ('disagree' lines) was shown as one. Lists every miss.
        """

    static func run(_ options: Parsed<NoOption>) throws -> Int32 {
        guard options.positional.count <= 1 else { throw UsageError("name one DIR") }
        let folder = options.positional.first ?? "Devices/labels"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CommandFailure("\(folder): no such folder")
        }
        var labels: [(path: String, sidecar: LabelSidecar)] = []
        for name in names.sorted() where name.hasSuffix(".png") {
            let base = "\(folder)/\(name.dropLast(4))"
            guard let text = try? String(contentsOfFile: base + ".expected", encoding: .utf8) else { continue }
            let sidecar: LabelSidecar
            do { sidecar = try LabelSidecar(parsing: text, name: base + ".expected") } catch { throw CommandFailure(error.description) }
            if sidecar.serial != nil { labels.append((base + ".png", sidecar)) }
        }
        guard !labels.isEmpty else { throw CommandFailure("\(folder): no NAME.png with a NAME.expected naming its serial") }
        var onList = 0
        var first = 0
        var lengths = 0
        var planted = 0
        var shown = 0
        var misses: [String] = []
        try BatchRead.readAll(labels.map(\.path), passes: .all, jobs: defaultJobs) { path, outcome in
            guard case .success(let read) = outcome, let label = labels.first(where: { $0.path == path }) else {
                misses.append("\(path): could not be read")
                return
            }
            let candidates = SerialExtractor.candidates(from: read.readings)
            let values = candidates.map(\.value)
            let truth = label.sidecar.serial!
            lengths += candidates.count
            if values.contains(truth) { onList += 1 } else { misses.append("\(path): \(truth) not on \(values)") }
            if values.first == truth {
                first += 1
            } else if values.contains(truth) {
                misses.append("\(path): \(truth) not first in \(values)")
            }
            for disagreement in label.sidecar.disagreements {
                planted += 1
                let a = candidates.first { $0.value == disagreement.printed }
                let b = candidates.first { $0.value == disagreement.barcode }
                if a?.disagreesWith.contains(disagreement.barcode) == true && b?.disagreesWith.contains(disagreement.printed) == true {
                    shown += 1
                } else {
                    misses.append("\(path): the disagreement \(disagreement.barcode) / \(disagreement.printed) was not shown")
                }
            }
        }
        let n = Double(labels.count)
        emit(
            String(
                format: "%d labels: true serial on the list %.1f%%, first %.1f%%, mean list length %.2f", labels.count,
                Double(onList) / n * 100, Double(first) / n * 100, Double(lengths) / n))
        emit(planted == 0 ? "no planted disagreements" : "planted disagreements shown as one: \(shown) of \(planted)")
        for miss in misses { emit("  miss: \(miss)") }
        return ExitCode.success
    }
}
