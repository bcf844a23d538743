import Camera
import Durable
import Foundation
import Imaging
import Model
import Reader

/// `fieldrig cameras`: the V4L2 devices present and what each offers.
enum CamerasCommand: Command {
    static let name = ["cameras"]
    static let summary = "list the V4L2 cameras present and what each offers"
    static let about = """
        Usage: fieldrig cameras [DEVICE...]

        Opens each V4L2 device (every /dev/video* when none is named) and prints its name, driver
        and the sizes, pixel formats and rates it offers, or the trouble the scan sheet would show
        for it: a camera another program is using is shown as busy.
        """
    static let notes = """
        Exit codes: 0 listed (even when none is present), 2 wrong usage.
        """

    static func run(_ options: Parsed<NoOption>) throws -> Int32 {
        var paths = options.positional
        if paths.isEmpty {
            paths = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
                .filter { $0.hasPrefix("video") }.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }.map { "/dev/\($0)" }
        }
        if paths.isEmpty {
            emit("No V4L2 cameras here (no /dev/video*). Plug one in, or use a recorded sequence from Devices/sequences.")
            return ExitCode.success
        }
        for path in paths {
            // Nothing there is not the same as something there that cannot capture.
            guard FileManager.default.fileExists(atPath: path) else {
                emit("\(path): no such device")
                continue
            }
            let camera = V4L2Camera(path: path)
            do {
                try camera.probeInUse()
                emit("\(path): \(camera.card) (\(camera.driver))")
                if camera.capabilities.modes.isEmpty { emit("  no sizes listed") }
                for mode in camera.capabilities.modes { emit("  \(mode)") }
            } catch {
                if error == .cannotScan, let code = camera.openErrno, code == ENODEV || code == ENXIO {
                    // The file is there but nothing answers behind it: not the same as a wrong file.
                    emit("\(path): no device behind it (\(errnoDescription(code))): unplugged, or its driver is gone")
                } else {
                    emit("\(path): \(troubleSentence(error))")
                }
            }
        }
        return ExitCode.success
    }

    /// One sentence for a camera's trouble; `afterStart` for trouble met while frames were coming.
    static func troubleSentence(_ trouble: CameraTrouble, afterStart: Bool = false) -> String {
        switch trouble {
        case .accessOff: return "access off (permission denied): add yourself to the 'video' group"
        case .busy: return "busy: another program is using it"
        case .cannotScan: return "not a capture device"
        case .stopped(let reason): return afterStart ? "stopped: \(reason)" : "cannot be opened: \(reason)"
        }
    }
}

/// `fieldrig record`: a real webcam (or any camera source) into a sequence folder.
enum RecordCommand: Command {
    static let name = ["record"]
    static let summary = "record a camera into a sequence folder that plays back as a camera"
    static let about = """
        Usage: fieldrig record --camera SOURCE [--seconds S] [--frames N] FOLDER

        Records frames from SOURCE (a V4L2 device such as /dev/video0, or a sequence folder) into
        FOLDER, a new folder: one PNG a frame and a 'sequence' file with each frame's time. The
        file-sequence camera plays it back with the same frames and timings, so a case met at the
        desk becomes a CI fixture. Each frame is on disk before its line is written: a recording
        cut short keeps every whole frame.
        """
    static let notes = """
        Exit codes: 0 recorded, 1 the camera failed or the folder cannot be written, 2 wrong usage.
        """

    enum Option: CommandOption {
        case camera, seconds, frames, width, height

