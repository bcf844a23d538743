import CV4L2
import Durable
import Foundation
import Imaging
import Model

#if canImport(Glibc)
    import Glibc
#endif

/// The format a V4L2 camera runs in, as the device confirmed it.
public struct V4L2Format: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// The camera's own pixel format (GREY, YUYV, MJPG, ...), or the one libv4l2 converts to.
    public var pixelFormat: String
    /// The rate the device says it runs at, read back after asking (0 when it does not say).
    public var framesPerSecond: Int
    /// mmap streaming; false for read().
    public var streaming: Bool
}

/// A real webcam through libv4l2.
///
/// Chooses, from the formats the camera lists, the native format and size that give the wanted
/// rate nearest the wanted size (GREY, YUYV, YU12, NV12 or Motion-JPEG, all turned into gray
/// here), asks for it explicitly, and reads back the rate it got. Streams with mmap buffers,
/// taking the newest finished frame and its capture timestamp; falls back to `read()` where mmap
/// streaming cannot be set up and the device offers it; tries the next format when the USB bus
/// lacks bandwidth for one (ENOSPC at STREAMON). Calls that could block run on the session's own
/// thread, so a camera that hangs becomes trouble after `stallTimeout` instead of freezing the
/// caller. Time is the real (monotonic) clock from `start`.
///
/// Errors become troubles: permission → access off, EBUSY (at open, S_FMT, REQBUFS or
/// STREAMON: a UVC camera refuses a second program there) → busy, no such device or not a
/// capture device → cannot scan, anything mid-stream (unplugged, no frame within
/// `stallTimeout`, bad frames that do not stop) → stopped, with the call and errno in the reason
/// for the log. After a stop the camera keeps watching: it opens the device again every
/// `stallTimeout` (at once when the app returns to the foreground), and when frames come again
/// it says so (`.recovered`) and delivers them.
public final class V4L2Camera: CameraDevice {
    public let path: String
    public var name: String { path }
    public private(set) var capabilities = CameraCapabilities(canScan: true, hasTorch: false, modes: [])
    /// What the driver and libv4l2 report, once opened.
    public private(set) var card = ""
    public private(set) var driver = ""
    /// The negotiated format, once started.
    public private(set) var format: V4L2Format? = nil
    /// The errno of the last failed open (ENODEV: a device file with no device behind it).
    public private(set) var openErrno: Int32? = nil

    /// How long without a frame before the camera counts as stopped.
    public var stallTimeout: Duration = .seconds(3)
    /// Bad frames (short, flagged by the driver, undecodable) skipped since the camera started.
    public private(set) var framesSkipped = 0
    /// Frames the camera captured that were never delivered because a newer one was ready.
    public private(set) var framesDropped = 0
    /// How many times the camera opened the device again after a stop.
    public private(set) var reopenCount = 0

    public var recoversOnItsOwn: Bool { true }

    private var session: V4L2Session? = nil
    private var setup: CameraSetup? = nil
    private var startedAt: Int64 = 0
    private var lastFrameAt: Int64 = 0
    private var lastTimestamp: Duration = .zero
    private var frameIndex = 0
    private var badInARow = 0
    /// A trouble was reported and the camera is watching for the device to come back.
    private var troubled = false
    private var lastAttempt: Int64 = 0
    private var held: Frame? = nil
    private var streamingOffered = false
    private var readOffered = false

    /// A camera for the device at `path` (e.g. /dev/video0). Nothing is opened until `start`,
    /// except by `probeInUse()`.
    public init(path: String) {
        self.path = path
        LibV4L2Log.capture()
    }

    deinit { stop() }

    /// Opens the device, learns what it offers, and asks to set its current format again: a UVC
    /// camera another program is using refuses that with EBUSY. Closes it again.
    public func probeInUse() throws(CameraTrouble) {
        let fd = try open()
        defer { _ = v4l2_close(fd) }
        var current = v4l2_format()
        current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard V4L2Session.ioctl(fd, fieldrig_VIDIOC_G_FMT(), &current) == 0 else { return }
        if V4L2Session.ioctl(fd, fieldrig_VIDIOC_S_FMT(), &current) != 0 && errno == EBUSY { throw .busy }
    }

    public func start(_ setup: CameraSetup) throws(CameraTrouble) {
        stop()
        self.setup = setup
        session = try openSession(setup)
        startedAt = monotonicNanoseconds()
        lastFrameAt = startedAt
        lastTimestamp = .zero
        frameIndex = 0
        framesSkipped = 0
        framesDropped = 0
        badInARow = 0
        troubled = false
        held = nil
    }

