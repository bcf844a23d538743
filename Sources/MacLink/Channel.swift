import COpenSSL
import Foundation
import Register

#if canImport(Glibc)
    import Glibc
#endif

/// One message on the link: a type, named values, and an optional body (a bundle, a photograph).
public struct Envelope: Codable, Sendable, Equatable {
    public var type: String
    public var values: [String: String]
    public var body: Int

    public init(_ type: String, _ values: [String: String] = [:]) {
        self.type = type
        self.values = values
        body = 0
    }

    public subscript(key: String) -> String? { values[key] }
}

/// A message and its body.
public typealias Message = (envelope: Envelope, body: [UInt8])

/// Framing on a byte stream: 4-byte big-endian header length, the header as JSON, then the body.
enum Framing {
    static func encode(_ envelope: Envelope, _ body: [UInt8]) -> [UInt8] {
        var envelope = envelope
        envelope.body = body.count
        let header = Array((try? JSONEncoder().encode(envelope)) ?? Data())
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + body
    }

    /// Reads one message with `read(count)`, which returns exactly that many bytes or throws.
    static func decode(_ read: (Int) throws(LinkError) -> [UInt8]) throws(LinkError) -> Message {
        let size = try read(4)
        let n = Int(size[0]) << 24 | Int(size[1]) << 16 | Int(size[2]) << 8 | Int(size[3])
        guard n > 0, n < 1 << 20 else { throw LinkError(.protocolError("a header of \(n) bytes")) }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(try read(n))) else {
            throw LinkError(.protocolError("an unreadable header"))
        }
        guard envelope.body >= 0, envelope.body < 1 << 30 else { throw LinkError(.protocolError("a body of \(envelope.body) bytes")) }
        return (envelope, envelope.body > 0 ? try read(envelope.body) : [])
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

    func send(_ envelope: Envelope, _ body: [UInt8]) throws(LinkError) { try write(Framing.encode(envelope, body)) }
    func receive() throws(LinkError) -> Message { try Framing.decode { (n: Int) throws(LinkError) in try read(n) } }
}

/// "host:port" split; nil when it is not one.
func splitAddress(_ address: String) -> (host: String, port: UInt16)? {
    guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else { return nil }
    return (String(address[..<colon]), port)
}

/// The phone's end of the pinned channel (HANDOVER-1): TLS to the paired Mac, whose certificate
/// must have the SHA-256 fingerprint taken at pairing. The pin is checked right after the
/// handshake, before a byte of the phone's data is sent; any other certificate is refused.
public final class PinnedClient {
    public let address: String
    public let pin: String
    public var timeoutMilliseconds: Int32 = 3000

    public init(address: String, pin: String) {
        ignoreBrokenPipes()
        self.address = address
        self.pin = pin.lowercased()
    }

    /// Opens a session, checks the pin, sends one request and returns the answer.
    public func request(_ envelope: Envelope, _ body: [UInt8] = []) throws(LinkError) -> Message {
        let stream = try connect()
        try stream.send(envelope, body)
        return try stream.receive()
    }

    private func connect() throws(LinkError) -> TLSStream {
        let (ssl, fd) = try handshake()
        let stream = TLSStream(ssl: ssl, fd: fd)
        let presented = try peerFingerprint(ssl)
        guard presented == pin else { throw LinkError(.notThePairedMac(presented: presented)) }
        return stream
    }

    private func peerFingerprint(_ ssl: OpaquePointer) throws(LinkError) -> String {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { throw LinkError(.protocolError("no certificate presented")) }
        defer { X509_free(certificate) }
        return Identity.fingerprint(of: certificate)
    }

    private func handshake() throws(LinkError) -> (OpaquePointer, Int32) {
        guard let (host, port) = splitAddress(address) else { throw LinkError(.protocolError("'\(address)' is not host:port")) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LinkError(.unreachable) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &addr.sin_addr) == 1 else {
            close(fd)
            throw LinkError(.protocolError("'\(host)' is not an IPv4 address"))
        }
        var timeout = timeval(tv_sec: Int(timeoutMilliseconds / 1000), tv_usec: Int(timeoutMilliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
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
        guard let ssl = SSL_new(ctx) else {
            close(fd)
            throw LinkError(.protocolError("no TLS session"))
        }
        SSL_set_fd(ssl, fd)
        guard SSL_connect(ssl) == 1 else {
            SSL_free(ssl)
            close(fd)
            throw LinkError(.unreachable)
        }
        return (ssl, fd)
    }
}

/// The Mac's end: a TLS listener on loopback presenting its identity, answering each request with
/// `handler`, one connection at a time, on its own thread.
public final class TLSServer: @unchecked Sendable {
    // @unchecked Sendable: `listener` and `ctx` are set once in init; `stopped` is only written
    // under `lock`.
    public let port: UInt16
    private let listener: Int32
    private let ctx: OpaquePointer
    private let lock = NSLock()
    private var stopped = false

    /// Listens on `host:port` (port 0 picks a free one; `port` then says which).
    public init(identity: Identity, host: String, port: UInt16) throws(LinkError) {
        ignoreBrokenPipes()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &addr.sin_addr)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw LinkError(.protocolError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))"))
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.port = UInt16(bigEndian: actual.sin_port)
        listener = fd
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw LinkError(.protocolError("no TLS context")) }
        _ = fieldrig_ssl_ctx_min_tls12(ctx)
        SSL_CTX_use_certificate(ctx, identity.certificate)
        SSL_CTX_use_PrivateKey(ctx, identity.key)
        self.ctx = ctx
    }

    deinit {
        stop()
        SSL_CTX_free(ctx)
    }

    /// Serves until `stop()`: each request on a connection gets `handler`'s answer.
    public func serve(_ handler: @escaping @Sendable (Message) -> Message) {
        let thread = Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if isStopped { return }
                    continue
                }
                guard let ssl = SSL_new(ctx) else {
                    close(client)
                    continue
                }
                SSL_set_fd(ssl, client)
                let stream = TLSStream(ssl: ssl, fd: client)
                guard SSL_accept(ssl) == 1 else { continue }
                while let request = try? stream.receive() {
                    let answer = handler(request)
                    guard (try? stream.send(answer.envelope, answer.body)) != nil else { break }
                }
            }
        }
        thread.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Stops listening.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if !already {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }
}

/// The way the phone reaches the paired Mac: the pinned TLS channel, or the simulated Mac in
/// the same process for scenarios.
public protocol MacConnection: AnyObject {
    func request(_ envelope: Envelope, _ body: [UInt8]) throws(LinkError) -> Message
}

extension PinnedClient: MacConnection {}

/// The simulated Mac in this process, reached as the phone would reach it: it can be off the
/// network, and it can be an impostor presenting another certificate than the pinned one.
public final class InProcessLink: MacConnection {
    public let mac: SimulatedMac
    public var reachable = true
    /// The fingerprint the Mac presents, and the one the phone pinned.
    public var presented: String
    public var pin: String
    public let now: () -> Timestamp

    public init(mac: SimulatedMac, fingerprint: String, now: @escaping () -> Timestamp) {
        self.mac = mac
        presented = fingerprint
        pin = fingerprint
        self.now = now
    }

    public func request(_ envelope: Envelope, _ body: [UInt8]) throws(LinkError) -> Message {
        guard reachable else { throw LinkError(.unreachable) }
        guard presented == pin else { throw LinkError(.notThePairedMac(presented: presented)) }
        return mac.handle((envelope, body), at: now())
    }
}

/// A peer that hangs up mid-write must be an error, not SIGPIPE ending the process.
private let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()
func ignoreBrokenPipes() { brokenPipesIgnored }
