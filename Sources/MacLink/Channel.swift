import COpenSSL
import Crypto
import Durable
import Foundation
import Register

#if canImport(Glibc)
    import Glibc
#endif

/// A request and its body (a bundle, a photograph), as the Mac receives it.
public typealias Request = (request: MacRequest, body: [UInt8])
/// A reply and its body, as the phone receives it.
public typealias Reply = (reply: MacReply, body: [UInt8])

/// The header of a frame: the message, and how many bytes of body follow.
struct FrameHeader<Message: Codable>: Codable {
    var message: Message
    var body: Int
}

/// Framing on a byte stream: 4-byte big-endian header length, the header as JSON, then the body.
public enum Framing {
    static func encode<Message: Codable>(_ message: Message, _ body: [UInt8]) -> [UInt8] {
        let header = Array((try? JSONEncoder().encode(FrameHeader(message: message, body: body.count))) ?? Data())
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + body
    }

    /// The largest header accepted.
    static let maximumHeader = 1 << 16
    /// The largest body accepted: a photograph the queue would send (50 MB) and some room.
    static let maximumBody = 64 << 20

    /// Reads one message with `read(count)`, which returns exactly that many bytes or throws.
    /// Every length is bounded before anything is allocated, and a body is read in pieces, so a
    /// peer announcing a large body and sending nothing costs nothing.
    static func decode<Message: Codable>(_ type: Message.Type, _ read: (Int) throws(LinkError) -> [UInt8]) throws(LinkError) -> (
        Message, [UInt8]
    ) {
        let size = try read(4)
        let n = Int(size[0]) << 24 | Int(size[1]) << 16 | Int(size[2]) << 8 | Int(size[3])
        guard n > 0, n <= maximumHeader else { throw LinkError(.protocolError("a header of \(n) bytes")) }
        guard let header = try? JSONDecoder().decode(FrameHeader<Message>.self, from: Data(try read(n))) else {
            throw LinkError(.protocolError("an unreadable header"))
        }
        guard header.body >= 0, header.body <= maximumBody else { throw LinkError(.protocolError("a body of \(header.body) bytes")) }
        var body: [UInt8] = []
        while body.count < header.body {
            body += try read(min(1 << 20, header.body - body.count))
        }
        return (header.message, body)
    }
}

extension Framing {
    /// One request from bytes as they arrived on the wire: what the Mac's server does with each
    /// frame, for fuzzing and tests. Throws for anything that is not exactly one frame.
    public static func request(from bytes: [UInt8]) throws(LinkError) -> Request {
        var offset = 0
        let (request, body) = try decode(MacRequest.self) { (n: Int) throws(LinkError) -> [UInt8] in
            guard n >= 0, offset + n <= bytes.count else { throw LinkError(.protocolError("the frame ends early")) }
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }
        return (request, body)
    }
}

/// A TLS session over a socket, reading and writing whole frames.
final class TLSStream {
    let ssl: OpaquePointer
    let fd: Int32

    init(ssl: OpaquePointer, fd: Int32) {
        self.ssl = ssl
        self.fd = fd
    }

    deinit {
        SSL_shutdown(ssl)
        SSL_free(ssl)
        close(fd)
    }

    func write(_ bytes: [UInt8]) throws(LinkError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32(min($0.count - offset, 1 << 20))) }
            guard n > 0 else { throw LinkError(.unreachable) }
            offset += Int(n)
        }
    }

    func read(_ count: Int) throws(LinkError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = out.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress! + offset, Int32(min(count - offset, 1 << 20))) }
            guard n > 0 else { throw LinkError(.unreachable) }
            offset += Int(n)
        }
        return out
    }

    func send<Message: Codable>(_ message: Message, _ body: [UInt8]) throws(LinkError) { try write(Framing.encode(message, body)) }
    func receive<Message: Codable>(_ type: Message.Type) throws(LinkError) -> (Message, [UInt8]) {
        try Framing.decode(type) { (n: Int) throws(LinkError) in try read(n) }
    }
}

/// "host:port" split; nil when it is not one.
func splitAddress(_ address: String) -> (host: String, port: UInt16)? {
    guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else { return nil }
    return (String(address[..<colon]), port)
}

/// The phone's end of the pinned channel (HANDOVER-1): TLS to the paired Mac, whose certificate
/// must have the SHA-256 fingerprint taken at pairing. The pin is checked right after the
/// handshake, before a byte of the phone's data is sent; any other certificate is refused. The
/// phone presents its own certificate, which the Mac pins in turn (PAIR-3).
public final class PinnedClient {
    public let address: String
    public let pin: String
    /// The phone's certificate, presented to the Mac.
    public let identity: Identity?
    /// While pairing: the public key the pairing code named, which the Mac must present too.
    public let expectedKey: [UInt8]?
    public var timeoutMilliseconds: Int32 = 3000

