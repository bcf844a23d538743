import CV4L2
import Durable
import Foundation
import Imaging
import Model

#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock V4L2 stamps its buffers with, in nanoseconds.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// What one fetch from the device gave.
enum Fetch {
    /// A whole frame's gray pixels, captured at `capturedAt` (monotonic ns); `dropped` older
    /// frames were waiting behind it and were put back unread, `skipped` bad ones among them.
    case frame(gray: [UInt8], width: Int, height: Int, capturedAt: Int64, dropped: Int, skipped: Int)
    /// One bad frame (short, flagged, undecodable): skipped and counted.
    case bad(String)
    /// The device failed; the reason names the call and what it said.
    case failed(String)
}

/// How the negotiated format lays out a frame in memory.
struct FrameLayout {
    var width: Int
    var height: Int
    var fourcc: UInt32
    var bytesPerLine: Int
    var sizeImage: Int

    var isMotionJPEG: Bool { fourcc == fieldrig_V4L2_PIX_FMT_MJPEG() || fourcc == fieldrig_V4L2_PIX_FMT_JPEG() }

    /// The gray pixels of one frame, rows packed; nil when the frame is short or damaged.
    func gray(_ data: UnsafeRawBufferPointer) -> [UInt8]? {
        if isMotionJPEG {
            guard let frame = ImageFile.decodeMotionJPEG(data), frame.width == width, frame.height == height else { return nil }
            return frame.packed().bytes
        }
        let yuyv = fourcc == fieldrig_V4L2_PIX_FMT_YUYV()
        // GREY, YUYV's luma every other byte, and the first (luma) plane of YU12 and NV12.
        guard height > 0, data.count >= bytesPerLine * (height - 1) + width * (yuyv ? 2 : 1) else { return nil }
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<height {
                let row = data.baseAddress!.advanced(by: y * bytesPerLine)
                let target = dst.baseAddress!.advanced(by: y * width)
                if yuyv {
                    let from = row.assumingMemoryBound(to: UInt8.self)
                    let to = target.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width { to[x] = from[2 * x] }
                } else {
                    target.copyMemory(from: row, byteCount: width)
                }
            }
        }
        return out
    }
}

/// One opened, streaming device, read by its own thread.
///
/// A read() or VIDIOC_DQBUF that never returns (a hung camera, a stuck USB bus) must not freeze
/// whoever waits for a frame: the calls are made on this thread, and the camera waits for their
/// result with a deadline. The thread owns the descriptor and the mapped buffers and releases
/// them when it ends, which for a call that never returns is never: the session is abandoned.
// @unchecked Sendable: the flags and the result are touched only while holding `mutex`; the
// descriptor and buffers belong to the session's thread. A pthread mutex and condition, not
// NSCondition, because the deadline is on the monotonic clock (NSCondition waits until a wall-clock Date).
final class V4L2Session: @unchecked Sendable {
    let fd: Int32
    let path: String
    let layout: FrameLayout
    let streaming: Bool
    private let buffers: [(start: UnsafeMutableRawPointer, length: Int)]
    private var readBuffer: [UInt8]
    private let wake: Int32

    // Allocated, so their addresses never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var wanted = false
    private var closing = false
    private var result: Fetch? = nil
    private var finished = false

    init(fd: Int32, path: String, layout: FrameLayout, buffers: [(start: UnsafeMutableRawPointer, length: Int)]) {
        self.fd = fd
        self.path = path
        self.layout = layout
        self.buffers = buffers
        self.streaming = !buffers.isEmpty
        self.readBuffer = [UInt8](repeating: 0, count: max(layout.sizeImage, layout.bytesPerLine * layout.height, 1))
        self.wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        let thread = Thread { [self] in run() }
        thread.name = "fieldrig-v4l2"
        thread.start()
    }

    deinit {
        Glibc.close(wake)
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Asks the thread for the next frame, unless one is already waiting.
    func request() {
        pthread_mutex_lock(mutex)
        if result == nil && !wanted {
            wanted = true
            pthread_cond_broadcast(condition)
        }
        pthread_mutex_unlock(mutex)
    }

    /// The fetch's result, waiting for it no later than `until` (monotonic ns); nil if none came.
    func wait(until: Int64) -> Fetch? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while result == nil {
            let now = monotonicNanoseconds()
            if now >= until { break }
            var deadline = timespec(tv_sec: Int(until / 1_000_000_000), tv_nsec: Int(until % 1_000_000_000))
            _ = pthread_cond_timedwait(condition, mutex, &deadline)
        }
        let taken = result
        result = nil
        return taken
    }

    /// Ends the thread and waits (up to `patience`) until it has let go of the device, so the
    /// next opener does not find it still held. A thread stuck in a call that never returns is
    /// left to let go when the call returns.
    func close(patience: Duration = .seconds(1)) {
        pthread_mutex_lock(mutex)
        closing = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
        let until = monotonicNanoseconds() + patience.inNanoseconds
        pthread_mutex_lock(mutex)
        while !finished && monotonicNanoseconds() < until {
            var deadline = timespec(tv_sec: Int(until / 1_000_000_000), tv_nsec: Int(until % 1_000_000_000))
            _ = pthread_cond_timedwait(condition, mutex, &deadline)
        }
        pthread_mutex_unlock(mutex)
    }

    // MARK: - The thread

