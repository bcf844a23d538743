import COpenSSL

// OpenSSL, wrapped once for the parts of the rig that prove things: digests, message
// authentication codes and P-256 signatures. Plain bytes in, plain bytes out; no handles leak.

/// The SHA-256 digest of `bytes`.
public func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { data in
        digest.withUnsafeMutableBufferPointer { EVP_Digest(data.baseAddress, data.count, $0.baseAddress, &length, EVP_sha256(), nil) }
    }
    precondition(ok == 1, "OpenSSL could not compute SHA-256")
    return Array(digest.prefix(Int(length)))
}

/// The SHA-256 digest of `bytes`, as lower-case hex.
public func sha256Hex(_ bytes: [UInt8]) -> String { hexString(sha256(bytes)) }

/// HMAC-SHA-256 of `message` under `key`.
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
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
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

/// Unpadded base64url back to bytes; nil for any other character, a padding sign, or a length
/// no encoding has (one character left over), or bits left over that an encoder never sets.
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

/// P-256 (ECDSA over SHA-256) signatures, as 64 bytes: r then s, each 32 bytes big-endian.
public enum P256 {
    /// Whether `signature` is a valid signature of `message` by the public key `publicKey`
    /// (a DER SubjectPublicKeyInfo naming a P-256 key, compressed or not).
    public static func verify(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, !publicKey.isEmpty, publicKey.count <= 512 else { return false }
        guard let key = publicKeyHandle(publicKey) else { return false }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else { return false }
        guard let der = derSignature(raw: signature) else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let result = der.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        return result == 1
    }

    /// A key parsed from DER SubjectPublicKeyInfo, or nil.
    static func publicKeyHandle(_ spki: [UInt8]) -> OpaquePointer? {
        spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            // Trailing bytes after the key mean it is not exactly a key.
            guard let key, cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                if let key { EVP_PKEY_free(key) }
                return nil
            }
            return key
        }
    }

    /// The DER SEQUENCE { r, s } OpenSSL verifies, from the raw 64-byte form.
    static func derSignature(raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The raw 64-byte form of a DER ECDSA signature, or nil.
    public static func rawSignature(der: [UInt8]) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer? = nil
            var s: OpaquePointer? = nil
            ECDSA_SIG_get0(signature, &r, &s)
            var out = [UInt8](repeating: 0, count: 64)
            let ok = out.withUnsafeMutableBufferPointer { o in
                BN_bn2binpad(r, o.baseAddress, 32) == 32 && BN_bn2binpad(s, o.baseAddress! + 32, 32) == 32
            }
            return ok ? out : nil
        }
    }
}

/// Random bytes from OpenSSL's generator, for nonces.
public func randomBytes(_ count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
    precondition(ok == 1, "OpenSSL could not produce random bytes")
    return out
}
