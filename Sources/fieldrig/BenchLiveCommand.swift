import Camera
import Companion
import Foundation
import Model
import Reader
import Serials
import Shell

#if canImport(Glibc)
    import Glibc
#endif

/// `fieldrig bench live DIR`: labels held up to a webcam, played through the serial chooser.
enum BenchLiveCommand: Command {
    static let name = ["bench", "live"]
    static let summary = "labels held up to a webcam, through the serial chooser: first row, settling, CPU a frame"
    static let about = """
        Usage: fieldrig bench live DIR [--budget N] [--spacing N] [--sharp F] [--second-looks N] [--every-frame] [--jobs N]
                                     [--text-workers N] [--pass-costs] [--stills STILLS] [--barcode-scan WxH|whole]

        Plays every sequence folder in DIR (each with its 'sequence' and a 'truth' sidecar, as
        Devices/serial-corpus/sequences renders them) through "Photograph a serial instead" on
        the virtual clock, with the real reader and no cache (a webcam never delivers one frame
        twice), and reports: how often the chooser's first row is the true serial and how often
        it is on the list (per profile, style and layout too), planted disagreements shown as
        one, the time from the label first in view to the chooser coming up, the frames
        delivered, read for text and read for barcodes only, and the CPU each frame cost (the
        thread's CPU time from one frame to the next: decoding, reading, the chooser; and what
        other engines spent reading its rows, with --text-workers), median and p90, and the wall
        time of a frame read for text. Then a proven tag's first frame to its card, against the
        barcode pass alone.

        With --pass-costs, also each of the reader's passes over the frames delivered: on how
        many it ran, its share of the reading time and what one run cost (the barcode pass on
        every frame, the text passes where the budget spends them; wall time on the reading
        thread, so play one job at a time for CPU).

        With --stills STILLS, also the label of each sequence NAME as a still image
        (STILLS/NAME.png: the half of Devices/serial-corpus/generate's output the sequences
        were rendered from), read as bench serials reads it after the sequences are played:
        the first row live against the first row as a still, on the same labels, and each miss
        says whether the still was read right.

        The text budget (see the README) is the chooser's default unless given; --every-frame
        reads every frame whole, as before the budget. A frame of more pixels than 1280x720 has
        its barcodes scanned as one of that size would be (--barcode-scan WxH for another size,
        whole for every frame at its own).
        """
    static let notes = "Machines are shared and noisy: CPU time is steadier than wall time, but compare runs made together."

    enum Option: CommandOption {
        case budget, spacing, sharp, secondLooks, everyFrame, jobs, textWorkers, passCosts, stills, barcodeScan

        var spec: OptionSpec {
            switch self {
            case .budget:
                .integer("--budget", "N", 1...1000, default: TextBudget.standard.perWindow, "text passes at most in a settling window")
            case .spacing: .integer("--spacing", "N", 1...100, default: TextBudget.standard.spacing, "frames at least between text passes")
            case .sharp: .value("--sharp", "F", "the share of the sharpest frame's sharpness a text pass needs (0 to 1)")
            case .secondLooks:
                .integer(
                    "--second-looks", "N", 0...1000, default: min(1000, TextBudget.standard.secondLooksPerWindow),
                    "text passes a window that take the reader's second looks too")
            case .everyFrame: .flag("--every-frame", "read every frame whole (no budget)")
            case .jobs: .integer("--jobs", "N", 1...64, default: defaultJobs, "sequences played at once (default: cores)")
            case .textWorkers:
                .integer("--text-workers", "N", 1...64, default: 1, "engines a frame's rows are read again on, side by side (default 1)")
            case .passCosts: .flag("--pass-costs", "also what each of the reader's passes cost, over every frame delivered")
            case .stills: .value("--stills", "STILLS", "also each sequence's label as a still image (STILLS/NAME.png), against it")
            case .barcodeScan:
                .value("--barcode-scan", "WxH|whole", "scan a larger frame's barcodes as one of WxH (default 1280x720), or whole")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.count == 1, let folder = options.positional.first else { throw UsageError("name one DIR") }
        let budget = try Self.budget(options)
        let sequences = try LiveSequence.all(in: folder)
        var stills = try options.value(.stills).map { try StillsOfSequences(sequences, folder: $0) }
        let costs = options.has(.passCosts) ? Locked<PassCosts.Table>([]) : nil
        let results = try LivePlay.playAll(
            sequences, budget: budget, jobs: options.integer(.jobs), textWorkers: options.integer(.textWorkers),
            scanPixels: try scanPixels(options), costs: costs)
        // After the sequences, so that their CPU is measured alone.
        try stills?.read(jobs: options.integer(.jobs))
        LiveReport(results, stills: stills).print()
        if let costs {
            let delivered = results.map(\.delivered).reduce(0, +)
            emit("")
            emit("Each pass of the reader, over the \(delivered) frames delivered (wall time on the reading thread):")
            let all = PassCosts()
            all.add(costs.current)
            BenchReadCommand.printCosts(all, of: delivered)
        }
        let tag = try BenchScanCommand.tagToCard(runs: 3)
        emit(
            String(
                format: "proven tag's first frame to its card: %@, %.2fx the barcode pass on that frame (%@; bench scan)",
                ms(tag.card), tag.card / tag.barcodes, ms(tag.barcodes)))
        return ExitCode.success
    }

    /// The most pixels a frame's barcodes are scanned at: `--barcode-scan`'s WxH, or every
    /// pixel for `whole`.
    static func scanPixels(_ options: Parsed<Option>) throws -> Int {
        guard let text = options.value(.barcodeScan) else { return FrameReader.standardLiveScan }
        if text == "whole" { return .max }
        let sides = text.split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ (16...8192).contains($0) }) else {
            throw UsageError("--barcode-scan takes WxH (each side 16 to 8192, as 1280x720) or whole, not '\(text)'")
        }
        return sides[0] * sides[1]
    }

