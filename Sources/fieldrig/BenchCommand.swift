import Foundation
import Imaging
import Model
import Reader

/// `fieldrig bench read`: how fast the reader is, against the command-line tools on the same frames.
enum BenchReadCommand: Command {
    static let name = ["bench", "read"]
    static let summary = "time barcode, text and same-pass reading against zbarimg and tesseract"
    static let about = """
        Usage: fieldrig bench read [options] [FILE...]

        Times reading each image in this process on one core: each barcode engine alone (zbar,
        zbar again on the frame made black and white, zxing-cpp for the 2-D codes zbar cannot
        read, and zxing-cpp's second look for a DataMatrix in four tiles), barcodes only (all of
        these), printed text only (tesseract) and the same pass (both), as the median and 90th
        percentile per frame.
        Then times the whole tool, 'fieldrig read FILE...', against running the 'zbarimg' and
        'tesseract' command-line tools on each file, in the same run, and prints the ratio.
        Machines are shared and noisy: compare the ratios, not the milliseconds.

        FILE defaults to Devices/labels/*.png (the project's, wherever it is run from).
        """

    enum Option: CommandOption {
        case runs, noTools

        var spec: OptionSpec {
            switch self {
            case .runs: .integer("--runs", "N", 1...1000, default: 5, "reads of each image per pass (default 5)")
            case .noTools: .flag("--no-tools", "skip the comparison with zbarimg and tesseract")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let runs = options.integer(.runs)
        let files = try options.positional.isEmpty ? defaultLabels() : options.positional
        var frames: [Frame] = []
        for file in files {
            do { frames.append(try ImageFile.load(file)) } catch { throw CommandFailure(error.description) }
        }
        let reader = try FrameReader()
        _ = reader.read(frames[0])  // first use allocates tesseract's buffers

        emit("Reading \(frames.count) images, \(runs) runs each, one core (\(frames[0].width)x\(frames[0].height) first).")
        emit("pass          median      p90")
        // The barcode pass's two engines on their own: zbar (linear codes and QR; then linear
        // codes only, along rows of the frame made black and white) and zxing-cpp
        // (the 2-D codes zbar cannot read), and zxing-cpp's second look for a DataMatrix, in
        // tiles, where the whole frame showed none, and its third, around the patches dense
        // with contrast, where nothing at all was read.
        let matrix = MatrixCodeReader()
        let packed = frames.map { $0.packed() }
        for (label, engine) in [
            ("  zbar", { (f: Frame) in _ = reader.barcodes.readWithZBar(f) }),
            ("  zbar b/w", { (f: Frame) in _ = reader.barcodes.readLinearInBlackAndWhite(f) }),
            ("  zxing 2-D", { (f: Frame) in _ = matrix.read(f) }),
            ("  DM tiles", { (f: Frame) in _ = matrix.readDataMatrixInTiles(f) }),
            ("  patches", { (f: Frame) in _ = matrix.readAroundDensePatches(f) }),
        ] {
            row(label, perFrame(packed, runs: runs, engine))
        }
        var sameMedian = Duration.zero
        for (label, passes) in [("barcodes", FrameReader.Passes.barcodes), ("text", .text), ("same pass", .all)] {
            let median = row(label, perFrame(frames, runs: runs) { _ = reader.read($0, passes: passes) })
            if passes == .all { sameMedian = median }
        }
        passCosts(frames, runs: runs, reader: reader)
        guard !options.has(.noTools) else { return ExitCode.success }

        emit("")
        emit("Whole tool over \(files.count) files, against the command-line tools on each file:")
        guard let zbarimg = which("zbarimg"), let tesseract = which("tesseract") else {
            throw CommandFailure("zbarimg or tesseract is not installed: run CI/install-deps, or pass --no-tools")
        }
        let ours = try time("/proc/self/exe", ["read"] + files)
        let oursOneJob = try time("/proc/self/exe", ["read", "--jobs", "1"] + files)
        var perImage: [Duration] = []
        for file in files {
            // zbarimg exits 4 when it finds no symbol: an answer, not a failure.
            perImage.append(try time(zbarimg, ["-q", file], accepting: [0, 4]) + time(tesseract, [file, "-", "--psm", "11"]))
        }
        let tools = perImage.reduce(.zero, +)
        emit("fieldrig read            \(ms(ours).padded(9))")
        emit("fieldrig read --jobs 1   \(ms(oursOneJob).padded(9))")
        emit("zbarimg + tesseract      \(ms(tools).padded(9))")
        emit(
            String(
                format:
                    "ratio: fieldrig read is %.1fx faster (%.1fx on one job); per image, the same pass is %.1fx faster than the two tools (median %@ vs %@)",
                ratio(tools, ours), ratio(tools, oursOneJob), ratio(percentiles(perImage).median, sameMedian),
                ms(sameMedian), ms(percentiles(perImage).median)))
        return ExitCode.success
    }

    /// Each named pass of the same pass: on how many reads it ran, its share of the time, and
    /// what one run of it cost, with when it runs.
    static func passCosts(_ frames: [Frame], runs: Int, reader: FrameReader) {
        let costs = PassCosts()
        reader.costs = costs
        defer { reader.costs = nil }
        let reads = frames.count * runs
        for _ in 0..<runs { for frame in frames { _ = reader.read(frame) } }
        emit("")
        emit("Each pass of the same pass, over \(reads) reads (when it runs):")
        printCosts(costs, of: reads)
    }

    /// The table of `costs`, over `reads` frames read: each pass, on how many of them it ran,
    /// its share of the time, and what one run of it cost, with when it runs.
    static func printCosts(_ costs: PassCosts, of reads: Int) {
        let total = costs.order.reduce(Duration.zero) { $0 + costs.costs[$1]!.total }
        emit("pass                  ran on   share   per run")
        for name in costs.order {
            let cost = costs.costs[name]!
            emit(
                String(
                    format: "%@ %5.0f%%  %5.1f%%  %@  (%@)", name.padding(toLength: 21, withPad: " ", startingAt: 0),
                    Double(cost.runs) * 100 / Double(max(1, reads)), cost.total / total * 100, ms(cost.total / cost.runs).padded(9),
                    ReaderPass(rawValue: name)?.trigger.description ?? ""))
        }
    }

    static func defaultLabels() throws -> [String] {
        let folder = ScenariosCommand.devicesFolder + "/labels"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw UsageError("no FILE given and no \(folder) folder: name the images")
        }
        let images = names.filter { $0.hasSuffix(".png") }.sorted().map { "\(folder)/\($0)" }
        guard !images.isEmpty else { throw UsageError("\(folder) holds no PNG images: name the images") }
        return images
    }

