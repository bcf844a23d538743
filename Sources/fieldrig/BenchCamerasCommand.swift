import Camera
import Durable
import Foundation
import Imaging
import Model
import Reader

#if canImport(Glibc)
    import Glibc
#endif

/// `fieldrig bench cameras`: frames per second from the file-sequence and V4L2 cameras.
enum BenchCamerasCommand: Command {
    static let name = ["bench", "cameras"]
    static let summary = "frames per second from the file-sequence camera and the V4L2 path"
    static let about = """
        Usage: fieldrig bench cameras [--frames N]

        Plays a looping file sequence of 1280x720 label frames as fast as it can be asked (kept
        decoded, and a recording too long to keep, decoded from PNG as it plays), and
        reads the same frames from the fake V4L2 device (FUSE) both with plain read() calls and
        through the V4L2 camera (libv4l2, poll, conversion to gray), in the same run. Prints frames
        per second for each and the camera's per-frame overhead above the raw read.

        Then the mmap path as a UVC webcam gives it (the fake in --uvc mode: Motion-JPEG 1280x720
        at 30 fps, buffers through the page cache): frames delivered a second and each frame's age
        at delivery (capture timestamp to the frame in hand), median and p90, once taking frames
        as fast as they come and once reading each one (barcodes and text, one pass) before
        asking for the next, as the live screen does.
        """

    enum Option: CommandOption {
        case frames
        case webcamFrames

        var spec: OptionSpec {
            switch self {
            case .frames: .integer("--frames", "N", 10...1_000_000, default: 300, "frames per measurement (default 300)")
            case .webcamFrames:
                .integer("--webcam-frames", "N", 5...100_000, default: 60, "frames per mmap measurement, at 30 a second (default 60)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let count = options.integer(.frames)
        let labels = try BenchReadCommand.defaultLabels().prefix(4)
        let frames = try labels.map { path in try ImageFile.load(path) }

        try benchFileSequences(frames, count: count)
        guard FakeV4L2Mount.available, let binary = FakeV4L2Mount.binaryBeside() else {
            emit("V4L2 path: skipped (FUSE or the built fake-v4l2 is not available here)")
            return ExitCode.success
        }
        try benchV4L2Read(frames, count: count, binary: binary)
        try benchWebcam(frames, count: options.integer(.webcamFrames), binary: binary)
        return ExitCode.success
    }

    /// The file-sequence camera, on its own clock, `count` frames as fast as they can be asked
    /// for: frames kept decoded, then a recording longer than the cache.
    static func benchFileSequences(_ frames: [Frame], count: Int) throws {
        let folder = NSTemporaryDirectory() + "fieldrig-bench-seq-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var description = "fps 30\n"
        for (i, frame) in frames.enumerated() {
            try ImageFile.writePNG(frame, to: "\(folder)/\(i).png")
            description += "hold \(i).png 0.5\n"
        }
        try (description + "end loop\n").write(toFile: "\(folder)/sequence", atomically: true, encoding: .utf8)
        let sequence = try FileSequenceCamera(folder: folder)
        try sequence.start(.label)
        let sequenceTime = measure(count) { _ = sequence.nextEvent(before: .seconds(1_000_000)) }
        emit("file-sequence camera, frames kept decoded   \(rate(count, sequenceTime))")

        // A recording longer than the cache: each frame is decoded from its PNG as it plays.
        let long = folder + "/long"
        try? FileManager.default.createDirectory(atPath: long, withIntermediateDirectories: true)
        var lines = "fps 30\n"
        for i in 0...FileSequenceCamera.cacheLimit {
            try ImageFile.writePNG(frames[i % frames.count], to: "\(long)/\(i).png")
            lines += "hold \(i).png 0.034\n"
        }
        try (lines + "end loop\n").write(toFile: "\(long)/sequence", atomically: true, encoding: .utf8)
        let recording = try FileSequenceCamera(folder: long)
        try recording.start(.label)
        let recordingTime = measure(count) { _ = recording.nextEvent(before: .seconds(1_000_000)) }
        emit("file-sequence camera, decoding each PNG     \(rate(count, recordingTime))")
    }

    /// A raw read() of the fake V4L2 device against the V4L2 camera reading the same frames.
    static func benchV4L2Read(_ frames: [Frame], count: Int, binary: String) throws {
        let mount = try FakeV4L2Mount(frames: frames, options: ["--loop"], binary: binary)
        let size = frames[0].width * frames[0].height
        let fd = open(mount.path, O_RDONLY)
        guard fd >= 0 else { throw CommandFailure("\(mount.path): \(errnoDescription(errno))") }
        var buffer = [UInt8](repeating: 0, count: size)
        let rawTime = measure(count) { _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, size) } }
        close(fd)
        emit("raw read() of the fake V4L2 device         \(rate(count, rawTime))")

        let camera = V4L2Camera(path: mount.path)
        do {
            try camera.start(
                CameraSetup(
                    purpose: .label, torch: false, framesPerSecond: 30, width: frames[0].width, height: frames[0].height,
                    liveHighlighting: true))
        } catch {
            throw CommandFailure("\(mount.path): \(error)")
        }
        defer { camera.stop() }
        let cameraTime = measure(count) { _ = camera.nextEvent(before: .seconds(1_000_000)) }
        emit("V4L2 camera (libv4l2, poll, read())        \(rate(count, cameraTime))")
        let overhead = (seconds(cameraTime) - seconds(rawTime)) / Double(count) * 1000
        emit(
            String(
                format: "V4L2 camera overhead above the raw read: %.2f ms a frame (%.2fx the raw read's time)", overhead,
                seconds(cameraTime) / seconds(rawTime)))
        camera.stop()
    }

