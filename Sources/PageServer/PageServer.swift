import CMicroHTTPD
import Durable
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request the page server passes on: its method and path (without the query).
public struct PageRequest: Sendable {
    public var method: String
    public var path: String
}

/// What the server answers with.
public struct PageResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int = 200, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
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

/// Serves pages with libmicrohttpd: one thread per connection, so a slow or stalled page holds
/// only its own thread, and at most `maxConnections` at once (more are refused). Requests for
/// `eventsPath` get the server-sent event stream of `events`; every other request goes to the
/// handler. Stopping ends every stream and closes every connection.
public final class PageServer: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    public let events: NewestEvent
    let eventsPath: String
    let handler: @Sendable (PageRequest) -> PageResponse
    private var daemon: OpaquePointer?
    private var listener: Int32

    /// Listens on `host` (an IPv4 address) and `port` (0 for a free one).
    public init(
        host: String, port: UInt16, events: NewestEvent, eventsPath: String = "/events", maxConnections: Int = 32,
        handler: @escaping @Sendable (PageRequest) -> PageResponse
    ) throws(PageServerError) {
        self.host = host
        self.events = events
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
        let flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue)
        let options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, fd,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(maxConnections),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(30),
            MHD_OPTION.END.rawValue,
        ]
        let context = Unmanaged.passUnretained(self).toOpaque()
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

    func answer(_ connection: OpaquePointer, method: String, path: String) -> MHD_Result {
        if path == eventsPath, method == "GET" {
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
        let reply = handler(PageRequest(method: method, path: path))
        let response = reply.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", reply.contentType)
        MHD_add_response_header(response, "Cache-Control", "no-store")
        return MHD_queue_response(connection, UInt32(reply.status), response)
    }
}

/// libmicrohttpd's request callback: a request's first call only marks it seen; any body is read
/// and dropped (no page sends one); the last call answers.
private let pageServerAccess: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, state in
    guard let cls, let connection, let url, let method, let uploadSize, let state else { return .NO }
    if state.pointee == nil {
        state.pointee = UnsafeMutableRawPointer(bitPattern: 1)
        return .YES
    }
    if uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let server = Unmanaged<PageServer>.fromOpaque(cls).takeUnretainedValue()
    return server.answer(connection, method: String(cString: method), path: String(cString: url))
}

private let eventStreamFill: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -1 }
    return Unmanaged<EventStreamClient>.fromOpaque(cls).takeUnretainedValue().fill(buffer, max: max)
}

private let eventStreamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<EventStreamClient>.fromOpaque(cls).release()
}
