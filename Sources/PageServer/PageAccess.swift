/// Who a page with real powers answers. A request must name the page by one of its own hosts
/// (a page asked for under any other name may be a site that rebound its name to this machine),
/// carry the run's secret (the cookie the page sets, or `?token=` on the address printed), and,
/// for anything but reading, come from the page itself (its `Origin`, when a browser sends one).
public struct PageAccess: Sendable {
    /// The run's secret.
    public let token: String
    /// Host names the page may be asked for by, without the port (`127.0.0.1`, `localhost`, ...).
    public let hostNames: [String]

    /// `token` must be what `PageAccess.isAcceptable(token:)` accepts.
    public init(token: String, hostNames: [String]) {
        self.token = token
        self.hostNames = hostNames.map { $0.lowercased() }
    }

    /// A new secret from the system's random source: 32 bytes as 64 hexadecimal digits.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = generator.next()
            return (0..<8).map { byte in hexByte(UInt8(truncatingIfNeeded: word >> (8 * UInt64(byte)))) }.joined()
        }.joined()
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// Whether `token` may be a page's secret: 16 to 256 characters, letters, digits and `-._~`
    /// (it goes into an address and a cookie as it is).
    public static func isAcceptable(token: String) -> Bool {
        (16...256).contains(token.count)
            && token.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "-._~".unicodeScalars.contains(scalar)
            }
    }

    /// The cookie that carries the secret; named by the port, since browsers share cookies
    /// between the ports of one host.
    public static func cookieName(port: UInt16) -> String { "fieldrig-live-\(port)" }

    /// The `Set-Cookie` value that hands the page its secret: sent back only to this host, never
    /// with a request another site starts, and out of the page's scripts' reach.
    public func cookie(port: UInt16) -> String {
        "\(PageAccess.cookieName(port: port))=\(token); Path=/; HttpOnly; SameSite=Strict"
    }

    /// What a request's headers say, as far as access goes.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var host: String?
        public var origin: String?
        public var cookie: String?
        public var queryToken: String?

        public init(method: String, path: String, host: String?, origin: String?, cookie: String?, queryToken: String?) {
            self.method = method
            self.path = path
            self.host = host
            self.origin = origin
            self.cookie = cookie
            self.queryToken = queryToken
        }
    }

    /// What to do with a request.
    public enum Verdict: Equatable, Sendable {
        /// Serve it.
        case allow
        /// The address printed was opened: set the cookie and send the browser to `location`,
        /// so the secret leaves the address bar.
        case admit(location: String)
        /// Refuse it with `status` and a message saying why and what to do.
        case refuse(status: Int, message: String)
    }

    /// The verdict on `request` to the page listening on `port`.
    public func judge(_ request: Request, port: UInt16) -> Verdict {
        guard let host = request.host?.lowercased(), allows(host: host, port: port) else {
            return .refuse(
                status: 421,
                message: "This page is not served under the name '\(request.host ?? "")': open the address fieldrig live printed.\n")
        }
        if request.method == "GET", let given = request.queryToken, Self.same(given, token) {
            return .admit(location: request.path)
        }
        guard let cookie = request.cookie, Self.same(cookie, token) else {
            return .refuse(
                status: 403,
                message:
                    "This page needs the secret of the run that serves it: open the address fieldrig live printed (with its ?token=), in this browser.\n"
            )
        }
        if request.method != "GET" && request.method != "HEAD", let origin = request.origin, origin.lowercased() != "http://\(host)" {
            return .refuse(status: 403, message: "Refused: an action sent from another page (\(origin)), not from this one.\n")
        }
        return .allow
    }

    /// Whether `host` (as a Host header gives it) names this page on `port`.
    func allows(host: String, port: UInt16) -> Bool {
        hostNames.contains { name in host == "\(name):\(port)" || (port == 80 && host == name) }
    }

    /// Compares secrets in time that depends only on their lengths.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
