import COpenSSL
@_exported import Model

// OpenSSL, wrapped once for the shells: fast digests of large files, P-256 signatures and random
// nonces. Plain bytes in, plain bytes out; no handles leak. (The core's own digests are plain
// Swift, in Model.)

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

    /// `verify` as the core's signature checker.
    public static let checker = SignatureChecker("P-256") { signature, message, key in
        verify(signature: signature, of: message, publicKey: key)
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
