import Dispatch
import Foundation
import Imaging
import Reader
import ScenarioKit

/// `fieldrig read`: what the camera would read in each image.
enum ReadCommand: Command {
    static let name = ["read"]
    static let summary = "read barcodes and printed text in label images, in one pass"
    static let about = """
        Usage: fieldrig read [options] FILE...
               fieldrig read --camera SOURCE [--fault FAULT]... [--seconds S] [--json]

        Reads every barcode (zbar) and every printed line (tesseract) in each image, in the same
        pass, and prints what was read and where, one block per image.
        """
    static let notes = """
        With --camera, reads every frame from SOURCE as it comes (a V4L2 device such as
        /dev/video0 on the real clock, or a sequence folder such as Devices/sequences/NAME on its
        recorded timing; a folder of images with no 'sequence' file plays them in name order at
        30 frames a second) and prints each value the first time it is read, with the time and frame,
        and every camera trouble. --fault injects a fault: KIND at start, KIND@SECONDS or
        KIND#FRAME mid-stream, optionally ~SECONDS or ~foreground for when it clears; KIND is
        denied, no-accelerator, busy or stopped. --seconds S stops after S seconds (default 10).

        FILE is a PNG, JPEG or PNM image; colour is read as gray. A file that cannot be read gets
        a one-line error naming it, the other files are still read, and the exit code is 1.

        Exit codes: 0 every file was read, 1 a file could not be read, 2 wrong usage.
        """

    enum Option: CommandOption {
        case json, annotate, only, jobs, textWorkers, camera, fault, seconds

