import Companion
import Foundation
import Model
import Reader
import Serials
import Shell

/// `fieldrig bench serials DIR`: how well the true serial makes the chooser's list.
enum BenchSerialsCommand: Command {
    static let name = ["bench", "serials"]
    static let summary = "how often the true serial is on the chooser's list, and first, over labelled images"
    static let about = """
        Usage: fieldrig bench serials [--without PASS]... [DIR]

        Reads every NAME.png in DIR (default Devices/labels) that has a NAME.expected sidecar with
        a 'serial' line, and reports: how often the true serial is on the chooser's list, how often
        it is first, the mean list length, and how often a planted barcode/print disagreement
        ('disagree' lines) was shown as one, and on how many labels with none planted one was shown
        all the same (a false alarm); a planted one not shown is told by why: its barcode or
        its print not read, the print read as a value that is the barcode's up to look-alikes, or
        both read (the extractor's miss). Then the same per vendor style, layout and
        degradation where the sidecars name them ('style', 'layout', 'effect': the rendered corpus
        of Devices/serial-corpus/generate), and every miss, of two kinds: a reading miss (the
        serial is in neither a barcode nor a printed line, even allowing OCR confusions) and an
        extraction miss (it was read, and the extractor did not list it, or not first).
        With --without, the reader's repair PASS (as 'bench read' names it) does not run: what the
        figures lose is what that repair gains.
        """

    enum Option: CommandOption {
        case without

        var spec: OptionSpec {
            switch self {
            case .without:
                .repeated("--without", "PASS", "turn off one of the reader's repairs: " + BenchSerialsCommand.repairNames)
            }
        }
    }

    /// The reader's repairs, named as `--without` takes them.
    static let repairNames = ReaderPass.allCases.filter(\.isRepair).map { "'\($0.name)'" }.joined(separator: ", ")

    /// The reader's repair named `name`; a usage error naming the repairs for any other name.
    static func repair(_ name: String) throws -> ReaderPass {
        guard let pass = ReaderPass(rawValue: name), pass.isRepair else {
            throw UsageError("--without '\(name)': no such repair of the reader; it is one of \(repairNames)")
        }
        return pass
    }

    /// The tally of one group of labels.
    struct Tally {
        var labels = 0
        var onList = 0
        var first = 0
        var lengths = 0
        var readingMisses = 0
        var extractionMisses = 0
        var planted = 0
        var shown = 0
        /// Labels with no planted disagreement, and those on which one was shown all the same.
        var unplantedLabels = 0
        var unplanted = 0

        mutating func add(_ other: Tally) {
            labels += other.labels
            onList += other.onList
            first += other.first
            lengths += other.lengths
            readingMisses += other.readingMisses
            extractionMisses += other.extractionMisses
            planted += other.planted
            shown += other.shown
            unplantedLabels += other.unplantedLabels
            unplanted += other.unplanted
        }

