// SHA-256, HMAC-SHA-256, hex and base64url in plain Swift, so the core can prove asset tags and
// derive comparison numbers without a C library. The shells use OpenSSL for bulk hashing (the
// `Crypto` target); a test holds the two to the same answers.

/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104).
public enum Digest {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The SHA-256 digest of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var message = bytes
        let bitLength = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8 | UInt32(message[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
            h[5] = h[5] &+ f
            h[6] = h[6] &+ g
            h[7] = h[7] &+ hh
        }
        return h.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
    }

    /// HMAC-SHA-256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5c } + inner)
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
}

/// Equal bytes, compared in time that does not depend on where they differ.
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
}

/// Bytes as lower-case hex.
public func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Hex text as bytes ("0a1b" → [10, 27]); nil unless it is whole pairs of ASCII hex digits.
public func hexBytes(strict text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count / 2)
    var i = 0
    while i < utf8.count {
        guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
        bytes.append(high << 4 | low)
        i += 2
    }
    return bytes
}

private let base64urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

/// Unpadded base64url (RFC 4648, section 5).
public func base64url(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var i = 0
    while i < bytes.count {
        let chunk = min(3, bytes.count - i)
        let b0 = UInt32(bytes[i])
        let b1 = chunk > 1 ? UInt32(bytes[i + 1]) : 0
        let b2 = chunk > 2 ? UInt32(bytes[i + 2]) : 0
        let n = b0 << 16 | b1 << 8 | b2
        for k in 0..<(chunk + 1) { out.append(base64urlAlphabet[Int((n >> (18 - 6 * UInt32(k))) & 0x3F)]) }
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}

/// Unpadded base64url back to bytes; nil for any other character, a padding sign, a length no
/// encoding has (one character left over), or bits left over that an encoder never sets.
public func base64urlDecode(_ text: String) -> [UInt8]? {
    var values: [UInt8] = []
    values.reserveCapacity(text.utf8.count)
    for c in text.utf8 {
        guard let index = base64urlAlphabet.firstIndex(of: c) else { return nil }
        values.append(UInt8(index))
    }
    guard values.count % 4 != 1 else { return nil }
    var out: [UInt8] = []
    var i = 0
    while i < values.count {
        let chunk = min(4, values.count - i)
        var n: UInt32 = 0
        for k in 0..<4 { n = n << 6 | (k < chunk ? UInt32(values[i + k]) : 0) }
        let bytes = [UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        out.append(contentsOf: bytes.prefix(chunk - 1))
        // A canonical encoding leaves the unused low bits of the last character zero.
        if chunk < 4, bytes[chunk - 1] != 0 { return nil }
        i += 4
    }
    return out
}

/// Checks a signature: `(signature, message, publicKey) -> valid`. The core asks; a shell answers
/// with a real P-256 check (`P256.checker` in the `Crypto` target). Two checkers are equal when
/// they have the same name, so a screen holding one stays a comparable value.
public struct SignatureChecker: Sendable, Hashable {
    public let name: String
    private let check: @Sendable (_ signature: [UInt8], _ message: [UInt8], _ publicKey: [UInt8]) -> Bool

    public init(_ name: String, _ check: @escaping @Sendable (_ signature: [UInt8], _ message: [UInt8], _ publicKey: [UInt8]) -> Bool) {
        self.name = name
        self.check = check
    }

    public func callAsFunction(_ signature: [UInt8], _ message: [UInt8], _ publicKey: [UInt8]) -> Bool {
        check(signature, message, publicKey)
    }

    /// Accepts no signature: nothing signed proves until a shell gives a real checker.
    public static let refuseAll = SignatureChecker("refuse all") { _, _, _ in false }

    public static func == (a: SignatureChecker, b: SignatureChecker) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
