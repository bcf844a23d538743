import COpenSSL
import Crypto
import Durable
import Foundation
import Model

/// Why the channel to the Mac failed. The message says what happened and what to do.
public struct LinkError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Nothing answered at the address: the Mac is not on this network.
        case unreachable
        /// Something answered with another certificate: it is not the paired Mac.
        case notThePairedMac(presented: String)
        case protocolError(String)
        case identity(String)
        /// Something answered at the address, but the TLS handshake failed.
        case handshakeFailed(String)
    }

    public let kind: Kind
    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .unreachable: return "the Mac is not on this network (nothing answered)"
        case .notThePairedMac(let presented):
            return
                "this is not the paired Mac: it presented a certificate with fingerprint \(presented.prefix(16))…, not the one pinned at pairing. Nothing was sent."
        case .protocolError(let detail): return "the Mac's answer made no sense (\(detail))"
        case .identity(let detail): return "the certificate could not be made or read (\(detail))"
        case .handshakeFailed(let detail):
            return
                "something answered at the Mac's address, but the secure connection failed (\(detail)): another program may be listening there, or a Mac that speaks another TLS version"
        }
    }
}

/// A self-signed certificate and its key: the Mac's, which the phone pins at pairing by
/// fingerprint, or the phone's, which the Mac pins (PAIR-3).
public final class Identity: @unchecked Sendable {
    // @unchecked Sendable: the key and certificate are never mutated after init; OpenSSL's
    // reference-counted objects may be read from several threads.
    let key: OpaquePointer
    let certificate: OpaquePointer
    /// SHA-256 of the certificate's DER encoding, as lower-case hex.
    public let fingerprint: String

    /// A new P-256 key and a self-signed certificate for `name`, valid for ten years.
    public static func generate(name: String) throws(LinkError) -> Identity {
        guard let key = fieldrig_generate_p256_key(), let cert = X509_new() else { throw LinkError(.identity("key generation failed")) }
        X509_set_version(cert, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(cert), Int(UInt32.random(in: 1...UInt32.max)))
        X509_gmtime_adj(X509_getm_notBefore(cert), -3600)
        X509_gmtime_adj(X509_getm_notAfter(cert), 10 * 365 * 86_400)
        X509_set_pubkey(cert, key)
        let subject = X509_get_subject_name(cert)
        X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, name, -1, -1, 0)
        X509_set_issuer_name(cert, subject)
        guard X509_sign(cert, key, EVP_sha256()) > 0 else { throw LinkError(.identity("signing failed")) }
        return Identity(key: key, certificate: cert)
    }

    init(key: OpaquePointer, certificate: OpaquePointer) {
        self.key = key
        self.certificate = certificate
        fingerprint = Identity.fingerprint(of: certificate)
    }

    deinit {
        EVP_PKEY_free(key)
        X509_free(certificate)
    }

    static func fingerprint(of certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        X509_digest(certificate, EVP_sha256(), &digest, &length)
        return hexString(Array(digest.prefix(Int(length))))
    }

    /// The DER SubjectPublicKeyInfo of a certificate's key.
    static func publicKey(of certificate: OpaquePointer) -> [UInt8] {
        guard let key = X509_get0_pubkey(certificate) else { return [] }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PUBKEY(key, &out)
        guard length > 0, let out else { return [] }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The certificate's public key, as DER SubjectPublicKeyInfo.
    public var publicKey: [UInt8] { Identity.publicKey(of: certificate) }

    /// An ECDSA P-256 signature of `message` with this key, as r and s (64 bytes).
    public func sign(_ message: [UInt8]) throws(LinkError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw LinkError(.identity("signing failed")) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw LinkError(.identity("signing failed")) }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw LinkError(.identity("signing failed"))
        }
        var der = [UInt8](repeating: 0, count: length)
        let ok = der.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard ok == 1, let raw = P256.rawSignature(der: Array(der.prefix(length))) else { throw LinkError(.identity("signing failed")) }
        return raw
    }

    /// The pairing code for this Mac, signed by its own key (PAIR-1).
    public func pairingCode(name: String, address: String) throws(LinkError) -> PairingCode {
        var code = PairingCode(macName: name, address: address, fingerprint: fingerprint, publicKey: publicKey)
        code.signature = try sign(Array(code.signedText.utf8))
        return code
    }

    /// The key and certificate as PEM, to keep on disk.
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil)
        PEM_write_bio_X509(bio, certificate)
        var pointer: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        return pointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
    }

    /// Reads an identity written by `pem`.
    public static func load(pem: String) throws(LinkError) -> Identity {
        let data = Array(pem.utf8)
        let key: OpaquePointer? = data.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        let cert: OpaquePointer? = data.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let key, let cert else { throw LinkError(.identity("not a key and certificate in PEM")) }
        return Identity(key: key, certificate: cert)
    }

    /// The identity kept at `path`, made and written there the first time. The file holds a
    /// private key: it is written readable by its owner only from its first byte, and one that
    /// another user owns, or that others can read, is refused rather than trusted.
    public static func stored(at path: String, name: String) throws(LinkError) -> Identity {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw LinkError(.identity("\(path) is not a regular file")) }
            guard info.st_uid == geteuid() else { throw LinkError(.identity("\(path) belongs to another user; it is not used")) }
            guard info.st_mode & 0o077 == 0 else {
                throw LinkError(.identity("\(path) can be read by others; it is not used (chmod 600 it if it is yours)"))
            }
            let data: [UInt8]
            do { data = try DurableFile.read(path) } catch { throw LinkError(.identity(error.description)) }
            return try load(pem: String(decoding: data, as: UTF8.self))
        }
        let identity = try generate(name: name)
        do { try DurableFile.write(Array(identity.pem.utf8), to: path, mode: 0o600) } catch {
            throw LinkError(.identity(error.description))
        }
        return identity
    }
}

extension PairingCode {
    /// The pairing code a payload proves, checking its signature with P-256 (PAIR-1).
    public static func prove(_ payload: String) -> PairingCode? { prove(payload, checking: P256.checker) }
}
