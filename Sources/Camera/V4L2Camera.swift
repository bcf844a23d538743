import CV4L2
import Durable
import Imaging

#if canImport(Glibc)
    import Glibc
#endif

/// A real webcam through libv4l2, which converts MJPEG and YUYV cameras' frames for us.
///
/// Opens the device, checks it is a capture device, asks for gray (or YUV 4:2:0 and keeps the
/// luma), and streams with mmap buffers, or with `read()` where the device offers no streaming.
/// Time is the real clock from `start`. Errors become troubles: permission → access off, EBUSY →
/// busy, no such device or not a capture device → cannot scan, anything mid-stream (unplugged, no
/// frame within `stallTimeout`) → stopped, with the call and errno in the reason for the log.
public final class V4L2Camera: CameraDevice {
    public let path: String
    public var name: String { path }
    public private(set) var capabilities = CameraCapabilities(canScan: true, hasTorch: false, modes: [])
    /// What the driver and libv4l2 report, once opened.
    public private(set) var card = ""
    public private(set) var driver = ""
    /// The negotiated format, once started.
    public private(set) var format: (width: Int, height: Int, pixelFormat: String, streaming: Bool)? = nil

    /// How long without a frame before the camera counts as stopped.
    public var stallTimeout: Duration = .seconds(3)

    private var fd: Int32 = -1
    private var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false
    private var startedAt = ContinuousClock.now
    private var lastFrameAt = ContinuousClock.now
    private var frameIndex = 0
    private var bytesPerLine = 0
    private var pixelFormat: UInt32 = 0
    private var readBuffer: [UInt8] = []
    private var failed = false
    /// Bad frames (short, or flagged by the driver) skipped since the camera started.
    public private(set) var framesSkipped = 0
    private var badInARow = 0

    /// A camera for the device at `path` (e.g. /dev/video0). Nothing is opened until `start`,
    /// except by `probe()`.
    public init(path: String) {
        self.path = path
    }

    deinit { stop() }

    /// Opens the device to learn what it is and what it offers, then closes it.
    public func probe() throws(CameraTrouble) {
        try open()
        stop()
    }

    public func start(_ setup: CameraSetup) throws(CameraTrouble) {
        stop()
        try open()
        do throws(CameraTrouble) {
            try negotiate(setup)
            try beginStreaming()
        } catch {
            stop()
            throw error
        }
        startedAt = .now
        lastFrameAt = startedAt
        frameIndex = 0
        failed = false
        framesSkipped = 0
        badInARow = 0
    }

    public func stop() {
        if fd >= 0 {
            if streaming {
                var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
                _ = fieldrig_v4l2_ioctl(fd, fieldrig_VIDIOC_STREAMOFF(), &type)
            }
            for buffer in buffers { _ = v4l2_munmap(buffer.start, buffer.length) }
            buffers = []
            _ = v4l2_close(fd)
            fd = -1
        }
        streaming = false
    }

