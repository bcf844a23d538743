import Companion
import Foundation
import Model
import Register
import Testing

/// `fieldrig live` run in the background, its stdout collected as it comes and its first line
/// (the page's address) waited for.
final class BackgroundRig {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let collected = Locked(Data())
    private let firstLine = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let collected = collected
        let firstLine = firstLine
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            let hadLine = collected.withLock { data in
                let before = data.contains(0x0A)
                data.append(chunk)
                return before || !data.contains(0x0A)
            }
            if !hadLine { firstLine.signal() }
        }
        try process.run()
    }

    /// The first line printed, waiting up to a minute for it.
    func address() throws -> String {
        guard firstLine.wait(timeout: .now() + 60) == .success else { throw Chromium.Failure(description: "fieldrig printed nothing") }
        let text = String(decoding: collected.current, as: UTF8.self)
        return String(text.prefix { $0 != "\n" })
    }

    var stdout: String { String(decoding: collected.current, as: UTF8.self) }

    /// Types `q` and Enter, as a person quits, and waits for the rig to exit.
    func quit() -> Int32 {
        input.fileHandleForWriting.write(Data("q\n".utf8))
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }
}

/// `fieldrig live --web 0` on a walk-round over the recording of one tag, with a demo register
/// in a fresh folder: the rig, the folder (for the caller to remove) and the register's path. One
/// tag only: the live shell runs on the real clock, and on a loaded machine the page may come up
/// after a longer recording played, its card another tag's.
func liveWalkRoundOnOneTag(_ name: String) throws -> (rig: BackgroundRig, folder: String, register: String) {
    let folder = NSTemporaryDirectory() + "fieldrig-\(name)-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/register.sqlite"
    do {
        let register = try Register(path: path, create: true)
        try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 30))
    }
    let rig = try BackgroundRig([
        "live", "--camera", "Devices/sequences/tag-mf-0004", "--walk-round", "--register", path, "--web", "0", "--seconds", "300",
    ])
    return (rig, folder, path)
}

/// The browser face in a real browser: Debian's Chromium, headless, with no network beyond the rig.
@Suite("the phone in a browser", .serialized)
struct BrowserTests {
    /// Where the screenshots for the README go, when asked for (FIELDRIG_SCREENSHOTS=folder).
    static func keep(_ png: Data, as name: String) {
        guard let folder = ProcessInfo.processInfo.environment["FIELDRIG_SCREENSHOTS"] else { return }
        try? png.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }

    @Test("live --web: the ready sentence, the recorded tag's card, VERIFY pressed in the page stamps the register")
    func livePage() throws {
        let (rig, folder, path) = try liveWalkRoundOnOneTag("browser")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let line = try rig.address()
        #expect(line.hasPrefix("page: http://127.0.0.1:"))
        let address = String(line.dropFirst("page: ".count))
        let browser = try Chromium()
        let tab = try browser.open(address)
        let sentence = try browser.waitFor("document.querySelector('#phone #scan .sentence')?.textContent", in: tab)
        #expect(sentence as? String == Copy.ready)
        let card = try browser.waitFor("document.querySelector('#phone .card.hit .name')?.textContent", in: tab)
        #expect(card as? String == "Core switch")
        #expect(try browser.evaluate("document.querySelector('#phone .card.hit .tag').textContent", in: tab) as? String == "MF-0004")
        // The frame is on the page with its boxes, the proven tag marked as proven.
        let proven = try browser.waitFor("document.querySelector('#marks .mark.proven title')?.textContent", in: tab)
        #expect((proven as? String)?.hasPrefix("MF-0") == true)
        #expect(try browser.waitFor("document.getElementById('frame').naturalWidth", in: tab) as? Int ?? 0 > 0)
        let rates = try browser.waitFor("document.getElementById('reading').textContent", in: tab) as? String
        #expect(rates?.hasPrefix("reading: ") == true && rates?.contains(" read for barcodes, ") == true)
        Self.keep(try browser.screenshot(tab), as: "live-page.png")
        // Another site open in the same browser tries the page's actions: a form and a fetch.
        let actionURL = address.prefix { $0 != "?" } + "action"
        let attackerPage = folder + "/another-site.html"
        try "<form method=post enctype=text/plain action='\(actionURL)'><input name=x></form>".write(
            toFile: attackerPage, atomically: true, encoding: .utf8)
        let attacker = try browser.open("file://" + attackerPage)
        let tried = try browser.evaluate(
            """
            fetch('\(actionURL)', { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{"key": "fault:busy"}' })
              .then(() => 'sent', () => 'failed')
            """, in: attacker)
        #expect(tried as? String == "sent")
        _ = try browser.evaluate("document.forms[0].submit(); 'submitted'", in: attacker)
        _ = try browser.evaluate("document.querySelector('#phone .card.hit button[data-key=\"v\"]').click()", in: tab)
        let confirmation = try browser.waitFor("document.querySelector('#phone .card.hit .confirmation')?.textContent", in: tab)
        #expect((confirmation as? String)?.hasPrefix("Verified at ") == true)
        // Everything the page used came from the rig.
        let outside = try browser.evaluate(
            "performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))", in: tab)
        #expect((outside as? [Any])?.isEmpty == true)
        #expect(rig.quit() == 0)
        let register = try Register(path: path)
        #expect(try register.stamps(tag: "MF-0004").count == 1)
        #expect(rig.stdout.contains("register: verification of MF-0004 recorded"))
        #expect(!rig.stdout.contains("the page injected a fault"))
    }

