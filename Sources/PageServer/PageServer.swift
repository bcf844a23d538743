import CMicroHTTPD
import Durable
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request the page server passes on: its method, path (without the query), content type and
/// body.
public struct PageRequest: Sendable {
    public var method: String
    public var path: String
    public var contentType: String?
    public var body: [UInt8]

    public init(method: String, path: String, contentType: String? = nil, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.contentType = contentType
        self.body = body
    }
}

/// What the server answers with.
public struct PageResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// Further headers, such as `Location` and `Set-Cookie`.
    public var headers: [(String, String)]

    public init(status: Int = 200, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    public static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8") -> PageResponse {
        PageResponse(status: status, contentType: type, body: Array(text.utf8))
    }

    public static func notFound(_ path: String) -> PageResponse { .text("Not found: \(path)\n", status: 404) }
}

public struct PageServerError: Error, CustomStringConvertible {
    public let description: String
}

/// The newest state of the page, for every page open at once: publishing replaces it and wakes
/// the streams; each stream sends the newest when it can, so a slow page skips states instead of
/// queueing them, and publishing never waits on a page.
// @unchecked Sendable: every stored property is read and written only while holding `condition`.
public final class NewestEvent: @unchecked Sendable {
    private let condition = NSCondition()
    private var version = 0
    private var data: [UInt8] = []
    private var closed = false
    private var streams = 0

    public init() {}

    /// Replaces the newest state with `text` (one line: server-sent events end a message at a
    /// blank line).
    public func publish(_ text: String) {
        condition.lock()
        version += 1
        data = Array(text.utf8)
        condition.broadcast()
        condition.unlock()
    }

    /// How many pages are listening now.
    public var listening: Int {
        condition.lock()
        defer { condition.unlock() }
        return streams
    }

    enum Next {
        case event(Int, [UInt8])
        case quiet
        case closed
    }

    /// The newest state after `seen`, waiting up to `timeout` for one.
    func next(after seen: Int, timeout: TimeInterval) -> Next {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !closed && version == seen {
            if !condition.wait(until: deadline) { break }
        }
        if closed { return .closed }
        return version == seen ? .quiet : .event(version, data)
    }

    /// Ends every stream.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func opened() {
        condition.lock()
        streams += 1
        condition.broadcast()
        condition.unlock()
    }

    func ended() {
        condition.lock()
        streams -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until exactly `count` pages listen, at most `timeout` seconds; whether they do.
    public func waitForListening(_ count: Int, timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while streams != count {
            if !condition.wait(until: deadline) { return streams == count }
        }
        return true
    }
}

/// One page's event stream: what it was sent last, and the rest of the message being written.
/// It holds at most one message.
final class EventStreamClient {
    let events: NewestEvent
    var seen = 0
    var pending: [UInt8] = []
    var offset = 0

    init(events: NewestEvent) {
        self.events = events
        events.opened()
    }

    deinit { events.ended() }

