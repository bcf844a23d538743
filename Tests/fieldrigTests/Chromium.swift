import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven over its DevTools pipe (fd 3 in, fd 4 out, messages ending in NUL):
/// open pages, run script in them, wait for what they show, take screenshots. The browser gets a
/// dead proxy, so a page that needed anything beyond the rig (or its own folder) would break.
final class Chromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private var received: [UInt8] = []
    private var nextID = 1
    private let profile: String

    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    init() throws {
        guard let executable = Chromium.executable else {
            throw Failure(description: "Chromium is not installed (CI/install-deps installs Debian's chromium for the browser tests)")
        }
        profile = NSTemporaryDirectory() + "fieldrig-chromium-\(getpid())-\(UUID().uuidString.prefix(8))"
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure(description: "cannot make the DevTools pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 3)
        posix_spawn_file_actions_adddup2(&actions, output[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
            "--proxy-server=http://127.0.0.1:9", "--window-size=1440,1000", "--hide-scrollbars", "--user-data-dir=\(profile)",
            "about:blank",
        ]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, &argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        toBrowser = input[1]
        fromBrowser = output[0]
    }

    deinit {
        _ = try? call("Browser.close")
        close(toBrowser)
        close(fromBrowser)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Sends a DevTools command and returns its result; events on the way are passed over.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], session: String? = nil) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser closed its DevTools pipe") }
            written += n
        }
        while true {
            let reply = try nextMessage()
            guard reply["id"] as? Int == id else { continue }  // an event, or a late reply
            if let error = reply["error"] as? [String: Any] { throw Failure(description: "\(method): \(error["message"] ?? error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func nextMessage() throws -> [String: Any] {
        while true {
            if let end = received.firstIndex(of: 0) {
                let data = Data(received[..<end])
                received.removeSubrange(...end)
                if let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] { return object }
                continue
            }
            // The browser answers every command; a minute without a byte means it hung.
            var pfd = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 60_000) > 0 else { throw Failure(description: "the browser did not answer for a minute") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fromBrowser, &chunk, chunk.count)
            guard n > 0 else { throw Failure(description: "the browser closed its DevTools pipe") }
            received.append(contentsOf: chunk[..<n])
        }
    }

    /// Opens `url` in a new tab and waits for it to load; the tab's session.
    func open(_ url: String) throws -> String {
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let id = target["targetId"] as? String else { throw Failure(description: "no tab for \(url)") }
        let attached = try call("Target.attachToTarget", ["targetId": id, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "cannot attach to the tab") }
        try call("Page.enable", session: session)
        let navigation = try call("Page.navigate", ["url": url], session: session)
        if let error = navigation["errorText"] as? String { throw Failure(description: "\(url): \(error)") }
        try waitForEvent("Page.loadEventFired", session: session)
        return session
    }

    /// Reads messages until the event `method` arrives for `session`.
    private func waitForEvent(_ method: String, session: String) throws {
        while true {
            let message = try nextMessage()
            if message["method"] as? String == method, message["sessionId"] as? String == session { return }
        }
    }

    /// The value of `expression` in the tab (promises awaited).
    func evaluate(_ expression: String, in session: String) throws -> Any? {
        let result = try call(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], session: session)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw Failure(description: "script failed: \((exception["exception"] as? [String: Any])?["description"] ?? exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits, in the page, until `expression` is truthy (checked on each change of the page and
    /// every 50 ms of its time), and returns its value; nil when `limit` seconds pass first.
    func waitFor(_ expression: String, in session: String, limit seconds: Int = 60) throws -> Any? {
        let script = """
            new Promise((resolve) => {
              const start = performance.now();
              const check = () => {
                let value = null;
                try { value = (\(expression)); } catch (e) { value = null; }
                if (value) resolve(value);
                else if (performance.now() - start > \(seconds * 1000)) resolve(null);
                else setTimeout(check, 50);
              };
              check();
            })
            """
        return try evaluate(script, in: session)
    }

    /// A PNG of the tab as it is.
    func screenshot(_ session: String) throws -> Data {
        let shot = try call("Page.captureScreenshot", ["format": "png"], session: session)
        guard let text = shot["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }
}