        var spec: OptionSpec {
            switch self {
            case .camera: .value("--camera", "SOURCE", "where frames come from (required)")
            case .seconds: .integer("--seconds", "S", 1...3600, default: 5, "stop after S seconds of camera time (default 5)")
            case .frames: .integer("--frames", "N", 1...Int.max, default: Int.max, "stop after N frames")
            case .width: .integer("--width", "N", 16...8192, default: CameraSetup.label.width, "the frame width to ask the camera for")
            case .height: .integer("--height", "N", 16...8192, default: CameraSetup.label.height, "the frame height to ask the camera for")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard options.positional.count == 1 else { throw UsageError("name one FOLDER to record into") }
        guard let sourceText = options.value(.camera) else { throw UsageError("--camera SOURCE is required") }
        let seconds = options.integer(.seconds)
        let limit = options.integer(.frames)
        var setup = CameraSetup.label
        setup.width = options.integer(.width)
        setup.height = options.integer(.height)
        let camera = try openCamera(sourceText, faults: [])
        do {
            try camera.start(setup)
        } catch {
            throw CommandFailure("\(sourceText): \(CamerasCommand.troubleSentence(error))")
        }
        defer { camera.stop() }
        let recorder = try SequenceRecorder(folder: options.positional[0], note: "recorded from \(camera.name) by fieldrig record")
        let end = Duration.seconds(seconds)
        while recorder.count < limit, let event = camera.nextEvent(before: end) {
            switch event {
            case .frame(let frame):
                try recorder.append(frame)
            case .trouble(let trouble, let at):
                // The recording is cut short: whatever was kept is on disk, but the run failed.
                printError(
                    "fieldrig record: \(sourceText) \(CamerasCommand.troubleSentence(trouble, afterStart: true)) at \(formatSeconds(at)) s; "
                        + "kept \(recorder.count) whole frames in \(recorder.folder)")
                return ExitCode.failure
            case .ended, .recovered:
                break
            }
        }
        emit("Recorded \(recorder.count) frames into \(recorder.folder)")
        return ExitCode.success
    }
}

/// Opens a camera source with faults given as text, or fails with a message for the person.
func openCamera(_ source: String, faults: [String]) throws -> any CameraDevice {
    var script = FaultScript()
    for fault in faults {
        do throws(SequenceError) {
            try script.add(parsing: fault)
        } catch {
            throw UsageError("--fault \(error.description)")
        }
    }
    let camera = try CameraSource(parsing: source).open(faults: script)
    // The sequence the camera was made from: a folder of images without a description is said.
    if let played = (((camera as? FaultyCamera)?.underlying ?? camera) as? FileSequenceCamera)?.sequence, played.implied,
        let first = played.entries.first?.file, let last = played.entries.last?.file
    {
        printError(
            "\(played.folder): no '\(FrameSequence.descriptionName)' file; playing its \(played.entries.count) images in name order (\(first) to \(last)) at \(FrameSequence.impliedRate) frames a second"
        )
    }
    return camera
}

/// `fieldrig read --camera`: readings as they come from a live camera source.
enum LiveRead {
    /// Reads each frame from `camera` until it ends or `seconds` pass, printing each reading the
    /// first time it is seen, and every trouble, recovery and ending.
    static func run(_ camera: any CameraDevice, seconds: Int, json: Bool, passes: FrameReader.Passes, textWorkers: Int) throws -> Int32 {
        let reader = try wrapReader(textWorkers: textWorkers)
        do {
            try camera.start(.label)
        } catch {
            report(json, time: .zero, kind: "trouble", detail: error.description, person: "camera trouble: \(error)")
            return ExitCode.failure
        }
        defer { camera.stop() }
        var seen = Set<String>()
        let end = Duration.seconds(seconds)
        var frames = 0
        while let event = camera.nextEvent(before: end) {
            switch event {
            case .frame(let frame):
                frames += 1
                for reading in reader.read(frame, passes: passes) where seen.insert(reading.value).inserted {
                    if json {
                        var fields: [(String, JSON)] = [("time", .string(formatSeconds(frame.timestamp))), ("frame", .int(frame.index))]
                        if case .object(let more) = ReadCommand.readingJSON(reading) { fields += more }
                        emit(JSON.object(fields).text)
                    } else {
                        emit("\(formatSeconds(frame.timestamp)) s  frame \(frame.index)  \(reading.value)  [\(reading.whereRead)]")
                    }
                }
            case .trouble(let trouble, let at):
                report(json, time: at, kind: "trouble", detail: trouble.description, person: "camera trouble: \(trouble)")
                return ExitCode.failure
            case .recovered(let at):
                report(json, time: at, kind: "recovered", detail: "", person: "camera recovered")
            case .ended(let at):
                report(json, time: at, kind: "ended", detail: "", person: "the recording ended after \(frames) frames")
                return ExitCode.success
            }
        }
        return ExitCode.success
    }

    static func report(_ json: Bool, time: Duration, kind: String, detail: String, person: String) {
        if json {
            emit(JSON.object([("time", .string(formatSeconds(time))), ("event", .string(kind)), ("detail", .string(detail))]).text)
        } else {
            emit("\(formatSeconds(time)) s  \(person)")
        }
    }

    /// A reader, its page's rows read again on `textWorkers` engines; a missing engine's data is
    /// the command's failure.
    static func wrapReader(textWorkers: Int = 1) throws -> FrameReader {
        do throws(ReaderError) {
            return try FrameReader(textWorkers: textWorkers)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