    @Test("a failing scenario's trace, opened from disk, marks the failing step with what was expected and seen")
    func failingTrace() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-trace-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Played through a recording without the tag it expects, the scenario fails at its card.
        let run = try fieldrig(
            "scenarios", "--filter", "busy mid-walk-round", "--camera", "Devices/sequences/intake-mf-0001", "--trace", folder, "--jobs", "1"
        )
        #expect(run.status == 1)
        #expect(run.stdout.contains("trace: \(folder)/index.html"))
        let browser = try Chromium()
        let index = try browser.open("file://\(folder)/index.html")
        let link = try browser.waitFor("document.querySelector('tr.failed a')?.getAttribute('href')", in: index) as? String
        #expect(link?.hasPrefix("scenarios/") == true)
        let page = try browser.open("file://\(folder)/\(link ?? "")")
        let failed = try browser.waitFor("document.querySelector('li.step.failed .failure')?.innerText", in: page) as? String ?? ""
        #expect(failed.contains("Expected"))
        #expect(failed.contains("MF-0004"))
        #expect(failed.contains("Scenarios/CameraTrouble.swift:"))
        // The steps before it passed, with the phone drawn after each, and the camera's frames.
        #expect(try browser.evaluate("document.querySelectorAll('li.step:not(.failed) .phone').length", in: page) as? Int ?? 0 >= 1)
        #expect(try browser.evaluate("document.querySelectorAll('.filmstrip img').length", in: page) as? Int ?? 0 >= 1)
        let broken = try browser.evaluate(
            "Promise.all([...document.images].map(i => i.decode().then(() => 0, () => 1))).then(r => r.reduce((a, b) => a + b, 0))",
            in: page)
        #expect(broken as? Int == 0)
        let outside = try browser.evaluate(
            "performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith('file://'))", in: page)
        #expect((outside as? [Any])?.isEmpty == true)
        _ = try browser.evaluate(
            "document.querySelector('li.step.failed').previousElementSibling.previousElementSibling.scrollIntoView()", in: page)
        Self.keep(try browser.screenshot(page), as: "trace-page.png")
    }

    @Test("bench web: every frame of a recording is sent to the pages listening, and they fetch them")
    func benchWeb() throws {
        let run = try fieldrig("bench", "web", "--camera", "Devices/sequences/tag-mf-0004", "--pages", "2")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("36 frames of Devices/sequences/tag-mf-0004 (camera 30 fps) read, 36 sent to 2 pages listening\n"))
        #expect(run.stdout.contains("page work alone: "))
        // A page fetches the newest frame once the one before has come: at least one, never more than were sent.
        let fetched = run.stdout.split(separator: "\n").first { $0.hasPrefix("pages: each fetched ") }
        let counts = fetched.map { $0.dropFirst("pages: each fetched ".count).split(separator: " ") } ?? []
        #expect(counts.count > 2 && Int(counts[0]).map { (1...36).contains($0) } == true)
        let missing = try fieldrig("bench", "web", "--camera", "Devices/no-such-recording")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Devices/no-such-recording"))
    }
}

/// One HTTP request over loopback, as any program (or a browser on another site's behalf) can
/// send it; the whole answer.
func rawRequest(port: UInt16, _ head: String, body: String = "") throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw Chromium.Failure(description: "cannot connect to port \(port)") }
    let text = head + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var got: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { break }
        got += chunk[..<n]
    }
    return String(decoding: got, as: UTF8.self)
}