    private func run() {
        while true {
            pthread_mutex_lock(mutex)
            while !wanted && !closing { pthread_cond_wait(condition, mutex) }
            let stop = closing
            wanted = false
            pthread_mutex_unlock(mutex)
            if stop { break }
            guard let fetched = fetch() else { break }
            pthread_mutex_lock(mutex)
            result = fetched
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
            if case .failed = fetched { break }
        }
        release()
        pthread_mutex_lock(mutex)
        finished = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private func release() {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = fieldrig_v4l2_ioctl(fd, fieldrig_VIDIOC_STREAMOFF(), &type)
        }
        for buffer in buffers { _ = v4l2_munmap(buffer.start, buffer.length) }
        _ = v4l2_close(fd)
    }

    /// Waits for the device and takes one frame (the newest, when streaming); nil when closing.
    private func fetch() -> Fetch? {
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(SystemError.now("poll").description)
            }
            if fds[1].revents != 0 { return nil }
            let outcome = streaming ? dequeueNewest() : readOne()
            if let outcome { return outcome }
            if fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                // Nothing to take and the device reports an error: it is gone (UVC says so on unplug).
                return .failed("the device reported an error and gave no frame (poll revents \(fds[0].revents)); was it unplugged?")
            }
        }
    }

    /// Dequeues every finished buffer, keeps the newest whole one, and puts the others back:
    /// a reader slower than the camera reads what the camera sees now, not a backlog.
    private func dequeueNewest() -> Fetch? {
        var newest: v4l2_buffer? = nil
        var dropped = 0
        var skipped = 0
        var bad: String? = nil
        while true {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if ioctl(fieldrig_VIDIOC_DQBUF(), &buffer) != 0 {
                let code = errno
                if code == EAGAIN { break }
                if let newest { requeue(newest) }
                return .failed(V4L2Session.describe("VIDIOC_DQBUF", code: code))
            }
            guard Int(buffer.index) < buffers.count else {
                return .failed("VIDIOC_DQBUF: the driver named buffer \(buffer.index) of \(buffers.count)")
            }
            if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
                bad = "the driver flagged a frame as damaged"
                skipped += 1
                if let failure = requeue(buffer) { return failure }
                continue
            }
            if let previous = newest {
                dropped += 1
                if let failure = requeue(previous) { return failure }
            }
            newest = buffer
        }
        guard let buffer = newest else { return bad.map { .bad($0) } }
        let source = buffers[Int(buffer.index)]
        let used = Int(buffer.bytesused) > 0 ? min(source.length, Int(buffer.bytesused)) : source.length
        let gray = layout.gray(UnsafeRawBufferPointer(start: source.start, count: used))
        let captured = Self.captureTime(buffer)
        if let failure = requeue(buffer) { return failure }
        guard let gray else {
            return .bad(
                layout.isMotionJPEG
                    ? "a Motion-JPEG frame of \(used) bytes is damaged" : "a frame of \(used) bytes is shorter than its format")
        }
        return .frame(gray: gray, width: layout.width, height: layout.height, capturedAt: captured, dropped: dropped, skipped: skipped)
    }

    @discardableResult
    private func requeue(_ buffer: v4l2_buffer) -> Fetch? {
        var again = buffer
        guard ioctl(fieldrig_VIDIOC_QBUF(), &again) == 0 else { return .failed(Self.describe("VIDIOC_QBUF", code: errno)) }
        return nil
    }

    /// When the camera captured the frame: the buffer's own monotonic timestamp where the driver
    /// gives one, else now.
    static func captureTime(_ buffer: v4l2_buffer) -> Int64 {
        let monotonic = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let stamp = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000
        let now = monotonicNanoseconds()
        return monotonic && stamp > 0 && stamp <= now ? stamp : now
    }

    private func readOne() -> Fetch? {
        let count = readBuffer.count
        let n = readBuffer.withUnsafeMutableBytes { v4l2_read(fd, $0.baseAddress, count) }
        if n < 0 {
            let code = errno
            if code == EAGAIN || code == EINTR { return nil }
            return .failed(Self.describe("read", code: code))
        }
        if n == 0 { return .failed("read: the device ended its stream") }
        let captured = monotonicNanoseconds()
        guard let gray = readBuffer.withUnsafeBytes({ layout.gray(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) else {
            return .bad(
                layout.isMotionJPEG
                    ? "read: a Motion-JPEG frame of \(n) bytes is damaged" : "read: a frame of \(n) bytes is shorter than its format")
        }
        return .frame(gray: gray, width: layout.width, height: layout.height, capturedAt: captured, dropped: 0, skipped: 0)
    }

    private func ioctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        V4L2Session.ioctl(fd, request, &argument)
    }

    /// A V4L2 call through libv4l2, retried when a signal interrupts it; errno as the call left it.
    static func ioctl<T>(_ fd: Int32, _ request: UInt, _ argument: inout T) -> Int32 {
        switch retryingInterrupts("ioctl", { withUnsafeMutablePointer(to: &argument) { fieldrig_v4l2_ioctl(fd, request, $0) } }) {
        case .success(let result): return result
        case .failure(let error):
            errno = error.code
            return -1
        }
    }

    /// A failed call as the log shows it; an unplugged camera is named as one.
    static func describe(_ call: String, code: Int32) -> String {
        if code == ENODEV { return "\(call): the camera was unplugged (\(errnoDescription(code)), errno \(code))" }
        return SystemError(call, code: code).description
    }
}
