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

    /// A label of the bench: its image and its sidecar's facts.
    typealias Label = (path: String, sidecar: LabelSidecar)

    /// The tallies of a run: over every label, by style, by layout and by degradation, with the
    /// planted disagreements not shown, by why, and every miss.
    struct Tallies {
        var total = Tally()
        var byStyle: [String: Tally] = [:]
        var byLayout: [String: Tally] = [:]
        var byEffect: [String: Tally] = [:]
        var hidden: [HiddenDisagreement.Kind: Int] = [:]
        var misses: [String] = []

        mutating func add(_ tally: Tally, of label: LabelSidecar) {
            total.add(tally)
            if let style = label.style { byStyle[style, default: Tally()].add(tally) }
            if let layout = label.layout { byLayout[layout, default: Tally()].add(tally) }
            if label.style != nil { byEffect[label.effects.first ?? "none", default: Tally()].add(tally) }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.count <= 1 else { throw UsageError("name one DIR") }
        let turnedOff = try Set(options.all(.without).map(Self.repair))
        let labels = try Self.labels(in: options.positional.first ?? ScenariosCommand.devicesFolder + "/labels")
        var tallies = Tallies()
        try BatchRead.readAll(labels.map(\.path), passes: .all, jobs: defaultJobs, turnedOff: turnedOff) { path, outcome in
            guard case .success(let read) = outcome, let label = labels.first(where: { $0.path == path }) else {
                tallies.misses.append("\(path): could not be read")
                return
            }
            let tally = Self.tally(label, read.readings, &tallies)
            tallies.add(tally, of: label.sidecar)
        }
        if !turnedOff.isEmpty {
            emit("without the reader's " + ReaderPass.allCases.filter(turnedOff.contains).map { "'\($0.name)'" }.joined(separator: ", "))
        }
        Self.report(tallies)
        return ExitCode.success
    }

    /// Every NAME.png in `folder` with a NAME.expected sidecar naming its serial.
    static func labels(in folder: String) throws -> [Label] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CommandFailure("\(folder): no such folder")
        }
        var labels: [Label] = []
        for name in names.sorted() where name.hasSuffix(".png") {
            let base = "\(folder)/\(name.dropLast(4))"
            guard let text = try? String(contentsOfFile: base + ".expected", encoding: .utf8) else { continue }
            let sidecar: LabelSidecar
            do { sidecar = try LabelSidecar(parsing: text, name: base + ".expected") } catch { throw CommandFailure(error.description) }
            if sidecar.serial != nil { labels.append((base + ".png", sidecar)) }
        }
        guard !labels.isEmpty else { throw CommandFailure("\(folder): no NAME.png with a NAME.expected naming its serial") }
        return labels
    }

    /// How the chooser did on one label from its `readings`, its misses and planted
    /// disagreements not shown added to `tallies`.
    static func tally(_ label: Label, _ readings: [Reading], _ tallies: inout Tallies) -> Tally {
        let path = label.path
        var tally = Tally(labels: 1)
        // The chooser's list for the picture held up for the settling window, as `fieldrig
        // serial` shows it.
        let candidates = SerialDriver.still(readings).candidates
        let values = candidates.map(\.value)
        let truth = label.sidecar.serial!
        tally.lengths = candidates.count
        if values.contains(truth) {
            tally.onList = 1
        } else if readings.contains(where: { Self.carries($0, truth) }) {
            tally.extractionMisses = 1
            tallies.misses.append("\(path): extraction: \(truth) was read, not listed in \(values)")
        } else {
            tally.readingMisses = 1
            tallies.misses.append("\(path): reading: \(truth) in neither a barcode nor a printed line")
        }
        if values.first == truth {
            tally.first = 1
        } else if values.contains(truth) {
            tallies.misses.append("\(path): order: \(truth) not first in \(values)")
        }
        Self.tallyDisagreements(label, readings, candidates, &tally, &tallies)
        return tally
    }

    /// The planted disagreements of `label` shown as one in `candidates`, and one shown where
    /// none was planted: the print misread (or another field taken for the serial's) set against
    /// a barcode as if the two differed.
    static func tallyDisagreements(
        _ label: Label, _ readings: [Reading], _ candidates: [SerialCandidate], _ tally: inout Tally, _ tallies: inout Tallies
    ) {
        let barcodes = readings.compactMap { reading in
            if case .barcode = reading.source { reading.value } else { nil }
        }
        let lines = readings.compactMap { reading in
            if case .text = reading.source { reading.value } else { nil }
        }
        for disagreement in label.sidecar.disagreements {
            tally.planted += 1
            let a = candidates.first { $0.value == disagreement.printed }
            let b = candidates.first { $0.value == disagreement.barcode }
            if a?.disagreesWith.contains(disagreement.barcode) == true && b?.disagreesWith.contains(disagreement.printed) == true {
                tally.shown += 1
            } else {
                let why = HiddenDisagreement(barcode: disagreement.barcode, printed: disagreement.printed, barcodes: barcodes, lines: lines)
                tallies.hidden[why.kind, default: 0] += 1
                tallies.misses.append(
                    "\(label.path): the disagreement \(disagreement.barcode) / \(disagreement.printed) was not shown: \(why)")
            }
        }
        guard label.sidecar.disagreements.isEmpty else { return }
        tally.unplantedLabels = 1
        if let shown = candidates.first(where: { !$0.disagreesWith.isEmpty }) {
            tally.unplanted = 1
            tallies.misses.append("\(label.path): a disagreement \(shown.value) / \(shown.disagreesWith[0]) was shown, none was planted")
        }
    }

    /// Prints the figures of a run, then each group's, then every miss.
    static func report(_ tallies: Tallies) {
        let total = tallies.total
        let n = Double(total.labels)
        emit(
            String(
                format: "%d labels: true serial on the list %.1f%%, first %.1f%%, mean list length %.2f", total.labels,
                Double(total.onList) / n * 100, Double(total.first) / n * 100, Double(total.lengths) / n))
        if total.planted == 0 {
            emit("no planted disagreements")
        } else if total.shown == total.planted {
            emit("planted disagreements shown as one: \(total.shown) of \(total.planted)")
        } else {
            let why = HiddenDisagreement.Kind.allCases.map { "\(tallies.hidden[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ")
            emit("planted disagreements shown as one: \(total.shown) of \(total.planted) (not shown: \(why))")
        }
        emit("disagreements shown where none was planted: on \(total.unplanted) of \(total.unplantedLabels) labels")
        emit(
            "misses: \(total.readingMisses) reading (the serial was not read), \(total.extractionMisses) extraction (read, not listed: \(total.percent(total.extractionMisses).trimmingCharacters(in: .whitespaces)))"
        )
        for (title, groups) in [("style", tallies.byStyle), ("layout", tallies.byLayout), ("degradation", tallies.byEffect)]
        where !groups.isEmpty {
            emit(
                "\n\(title.padding(toLength: 12, withPad: " ", startingAt: 0)) labels  listed   first   mean  reading  extraction  disagreements"
            )
            for (name, t) in groups.sorted(by: { $0.key < $1.key }) {
                emit(
                    "\(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(t.labels).padded(6))  \(t.percent(t.onList))  \(t.percent(t.first))  \(String(format: "%5.2f", Double(t.lengths) / Double(max(1, t.labels))))  \(String(t.readingMisses).padded(7))  \(String(t.extractionMisses).padded(10))  \(t.planted == 0 ? "-" : "\(t.shown) of \(t.planted)")"
                )
            }
        }
        if !tallies.misses.isEmpty { emit("") }
        for miss in tallies.misses { emit("  miss: \(miss)") }
    }

    /// Whether `reading` carries `serial`: a barcode whose data holds it, or a printed line that
    /// holds it once OCR confusions are folded and spaces dropped.
    static func carries(_ reading: Reading, _ serial: String) -> Bool {
        if case .barcode = reading.source { return reading.value.contains(serial) }
        let squeeze = { (text: String) in OCRConfusion.fold(text).filter { !$0.isWhitespace } }
        return squeeze(reading.value).contains(squeeze(serial))
    }
}