    public init(address: String, pin: String, identity: Identity? = nil, expectedKey: [UInt8]? = nil) {
        ignoreBrokenPipes()
        self.address = address
        self.pin = pin.lowercased()
        self.identity = identity
        self.expectedKey = expectedKey
    }

    /// Opens a session, checks the pin, sends one request and returns the answer.
    public func request(_ request: MacRequest, _ body: [UInt8]) throws(LinkError) -> Reply {
        let stream = try connect()
        try stream.send(request, body)
        let (reply, replyBody) = try stream.receive(MacReply.self)
        return (reply, replyBody)
    }

    private func connect() throws(LinkError) -> TLSStream {
        let (ssl, fd) = try handshake()
        let stream = TLSStream(ssl: ssl, fd: fd)
        guard let certificate = SSL_get1_peer_certificate(ssl) else { throw LinkError(.protocolError("no certificate presented")) }
        defer { X509_free(certificate) }
        let presented = Identity.fingerprint(of: certificate)
        guard presented == pin else { throw LinkError(.notThePairedMac(presented: presented)) }
        if let expectedKey, Identity.publicKey(of: certificate) != expectedKey {
            throw LinkError(.notThePairedMac(presented: presented))
        }
        return stream
    }

    private func handshake() throws(LinkError) -> (OpaquePointer, Int32) {
        guard let (host, port) = splitAddress(address) else { throw LinkError(.protocolError("'\(address)' is not host:port")) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LinkError(.unreachable) }
        guard let addr = IPv4.address(host, port: port) else {
            close(fd)
            throw LinkError(.protocolError("'\(host)' is not an IPv4 address"))
        }
        setTimeouts(fd, milliseconds: timeoutMilliseconds)
        guard IPv4.connect(fd, to: addr) == nil else {
            close(fd)
            throw LinkError(.unreachable)
        }
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            close(fd)
            throw LinkError(.protocolError("no TLS context"))
        }
        defer { SSL_CTX_free(ctx) }
        _ = fieldrig_ssl_ctx_min_tls12(ctx)
        // The certificate is self-signed: trust comes from the pin, checked after the handshake.
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
        if let identity {
            SSL_CTX_use_certificate(ctx, identity.certificate)
            SSL_CTX_use_PrivateKey(ctx, identity.key)
        }
        guard let ssl = SSL_new(ctx) else {
            close(fd)
            throw LinkError(.protocolError("no TLS session"))
        }
        SSL_set_fd(ssl, fd)
        guard SSL_connect(ssl) == 1 else {
            let detail = opensslError() ?? "the peer closed the connection"
            SSL_free(ssl)
            close(fd)
            throw LinkError(.handshakeFailed(detail))
        }
        return (ssl, fd)
    }
}

/// Read and write time-outs on a socket, so a silent peer cannot hold a thread for ever.
func setTimeouts(_ fd: Int32, milliseconds: Int32) {
    var timeout = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
}

/// The Mac's end: a TLS listener presenting its identity and asking each client for its
/// certificate (whose fingerprint the handler gets, nil when none was presented), answering each
/// request with `handler`. Connections are served side by side, each on its own thread, up to
/// `maximumConnections`; a connection that says nothing for `idleMilliseconds` (in the handshake
/// or between requests) is closed, so one silent client cannot hold up the others.
public final class TLSServer: @unchecked Sendable {
    // @unchecked Sendable: `listener` and `ctx` are set once in init and only read after (OpenSSL
    // contexts may be shared by threads once set up); what changes is in `state`.
    public let port: UInt16
    private let listener: Int32
    private let ctx: OpaquePointer
    private let state = Locked((stopped: false, active: 0))
    public let maximumConnections: Int
    public let idleMilliseconds: Int32