    /// The wall time of running `tool` with `arguments`, its output discarded; fails unless it exits 0.
    /// How long `body` takes on each frame, `runs` times over.
    static func perFrame(_ frames: [Frame], runs: Int, _ body: (Frame) -> Void) -> [Duration] {
        var samples: [Duration] = []
        for _ in 0..<runs {
            for frame in frames {
                let start = ContinuousClock.now
                body(frame)
                samples.append(ContinuousClock.now - start)
            }
        }
        return samples
    }

    /// Prints a table row of `samples`' median and 90th percentile; the median.
    @discardableResult
    static func row(_ label: String, _ samples: [Duration]) -> Duration {
        let (median, p90) = percentiles(samples)
        emit("\(label.padding(toLength: 12, withPad: " ", startingAt: 0))  \(ms(median).padded(8))  \(ms(p90).padded(8))")
        return median
    }

    /// How long `tool` takes on `arguments`; a failure unless it exits with one of `accepting`.
    static func time(_ tool: String, _ arguments: [String], accepting: Set<Int32> = [0]) throws -> Duration {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        guard accepting.contains(process.terminationStatus) else {
            throw CommandFailure("\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return elapsed
    }

    static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

func seconds(_ d: Duration) -> Double { d.inSeconds }

func ms(_ d: Duration) -> String { formatMilliseconds(d) }

func ratio(_ a: Duration, _ b: Duration) -> Double { seconds(b) > 0 ? seconds(a) / seconds(b) : 0 }

extension String {
    /// Right-aligned in `width` columns.
    func padded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