        var spec: OptionSpec {
            switch self {
            case .json:
                .flag(
                    "--json",
                    "one JSON object per image per line:\n{\"file\", \"width\", \"height\", \"readings\": [{\"value\", \"source\",\n\"symbology\" | \"line\", \"where\", \"box\"}]}; a file that cannot be read\ngives {\"file\", \"error\"}"
                )
            case .annotate:
                .value("--annotate", "OUT.png", "also write the image with a box and caption round each reading\n(one FILE only)")
            case .only: .value("--only", "barcodes|text", "read only barcodes, or only printed text")
            case .jobs:
                .integer("--jobs", "N", 1...64, default: defaultJobs, "images read at once, each with its own engines (default: cores)")
            case .textWorkers:
                .integer(
                    "--text-workers", "N", 1...64, default: 1,
                    "engines each image's rows are read again on, side by side (default 1;\nwith --camera: cores)")
            case .camera: .value("--camera", "SOURCE", "read frames as they come from SOURCE (a V4L2 device or a sequence folder)")
            case .fault:
                .repeated(
                    "--fault", "FAULT",
                    "with --camera: inject a fault (denied, no-accelerator, busy or stopped,\nwith @S, #N, ~S or ~foreground); may be given more than once"
                )
            case .seconds: .integer("--seconds", "S", 1...86_400, default: 10, "with --camera: how long to read (default 10)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let files = options.positional
        let passes: FrameReader.Passes
        switch options.value(.only) {
        case nil: passes = .all
        case "barcodes": passes = .barcodes
        case "text": passes = .text
        case let other?: throw UsageError("--only takes 'barcodes' or 'text', not '\(other)'")
        }
        if let source = options.value(.camera) {
            guard files.isEmpty, options.value(.annotate) == nil, options.value(.jobs) == nil else {
                throw UsageError("--camera reads from the camera: name no FILE, --annotate or --jobs with it")
            }
            let camera = try openCamera(source, faults: options.all(.fault))
            let seconds = options.integer(.seconds)
            let workers = options.given(.textWorkers) ? options.integer(.textWorkers) : defaultJobs
            return try LiveRead.run(camera, seconds: seconds, json: options.has(.json), passes: passes, textWorkers: workers)
        }
        guard options.value(.fault) == nil, options.value(.seconds) == nil else {
            throw UsageError("--fault and --seconds go with --camera")
        }
        guard !files.isEmpty else { throw UsageError("name at least one image file") }
        let annotate = options.value(.annotate)
        if annotate != nil, files.count != 1 { throw UsageError("--annotate draws one image: name exactly one FILE") }
        if let annotate, let input = files.first, sameFile(annotate, input) {
            throw UsageError("--annotate \(annotate) is the image being read: name another file to draw on, so the image is kept")
        }
        let jobs = options.integer(.jobs)
        let json = options.has(.json)

        var failed = false
        let workers = options.integer(.textWorkers)
        try BatchRead.readAll(files, passes: passes, jobs: jobs, textWorkers: workers) { path, outcome in
            switch outcome {
            case .success(let read):
                emit(json ? jsonLine(path, read) : block(path, read))
                if let annotate {
                    do {
                        try ImageFile.writeAnnotated(read.frame, marks: read.readings.map(mark), to: annotate)
                    } catch {
                        printError("fieldrig: \(error)")
                        failed = true
                    }
                }
            case .failure(let error):
                failed = true
                if json { emit(JSON.object([("file", .string(path)), ("error", .string(error.description))]).text) }
                printError("fieldrig: \(error)")
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// The person's view of one image.
    static func block(_ path: String, _ read: BatchRead.Read) -> String {
        var lines = ["\(path)  (\(read.frame.width)x\(read.frame.height))"]
        if read.readings.isEmpty { lines.append("  nothing read") }
        let width = min(40, read.readings.map(\.value.count).max() ?? 0)
        let names = read.readings.map { reading in
            switch reading.source {
            case .barcode(let symbology): ("barcode ", symbology)
            case .text(let line): ("text    ", "line \(line)")
            }
        }
        // Each name whole ("DATAMATRIX", "DataBar-Exp"), the values in one column after the longest.
        let nameWidth = max(9, names.map(\.1.count).max() ?? 0)
        for (reading, name) in zip(read.readings, names) {
            let kind = name.0 + name.1.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            lines.append(
                "  \(kind)  \(reading.value.padding(toLength: max(width, reading.value.count), withPad: " ", startingAt: 0))  at \(reading.box)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The script's view of one image: one line of JSON.
    static func jsonLine(_ path: String, _ read: BatchRead.Read) -> String {
        JSON.object([
            ("file", .string(path)),
            ("width", .int(read.frame.width)),
            ("height", .int(read.frame.height)),
            ("readings", .array(read.readings.map(readingJSON))),
        ]).text
    }

    static func readingJSON(_ reading: Reading) -> JSON {
        var fields: [(String, JSON)] = [("value", .string(reading.value))]
        switch reading.source {
        case .barcode(let symbology):
            fields += [("source", .string("barcode")), ("symbology", .string(symbology))]
        case .text(let line):
            fields += [("source", .string("text")), ("line", .int(line))]
        }
        fields.append(("where", .string(reading.whereRead)))
        fields.append(("box", boxJSON(reading.box)))
        if !reading.words.isEmpty {
            fields.append(
                (
                    "words",
                    .array(
                        reading.words.map {
                            .object([("text", .string($0.text)), ("box", boxJSON($0.box))])
                        })
                ))
        }
        return .object(fields)
    }

    static func boxJSON(_ box: Box) -> JSON {
        .object([("x", .int(box.x)), ("y", .int(box.y)), ("width", .int(box.width)), ("height", .int(box.height))])
    }

    static func mark(_ reading: Reading) -> Mark {
        switch reading.source {
        case .barcode(let symbology): return Mark(box: reading.box, caption: "\(symbology): \(reading.value)", colour: .green)
        case .text(let line): return Mark(box: reading.box, caption: "\(line): \(reading.value)", colour: .blue)
        }
    }
}

/// Whether two paths name the same file (the same path, or the same file through a link).
func sameFile(_ a: String, _ b: String) -> Bool {
    if (a as NSString).standardizingPath == (b as NSString).standardizingPath { return true }
    var x = stat()
    var y = stat()
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
}
