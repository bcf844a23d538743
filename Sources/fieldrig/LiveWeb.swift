import Companion
import Foundation
import Imaging
import Model
import PageServer
import PhoneFace

/// The browser face of `fieldrig live --web`: serves the live page, keeps the newest frame and
/// phone for it, and passes the page's buttons back to the live loop as keys. The loop never
/// waits on a page: it publishes the newest state and goes on.
final class LiveWeb {
    let server: PageServer
    private let frameJPEG = Locked<[UInt8]?>(nil)
    private let page = Locked("")
    private let actions = Locked<[String]>([])
    private var frameNumber = 0
    private var newFrame: (frame: Frame, readings: [Reading])? = nil
    private var frameTimes: [Duration] = []
    private var lastMarks = ""
    private var lastCaption = ""
    private var size = (width: 640, height: 360)
    private var published = ""
    /// Frames the page was sent, for the closing line.
    private(set) var framesShown = 0

    /// What the page's world controls send, beyond the terminal's keys.
    static let faults: [(String, String, CameraTrouble)] = [
        ("Camera busy", "fault:busy", .busy), ("Camera access off", "fault:denied", .accessOff),
        ("No accelerator", "fault:cannot-scan", .cannotScan),
        ("Camera stopped", "fault:stopped", .stopped(reason: "stopped from the live page")),
    ]
    static let worldKeys: Set<String> = Set(faults.map(\.1) + ["mac:leaves", "mac:returns"])
    static let personKeys: Set<String> = Set("vondsbfuac123456789".map(String.init))

    /// Serves on `address` ("[HOST:]PORT"; loopback unless a host is given).
    init(address: String, source: String) throws {
        let parts = address.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let host = parts.count == 2 ? (parts[0] == "localhost" ? "127.0.0.1" : parts[0]) : "127.0.0.1"
        guard parts.count <= 2, let port = UInt16(parts.last!) else {
            throw UsageError(
                "--web takes [HOST:]PORT (e.g. 8080, 0 for a free port, or 0.0.0.0:8080 to be seen from other machines), not '\(address)'")
        }
        let page = page
        let frameJPEG = frameJPEG
        let actions = actions
        let controls: [(group: String, controls: [LivePage.Control])] = [
            ("The phone", [.init("Go to the background", "b"), .init("Come back to the foreground", "f")]),
            ("The camera", LiveWeb.faults.map { LivePage.Control($0.0, $0.1) }),
            ("The Mac", [.init("The Mac leaves the network", "mac:leaves"), .init("The Mac comes back", "mac:returns")]),
        ]
        let shortcuts =
            "v VERIFY · o OPEN THE RECORD · n NEXT · d done · 1 2 3 routes (rows in the chooser) · s Settings · u USE THIS SERIAL · a Scan again · c Cancel · b background · f foreground"
        do {
            server = try PageServer(host: host, port: port, events: NewestEvent()) { request in
                switch (request.method, request.path) {
                case ("GET", "/"), ("GET", "/index.html"):
                    return .text(
                        LivePage.html(source: source, phone: page.current, controls: controls, shortcuts: shortcuts),
                        type: "text/html; charset=utf-8")
                case ("GET", "/frame.jpg"):
                    guard let jpeg = frameJPEG.current else { return .text("No frame yet.\n", status: 404) }
                    return PageResponse(contentType: "image/jpeg", body: jpeg)
                case ("POST", let path) where path.hasPrefix("/action/"):
                    let key = String(path.dropFirst("/action/".count))
                    guard LiveWeb.personKeys.contains(key) || LiveWeb.worldKeys.contains(key) else {
                        return .text("No such action: \(key)\n", status: 404)
                    }
                    actions.withLock { $0.append(key) }
                    return .text("ok\n")
                default:
                    return .notFound(request.path)
                }
            }
        } catch {
            throw CommandFailure("--web \(error.description)")
        }
    }

    var address: String { server.address }

    /// The keys and controls the page sent since the last call.
    func takeActions() -> [String] {
        actions.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// A frame the camera delivered and what was read on it (the pump's observer).
    func frame(_ frame: Frame, _ readings: [Reading], at time: Duration) {
        newFrame = (frame, readings)
        frameTimes.append(time)
        frameTimes.removeAll { time - $0 > .seconds(2) }
    }

    /// Publishes the phone and, when one came, the newest frame with its marks.
    func publish(phone: PhoneView, context: ScanContext?, log: [String]) {
        let html = PhoneHTML.phone(phone)
        page.withLock { $0 = html }
        if let (frame, readings) = newFrame {
            newFrame = nil
            if let jpeg = ImageFile.jpegData(frame, quality: 70, maxWidth: 960) {
                frameNumber += 1
                framesShown += 1
                frameJPEG.withLock { $0 = jpeg }
                size = (frame.width, frame.height)
                let marks = FrameMark.marks(readings, context: context)
                lastMarks = FrameHTML.overlay(width: frame.width, height: frame.height, marks: marks)
                lastCaption =
                    "frame \(frame.index) · \(frame.width)x\(frame.height)"
                    + (marks.isEmpty ? " · nothing read" : " · " + marks.map(\.label).joined(separator: " · "))
            }
        }
        let fps = frameTimes.count > 1 ? Double(frameTimes.count - 1) / max(0.001, (frameTimes.last! - frameTimes.first!).inSeconds) : 0
        let state = JSON.object([
            ("phone", .string(html)), ("frame", .int(frameNumber)), ("width", .int(size.width)), ("height", .int(size.height)),
            ("marks", .string(lastMarks)), ("caption", .string(lastCaption)), ("log", .array(log.suffix(40).map(JSON.string))),
            ("cameraFps", .double((fps * 10).rounded() / 10)),
        ]).text
        if state != published {
            server.events.publish(state)
            published = state
        }
    }

    func stop() { server.stop() }
}