    static func budget(_ options: Parsed<Option>) throws -> TextBudget {
        if options.has(.everyFrame) { return .everyFrame }
        var budget = TextBudget.standard
        budget.perWindow = options.integer(.budget)
        budget.spacing = options.integer(.spacing)
        budget.secondLooksPerWindow = options.integer(.secondLooks)
        if let text = options.value(.sharp) {
            guard let share = Double(text), (0...1).contains(share) else {
                throw UsageError("--sharp takes a share from 0 to 1, not '\(text)'")
            }
            budget.sharpEnough = share
        }
        return budget
    }
}

/// One sequence of the live corpus: its folder and what its truth sidecar says.
struct LiveSequence {
    var folder: String
    var label: LabelSidecar
    var profile: String
    /// When the label first comes into view, on the sequence's clock.
    var inView: Duration

    /// Every sequence folder in `folder` (a folder with a 'sequence' and a 'truth').
    static func all(in folder: String) throws -> [LiveSequence] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CommandFailure("\(folder): no such folder. Render one with Devices/serial-corpus/sequences.")
        }
        let sequences = try names.sorted().compactMap { name -> LiveSequence? in
            let path = "\(folder)/\(name)"
            guard let text = try? String(contentsOfFile: "\(path)/truth", encoding: .utf8) else { return nil }
            return try LiveSequence(folder: path, truth: text)
        }
        guard !sequences.isEmpty else {
            throw CommandFailure("\(folder): no sequence folder with a 'truth' sidecar. Render them with Devices/serial-corpus/sequences.")
        }
        return sequences
    }

    /// Parses a truth sidecar: the label's facts (as a label's NAME.expected), then `profile`,
    /// `quality`, `inview SECONDS`, `light`, `size` and `resolution` (a dimmed scene, a label held
    /// farther, a frame other than 1280x720) and one `frame` line a frame.
    init(folder: String, truth: String) throws {
        self.folder = folder
        var facts: [Substring] = []
        var profile = "steady"
        var inView: Duration? = nil
        for line in truth.split(separator: "\n") {
            let words = line.split(separator: " ")
            switch words.first {
            case "profile": profile = words.dropFirst().joined(separator: " ")
            case "inview": inView = words.count == 2 ? Double(words[1]).map { .microseconds(Int(($0 * 1e6).rounded())) } : nil
            case "quality", "light", "size", "resolution", "frame": continue
            default: facts.append(line)
            }
        }
        do {
            label = try LabelSidecar(parsing: facts.joined(separator: "\n"), name: "\(folder)/truth")
        } catch {
            throw CommandFailure(error.description)
        }
        guard label.serial != nil, let inView else {
            throw CommandFailure("\(folder)/truth: needs a 'serial' line and 'inview SECONDS'")
        }
        self.profile = profile
        self.inView = inView
    }
}

/// What one sequence played through the chooser gave.
struct LivePlay {
    var sequence: LiveSequence
    var candidates: [SerialCandidate]
    /// When the chooser came up, on the session clock; nil if it never did.
    var settledAt: Duration?
    var delivered: Int
    var textRead: Int
    /// CPU time each delivered frame cost.
    var cpu: [Duration]
    /// Wall time each frame read for text took, from the frame before to it.
    var textWall: [Duration] = []
    /// Whether a reading of some frame carried the true serial whole (a barcode, or a printed
    /// line up to OCR's look-alikes): not so, no chooser could list it.
    var readWhole = false