        func percent(_ n: Int) -> String { String(format: "%5.1f%%", Double(n) / Double(max(1, labels)) * 100) }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.count <= 1 else { throw UsageError("name one DIR") }
        let turnedOff = try Set(options.all(.without).map(Self.repair))
        let folder = options.positional.first ?? ScenariosCommand.devicesFolder + "/labels"
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
        // Planted disagreements not shown, by why.
        var hidden: [HiddenDisagreement.Kind: Int] = [:]
        var total = Tally()
        var byStyle: [String: Tally] = [:]
        var byLayout: [String: Tally] = [:]
        var byEffect: [String: Tally] = [:]
        var misses: [String] = []
        try BatchRead.readAll(labels.map(\.path), passes: .all, jobs: defaultJobs, turnedOff: turnedOff) { path, outcome in
            guard case .success(let read) = outcome, let label = labels.first(where: { $0.path == path }) else {
                misses.append("\(path): could not be read")
                return
            }
            var tally = Tally(labels: 1)
            // The chooser's list for the picture held up for the settling window, as `fieldrig
            // serial` shows it.
            let candidates = SerialDriver.still(read.readings).candidates
            let values = candidates.map(\.value)
            let truth = label.sidecar.serial!
            tally.lengths = candidates.count
            let wasRead = read.readings.contains { Self.carries($0, truth) }
            if values.contains(truth) {
                tally.onList = 1
            } else if wasRead {
                tally.extractionMisses = 1
                misses.append("\(path): extraction: \(truth) was read, not listed in \(values)")
            } else {
                tally.readingMisses = 1
                misses.append("\(path): reading: \(truth) in neither a barcode nor a printed line")
            }
            if values.first == truth {
                tally.first = 1
            } else if values.contains(truth) {
                misses.append("\(path): order: \(truth) not first in \(values)")
            }
            let barcodes = read.readings.compactMap { reading in
                if case .barcode = reading.source { reading.value } else { nil }
            }
            let lines = read.readings.compactMap { reading in
                if case .text = reading.source { reading.value } else { nil }
            }
            for disagreement in label.sidecar.disagreements {
                tally.planted += 1
                let a = candidates.first { $0.value == disagreement.printed }
                let b = candidates.first { $0.value == disagreement.barcode }
                if a?.disagreesWith.contains(disagreement.barcode) == true && b?.disagreesWith.contains(disagreement.printed) == true {
                    tally.shown += 1
                } else {
                    let why = HiddenDisagreement(
                        barcode: disagreement.barcode, printed: disagreement.printed, barcodes: barcodes, lines: lines)
                    hidden[why.kind, default: 0] += 1
                    misses.append("\(path): the disagreement \(disagreement.barcode) / \(disagreement.printed) was not shown: \(why)")
                }
            }
            // A disagreement shown where none was planted: the print misread (or another field
            // taken for the serial's) set against a barcode as if the two differed.
            if label.sidecar.disagreements.isEmpty {
                tally.unplantedLabels = 1
                if let shown = candidates.first(where: { !$0.disagreesWith.isEmpty }) {
                    tally.unplanted = 1
                    misses.append("\(path): a disagreement \(shown.value) / \(shown.disagreesWith[0]) was shown, none was planted")
                }
            }
            total.add(tally)
            if let style = label.sidecar.style { byStyle[style, default: Tally()].add(tally) }
            if let layout = label.sidecar.layout { byLayout[layout, default: Tally()].add(tally) }
            if label.sidecar.style != nil { byEffect[label.sidecar.effects.first ?? "none", default: Tally()].add(tally) }
        }
        let n = Double(total.labels)
        if !turnedOff.isEmpty {
            emit("without the reader's " + ReaderPass.allCases.filter(turnedOff.contains).map { "'\($0.name)'" }.joined(separator: ", "))
        }
        emit(
            String(
                format: "%d labels: true serial on the list %.1f%%, first %.1f%%, mean list length %.2f", total.labels,
                Double(total.onList) / n * 100, Double(total.first) / n * 100, Double(total.lengths) / n))
        if total.planted == 0 {
            emit("no planted disagreements")
        } else if total.shown == total.planted {
            emit("planted disagreements shown as one: \(total.shown) of \(total.planted)")
        } else {
            let why = HiddenDisagreement.Kind.allCases.map { "\(hidden[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ")
            emit("planted disagreements shown as one: \(total.shown) of \(total.planted) (not shown: \(why))")
        }
        emit("disagreements shown where none was planted: on \(total.unplanted) of \(total.unplantedLabels) labels")
        emit(
            "misses: \(total.readingMisses) reading (the serial was not read), \(total.extractionMisses) extraction (read, not listed: \(total.percent(total.extractionMisses).trimmingCharacters(in: .whitespaces)))"
        )
        for (title, groups) in [("style", byStyle), ("layout", byLayout), ("degradation", byEffect)] where !groups.isEmpty {
            emit(
                "\n\(title.padding(toLength: 12, withPad: " ", startingAt: 0)) labels  listed   first   mean  reading  extraction  disagreements"
            )
            for (name, t) in groups.sorted(by: { $0.key < $1.key }) {
                emit(
                    "\(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(t.labels).padded(6))  \(t.percent(t.onList))  \(t.percent(t.first))  \(String(format: "%5.2f", Double(t.lengths) / Double(max(1, t.labels))))  \(String(t.readingMisses).padded(7))  \(String(t.extractionMisses).padded(10))  \(t.planted == 0 ? "-" : "\(t.shown) of \(t.planted)")"
                )
            }
        }
        if !misses.isEmpty { emit("") }
        for miss in misses { emit("  miss: \(miss)") }
        return ExitCode.success
    }

    /// Whether `reading` carries `serial`: a barcode whose data holds it, or a printed line that
    /// holds it once OCR confusions are folded and spaces dropped.
    static func carries(_ reading: Reading, _ serial: String) -> Bool {
        if case .barcode = reading.source { return reading.value.contains(serial) }
        let squeeze = { (text: String) in OCRConfusion.fold(text).filter { !$0.isWhitespace } }
        return squeeze(reading.value).contains(squeeze(serial))
    }
}
