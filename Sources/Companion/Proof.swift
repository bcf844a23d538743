import COpenSSL
import Foundation

/// An asset tag as its QR code carries it, proven with a message authentication code (SCAN-2).
///
/// Payload: `MFST-T1/<register id>/<tag>/<mac>`, where `mac` is HMAC-SHA-256 over
/// "<register id>\n<tag>", keyed by the register's tag key, in unpadded base64url (43 characters).
/// A code that looks like this but fails the proof (another key, an altered tag, a truncated or
/// foreign-register code) is not ours and settles like any other code.
public struct AssetTagCode: Sendable, Hashable {
    public var registerID: String
    public var tag: String

    public static let prefix = "MFST-T1/"

    public init(registerID: String, tag: String) {
        self.registerID = registerID
        self.tag = tag
    }

    /// The QR payload for this tag, signed with `key`.
    public func payload(key: [UInt8]) -> String {
        Self.prefix + registerID + "/" + tag + "/" + base64url(hmacSHA256(key: key, Array("\(registerID)\n\(tag)".utf8)))
    }

    /// The tag a payload proves, or nil when it is not one of this register's tags.
    public static func prove(_ payload: String, registerID: String, key: [UInt8]) -> AssetTagCode? {
        guard payload.hasPrefix(prefix), !key.isEmpty else { return nil }
        let parts = payload.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == registerID, !parts[1].isEmpty else { return nil }
        let code = AssetTagCode(registerID: parts[0], tag: parts[1])
        let expected = Array(code.payload(key: key).utf8)
        return constantTimeEqual(expected, Array(payload.utf8)) ? code : nil
    }
}

/// A Mac's pairing code, shown on its pairing card (SCAN-4): its name, where it listens, and the
/// SHA-256 fingerprint of its certificate, which the phone pins.
///
/// Payload: `MFST-P1/<name>/<host:port>/<fingerprint hex>/<mac>`, the name percent-encoded, the
/// mac an HMAC-SHA-256 over the rest keyed by Manifest's pairing key: a code made by Manifest, not
/// typed up by someone else. What proves the Mac itself is the fingerprint, checked at pairing.
public struct PairingCode: Sendable, Hashable {
    public var macName: String
    public var address: String
    public var fingerprint: String

    public static let prefix = "MFST-P1/"
    /// Manifest's product-wide key for pairing codes.
    static let key = Array("manifest-pairing-code-v1".utf8)

    public init(macName: String, address: String, fingerprint: String) {
        self.macName = macName
        self.address = address
        self.fingerprint = fingerprint
    }

    public var payload: String {
        let name = macName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? macName
        let body = Self.prefix + name + "/" + address + "/" + fingerprint.lowercased()
        return body + "/" + base64url(hmacSHA256(key: Self.key, Array(body.utf8)))
    }

    /// The pairing code a payload proves, or nil.
    public static func prove(_ payload: String) -> PairingCode? {
        guard payload.hasPrefix(prefix) else { return nil }
        let parts = payload.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let name = parts[0].removingPercentEncoding, !name.isEmpty, !parts[1].isEmpty,
            parts[2].count == 64, parts[2].allSatisfy(\.isHexDigit)
        else { return nil }
        let code = PairingCode(macName: name, address: parts[1], fingerprint: parts[2])
        return constantTimeEqual(Array(code.payload.utf8), Array(payload.utf8)) ? code : nil
    }
}

/// HMAC-SHA-256 through OpenSSL.
public func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let result = key.withUnsafeBytes { k in
        message.withUnsafeBytes { m in
            out.withUnsafeMutableBufferPointer {
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, $0.baseAddress, &length)
            }
        }
    }
    precondition(result != nil, "OpenSSL could not compute HMAC-SHA-256")
    return Array(out.prefix(Int(length)))
}

/// Equal bytes, compared in time that does not depend on where they differ.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
}

/// Unpadded base64url.
func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