    public func stop() {
        session?.close()
        session = nil
        setup = nil
        held = nil
    }

    public func returnedToForeground() {
        // A camera that stopped is tried again now rather than at its next turn.
        if troubled { lastAttempt = 0 }
    }

    /// How long ago `frame` (delivered by this camera) was captured.
    public func age(of frame: Frame) -> Duration {
        .nanoseconds(monotonicNanoseconds() - startedAt) - frame.timestamp
    }

    public func nextEvent(before deadline: Duration) -> CameraEvent? {
        // A frame that came after the deadline asked for waits for a later one: nothing is
        // delivered "before" a time it was captured after.
        if let frame = held {
            guard frame.timestamp < deadline else { return nil }
            held = nil
            return .frame(frame)
        }
        guard let setup else { return nil }
        let until = startedAt + deadline.inNanoseconds
        let timeout = stallTimeout.inNanoseconds
        while true {
            let now = monotonicNanoseconds()
            if troubled && (session == nil || now - lastAttempt >= timeout) {
                // Watching after a stop: open the device again (abandoning a call that never returned).
                session?.close()
                session = nil
                lastAttempt = now
                reopenCount += 1
                session = try? openSession(setup)
                lastFrameAt = now
            }
            guard let session else {
                // Not open: nothing can come before the next attempt.
                let wake = min(until, lastAttempt + timeout)
                if wake > now { waitQuietly(nanoseconds: wake - now) }
                if monotonicNanoseconds() >= until { return nil }
                continue
            }
            session.request()
            let stallAt = (troubled ? lastAttempt : lastFrameAt) + timeout
            guard let fetched = session.wait(until: min(until, stallAt)) else {
                let after = monotonicNanoseconds()
                if after >= until && until <= stallAt { return nil }
                if troubled { continue }  // still nothing: the next turn opens it again
                return trouble("no frame for \(formatMilliseconds(stallTimeout)): the camera stopped delivering", at: after)
            }
            switch fetched {
            case .frame(let gray, let width, let height, let capturedAt, let dropped, let skipped):
                badInARow = 0
                framesDropped += dropped
                framesSkipped += skipped
                lastFrameAt = monotonicNanoseconds()
                let timestamp = max(lastTimestamp, .nanoseconds(max(0, capturedAt - startedAt)))
                lastTimestamp = timestamp
                let frame = Frame(width: width, height: height, bytes: gray, timestamp: timestamp, index: frameIndex)
                frameIndex += 1
                if troubled {
                    troubled = false
                    held = frame
                    return .recovered(at: timestamp)
                }
                if timestamp >= deadline {
                    held = frame
                    return nil
                }
                return .frame(frame)
            case .bad(let reason):
                framesSkipped += 1
                badInARow += 1
                if badInARow >= Self.badFramesInARow && !troubled {
                    return trouble("\(badInARow) bad frames in a row (the last: \(reason))", at: monotonicNanoseconds())
                }
            case .failed(let reason):
                self.session = nil
                if !troubled { return trouble(reason, at: monotonicNanoseconds()) }
            }
        }
    }

    /// How many bad frames in a row stop the camera: one is the odd frame real cameras deliver,
    /// a second's worth is a camera that has stopped delivering.
    public static let badFramesInARow = 30

    private func trouble(_ reason: String, at now: Int64) -> CameraEvent {
        troubled = true
        lastAttempt = now
        let said = LibV4L2Log.take()
        return .trouble(
            .stopped(reason: "\(path): \(reason)" + (said.isEmpty ? "" : " (libv4l2: \(said))")), at: .nanoseconds(now - startedAt))
    }

    private func waitQuietly(nanoseconds: Int64) {
        var pause = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
    }

    // MARK: - Opening and negotiating

