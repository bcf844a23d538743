import Foundation
import PageServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct CannotConnect: Error {}

/// A plain TCP client, to behave as browsers and bad clients do.
final class Client {
    let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CannotConnect() }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Reads until `marker` has come (or the connection closed, or a minute passed); all read.
    func read(until marker: String) -> String {
        var got: [UInt8] = []
        while !String(decoding: got, as: UTF8.self).contains(marker) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 60_000) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            got += chunk[..<n]
        }
        return String(decoding: got, as: UTF8.self)
    }

    /// Whether the server closed the connection (reads to the end, up to a minute).
    func closedByServer() -> Bool {
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 60_000) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n <= 0 { return true }
        }
    }
}

@Suite("the page server")
struct PageServerTests {
    func server(_ events: NewestEvent = NewestEvent()) throws -> PageServer {
        try PageServer(host: "127.0.0.1", port: 0, events: events, maxConnections: 16) { request in
            request.path == "/" ? .text("<p>page</p>", type: "text/html") : .notFound(request.path)
        }
    }

    @Test("answers its page, and 404 for paths that do not exist, naming them")
    func pagesAndUnknownPaths() throws {
        let server = try server()
        let page = try Client(port: server.port)
        page.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = page.read(until: "</p>")
        #expect(reply.hasPrefix("HTTP/1.1 200"))
        #expect(reply.contains("<p>page</p>"))
        let unknown = try Client(port: server.port)
        unknown.send("GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let missing = unknown.read(until: "\n\n")
        #expect(missing.hasPrefix("HTTP/1.1 404"))
        #expect(!missing.contains("root:"))
        let garbage = try Client(port: server.port)
        garbage.send("NOT HTTP AT ALL\r\n\r\n")
        #expect(garbage.closedByServer())
    }

    @Test("each page gets the newest state; a page that reads nothing does not hold the others up")
    func slowPagesSkip() throws {
        let events = NewestEvent()
        let server = try server(events)
        let stalled = try Client(port: server.port)
        stalled.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(events.waitForListening(1, timeout: 60))
        // Far more than any socket buffer, published while one page reads nothing: publishing
        // never waits for a page, and a page that comes now gets the newest state, not a backlog.
        let big = String(repeating: "x", count: 100_000)
        for n in 1...200 { events.publish("{\"n\": \(n), \"pad\": \"\(big)\"}") }
        events.publish("{\"n\": \"last\"}")
        let late = try Client(port: server.port)
        late.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let got = late.read(until: "\"last\"")
        #expect(got.contains("text/event-stream"))
        #expect(got.contains("data: {\"n\": \"last\"}"))
        #expect(!got.contains("\"n\": 1,"))
    }

    @Test("a page that leaves mid-stream is let go; many pages at once each get the state")
    func leavingAndManyPages() throws {
        let events = NewestEvent()
        let server = try server(events)
        var leaving: Client? = try Client(port: server.port)
        leaving!.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(events.waitForListening(1, timeout: 60))
        events.publish("{\"n\": 1}")
        _ = leaving!.read(until: "data:")
        leaving = nil
        events.publish("{\"n\": 2}")
        #expect(events.waitForListening(0, timeout: 60))
        let pages = try (0..<10).map { _ in try Client(port: server.port) }
        for page in pages { page.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n") }
        #expect(events.waitForListening(10, timeout: 60))
        events.publish("{\"n\": 3}")
        for page in pages { #expect(page.read(until: "{\"n\": 3}").contains("data: {\"n\": 3}")) }
    }

    @Test("stopping ends every stream and closes every connection")
    func stopCloses() throws {
        let events = NewestEvent()
        let server = try server(events)
        let pages = try (0..<3).map { _ in try Client(port: server.port) }
        for page in pages { page.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n") }
        #expect(events.waitForListening(3, timeout: 60))
        server.stop()
        for page in pages { #expect(page.closedByServer()) }
        #expect(throws: CannotConnect.self) { try Client(port: server.port) }
    }

    @Test("a page is served and streamed while the process holds more files open than select() can watch")
    func manyFilesOpen() throws {
        // Descriptors past FD_SETSIZE (1024): the process reading frames, the register and other
        // pages may hold that many, and a connection numbered past it was closed unanswered.
        let held = (0..<1100).map { _ in open("/dev/null", O_RDONLY) }
        defer { for fd in held where fd >= 0 { close(fd) } }
        #expect(held.allSatisfy { $0 >= 0 })
        let events = NewestEvent()
        let server = try server(events)
        let page = try Client(port: server.port)
        page.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(page.read(until: "</p>").contains("<p>page</p>"))
        let stream = try Client(port: server.port)
        stream.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(events.waitForListening(1, timeout: 60))
        events.publish("{\"n\": 1}")
        #expect(stream.read(until: "{\"n\": 1}").contains("data: {\"n\": 1}"))
    }

    @Test("an address it cannot use is named, with what to do")
    func badAddresses() throws {
        #expect(throws: PageServerError.self) {
            try PageServer(host: "not-an-address", port: 0, events: NewestEvent()) { _ in .notFound("") }
        }
        let first = try server()
        do {
            _ = try PageServer(host: "127.0.0.1", port: first.port, events: NewestEvent()) { _ in .notFound("") }
            Issue.record("a second server listened on a port in use")
        } catch {
            #expect(error.description.contains("cannot listen there"))
        }
    }
}

@Suite("who the page answers")
struct PageAccessTests {
    let access = PageAccess(token: "0123456789abcdef0123", hostNames: ["127.0.0.1", "localhost"])

    func request(
        _ method: String = "GET", host: String? = "127.0.0.1:8080", origin: String? = nil, cookie: String? = nil, query: String? = nil
    ) -> PageAccess.Request {
        PageAccess.Request(method: method, path: "/", host: host, origin: origin, cookie: cookie, queryToken: query)
    }

    @Test("a request naming the page by another host is misdirected, whatever it carries")
    func foreignHost() {
        for host in ["evil.example", "evil.example:8080", "127.0.0.1:9090", "127.0.0.1", "", "localhost.evil.example:8080"] {
            let verdict = access.judge(request(host: host, cookie: access.token), port: 8080)
            guard case .refuse(421, _) = verdict else {
                Issue.record("\(host): \(verdict)")
                continue
            }
        }
        guard case .refuse(421, _) = access.judge(request(host: nil, cookie: access.token), port: 8080) else {
            Issue.record("a request without Host was served")
            return
        }
    }

    @Test("without the secret, or with a wrong one, nothing is served; the address printed admits and sets the cookie")
    func secret() {
        #expect(access.judge(request(), port: 8080) != .allow)
        guard case .refuse(403, let message) = access.judge(request(cookie: "0123456789abcdef0124"), port: 8080) else {
            Issue.record("a wrong secret was not refused")
            return
        }
        #expect(message.contains("open the address fieldrig live printed"))
        guard case .refuse(403, _) = access.judge(request(query: "0123456789abcdef012"), port: 8080) else {
            Issue.record("a secret one character short was not refused")
            return
        }
        #expect(access.judge(request(host: "LOCALHOST:8080", query: access.token), port: 8080) == .admit(location: "/"))
        #expect(access.judge(request(cookie: access.token), port: 8080) == .allow)
        // The secret in the address does not stand in for the cookie on an action.
        #expect(access.judge(request("POST", query: access.token), port: 8080) != .allow)
        #expect(access.cookie(port: 8080) == "fieldrig-live-8080=0123456789abcdef0123; Path=/; HttpOnly; SameSite=Strict")
    }

    @Test("an action from another page is refused even with the cookie; the page's own origin, or none, is served")
    func origin() {
        for origin in ["http://evil.example", "null", "http://127.0.0.1:9090", "https://127.0.0.1:8080"] {
            guard case .refuse(403, _) = access.judge(request("POST", origin: origin, cookie: access.token), port: 8080) else {
                Issue.record("\(origin) was served")
                continue
            }
        }
        #expect(access.judge(request("POST", origin: "http://127.0.0.1:8080", cookie: access.token), port: 8080) == .allow)
        #expect(access.judge(request("POST", cookie: access.token), port: 8080) == .allow)
    }

    @Test("secrets: random ones are 64 hexadecimal digits and differ; a given one must be long and plain")
    func tokens() {
        let a = PageAccess.randomToken()
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
        #expect(a != PageAccess.randomToken())
        #expect(PageAccess.isAcceptable(token: a))
        #expect(PageAccess.isAcceptable(token: "ci-fixed-token-0001"))
        #expect(!PageAccess.isAcceptable(token: "short"))
        #expect(!PageAccess.isAcceptable(token: "has spaces in it, too many"))
        #expect(!PageAccess.isAcceptable(token: "semicolon;cookie=injection"))
    }

    @Test("the server judges every path, the event stream's too, and passes an admitted action's body on")
    func served() throws {
        let events = NewestEvent()
        let server = try PageServer(
            host: "127.0.0.1", port: 0, events: events, access: access
        ) { request in
            .text("\(request.method) \(request.path) \(request.contentType ?? "-") \(String(decoding: request.body, as: UTF8.self))")
        }
        let own = "Host: 127.0.0.1:\(server.port)\r\n"
        let cookie = "Cookie: \(PageAccess.cookieName(port: server.port))=\(access.token)\r\n"
        func ask(_ head: String, body: String = "") throws -> String {
            let client = try Client(port: server.port)
            client.send(head + "Connection: close\r\n" + (body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n") + "\r\n" + body)
            return client.read(until: "\u{0}")
        }
        for path in ["/", "/frame.jpg", "/events", "/action"] {
            #expect(try ask("GET \(path) HTTP/1.1\r\nHost: evil.example\r\n\(cookie)").hasPrefix("HTTP/1.1 421"))
            #expect(try ask("GET \(path) HTTP/1.1\r\n\(own)").hasPrefix("HTTP/1.1 403"))
        }
        let admitted = try ask("GET /?token=\(access.token) HTTP/1.1\r\n\(own)")
        #expect(admitted.hasPrefix("HTTP/1.1 303"))
        #expect(admitted.contains("Set-Cookie: \(access.cookie(port: server.port))\r\n"))
        #expect(admitted.contains("Location: /\r\n"))
        let action = try ask("POST /action HTTP/1.1\r\n\(own)\(cookie)Content-Type: application/json\r\n", body: #"{"key": "v"}"#)
        #expect(action.hasSuffix(#"POST /action application/json {"key": "v"}"#))
        let big = String(repeating: "x", count: 70_000)
        #expect(try ask("POST /action HTTP/1.1\r\n\(own)\(cookie)", body: big).hasPrefix("HTTP/1.1 413"))
        let stream = try Client(port: server.port)
        stream.send("GET /events HTTP/1.1\r\n\(own)\(cookie)\r\n")
        #expect(events.waitForListening(1, timeout: 60))
    }
}
