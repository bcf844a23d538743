import Camera
import Companion
import Durable
import Foundation
import Model
import PageServer
import PhoneFace
import Reader
import Register
import Shell

#if canImport(Glibc)
    import Glibc
#endif

/// `fieldrig bench web`: whether the live page keeps up with the camera.
enum BenchWebCommand: Command {
    static let name = ["bench", "web"]
    static let summary = "frames per second the live page can follow, with pages open in the same run"
    static let about = """
        Usage: fieldrig bench web [--camera SOURCE] [--pages N]

        Plays SOURCE (default: the walk-round recording, 1280x720 at 30 fps) through the live
        shell's scan sheet with the page server running and N pages listening over loopback,
        each following the event stream and fetching every frame it is told of as browsers do.
        Times, per camera frame, the reading (barcodes and text, one pass) and the page's share
        (the JPEG of the frame, the phone's HTML, the event to every page), and counts the
        frames the pages received. Prints the frames per second the page work alone allows, the
        live loop's (reading included), and the pages', against the camera's rate.
        """
    static let notes = "Machines are shared and noisy: compare the rates with the camera's, not the milliseconds."

    enum Option: CommandOption {
        case camera, pages

        var spec: OptionSpec {
            switch self {
            case .camera: .value("--camera", "SOURCE", "a sequence folder (default: Devices/sequences/walk-round)")
            case .pages: .integer("--pages", "N", 1...32, default: 4, "pages listening at once (default 4)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let source = options.value(.camera) ?? ScenariosCommand.devicesFolder + "/sequences/walk-round"
        let camera = try openCamera(source, faults: [])
        let folder = NSTemporaryDirectory() + "fieldrig-bench-web-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: folder + "/register.sqlite", create: true)
        try register.apply(.demo, at: RegisterCommand.now())
        let clock = VirtualClock()
        let driver = try ScanDriver(
            purpose: .walkRound, camera: camera, reader: try LiveRead.wrapReader(), register: register, clock: clock)
        let web = try LiveWeb(address: "127.0.0.1:0", source: source)
        defer { web.stop() }
        let pages = (0..<options.integer(.pages)).map { _ in PageFollower(web.server) }
        for page in pages { page.start() }
        guard web.server.events.waitForListening(pages.count, timeout: 30) else { throw CommandFailure("the pages did not connect") }

        var reading: [Duration] = []
        var paging: [Duration] = []
        var readStart = ContinuousClock.now
        driver.pump.observer = { frame, readings in
            reading.append(ContinuousClock.now - readStart)
            web.frame(frame, readings, at: clock.now)
        }
        let started = ContinuousClock.now
        driver.send(.opened)
        let cameraFps = Double(driver.pump.camera.capabilities.modes.first?.framesPerSecond ?? 30)
        // One camera frame a step (recordings time frames in whole microseconds), each read, as
        // the virtual clock lets the live loop do.
        var step = 0
        while driver.pump.isRunning || clock.now == .zero {
            let before = reading.count
            readStart = ContinuousClock.now
            step += 1
            driver.run(until: .microseconds(step * 1_000_000 / max(1, Int(cameraFps))))
            guard reading.count > before else { continue }
            let start = ContinuousClock.now
            web.publish(
                phone: PhoneView(scan: (driver.sheet.purpose, driver.sheet.screen)), context: driver.sheet.context, log: driver.log)
            paging.append(ContinuousClock.now - start)
        }
        let elapsed = ContinuousClock.now - started
        web.stop()
        for page in pages { page.join() }
        let frames = paging.count
        guard frames > 0 else { throw CommandFailure("\(source): the camera delivered no frame") }
        emit(
            "\(reading.count) frames of \(source) (camera \(String(format: "%.0f", cameraFps)) fps) read, \(frames) sent to \(pages.count) pages listening"
        )
        emit("per frame     median       p90")
        let readMedian = BenchReadCommand.row("reading", reading)
        let pageMedian = BenchReadCommand.row("page", paging)
        let received = pages.map(\.framesFetched)
        emit(
            String(
                format: "page work alone: %.0f frames/s (%.1fx the camera); live loop with reading: %.1f frames/s",
                1 / pageMedian.inSeconds, 1 / pageMedian.inSeconds / cameraFps, 1 / (readMedian + pageMedian).inSeconds))
        emit(
            String(
                format: "pages: each fetched %d to %d of %d frames (%.0f%%), %.1f frames/s each over the run (%.1f s)",
                received.min() ?? 0, received.max() ?? 0, frames, 100 * Double(received.min() ?? 0) / Double(frames),
                Double(received.min() ?? 0) / elapsed.inSeconds, elapsed.inSeconds))
        return ExitCode.success
    }
}

/// A page over loopback, as a browser follows the live page: reads the event stream and fetches
/// each frame it is told of (the newest only, once the one before has come).
// @unchecked Sendable: its settings are constants, the count is `Locked`, and its one worker
// thread is the only one that reads the stream.
final class PageFollower: @unchecked Sendable {
    let port: UInt16
    /// The headers a page the person opened sends: the page's own host and its secret.
    let headers: String
    private let done = DispatchSemaphore(value: 0)
    private let fetched = Locked(0)

    init(_ server: PageServer) {
        port = server.port
        let cookie = server.access.map { "Cookie: \(PageAccess.cookieName(port: server.port))=\($0.token)\r\n" } ?? ""
        headers = "Host: 127.0.0.1:\(server.port)\r\n" + cookie
    }

    var framesFetched: Int { fetched.current }

    func start() {
        let worker = Thread { [self] in
            defer { done.signal() }
            guard let stream = connectLoopback(port) else { return }
            defer { close(stream) }
            send(stream, "GET /events HTTP/1.1\r\n\(headers)\r\n")
            var pending = ""
            var lastFetched = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(stream, &chunk, chunk.count)
                if n <= 0 { return }
                pending += String(decoding: chunk[..<n], as: UTF8.self)
                var newest = lastFetched
                while let range = pending.range(of: "\"frame\": ") {
                    let digits = pending[range.upperBound...].prefix { $0.isNumber }
                    newest = max(newest, Int(digits) ?? 0)
                    pending = String(pending[range.upperBound...])
                }
                if pending.count > 4096 { pending = String(pending.suffix(64)) }
                if newest > lastFetched, fetchFrame() {
                    lastFetched = newest
                    fetched.withLock { $0 += 1 }
                }
            }
        }
        worker.start()
    }

    /// Waits for the stream to end (the server stopped).
    func join() { done.wait() }

    private func fetchFrame() -> Bool {
        guard let fd = connectLoopback(port) else { return false }
        defer { close(fd) }
        send(fd, "GET /frame.jpg HTTP/1.0\r\n\(headers)\r\n")
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            total += n
        }
        return total > 0
    }
}

private func connectLoopback(_ port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0, let address = IPv4.address("127.0.0.1", port: port), IPv4.connect(fd, to: address) == nil else {
        if fd >= 0 { close(fd) }
        return nil
    }
    return fd
}

private func send(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