    /// Opens the device and checks it is a capture device; its descriptor through libv4l2.
    private func open() throws(CameraTrouble) -> Int32 {
        let raw = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard raw >= 0 else {
            let code = errno
            openErrno = code
            throw Self.trouble(openErrno: code, path: path)
        }
        openErrno = nil
        // Ask the device itself first: libv4l2 prints to stderr when a file is not a video device.
        var cap = v4l2_capability()
        if Glibc.ioctl(raw, UInt(fieldrig_VIDIOC_QUERYCAP()), &cap) < 0 {
            let code = errno
            close(raw)
            if code == ENOTTY || code == EINVAL { throw .cannotScan }
            if code == ENODEV {
                openErrno = code
                throw .cannotScan
            }
            throw .stopped(reason: "VIDIOC_QUERYCAP on \(path): \(errnoDescription(code)) (errno \(code))")
        }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            close(raw)
            throw .cannotScan
        }
        let fd = v4l2_fd_open(raw, 0)
        guard fd >= 0 else {
            let code = errno
            close(raw)
            throw .stopped(reason: "v4l2_fd_open on \(path): \(errnoDescription(code)) (errno \(code))")
        }
        card = Self.string(cap.card)
        driver = Self.string(cap.driver)
        capabilities = CameraCapabilities(canScan: true, hasTorch: false, modes: Self.enumerateModes(fd))
        streamingOffered = caps & UInt32(V4L2_CAP_STREAMING) != 0
        readOffered = caps & UInt32(V4L2_CAP_READWRITE) != 0
        return fd
    }

    /// Opens, negotiates and starts streaming: a running session, or the trouble.
    private func openSession(_ setup: CameraSetup) throws(CameraTrouble) -> V4L2Session {
        var fd = try open()
        var lastFailure: CameraTrouble? = nil
        let candidates = Self.candidates(capabilities.modes, for: setup)
        var index = 0
        while index < candidates.count {
            let candidate = candidates[index]
            index += 1
            do throws(CameraTrouble) {
                guard let layout = try setFormat(fd, candidate, setup: setup) else { continue }
                if let buffers = try mapBuffers(fd) {
                    var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
                    if V4L2Session.ioctl(fd, fieldrig_VIDIOC_STREAMON(), &type) != 0 {
                        let code = errno
                        release(fd, buffers)
                        guard code == ENOSPC else { throw setUpTrouble("VIDIOC_STREAMON", code: code) }
                        // Not enough USB bandwidth for this one: the next (smaller, or compressed)
                        // may fit. libv4l2 keeps the old buffers in mind: start again from open.
                        lastFailure = setUpTrouble("VIDIOC_STREAMON", code: code)
                        _ = v4l2_close(fd)
                        fd = -1
                        fd = try open()
                        continue
                    }
                    format?.streaming = true
                    return V4L2Session(fd: fd, path: path, layout: layout, buffers: buffers)
                }
                // No mmap streaming: read() whole frames (libv4l2 emulates it where the driver cannot).
                guard readOffered || !streamingOffered else {
                    throw .stopped(reason: "\(path) offers neither mmap streaming that works nor read()")
                }
                return V4L2Session(fd: fd, path: path, layout: layout, buffers: [])
            } catch {
                if fd >= 0 { _ = v4l2_close(fd) }
                throw error
            }
        }
        _ = v4l2_close(fd)
        throw lastFailure ?? .stopped(reason: "\(path) offers no format the rig can turn into gray")
    }

    /// A format to ask for: a native mode, or (for a camera whose formats the rig cannot read)
    /// one libv4l2 converts to.
    struct Candidate: Equatable {
        var fourcc: UInt32
        var width: Int
        var height: Int
        var framesPerSecond: Int
    }

    /// The native formats the rig turns into gray itself, cheapest first.
    static let nativeFormats: [UInt32] = [
        fieldrig_V4L2_PIX_FMT_GREY(), fieldrig_V4L2_PIX_FMT_YUYV(), fieldrig_V4L2_PIX_FMT_NV12(), fieldrig_V4L2_PIX_FMT_YUV420(),
        fieldrig_V4L2_PIX_FMT_MJPEG(), fieldrig_V4L2_PIX_FMT_JPEG(),
    ]

    /// The modes to try, best first: those that reach the wanted rate before those that do not
    /// (an unknown rate in between), then the size nearest the wanted one, then the cheapest
    /// format to turn into gray. libv4l2's conversions come last, for cameras with no native
    /// format the rig reads.
    static func candidates(_ modes: [CameraMode], for setup: CameraSetup) -> [Candidate] {
        let native = modes.compactMap { mode -> (CameraMode, UInt32)? in
            let code = mode.pixelFormat.map { fourcc($0) } ?? 0
            return nativeFormats.contains(code) ? (mode, code) : nil
        }
        let ranked = native.sorted { a, b in
            func key(_ m: (CameraMode, UInt32)) -> (Int, Int, Int) {
                let rate = m.0.framesPerSecond >= setup.framesPerSecond ? 0 : m.0.framesPerSecond == 0 ? 1 : 2
                let distance = abs(m.0.width - setup.width) + abs(m.0.height - setup.height)
                return (rate, distance, nativeFormats.firstIndex(of: m.1) ?? 99)
            }
            return key(a) < key(b)
        }
        var list = ranked.map { Candidate(fourcc: $0.1, width: $0.0.width, height: $0.0.height, framesPerSecond: $0.0.framesPerSecond) }
        for converted in [fieldrig_V4L2_PIX_FMT_GREY(), fieldrig_V4L2_PIX_FMT_YUV420()] {
            list.append(Candidate(fourcc: converted, width: setup.width, height: setup.height, framesPerSecond: setup.framesPerSecond))
        }
        return list
    }

    /// Asks for `candidate`; the layout the device confirmed, or nil when it gave another format.
    private func setFormat(_ fd: Int32, _ candidate: Candidate, setup: CameraSetup) throws(CameraTrouble) -> FrameLayout? {
        var f = v4l2_format()
        f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        f.fmt.pix.width = UInt32(candidate.width)
        f.fmt.pix.height = UInt32(candidate.height)
        f.fmt.pix.pixelformat = candidate.fourcc
        f.fmt.pix.field = V4L2_FIELD_ANY.rawValue
        guard V4L2Session.ioctl(fd, fieldrig_VIDIOC_S_FMT(), &f) == 0 else { throw setUpTrouble("VIDIOC_S_FMT") }
        guard f.fmt.pix.pixelformat == candidate.fourcc, f.fmt.pix.width > 0, f.fmt.pix.height > 0 else { return nil }
        let width = Int(f.fmt.pix.width)
        let height = Int(f.fmt.pix.height)
        let perPixel = candidate.fourcc == fieldrig_V4L2_PIX_FMT_YUYV() ? 2 : 1
        let layout = FrameLayout(
            width: width, height: height, fourcc: candidate.fourcc,
            bytesPerLine: max(Int(f.fmt.pix.bytesperline), width * perPixel), sizeImage: Int(f.fmt.pix.sizeimage))
        // Ask for the wanted rate (not every camera sets one), then read back what it runs at.
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(max(1, setup.framesPerSecond)))
        _ = V4L2Session.ioctl(fd, fieldrig_VIDIOC_S_PARM(), &parm)
        var got = v4l2_streamparm()
        got.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        var rate = 0
        if V4L2Session.ioctl(fd, fieldrig_VIDIOC_G_PARM(), &got) == 0, got.parm.capture.timeperframe.numerator > 0 {
            rate = Int(got.parm.capture.timeperframe.denominator / got.parm.capture.timeperframe.numerator)
        }
        format = V4L2Format(
            width: width, height: height, pixelFormat: Self.fourcc(candidate.fourcc), framesPerSecond: rate, streaming: false)
        return layout
    }

    /// The trouble a failed set-up call means. A UVC camera refuses a second program at S_FMT,
    /// REQBUFS or STREAMON, not at open: EBUSY there is busy (SCAN-9). Anything else stops it.
    private func setUpTrouble(_ call: String, code: Int32 = errno) -> CameraTrouble {
        code == EBUSY ? .busy : .stopped(reason: SystemError("\(call) on \(path)", code: code).description)
    }

    /// Four mmap buffers, queued; nil when the device cannot stream with mmap and read() is the
    /// way (no streaming offered, REQBUFS refused, or a buffer that cannot be mapped) and the
    /// device offers read().
    private func mapBuffers(_ fd: Int32) throws(CameraTrouble) -> [(start: UnsafeMutableRawPointer, length: Int)]? {
        guard streamingOffered else { return nil }
        var request = v4l2_requestbuffers()
        request.count = 4
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        if V4L2Session.ioctl(fd, fieldrig_VIDIOC_REQBUFS(), &request) != 0 {
            let code = errno
            // EINVAL: no mmap streaming after all. Anything else but busy is the device's own
            // failure: named, unless read() can still serve the frames.
            if code == EBUSY || (code != EINVAL && !readOffered) { throw setUpTrouble("VIDIOC_REQBUFS", code: code) }
            return nil
        }
        guard request.count > 0 else { return nil }
        var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            buffer.index = index
            var failure: String? = nil
            if V4L2Session.ioctl(fd, fieldrig_VIDIOC_QUERYBUF(), &buffer) != 0 {
                failure = SystemError("VIDIOC_QUERYBUF on \(path)", code: errno).description
            } else if let start = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int64(buffer.m.offset)),
                start != MAP_FAILED
            {
                buffers.append((start, Int(buffer.length)))
                if V4L2Session.ioctl(fd, fieldrig_VIDIOC_QBUF(), &buffer) != 0 {
                    failure = SystemError("VIDIOC_QBUF on \(path)", code: errno).description
                }
            } else {
                failure = SystemError("mapping buffer \(index) of \(path)", code: errno).description
            }
            if let failure {
                release(fd, buffers)
                if readOffered { return nil }
                throw .stopped(reason: failure)
            }
        }
        return buffers
    }

    /// Unmaps `buffers` and gives them back to the driver.
    private func release(_ fd: Int32, _ buffers: [(start: UnsafeMutableRawPointer, length: Int)]) {
        for buffer in buffers { _ = v4l2_munmap(buffer.start, buffer.length) }
        var none = v4l2_requestbuffers()
        none.count = 0
        none.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        none.memory = V4L2_MEMORY_MMAP.rawValue
        _ = V4L2Session.ioctl(fd, fieldrig_VIDIOC_REQBUFS(), &none)
    }

    // MARK: - Helpers

    static func enumerateModes(_ fd: Int32) -> [CameraMode] {
        var modes: [CameraMode] = []
        var index: UInt32 = 0
        while index < 64 {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard V4L2Session.ioctl(fd, fieldrig_VIDIOC_ENUM_FMT(), &description) == 0 else { break }
            index += 1
            // libv4l2 lists the formats it converts to as well: only the camera's own are its modes.
            if description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0 { continue }
            let fourcc = Self.fourcc(description.pixelformat)
            var sizeIndex: UInt32 = 0
            while sizeIndex < 64 {
                var size = v4l2_frmsizeenum()
                size.index = sizeIndex
                size.pixel_format = description.pixelformat
                guard V4L2Session.ioctl(fd, fieldrig_VIDIOC_ENUM_FRAMESIZES(), &size) == 0, size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
                else {
                    break
                }
                let width = size.discrete.width
                let height = size.discrete.height
                var interval = v4l2_frmivalenum()
                interval.pixel_format = description.pixelformat
                interval.width = width
                interval.height = height
                let fps: Int
                if V4L2Session.ioctl(fd, fieldrig_VIDIOC_ENUM_FRAMEINTERVALS(), &interval) == 0,
                    interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue, interval.discrete.numerator > 0
                {
                    fps = Int(interval.discrete.denominator / interval.discrete.numerator)
                } else {
                    fps = 0
                }
                let mode = CameraMode(width: Int(width), height: Int(height), framesPerSecond: fps, pixelFormat: fourcc)
                if !modes.contains(mode) { modes.append(mode) }
                sizeIndex += 1
            }
        }
        return modes
    }

    /// The trouble an `open()` errno means.
    static func trouble(openErrno code: Int32, path: String) -> CameraTrouble {
        switch code {
        case EACCES, EPERM: return .accessOff
        case EBUSY: return .busy
        case ENOENT, ENODEV, ENXIO, ENOTDIR: return .cannotScan
        default: return .stopped(reason: "open \(path): \(errnoDescription(code)) (errno \(code))")
        }
    }

    static func fourcc(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((code >> (8 * $0)) & 0xFF) }, as: UTF8.self)
    }

    static func fourcc(_ name: String) -> UInt32 {
        let bytes = Array(name.utf8.prefix(4)) + [UInt8](repeating: 0x20, count: max(0, 4 - name.utf8.count))
        return bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// libv4l2's own messages ("libv4l2: error ..."), kept out of the person's terminal: it writes
/// them to a file of ours, and the camera adds the last one to the reason it logs.
// @unchecked Sendable: `read` and the file are touched only while holding `lock`.
final class LibV4L2Log: @unchecked Sendable {
    private static let shared = LibV4L2Log()
    private let file: UnsafeMutablePointer<FILE>?
    private let lock = NSLock()
    private var read = 0

    private init() {
        file = tmpfile()
        if let file { fieldrig_v4l2_log_to(file) }
    }

    static func capture() { _ = shared }

    /// The last line libv4l2 wrote since the last call, or "".
    static func take() -> String { shared.take() }

    private func take() -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let file else { return "" }
        fflush(file)
        let end = Int(ftell(file))
        guard end > read else { return "" }
        var bytes = [UInt8](repeating: 0, count: min(end - read, 4096))
        let from = end - bytes.count
        let fd = fileno(file)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(from)) }
        read = end
        guard n > 0 else { return "" }
        let text = String(decoding: bytes.prefix(n), as: UTF8.self)
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        return line.hasPrefix("libv4l2: ") ? String(line.dropFirst(9)) : line
    }
}