    /// Plays every sequence, `jobs` at once, each worker with its own reader (its rows read again
    /// on `textWorkers` engines, a frame's barcodes scanned at `scanPixels` at most). Where
    /// `costs` is given, each reader's passes are measured and added to it.
    static func playAll(
        _ sequences: [LiveSequence], budget: TextBudget, jobs: Int, textWorkers: Int,
        scanPixels: Int = FrameReader.standardLiveScan, costs: Locked<PassCosts.Table>? = nil
    ) throws -> [LivePlay] {
        let results = Locked<[Int: Result<LivePlay, Error>]>([:])
        let setUp = Locked<CommandFailure?>(nil)
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, sequences.count)) { _ in
            let reader: FrameReader
            do throws(ReaderError) { reader = try FrameReader(textWorkers: textWorkers) } catch {
                setUp.withLock { $0 = CommandFailure(error.description) }
                return
            }
            if costs != nil { reader.costs = PassCosts() }
            reader.liveScanPixels = scanPixels
            while let i = next.take(below: sequences.count) {
                let outcome = Result { try LivePlay(sequences[i], reader: reader, budget: budget) }
                results.withLock { $0[i] = outcome }
            }
            if let mine = reader.costs?.table { costs?.withLock { $0 += mine } }
        }
        let all = results.current
        return try sequences.indices.map { i in
            guard let outcome = all[i] else { throw setUp.current ?? CommandFailure("\(sequences[i].folder): not played") }
            return try outcome.get()
        }
    }

    init(_ sequence: LiveSequence, reader: FrameReader, budget: TextBudget) throws {
        self.sequence = sequence
        let camera = try FileSequenceCamera(folder: sequence.folder)
        let driver = SerialDriver(camera: camera, reader: reader, clock: VirtualClock(), budget: budget)
        var (cpu, textWall): ([Duration], [Duration]) = ([], [])
        // The CPU this thread and the reader's other engines spent, and the wall clock.
        func spent() -> (Duration, ContinuousClock.Instant) { (threadCPUTime() + reader.text.cpuElsewhere, .now) }
        var last = spent()
        var readWhole = false
        var textSoFar = 0
        let truth = sequence.label.serial!
        driver.pump.observer = { [unowned pump = driver.pump] _, readings in
            let now = spent()
            cpu.append(now.0 - last.0)
            if pump.framesTextRead > textSoFar { textWall.append(now.1 - last.1) }
            textSoFar = pump.framesTextRead
            readWhole = readWhole || readings.contains { BenchSerialsCommand.carries($0, truth) }
            last = spent()
        }
        driver.send(.opened)
        var until = Duration.zero
        while driver.chooser.isReading, driver.pump.isRunning, until < .seconds(30) {
            until += .milliseconds(10)
            driver.run(until: until)
        }
        settledAt = driver.chooser.candidates.isEmpty ? nil : driver.clock.now
        candidates = driver.chooser.candidates
        delivered = driver.pump.framesRead
        textRead = driver.pump.framesTextRead
        self.cpu = cpu
        self.textWall = textWall
        self.readWhole = readWhole
    }

    var truth: String { sequence.label.serial! }
    var first: Bool { candidates.first?.value == truth }
    var listed: Bool { candidates.contains { $0.value == truth } }
    /// From the label first in view to the chooser up.
    var settling: Duration? { settledAt.map { $0 - sequence.inView } }
    /// Planted disagreements, and how many were shown as one.
    var disagreements: (planted: Int, shown: Int) {
        let shown = sequence.label.disagreements.filter { planted in
            candidates.contains { $0.value == planted.printed && $0.disagreesWith.contains(planted.barcode) }
                && candidates.contains { $0.value == planted.barcode && $0.disagreesWith.contains(planted.printed) }
        }
        return (sequence.label.disagreements.count, shown.count)
    }
}

/// The bench's report over the plays.
struct LiveReport {
    let plays: [LivePlay]
    /// Each sequence's label read as a still image, with `--stills`.
    let stills: StillsOfSequences?
    static let settleTarget = Duration.milliseconds(1500)

    init(_ plays: [LivePlay], stills: StillsOfSequences? = nil) {
        self.plays = plays
        self.stills = stills
    }

    func percent(_ count: Int, of total: Int) -> String { String(format: "%.1f%%", 100 * Double(count) / Double(max(1, total))) }