    public func nextEvent(before deadline: Duration) -> CameraEvent? {
        guard fd >= 0, !failed else { return nil }
        while true {
            let now = ContinuousClock.now
            if now - lastFrameAt >= stallTimeout {
                return fail("no frame for \(stallTimeout) (poll timed out)", at: now - startedAt)
            }
            let untilDeadline = deadline - (now - startedAt)
            guard untilDeadline > .zero else { return nil }
            let wait = min(untilDeadline, stallTimeout - (now - lastFrameAt))
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(max(1, milliseconds(wait))))
            if ready < 0 {
                if errno == EINTR { continue }
                return fail(SystemError.now("poll").description, at: ContinuousClock.now - startedAt)
            }
            if ready == 0 { continue }
            if pfd.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && pfd.revents & Int16(POLLIN) == 0 {
                return fail("poll: the device reported an error (revents \(pfd.revents))", at: ContinuousClock.now - startedAt)
            }
            switch streaming ? dequeue() : readFrame() {
            case .bad(let reason):
                framesSkipped += 1
                badInARow += 1
                if badInARow >= Self.badFramesInARow {
                    return fail("\(badInARow) bad frames in a row (the last: \(reason))", at: ContinuousClock.now - startedAt)
                }
                continue
            case .frame(let bytes):
                badInARow = 0
                let time = ContinuousClock.now - startedAt
                lastFrameAt = .now
                defer { frameIndex += 1 }
                return .frame(Frame(width: format!.width, height: format!.height, bytes: bytes, timestamp: time, index: frameIndex))
            case .notYet:
                continue
            case .failed(let reason):
                return fail(reason, at: ContinuousClock.now - startedAt)
            }
        }
    }

    // MARK: - Opening and negotiating

    private func open() throws(CameraTrouble) {
        let raw = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard raw >= 0 else { throw Self.trouble(openErrno: errno, path: path) }
        // Ask the device itself first: libv4l2 prints to stderr when a file is not a video device.
        var cap = v4l2_capability()
        if ioctl(raw, UInt(fieldrig_VIDIOC_QUERYCAP()), &cap) < 0 {
            let code = errno
            close(raw)
            if code == ENOTTY || code == EINVAL { throw .cannotScan }
            throw .stopped(reason: "VIDIOC_QUERYCAP on \(path): \(errnoDescription(code)) (errno \(code))")
        }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            close(raw)
            throw .cannotScan
        }
        let wrapped = v4l2_fd_open(raw, 0)
        guard wrapped >= 0 else {
            let code = errno
            close(raw)
            throw .stopped(reason: "v4l2_fd_open on \(path): \(errnoDescription(code)) (errno \(code))")
        }
        fd = wrapped
        card = Self.string(cap.card)
        driver = Self.string(cap.driver)
        streaming = false
        capabilities = CameraCapabilities(canScan: true, hasTorch: false, modes: enumerateModes())
        self.streamingOffered = caps & UInt32(V4L2_CAP_STREAMING) != 0
        self.readOffered = caps & UInt32(V4L2_CAP_READWRITE) != 0
    }

    private var streamingOffered = false
    private var readOffered = false

    private func negotiate(_ setup: CameraSetup) throws(CameraTrouble) {
        // Gray if the device (or libv4l2) gives it; otherwise YUV 4:2:0, whose first plane is gray.
        for wanted in [fieldrig_V4L2_PIX_FMT_GREY(), fieldrig_V4L2_PIX_FMT_YUV420()] {
            var f = v4l2_format()
            f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            f.fmt.pix.width = UInt32(setup.width)
            f.fmt.pix.height = UInt32(setup.height)
            f.fmt.pix.pixelformat = wanted
            f.fmt.pix.field = V4L2_FIELD_ANY.rawValue
            guard xioctl(fieldrig_VIDIOC_S_FMT(), &f) == 0 else { throw setUpTrouble("VIDIOC_S_FMT") }
            let got = f.fmt.pix.pixelformat
            if got == fieldrig_V4L2_PIX_FMT_GREY() || got == fieldrig_V4L2_PIX_FMT_YUV420() || got == fieldrig_V4L2_PIX_FMT_YUYV() {
                pixelFormat = got
                let width = Int(f.fmt.pix.width)
                let height = Int(f.fmt.pix.height)
                bytesPerLine = max(Int(f.fmt.pix.bytesperline), width * (got == fieldrig_V4L2_PIX_FMT_YUYV() ? 2 : 1))
                let size = max(Int(f.fmt.pix.sizeimage), bytesPerLine * height)
                readBuffer = [UInt8](repeating: 0, count: size)
                format = (width, height, Self.fourcc(got), false)
                var parm = v4l2_streamparm()
                parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
                parm.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(setup.framesPerSecond))
                _ = xioctl(fieldrig_VIDIOC_S_PARM(), &parm)  // a hint: not every camera sets its rate
                return
            }
        }
        throw .stopped(reason: "\(path) offers neither gray nor a YUV format libv4l2 can convert")
    }

    /// The trouble a failed set-up call means. A UVC camera refuses a second program at S_FMT,
    /// REQBUFS or STREAMON, not at open: EBUSY there is busy (SCAN-9). Anything else stops it.
    private func setUpTrouble(_ call: String, code: Int32 = errno) -> CameraTrouble {
        code == EBUSY ? .busy : .stopped(reason: SystemError("\(call) on \(path)", code: code).description)
    }

    private func beginStreaming() throws(CameraTrouble) {
        if streamingOffered {
            var request = v4l2_requestbuffers()
            request.count = 4
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            let requested = xioctl(fieldrig_VIDIOC_REQBUFS(), &request)
            if requested != 0 {
                let code = errno
                // EINVAL: no mmap streaming after all, so read() below. Anything else but busy is
                // the device's own failure: named, unless read() can still serve the frames.
                if code == EBUSY || (code != EINVAL && !readOffered) { throw setUpTrouble("VIDIOC_REQBUFS", code: code) }
            }
            if requested == 0, request.count > 0 {
                for index in 0..<request.count {
                    var buffer = v4l2_buffer()
                    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
                    buffer.memory = V4L2_MEMORY_MMAP.rawValue
                    buffer.index = index
                    guard xioctl(fieldrig_VIDIOC_QUERYBUF(), &buffer) == 0,
                        let start = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, Int64(buffer.m.offset)),
                        start != MAP_FAILED
                    else { throw .stopped(reason: SystemError.now("mapping buffer \(index) of \(path)").description) }
                    buffers.append((start, Int(buffer.length)))
                    guard xioctl(fieldrig_VIDIOC_QBUF(), &buffer) == 0 else {
                        throw .stopped(reason: SystemError.now("VIDIOC_QBUF on \(path)").description)
                    }
                }
                var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
                guard xioctl(fieldrig_VIDIOC_STREAMON(), &type) == 0 else { throw setUpTrouble("VIDIOC_STREAMON") }
                streaming = true
                format?.streaming = true
                return
            }
        }
        // No mmap streaming: read() whole frames (libv4l2 emulates it where the driver cannot).
        guard readOffered || streamingOffered else { throw .stopped(reason: "\(path) offers neither streaming nor read()") }
        streaming = false
    }

    // MARK: - Frames

    private enum Outcome {
        case frame([UInt8])
        case notYet
        /// One bad frame (short, or flagged by the driver): skipped and counted.
        case bad(String)
        case failed(String)
    }

    /// How many bad frames in a row stop the camera: one is the odd frame real cameras deliver,
    /// a second's worth is a camera that has stopped delivering.
    public static let badFramesInARow = 30

    private func dequeue() -> Outcome {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        if xioctl(fieldrig_VIDIOC_DQBUF(), &buffer) != 0 {
            if errno == EAGAIN { return .notYet }
            return .failed(SystemError.now("VIDIOC_DQBUF").description)
        }
        guard Int(buffer.index) < buffers.count else {
            return .failed("VIDIOC_DQBUF: the driver named buffer \(buffer.index) of \(buffers.count)")
        }
        let source = buffers[Int(buffer.index)]
        let flagged = buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0
        let gray = flagged ? nil : grayBytes(UnsafeRawBufferPointer(start: source.start, count: min(source.length, Int(buffer.bytesused))))
        guard xioctl(fieldrig_VIDIOC_QBUF(), &buffer) == 0 else {
            return .failed(SystemError.now("VIDIOC_QBUF").description)
        }
        if flagged { return .bad("the driver flagged a frame as damaged") }
        return gray.map { .frame($0) } ?? .bad("a frame of \(buffer.bytesused) bytes is shorter than its format")
    }

    private func readFrame() -> Outcome {
        let count = readBuffer.count
        let n = readBuffer.withUnsafeMutableBytes { v4l2_read(fd, $0.baseAddress, count) }
        if n < 0 {
            if errno == EAGAIN || errno == EINTR { return .notYet }
            return .failed(SystemError.now("read").description)
        }
        if n == 0 { return .failed("read: the device ended its stream") }
        return readBuffer.withUnsafeBytes { grayBytes(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }.map { .frame($0) }
            ?? .bad("read: a frame of \(n) bytes is shorter than its format")
    }

    /// The gray pixels of one frame in the negotiated format, rows packed; nil when it is short.
    private func grayBytes(_ data: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let format else { return nil }
        let width = format.width
        let height = format.height
        let yuyv = pixelFormat == fieldrig_V4L2_PIX_FMT_YUYV()
        guard data.count >= bytesPerLine * (height - 1) + width * (yuyv ? 2 : 1) else { return nil }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = y * bytesPerLine
            if yuyv {
                for x in 0..<width { out[y * width + x] = data[row + 2 * x] }
            } else {
                out.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: y * width).copyMemory(from: data.baseAddress!.advanced(by: row), byteCount: width)
                }
            }
        }
        return out
    }

    private func fail(_ reason: String, at time: Duration) -> CameraEvent {
        failed = true
        return .trouble(.stopped(reason: "\(path): \(reason)"), at: time)
    }

    // MARK: - Helpers

    private func xioctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        switch retryingInterrupts("ioctl", { withUnsafeMutablePointer(to: &argument) { fieldrig_v4l2_ioctl(fd, request, $0) } }) {
        case .success(let result): return result
        case .failure(let error):
            // Leave errno as the call set it, for the caller's message.
            errno = error.code
            return -1
        }
    }

    private func enumerateModes() -> [CameraMode] {
        var modes: [CameraMode] = []
        var index: UInt32 = 0
        while true {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard xioctl(fieldrig_VIDIOC_ENUM_FMT(), &description) == 0 else { break }
            index += 1
            // libv4l2 lists the formats it converts to as well: only the camera's own are its modes.
            if description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0 {
                if index > 64 { break }
                continue
            }
            let fourcc = Self.fourcc(description.pixelformat)
            var sizeIndex: UInt32 = 0
            while sizeIndex < 64 {
                var size = v4l2_frmsizeenum()
                size.index = sizeIndex
                size.pixel_format = description.pixelformat
                guard xioctl(fieldrig_VIDIOC_ENUM_FRAMESIZES(), &size) == 0, size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue else { break }
                let width = size.discrete.width
                let height = size.discrete.height
                var interval = v4l2_frmivalenum()
                interval.pixel_format = description.pixelformat
                interval.width = width
                interval.height = height
                let fps: Int
                if xioctl(fieldrig_VIDIOC_ENUM_FRAMEINTERVALS(), &interval) == 0, interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue,
                    interval.discrete.numerator > 0
                {
                    fps = Int(interval.discrete.denominator / interval.discrete.numerator)
                } else {
                    fps = 0
                }
                let mode = CameraMode(width: Int(width), height: Int(height), framesPerSecond: fps, pixelFormat: fourcc)
                if !modes.contains(mode) { modes.append(mode) }
                sizeIndex += 1
            }
            if index > 64 { break }
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

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

func milliseconds(_ d: Duration) -> Int {
    Int(d.inMilliseconds)
}
