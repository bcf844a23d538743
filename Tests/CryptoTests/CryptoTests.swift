import Crypto
import Testing

/// A P-256 key, a message and its signature, made with the `openssl` command-line tool, so the
/// check below is against an implementation other than ours.
let vectorKey = hexBytes(
    strict:
        "3059301306072a8648ce3d020106082a8648ce3d03010703420004025c535c8eefbe17dfe49a3211f96f967811c23c09f60ee9cba898f26d902f2030aa38b2c9d04e461afa504f9176ffec88d596ba987b578d2db56329540ba6b1"
)!
let vectorSignature = hexBytes(
    strict:
        "299efc5d8aa7a2e9bba508e2bcd905700ed1dc2b8fda27c308326ccb8408f020d2cc596ed8a4a47e6771ee4e6bfa02a7d98d347446a46edd2be0269ce8f4a3ef"
)!
let vectorMessage = Array("MFST test message".utf8)

@Suite("Digests, encodings and signatures")
struct CryptoTests {
    @Test("SHA-256 and HMAC-SHA-256 give the published test vectors")
    func digests() {
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 4231, test case 2.
        #expect(
            hexString(Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("the core's plain-Swift SHA-256 and HMAC give OpenSSL's answers, at every padding boundary")
    func plainSwiftAgrees() {
        for n in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            #expect(Digest.sha256(bytes) == sha256(bytes), "\(n) bytes")
        }
        // RFC 4231, test case 6: a key longer than the block.
        #expect(
            hexString(
                Digest.hmacSHA256(
                    key: [UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("base64url round-trips every length, and refuses what no encoder writes")
    func base64() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(base64urlDecode(base64url(bytes)) == bytes)
        }
        #expect(base64url(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(base64url([0xFB, 0xFF]) == "-_8")
        #expect(base64urlDecode("Zm9v+mFy") == nil)  // standard alphabet, not url
        #expect(base64urlDecode("Zm9vYg==") == nil)  // padding
        #expect(base64urlDecode("Zm9vY") == nil)  // a length no encoding has
        #expect(base64urlDecode("Zm9vYh") == nil)  // bits left over
        #expect(base64urlDecode("Zm٩v") == nil)  // a digit from another script
    }

    @Test("hex is whole pairs of ASCII hex digits, nothing else")
    func hex() {
        #expect(hexBytes(strict: "0a1B") == [0x0A, 0x1B])
        #expect(hexBytes(strict: "0a1") == nil)
        #expect(hexBytes(strict: "0g") == nil)
        #expect(hexBytes(strict: "０a") == nil)  // full-width digit
        #expect(hexString([0, 255, 16]) == "00ff10")
    }

    @Test("a P-256 signature made by openssl verifies; any change to message, signature or key does not")
    func signatures() {
        #expect(P256.verify(signature: vectorSignature, of: vectorMessage, publicKey: vectorKey))
        #expect(!P256.verify(signature: vectorSignature, of: vectorMessage + [0x20], publicKey: vectorKey))
        var signature = vectorSignature
        signature[10] ^= 1
        #expect(!P256.verify(signature: signature, of: vectorMessage, publicKey: vectorKey))
        #expect(!P256.verify(signature: Array(vectorSignature.dropLast()), of: vectorMessage, publicKey: vectorKey))
        var key = vectorKey
        key[key.count - 1] ^= 1
        #expect(!P256.verify(signature: vectorSignature, of: vectorMessage, publicKey: key))
        #expect(!P256.verify(signature: vectorSignature, of: vectorMessage, publicKey: vectorKey + [0]))
        #expect(!P256.verify(signature: vectorSignature, of: vectorMessage, publicKey: []))
        #expect(!P256.verify(signature: [UInt8](repeating: 0, count: 64), of: vectorMessage, publicKey: vectorKey))
    }

    @Test("equal bytes compare equal, whatever their length; different ones do not")
    func comparison() {
        #expect(constantTimeEqual([], []))
        #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEqual([1, 2], [1, 2, 3]))
    }
}
