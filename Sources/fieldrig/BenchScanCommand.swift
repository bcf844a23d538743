import Camera
import Companion
import Foundation
import Model
import Reader
import Register
import Shell

/// `fieldrig bench scan`: from a tag's first frame to its card, and from a label's first frame to its offer.
enum BenchScanCommand: Command {
    static let name = ["bench", "scan"]
    static let summary = "time from a tag's first frame to the card, and from a label's first frame to the offer"
    static let about = """
        Usage: fieldrig bench scan [--runs N]

        On the file-sequence camera (Devices/sequences), with the real reader and a demo register:
        - a walk-round tag: the time from its first visible frame to the card being up, as the
          phone would feel it (reading that frame's barcodes, proving the tag, drawing the card;
          barcodes come first, so its printed text is never waited for), against the barcode
          pass alone on the same frame;
        - a label: the time from its first frame to the settled offer, on the session clock (the
          settling window) and in processing (reading every frame of the window, uncached, as a
          live camera would).
        Each is the median of N runs (default 5).
        """

    enum Option: CommandOption {
        case runs

        var spec: OptionSpec {
            switch self {
            case .runs: .integer("--runs", "N", 1...1000, default: 5, "how many runs each median is taken over")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let runs = options.integer(.runs)
        let folder = NSTemporaryDirectory() + "fieldrig-bench-scan-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 30))
        let reader = try LiveRead.wrapReader()

        let tag = try tagToCard(runs: runs)
        var labelWall: [Duration] = []
        var labelSession: Duration = .zero
        for _ in 0..<runs {
            let labelCamera = try FileSequenceCamera(folder: ScenariosCommand.devicesFolder + "/sequences/dell-latitude-hold")
            let label = try ScanDriver(purpose: .intake, camera: labelCamera, reader: reader, register: register, clock: VirtualClock())
            label.send(.opened)
            label.run(until: .milliseconds(199))
            let labelStart = ContinuousClock.now
            var until = Duration.milliseconds(200)
            while label.sheet.offer == nil && until < .seconds(5) {
                until += .milliseconds(33)
                label.run(until: until)
            }
            guard label.sheet.offer != nil else { throw CommandFailure("the label did not settle") }
            labelWall.append(ContinuousClock.now - labelStart)
            labelSession = label.clock.now - .milliseconds(200)
        }
        let (tagMedian, barcodeMedian) = tag
        emit(
            "tag's first frame to the card:        \(ms(tagMedian)) (read, prove, draw; median of \(runs)), "
                + String(format: "%.2fx the barcode pass on that frame (%@)", tagMedian / barcodeMedian, ms(barcodeMedian)))
        emit(
            "label's first frame to the offer:     \(ms(labelSession)) on the session clock (the settling window, rounded up to the next frame)"
        )
        emit("  processing the window's frames:     \(ms(percentiles(labelWall).median)) (every frame read, no cache; median of \(runs))")
        return ExitCode.success
    }

    /// A walk-round tag's first frame to its card (reading the frame's barcodes, proving the
    /// tag, drawing the card) and the barcode pass alone on that frame: medians of `runs`.
    static func tagToCard(runs: Int) throws -> (card: Duration, barcodes: Duration) {
        let folder = NSTemporaryDirectory() + "fieldrig-bench-tag-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 30))
        let reader = try LiveRead.wrapReader()
        var tagTimes: [Duration] = []
        var barcodeTimes: [Duration] = []
        for _ in 0..<runs {
            // The tag: frames up to the first tag frame, then time that one frame to the card.
            let tagCamera = try FileSequenceCamera(folder: ScenariosCommand.devicesFolder + "/sequences/tag-mf-0004")
            let tag = try ScanDriver(purpose: .walkRound, camera: tagCamera, reader: reader, register: register, clock: VirtualClock())
            tag.send(.opened)
            tag.run(until: .milliseconds(199))
            var fired: Frame? = nil
            tag.pump.observer = { frame, _ in fired = frame }
            let start = ContinuousClock.now
            tag.run(until: .milliseconds(201))
            guard tag.sheet.hit != nil, let fired else { throw CommandFailure("the tag did not draw its card") }
            tagTimes.append(ContinuousClock.now - start)
            // The barcode pass alone on the same frame (a copy of its pixels, so nothing is reused).
            let copy = Frame(width: fired.width, height: fired.height, bytes: Array(fired.bytes), index: fired.index)
            let barcodeStart = ContinuousClock.now
            _ = reader.readBarcodes(copy)
            barcodeTimes.append(ContinuousClock.now - barcodeStart)
        }
        return (percentiles(tagTimes).median, percentiles(barcodeTimes).median)
    }
}