    /// The mmap path, as a UVC webcam gives it: Motion-JPEG through buffers in the page cache,
    /// `count` frames taken, then read as they come.
    static func benchWebcam(_ frames: [Frame], count: Int, binary: String) throws {
        let webcam = try FakeV4L2Mount(frames: frames, options: ["--uvc", "--loop"], binary: binary)
        let reader: FrameReader
        do {
            reader = try FrameReader()
        } catch {
            throw CommandFailure("\(error)")
        }
        for reading in [false, true] {
            let (rate, ages, format) = try frameAges(webcam.path, count: count) { frame in
                if reading { _ = reader.read(frame) }
            }
            let (median, p90) = percentiles(ages)
            let interval = Duration.seconds(1) / max(1, format.framesPerSecond)
            emit(
                "V4L2 camera, mmap \(format.pixelFormat) \(format.width)x\(format.height) at \(format.framesPerSecond) fps, "
                    + (reading ? "reading each frame: " : "taking frames:      ")
                    + String(format: "%5.1f frames/s, ", rate)
                    + "frame age median \(formatMilliseconds(median)), p90 \(formatMilliseconds(p90)) "
                    + "(one frame interval: \(formatMilliseconds(interval)))")
        }
    }

    /// Frames delivered a second by a V4L2 camera on `path`, and each frame's age when it was in
    /// hand (capture timestamp to delivery), with `use` run on each frame before the next.
    static func frameAges(_ path: String, count: Int, use: (Frame) -> Void) throws -> (Double, [Duration], V4L2Format) {
        let camera = V4L2Camera(path: path)
        do {
            try camera.start(.label)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        defer { camera.stop() }
        guard let format = camera.format else { throw CommandFailure("\(path): no format negotiated") }
        // The first frame waits for the stream to start: not counted.
        _ = camera.nextEvent(before: .seconds(1_000_000))
        var ages: [Duration] = []
        let start = ContinuousClock.now
        while ages.count < count {
            guard case .frame(let frame)? = camera.nextEvent(before: .seconds(1_000_000)) else {
                throw CommandFailure("\(path): the camera stopped after \(ages.count) frames")
            }
            ages.append(camera.age(of: frame))
            use(frame)
        }
        return (Double(count) / seconds(ContinuousClock.now - start), ages, format)
    }

    static func measure(_ count: Int, _ body: () -> Void) -> Duration {
        let start = ContinuousClock.now
        for _ in 0..<count { body() }
        return ContinuousClock.now - start
    }

    static func rate(_ count: Int, _ time: Duration) -> String {
        String(format: "%8.0f frames/s  (%.3f ms a frame)", Double(count) / seconds(time), seconds(time) / Double(count) * 1000)
    }
}