@Suite("the live page obeys only the person who started it")
struct LivePageAccessTests {
    @Test("cross-site actions, a foreign Host and a missing or wrong secret are refused, and the register is untouched")
    func attacks() throws {
        let (rig, folder, path) = try liveWalkRoundOnOneTag("attack")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let address = String(try rig.address().dropFirst("page: ".count))
        let port = try #require(UInt16(address.split(separator: ":")[2].prefix { $0.isNumber }))
        let token = String(try #require(address.split(separator: "=").last))
        // VERIFY would stamp the register now: the card is up.
        for _ in 0..<600 where !rig.stdout.contains("MF-0004  Core switch") { usleep(100_000) }
        #expect(rig.stdout.contains("MF-0004  Core switch"))
        let own = "Host: 127.0.0.1:\(port)\r\n"
        let cookie = "Cookie: fieldrig-live-\(port)=\(token)\r\n"
        let attacks: [(String, String, String)] = [
            ("a plain cross-site POST", "POST /action HTTP/1.1\r\n\(own)Origin: http://evil.example\r\nContent-Type: text/plain\r\n", "v"),
            ("a cross-site POST without Origin", "POST /action HTTP/1.1\r\n\(own)Content-Type: text/plain\r\n", "v"),
            (
                "a forged JSON action", "POST /action HTTP/1.1\r\n\(own)Origin: http://evil.example\r\nContent-Type: application/json\r\n",
                #"{"key":"v"}"#
            ),
            ("the old action path", "POST /action/v HTTP/1.1\r\n\(own)Origin: http://evil.example\r\n", ""),
            (
                "a wrong secret",
                "POST /action HTTP/1.1\r\n\(own)Cookie: fieldrig-live-\(port)=\(String(token.reversed()))\r\nContent-Type: application/json\r\n",
                #"{"key":"v"}"#
            ),
            (
                "the secret from another site",
                "POST /action HTTP/1.1\r\n\(own)\(cookie)Origin: http://evil.example\r\nContent-Type: application/json\r\n", #"{"key":"v"}"#
            ),
            (
                "a rebound name", "POST /action HTTP/1.1\r\nHost: evil.example:\(port)\r\n\(cookie)Content-Type: application/json\r\n",
                #"{"key":"v"}"#
            ),
            ("a form", "POST /action HTTP/1.1\r\n\(own)\(cookie)Content-Type: application/x-www-form-urlencoded\r\n", "key=v"),
            ("a GET", "GET /action?key=v HTTP/1.1\r\n\(own)\(cookie)", ""),
        ]
        for (what, head, body) in attacks {
            let answer = try rawRequest(port: port, head, body: body)
            #expect(["403", "405", "415", "421"].contains(answer.dropFirst("HTTP/1.1 ".count).prefix(3)), "\(what): \(answer)")
        }
        for path in ["/", "/frame.jpg", "/events"] {
            #expect(try rawRequest(port: port, "GET \(path) HTTP/1.1\r\nHost: evil.example\r\n\(cookie)").hasPrefix("HTTP/1.1 421"))
            #expect(try rawRequest(port: port, "GET \(path) HTTP/1.1\r\n\(own)").hasPrefix("HTTP/1.1 403"))
        }
        #expect(rig.quit() == 0)
        #expect(try Register(path: path).stamps(tag: "MF-0004").isEmpty)
        #expect(!rig.stdout.contains("verification of MF-0004 recorded"))
    }

    @Test("served where other machines can reach it, a warning names the exposure; a fixed secret is checked")
    func exposureAndFixedSecret() throws {
        let run = try fieldrig(
            "live", "--camera", "Devices/sequences/tag-mf-0004", "--virtual", "--seconds", "1", "--web", "0.0.0.0:0", "--web-token",
            "ci-fixed-token-0001")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("page: http://0.0.0.0:") == true && lines.first?.hasSuffix("/?token=ci-fixed-token-0001") == true)
        #expect(lines.dropFirst().first?.hasPrefix("warning: the page is served on 0.0.0.0:") == true)
        #expect(try fieldrig("live", "--camera", "Devices/sequences/tag-mf-0004", "--web", "0", "--web-token", "short").status == 2)
        #expect(try fieldrig("live", "--camera", "Devices/sequences/tag-mf-0004", "--web-token", "ci-fixed-token-0001").status == 2)
        let loopback = try fieldrig("live", "--camera", "Devices/sequences/tag-mf-0004", "--virtual", "--seconds", "1", "--web", "0")
        #expect(!loopback.stdout.contains("warning:"))
    }
}