    func print() {
        let n = plays.count
        let first = plays.filter(\.first).count
        let listed = plays.filter(\.listed).count
        let lengths = plays.map(\.candidates.count).reduce(0, +)
        emit(
            "\(n) sequences: chooser's first row the true serial on \(first) (\(percent(first, of: n))), on the list \(listed) (\(percent(listed, of: n))), mean list length \(String(format: "%.2f", Double(lengths) / Double(max(1, n))))"
        )
        let neverRead = plays.filter { !$0.readWhole }.count
        emit(
            "the true serial read whole on some frame: \(n - neverRead) of \(n) (\(percent(n - neverRead, of: n))); "
                + "of those, first \(plays.filter { $0.readWhole && $0.first }.count)")
        if let stills { printAgainst(stills) }
        let planted = plays.map(\.disagreements.planted).reduce(0, +)
        let shown = plays.map(\.disagreements.shown).reduce(0, +)
        emit("planted disagreements shown as one: \(shown) of \(planted)")
        let plain = plays.filter { $0.sequence.label.disagreements.isEmpty }
        let unplanted = plain.filter { $0.candidates.contains { !$0.disagreesWith.isEmpty } }.count
        emit("disagreements shown where none was planted: on \(unplanted) of \(plain.count) sequences")
        let settled = plays.compactMap(\.settling)
        let inTime = settled.filter { $0 <= Self.settleTarget }.count
        let (settleMedian, settleP90) = percentiles(settled.isEmpty ? [.zero] : settled)
        emit(
            "settled within 1.5 s of the label first in view: \(inTime) of \(n) (\(percent(inTime, of: n))); median \(ms(settleMedian)), p90 \(ms(settleP90)); never settled: \(n - settled.count)"
        )
        let delivered = plays.map(\.delivered).reduce(0, +)
        let text = plays.map(\.textRead).reduce(0, +)
        emit(
            "frames: \(delivered) delivered, \(text) read for text (\(percent(text, of: delivered))), \(delivered - text) for barcodes only"
        )
        let (median, p90) = percentiles(plays.flatMap(\.cpu))
        let perSequence = plays.map { $0.cpu.reduce(.zero, +) / max(1, $0.cpu.count) }
        let (meanMedian, _) = percentiles(perSequence)
        emit(
            "CPU per frame delivered: median \(ms(median)), p90 \(ms(p90)); a sequence's mean per frame, median over sequences \(ms(meanMedian))"
        )
        let walls = plays.flatMap(\.textWall)
        let (wallMedian, wallP90) = percentiles(walls.isEmpty ? [.zero] : walls)
        emit("wall time of a frame read for text: median \(ms(wallMedian)), p90 \(ms(wallP90))")
        table("profile", by: { $0.sequence.profile })
        table("style", by: { $0.sequence.label.style ?? "-" })
        table("layout", by: { $0.sequence.label.layout ?? "-" })
        let misses = plays.filter { !$0.first }
        if !misses.isEmpty { emit("") }
        for play in misses {
            let rows = play.candidates.prefix(4).map(\.value).joined(separator: ", ")
            let why = play.listed ? "not first" : play.readWhole ? "not listed" : "never read whole on a frame, not listed"
            let still = stills.map { $0.first(play) ? "; first as a still" : "; not first as a still either" } ?? ""
            emit("  miss: \(play.sequence.folder): \(play.truth) \(why) in [\(rows)]\(still)")
        }
        for play in plays where play.disagreements.shown < play.disagreements.planted {
            let rows = play.candidates.prefix(4).map { "\($0.value)\($0.disagreesWith.isEmpty ? "" : " (disagrees)")" }
            let planted = play.sequence.label.disagreements.map { "\($0.barcode) coded, \($0.printed) printed" }
            let shown = "[\(rows.joined(separator: ", "))]"
            emit("  disagreement not shown: \(play.sequence.folder): \(planted.joined(separator: "; ")) in \(shown)")
        }
    }

    func table(_ title: String, by key: (LivePlay) -> String) {
        emit("\n\(title.padding(toLength: 16, withPad: " ", startingAt: 0)) sequences   first  listed  text frames")
        for (name, group) in Dictionary(grouping: plays, by: key).sorted(by: { $0.key < $1.key }) {
            let delivered = group.map(\.delivered).reduce(0, +)
            let text = group.map(\.textRead).reduce(0, +)
            emit(
                "\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(group.count).padded(9))  \(percent(group.filter(\.first).count, of: group.count).padded(6))  \(percent(group.filter(\.listed).count, of: group.count).padded(6))  \(percent(text, of: delivered).padded(11))"
            )
        }
    }
}
