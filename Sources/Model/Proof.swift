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
        Self.prefix + registerID + "/" + tag + "/" + base64url(Digest.hmacSHA256(key: key, Array("\(registerID)\n\(tag)".utf8)))
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

/// A Mac's pairing code, shown on its pairing card (SCAN-4, PAIR-1): its name, where it listens,
/// the SHA-256 fingerprint of its certificate, and that certificate's public key, signed by the
/// same key. The code proves it was made by the holder of the key it names; an altered code (a
/// changed name, address, fingerprint or key, or a truncated signature) is not a pairing code and
/// settles like any other code. No key built into the app takes part: anybody can make a code for
/// their own certificate, which is why the person compares a number before anything is pinned
/// (PAIR-2, `PairingComparison`).
///
/// Payload: `MFST-P2/<name>/<host:port>/<fingerprint hex>/<public key>/<signature>`, the name
/// percent-encoded, the public key a DER SubjectPublicKeyInfo in unpadded base64url, and the
/// signature ECDSA P-256 over SHA-256 of everything before its own slash, as r and s (64 bytes)
/// in unpadded base64url.
public struct PairingCode: Sendable, Hashable {
    public var macName: String
    public var address: String
    /// SHA-256 of the Mac's certificate, lower-case hex: what the phone pins.
    public var fingerprint: String
    /// The certificate's public key (DER SubjectPublicKeyInfo); the handshake must present it.
    public var publicKey: [UInt8]
    public var signature: [UInt8]

    public static let prefix = "MFST-P2/"
    /// The longest payload read as a pairing code; anything longer is not one.
    public static let maximumLength = 2048

    public init(macName: String, address: String, fingerprint: String, publicKey: [UInt8], signature: [UInt8] = []) {
        self.macName = macName
        self.address = address
        self.fingerprint = fingerprint.lowercased()
        self.publicKey = publicKey
        self.signature = signature
    }

    /// What the Mac's key signs: the payload up to the signature.
    public var signedText: String {
        let name = macName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? macName
        return Self.prefix + name + "/" + address + "/" + fingerprint + "/" + base64url(publicKey)
    }

    /// The QR payload.
    public var payload: String { signedText + "/" + base64url(signature) }

    /// The pairing code a payload proves, or nil: the shape is checked, then the signature by
    /// the key the code names, with `check` (a real P-256 check, which a shell provides).
    public static func prove(_ payload: String, checking check: SignatureChecker) -> PairingCode? {
        guard payload.hasPrefix(prefix), payload.utf8.count <= maximumLength else { return nil }
        let parts = payload.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, let name = parts[0].removingPercentEncoding, !name.isEmpty, !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }), parts[2].utf8.count == 64,
            let fingerprint = hexBytes(strict: parts[2]), fingerprint.count == 32, parts[2] == parts[2].lowercased(),
            let key = base64urlDecode(parts[3]), let signature = base64urlDecode(parts[4]), signature.count == 64
        else { return nil }
        let code = PairingCode(macName: name, address: parts[1], fingerprint: parts[2], publicKey: key, signature: signature)
        // The text signed is the text received, so a re-encoded name is not a different code.
        let signed = String(payload.dropLast(parts[4].utf8.count + 1))
        guard signed == code.signedText else { return nil }
        return check(signature, Array(signed.utf8), key) ? code : nil
    }
}

/// The six-digit number both screens show while pairing (PAIR-2), derived from both
/// certificates and a nonce from each side.
///
/// The Mac commits to its nonce (sends its SHA-256) before it sees the phone's, and reveals it
/// only after: nobody in the middle can choose their nonces after seeing the other side's, so a
/// relay with its own certificates makes the two screens show the same number only by chance
/// (one in a million), and the person sees two different numbers.
public enum PairingComparison {
    /// The commitment the Mac sends before the phone's nonce: SHA-256 of its nonce.
    public static func commitment(to nonce: [UInt8]) -> [UInt8] { Digest.sha256(Array("MFST-pair-commit\n".utf8) + nonce) }

    /// Whether `nonce` is what `commitment` promised.
    public static func keeps(_ commitment: [UInt8], _ nonce: [UInt8]) -> Bool {
        constantTimeEqual(Self.commitment(to: nonce), commitment)
    }

    /// The number, six digits (leading zeros kept), from the Mac's and the phone's certificate
    /// fingerprints (hex) and both nonces.
    public static func number(macFingerprint: String, phoneFingerprint: String, macNonce: [UInt8], phoneNonce: [UInt8]) -> String {
        let text = "MFST-pair-compare\n\(macFingerprint.lowercased())\n\(phoneFingerprint.lowercased())\n"
        let digest = Digest.sha256(Array(text.utf8) + macNonce + [0x0A] + phoneNonce)
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The number as it is shown: "042 917".
    public static func shown(_ number: String) -> String {
        guard number.count == 6 else { return number }
        return String(number.prefix(3)) + " " + String(number.suffix(3))
    }
}
