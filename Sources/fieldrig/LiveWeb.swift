import Companion
import Durable
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
    /// The reading's rates, as the terminal says them once a second.
    var reading = ""
    /// Frames the page was sent, for the closing line.
    private(set) var framesShown = 0

    /// What the page's world controls send, beyond the terminal's keys.
    static let faults: [(String, String, CameraTrouble)] = [
        ("Camera busy", "fault:busy", .busy), ("Camera access off", "fault:denied", .accessOff),
        ("No accelerator", "fault:cannot-scan", .cannotScan),
        ("Camera stopped", "fault:stopped", .stopped(reason: "stopped from the live page")),
    ]
    static let worldKeys: Set<String> = Set(faults.map(\.1) + ["mac:leaves", "mac:returns"])
    /// The recording's controls: Record, Stop, and "Expect this" for each part of the phone.
    static let recordingControls: [LivePage.Control] = [
        .init("● Record", "record:start"), .init("■ Stop recording", "record:stop"),
        .init("Expect this sentence", "expect:sentence"), .init("Expect these routes", "expect:routes"),
        .init("Expect these buttons", "expect:buttons"), .init("Expect this card", "expect:card"),
        .init("Expect this offer", "expect:offer"), .init("Expect this chooser", "expect:chooser"),
        .init("Expect what was opened", "expect:opened"),
    ]
    /// What the page says of the recording, when there is one.
    var recordingStatus = ""
    static let personKeys: Set<String> = Set("vondsbfuac123456789".map(String.init))

    /// Serves on `address` ("[HOST:]PORT"; loopback unless a host is given), to requests that
    /// carry `token` (a new random one unless given) and name the page by its own host.
    init(address: String, source: String, token: String? = nil, recordable: Bool = false) throws {
        let parts = address.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let given = parts.count == 2 ? parts[0] : "127.0.0.1"
        let host = given == "localhost" ? "127.0.0.1" : given
        guard parts.count <= 2, let port = UInt16(parts.last!) else {
            throw UsageError(
                "--web takes [HOST:]PORT (e.g. 8080, 0 for a free port, or 0.0.0.0:8080 to be seen from other machines), not '\(address)'")
        }
        if let token, !PageAccess.isAcceptable(token: token) {
            throw UsageError("--web-token takes 16 to 256 letters, digits and '-._~', not '\(token)'")
        }
        let access = PageAccess(token: token ?? PageAccess.randomToken(), hostNames: LiveWeb.hostNames(given))
        let page = page
        let frameJPEG = frameJPEG
        let actions = actions
        let controls: [(group: String, controls: [LivePage.Control])] =
            [
                ("The phone", [.init("Go to the background", "b"), .init("Come back to the foreground", "f")]),
                ("The camera", LiveWeb.faults.map { LivePage.Control($0.0, $0.1) }),
                ("The Mac", [.init("The Mac leaves the network", "mac:leaves"), .init("The Mac comes back", "mac:returns")]),
            ] + (recordable ? [("The recording", LiveWeb.recordingControls)] : [])
        let allowed = LiveWeb.personKeys.union(LiveWeb.worldKeys).union(recordable ? Set(LiveWeb.recordingControls.map(\.action)) : [])
        let shortcuts =
            "v VERIFY · o OPEN THE RECORD · n NEXT · d done · 1 2 3 routes (rows in the chooser) · s Settings · u USE THIS SERIAL · a Scan again · c Cancel · b background · f foreground"
        do {
            server = try PageServer(host: host, port: port, events: NewestEvent(), access: access) { request in
                switch (request.method, request.path) {
                case ("GET", "/"), ("GET", "/index.html"):
                    return .text(
                        LivePage.html(source: source, phone: page.current, controls: controls, shortcuts: shortcuts),
                        type: "text/html; charset=utf-8")
                case ("GET", "/frame.jpg"):
                    guard let jpeg = frameJPEG.current else { return .text("No frame yet.\n", status: 404) }
                    return PageResponse(contentType: "image/jpeg", body: jpeg)
                case ("POST", "/action"):
                    return LiveWeb.take(request, allowed: allowed, into: actions)
                case (_, "/action"):
                    return .text("An action is a POST from the page.\n", status: 405)
                default:
                    return .notFound(request.path)
                }
            }
        } catch {
            throw CommandFailure("--web \(error.description)")
        }
    }

    /// The page's address with its secret: what to open.
    var address: String { server.pageAddress }

    /// Whether the page can be reached from other machines (served on an address not loopback's).
    var exposed: Bool { !server.host.hasPrefix("127.") }

    /// The names the page answers to: loopback's, the host given, and, served on every
    /// interface, this machine's own addresses and name.
    static func hostNames(_ given: String) -> [String] {
        var names = ["127.0.0.1", "localhost", given]
        if given == "0.0.0.0" { names += IPv4.localAddresses() + [ProcessInfo.processInfo.hostName] }
        return names
    }

    /// An action the page sent: `{"key": KEY}` as JSON, which a form on another page cannot send.
    static func take(_ request: PageRequest, allowed: Set<String>, into actions: Locked<[String]>) -> PageResponse {
        guard request.contentType?.lowercased().hasPrefix("application/json") == true else {
            return .text("An action is sent by the page as JSON.\n", status: 415)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
            let key = object["key"] as? String
        else { return .text("An action is {\"key\": KEY}.\n", status: 400) }
        guard allowed.contains(key) else {
            return .text("No such action: \(key)\n", status: 404)
        }
        actions.withLock { $0.append(key) }
        return .text("ok\n")
    }

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
            ("cameraFps", .double((fps * 10).rounded() / 10)), ("reading", .string(reading)),
            ("recording", .string(recordingStatus)),
        ]).text
        if state != published {
            server.events.publish(state)
            published = state
        }
    }

    func stop() { server.stop() }
}