    /// Fills `buffer` with up to `max` bytes of the stream; -1 when the stream ends.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if offset >= pending.count {
            switch events.next(after: seen, timeout: 1.0) {
            case .event(let version, let data):
                seen = version
                pending = Array("data: ".utf8) + data + Array("\n\n".utf8)
            case .quiet:
                // A comment line: keeps proxies from timing out, and finds pages that left.
                pending = Array(": waiting\n\n".utf8)
            case .closed:
                return -1
            }
            offset = 0
        }
        let count = min(max, pending.count - offset)
        pending.withUnsafeBufferPointer { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// A request's body as it arrives, at most `PageServer.maxBody` bytes.
final class RequestBody {
    var bytes: [UInt8] = []
    var tooLarge = false
}

/// Serves pages with libmicrohttpd: one thread per connection, so a slow or stalled page holds
/// only its own thread, and at most `maxConnections` at once (more are refused). With `access`,
/// every request, the event stream's too, is judged by it first. Requests for `eventsPath` get
/// the server-sent event stream of `events`; every other request goes to the handler. Stopping
/// ends every stream and closes every connection.
// @unchecked Sendable: its settings are constants; `daemon` and `listener` are set in init and
// cleared by `stop`, which its owner calls once (MHD_stop_daemon waits for the server's threads).
public final class PageServer: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    public let events: NewestEvent
    public let access: PageAccess?
    /// The largest body a request may have; a larger one is refused (413) unread.
    static let maxBody = 64 * 1024
    let eventsPath: String
    let handler: @Sendable (PageRequest) -> PageResponse
    private var daemon: OpaquePointer?
    private var listener: Int32

    /// Listens on `host` (an IPv4 address) and `port` (0 for a free one).
    public init(
        host: String, port: UInt16, events: NewestEvent, eventsPath: String = "/events", maxConnections: Int = 32,
        access: PageAccess? = nil, handler: @escaping @Sendable (PageRequest) -> PageResponse
    ) throws(PageServerError) {
        self.host = host
        self.events = events
        self.access = access
        self.eventsPath = eventsPath
        self.handler = handler
        guard let address = IPv4.address(host, port: port) else {
            throw PageServerError(description: "\(host): not an IPv4 address (give one such as 127.0.0.1 or 0.0.0.0)")
        }
        let fd: Int32
        switch IPv4.listen(on: address, backlog: 64) {
        case .success(let listening):
            fd = listening.fd
            self.port = listening.port
        case .failure(let error):
            throw PageServerError(
                description:
                    "\(host):\(port): cannot listen there (\(errnoDescription(error.code))); choose another port, or 0 for a free one")
        }
        listener = fd
        let context = Unmanaged.passUnretained(self).toOpaque()
        // poll(), not select(): a process reading frames holds many files, and select() cannot
        // watch a descriptor numbered past FD_SETSIZE (libmicrohttpd then refused to start, or
        // closed such a connection unanswered).
        let flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue)
        let options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, fd,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(maxConnections),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(30),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(pageServerCompleted, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(options) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, pageServerAccess, context, list)
        }
        guard daemon != nil else {
            close(fd)
            throw PageServerError(description: "\(host):\(port): libmicrohttpd could not start serving")
        }
    }

    deinit { stop() }

    /// The address to open in a browser.
    public var address: String { "http://\(host):\(port)/" }

    /// Ends every event stream, closes every connection, and stops listening.
    public func stop() {
        events.close()
        if let daemon {
            MHD_stop_daemon(daemon)
            self.daemon = nil
            close(listener)
        }
    }

    /// The address to open in a browser, with the secret when there is one.
    public var pageAddress: String { address + (access.map { "?token=\($0.token)" } ?? "") }

    func answer(_ connection: OpaquePointer, method: String, path: String, body: RequestBody) -> MHD_Result {
        if let access {
            let request = PageAccess.Request(
                method: method, path: path, host: value(connection, .HEADER_KIND, "Host"),
                origin: value(connection, .HEADER_KIND, "Origin"),
                cookie: value(connection, .COOKIE_KIND, PageAccess.cookieName(port: port)),
                queryToken: value(connection, .GET_ARGUMENT_KIND, "token"))
            switch access.judge(request, port: port) {
            case .allow:
                break
            case .admit(let location):
                var reply = PageResponse.text("Opening the page.\n", status: 303)
                reply.headers = [("Location", location), ("Set-Cookie", access.cookie(port: port))]
                return queue(reply, on: connection)
            case .refuse(let status, let message):
                return queue(.text(message, status: status), on: connection)
            }
        }
        if body.tooLarge {
            return queue(.text("A request's body may be \(PageServer.maxBody) bytes at most.\n", status: 413), on: connection)
        }
        if path == eventsPath, method == "GET" { return stream(on: connection) }
        let contentType = value(connection, .HEADER_KIND, "Content-Type")
        return queue(handler(PageRequest(method: method, path: path, contentType: contentType, body: body.bytes)), on: connection)
    }

    private func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    private func stream(on connection: OpaquePointer) -> MHD_Result {
        let client = Unmanaged.passRetained(EventStreamClient(events: events)).toOpaque()
        // UInt64.max is MHD_SIZE_UNKNOWN: a stream with no length, sent chunked.
        guard let response = MHD_create_response_from_callback(UInt64.max, 16 * 1024, eventStreamFill, client, eventStreamFree)
        else {
            Unmanaged<EventStreamClient>.fromOpaque(client).release()
            return .NO
        }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", "text/event-stream")
        MHD_add_response_header(response, "Cache-Control", "no-store")
        return MHD_queue_response(connection, 200, response)
    }

    private func queue(_ reply: PageResponse, on connection: OpaquePointer) -> MHD_Result {
        let response = reply.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", reply.contentType)
        MHD_add_response_header(response, "Cache-Control", "no-store")
        for (name, value) in reply.headers { MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(reply.status), response)
    }
}

/// libmicrohttpd's request callback: a request's first call gives it a body to collect into; the
/// calls with data add to it (past `PageServer.maxBody` the rest is dropped and the request
/// refused); the last call answers. The body is let go when the request completes.
private let pageServerAccess: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, uploadSize, state in
    guard let cls, let connection, let url, let method, let uploadSize, let state else { return .NO }
    guard let held = state.pointee else {
        state.pointee = Unmanaged.passRetained(RequestBody()).toOpaque()
        return .YES
    }
    let body = Unmanaged<RequestBody>.fromOpaque(held).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        if let data, body.bytes.count + count <= PageServer.maxBody {
            data.withMemoryRebound(to: UInt8.self, capacity: count) {
                body.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        } else {
            body.tooLarge = true
        }
        uploadSize.pointee = 0
        return .YES
    }
    let server = Unmanaged<PageServer>.fromOpaque(cls).takeUnretainedValue()
    return server.answer(connection, method: String(cString: method), path: String(cString: url), body: body)
}

/// libmicrohttpd's completion callback: lets a request's body go.
private let pageServerCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let held = state.pointee else { return }
    Unmanaged<RequestBody>.fromOpaque(held).release()
    state.pointee = nil
}

private let eventStreamFill: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -1 }
    return Unmanaged<EventStreamClient>.fromOpaque(cls).takeUnretainedValue().fill(buffer, max: max)
}

private let eventStreamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<EventStreamClient>.fromOpaque(cls).release()
}