    /// Listens on `host:port` (port 0 picks a free one; `port` then says which). The host must be
    /// an IPv4 address: the server binds exactly that, never every interface in its place.
    public init(identity: Identity, host: String, port: UInt16, maximumConnections: Int = 32, idleMilliseconds: Int32 = 5000)
        throws(LinkError)
    {
        ignoreBrokenPipes()
        self.maximumConnections = maximumConnections
        self.idleMilliseconds = idleMilliseconds
        guard let addr = IPv4.address(host, port: port) else {
            throw LinkError(.protocolError("cannot listen on '\(host)': give an IPv4 address such as 127.0.0.1"))
        }
        let fd: Int32
        switch IPv4.listen(on: addr, backlog: 16) {
        case .success(let listening):
            fd = listening.fd
            self.port = listening.port
        case .failure(let error):
            throw LinkError(.protocolError("cannot listen on \(host):\(port): \(errnoDescription(error.code))"))
        }
        listener = fd
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            close(fd)
            throw LinkError(.protocolError("no TLS context"))
        }
        _ = fieldrig_ssl_ctx_min_tls12(ctx)
        SSL_CTX_use_certificate(ctx, identity.certificate)
        SSL_CTX_use_PrivateKey(ctx, identity.key)
        // Ask for the client's certificate; it is self-signed, so trust is the handler's pin check.
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, { _, _ in 1 })
        self.ctx = ctx
    }

    deinit {
        stop()
        SSL_CTX_free(ctx)
    }

    /// Serves until `stop()`: each request on a connection gets `handler`'s answer, given the
    /// request and the fingerprint of the certificate the client presented.
    public func serve(_ handler: @escaping @Sendable (Request, String?) -> Reply) {
        let thread = Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if isStopped { return }
                    continue
                }
                guard admit() else {
                    close(client)
                    continue
                }
                let connection = Thread { [self] in
                    defer { leave() }
                    serveConnection(client, handler)
                }
                connection.start()
            }
        }
        thread.start()
    }

    private func serveConnection(_ client: Int32, _ handler: @Sendable (Request, String?) -> Reply) {
        setTimeouts(client, milliseconds: idleMilliseconds)
        guard let ssl = SSL_new(ctx) else {
            close(client)
            return
        }
        SSL_set_fd(ssl, client)
        let stream = TLSStream(ssl: ssl, fd: client)
        guard SSL_accept(ssl) == 1 else { return }
        var peer: String? = nil
        if let certificate = SSL_get1_peer_certificate(ssl) {
            peer = Identity.fingerprint(of: certificate)
            X509_free(certificate)
        }
        while !isStopped, let (request, body) = try? stream.receive(MacRequest.self) {
            let answer = handler((request, body), peer)
            guard (try? stream.send(answer.reply, answer.body)) != nil else { break }
        }
    }

    private func admit() -> Bool {
        state.withLock { s in
            guard s.active < maximumConnections else { return false }
            s.active += 1
            return true
        }
    }

    private func leave() { state.withLock { $0.active -= 1 } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops listening.
    public func stop() {
        let already = state.withLock { s in
            defer { s.stopped = true }
            return s.stopped
        }
        if !already {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }
}

/// The C library's sentence for the current errno.

/// The way the phone reaches the paired Mac: the pinned TLS channel, or the simulated Mac in
/// the same process for scenarios.
public protocol MacConnection: AnyObject {
    func request(_ request: MacRequest, _ body: [UInt8]) throws(LinkError) -> Reply
}

extension PinnedClient: MacConnection {}

extension MacConnection {
    /// A request with no body.
    public func request(_ request: MacRequest) throws(LinkError) -> Reply { try self.request(request, []) }
}

/// The simulated Mac in this process, reached as the phone would reach it: it can be off the
/// network, and it can be an impostor presenting another certificate than the pinned one.
public final class InProcessLink: MacConnection {
    public let mac: SimulatedMac
    public var reachable = true
    /// The fingerprint and key the Mac presents, and the fingerprint (and, while pairing, the
    /// key) the phone expects.
    public var presented: String
    public var presentedKey: [UInt8]
    public var pin: String
    public var expectedKey: [UInt8]?
    /// The phone's certificate fingerprint, as the phone presents it.
    public var phoneFingerprint: String
    /// What the Mac sees instead of the phone's certificate: somebody relaying in between with
    /// their own certificate.
    public var relayedAs: String?
    /// The next request reaches the Mac, and its reply is lost on the way back (the phone sees
    /// nothing answer); the one after is answered as usual.
    public var losesNextReply = false
    public let now: () -> Timestamp

    public init(mac: SimulatedMac, fingerprint: String, key: [UInt8] = [], phoneFingerprint: String, now: @escaping () -> Timestamp) {
        self.mac = mac
        presented = fingerprint
        presentedKey = key
        pin = fingerprint
        self.phoneFingerprint = phoneFingerprint
        self.now = now
    }

    public func request(_ request: MacRequest, _ body: [UInt8]) throws(LinkError) -> Reply {
        guard reachable else { throw LinkError(.unreachable) }
        guard presented == pin else { throw LinkError(.notThePairedMac(presented: presented)) }
        if let expectedKey, expectedKey != presentedKey { throw LinkError(.notThePairedMac(presented: presented)) }
        let reply = mac.handle((request, body), from: relayedAs ?? phoneFingerprint, at: now())
        if losesNextReply {
            losesNextReply = false
            throw LinkError(.unreachable)
        }
        return reply
    }
}

/// A peer that hangs up mid-write must be an error, not SIGPIPE ending the process.
private let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()
func ignoreBrokenPipes() { brokenPipesIgnored }

/// OpenSSL's reason for the last failure on this thread, if it queued one.
func opensslError() -> String? {
    let code = ERR_get_error()
    guard code != 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    ERR_clear_error()
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
