import Companion
import Crypto
import Foundation
import Register
import Testing

@testable import MacLink

/// A pairing as the phone plays it, request by request, against a Mac in this process.
func pairInProcess(_ mac: SimulatedMac, phone: String, phoneNonce: [UInt8] = randomBytes(32)) -> (phoneNumber: String?, macNumber: String?)
{
    let begin = mac.handle((MacRequest.pairBegin(phoneName: "Sam's iPhone"), []), from: phone, at: t0)
    guard case .pairCommit(let hex) = begin.reply, let commitment = hexBytes(strict: hex) else {
        return (nil, nil)
    }
    let reveal = mac.handle((MacRequest.pairNonce(nonce: hexString(phoneNonce)), []), from: phone, at: t0)
    guard case .pairReveal(let hex) = reveal.reply, let macNonce = hexBytes(strict: hex), PairingComparison.keeps(commitment, macNonce)
    else {
        return (nil, nil)
    }
    let number = PairingComparison.number(
        macFingerprint: mac.macFingerprint, phoneFingerprint: phone, macNonce: macNonce, phoneNonce: phoneNonce)
    return (PairingComparison.shown(number), mac.pendingPairings.first { $0.phone == phone }?.number)
}

/// A simulated Mac that has pinned no phone yet.
func unpairedMac(_ register: Register, _ folder: String, pairing: PairingConfirmation = .byHand) -> SimulatedMac {
    SimulatedMac(
        name: "Studio Mac", fingerprint: String(repeating: "5e", count: 32), register: register, photosFolder: "\(folder)/p",
        answer: .byHand, pairing: pairing)
}

@Suite("Pairing, both ways (PAIR-1..3)")
struct PairingTests {
    @Test("a pairing code signed by the Mac's key proves; any change to it does not")
    func codes() throws {
        let identity = try Identity.generate(name: "Studio Mac")
        let code = try identity.pairingCode(name: "Studio Mac", address: "127.0.0.1:7443")
        #expect(PairingCode.prove(code.payload) == code)
        #expect(code.fingerprint == identity.fingerprint && code.publicKey == identity.publicKey)
        let payload = code.payload
        let altered = [
            payload.replacingOccurrences(of: "7443", with: "7444"),
            payload.replacingOccurrences(of: "Studio%20Mac", with: "Studio%20Mad"),
            payload.replacingOccurrences(of: code.fingerprint, with: String(repeating: "5e", count: 32)),
            String(payload.dropLast()),
            payload + "A",
            payload.replacingOccurrences(of: "MFST-P2/", with: "MFST-P1/"),
        ]
        for text in altered { #expect(PairingCode.prove(text) == nil, "\(text)") }
        // Another key signing a code that names this Mac's certificate and key: not a pairing code.
        let other = try Identity.generate(name: "Studio Mac")
        var forged = PairingCode(
            macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: identity.fingerprint, publicKey: identity.publicKey)
        forged.signature = try other.sign(Array(forged.signedText.utf8))
        #expect(PairingCode.prove(forged.payload) == nil)
        // A code for another certificate entirely is a pairing code (anybody can make one for
        // their own Mac); it is the comparison number that stops it.
        #expect(PairingCode.prove(try other.pairingCode(name: "Studio Mac", address: "127.0.0.1:7443").payload) != nil)
    }

    @Test("the Mac commits to its nonce before it sees the phone's; both sides derive the same six digits")
    func sameNumber() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = unpairedMac(register, folder)
        let (phoneNumber, macNumber) = pairInProcess(mac, phone: phone)
        #expect(phoneNumber != nil && phoneNumber == macNumber)
        #expect(phoneNumber?.count == 7 && phoneNumber?.filter(\.isNumber).count == 6)
        // Nothing is pinned until the Mac's person confirms.
        #expect(mac.pairedPhones.isEmpty)
        #expect(mac.handle((MacRequest.pairFinish, []), from: phone, at: t0).reply.name == "pair-waiting")
        #expect(mac.confirmPairing(phone, matches: true, at: t0))
        #expect(mac.handle((MacRequest.pairFinish, []), from: phone, at: t0).reply.name == "paired")
        #expect(mac.pairedPhones == [phone])
        // Kept in the Mac's register: a restarted Mac still knows the phone.
        let again = unpairedMac(register, folder)
        #expect(again.pairedPhones == [phone])
    }

    @Test("the Mac's person confirms, then the phone calls pairing off: the pin is taken back, in the register too")
    func calledOffAfterTheMacConfirmed() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = unpairedMac(register, folder)
        _ = pairInProcess(mac, phone: phone)
        #expect(mac.confirmPairing(phone, matches: true, at: t0))
        #expect(mac.pairedPhones == [phone])
        #expect(mac.handle((MacRequest.pairCancel, []), from: phone, at: t0).reply.name == "pair-cancelled")
        #expect(mac.pairedPhones.isEmpty)
        #expect(try register.pairedPhones().isEmpty)
        #expect(unpairedMac(register, folder).pairedPhones.isEmpty)
        // A pairing the phone finished is not undone by a late cancel.
        _ = pairInProcess(mac, phone: phone)
        #expect(mac.confirmPairing(phone, matches: true, at: t0))
        #expect(mac.handle((MacRequest.pairFinish, []), from: phone, at: t0).reply.name == "paired")
        _ = mac.handle((MacRequest.pairCancel, []), from: phone, at: t0)
        #expect(mac.pairedPhones == [phone])
    }

    @Test("a relay with its own certificate sees another number; the Mac's person says no and nothing is pinned")
    func relay() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = unpairedMac(register, folder)
        let relay = String(repeating: "7c", count: 32)
        let (_, macNumber) = pairInProcess(mac, phone: relay)
        // The phone computes its number with its own certificate, which the Mac never saw.
        let macNonce = try #require(mac.pendingPairings.first).macNonce
        let phoneNumber = PairingComparison.shown(
            PairingComparison.number(
                macFingerprint: mac.macFingerprint, phoneFingerprint: phone, macNonce: macNonce, phoneNonce: randomBytes(32)))
        #expect(macNumber != nil && macNumber != phoneNumber)
        #expect(mac.confirmPairing(relay, matches: false, at: t0))
        #expect(mac.handle((MacRequest.pairFinish, []), from: relay, at: t0).reply.name == "refused")
        #expect(mac.pairedPhones.isEmpty)
    }

    @Test("out of order, or with no certificate, pairing is refused")
    func outOfOrder() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = unpairedMac(register, folder, pairing: .automatic)
        #expect(
            mac.handle((MacRequest.pairNonce(nonce: hexString(randomBytes(32))), []), from: phone, at: t0).reply.name == "refused")
        #expect(mac.handle((MacRequest.pairBegin(phoneName: ""), []), from: String?.none, at: t0).reply.name == "refused")
        _ = mac.handle((MacRequest.pairBegin(phoneName: ""), []), from: phone, at: t0)
        #expect(mac.handle((MacRequest.pairNonce(nonce: "00"), []), from: phone, at: t0).reply.name == "refused")
        #expect(mac.pairedPhones.isEmpty)
    }

    @Test("offers, status and photographs from a peer the Mac has not pinned are refused, and nothing is kept")
    func strangers() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = try pairedMac(register, folder)
        let bundle = RegisterBundle(
            format: RegisterBundle.format, version: 1, registerID: "R", assets: [], sites: [], people: [], vendors: [], agreements: [])
        for stranger: String? in [String(repeating: "e1", count: 32), nil] {
            #expect(mac.handle((MacRequest.offer(transfer: "x"), bundle.encoded()), from: stranger, at: t0).reply.name == "refused")
            #expect(mac.handle((MacRequest.photo(file: "p.jpg"), [1]), from: stranger, at: t0).reply.name == "refused")
        }
        _ = mac.handle((MacRequest.offer(transfer: "mine"), bundle.encoded()), from: phone, at: t0)
        #expect(
            mac.handle((MacRequest.status(transfer: "mine"), []), from: String(repeating: "e1", count: 32), at: t0).reply.name
                == "refused")
        #expect(mac.offerCount == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/photos/p.jpg"))
    }
}

@Suite("The Mac's server, against careless and hostile clients")
struct ServerTests {
    @Test("the client's certificate reaches the handler; a client with none is heard as nobody, and a stranger's offer is refused over TLS")
    func clientCertificates() throws {
        let macIdentity = try Identity.generate(name: "Studio Mac")
        let phoneIdentity = try Identity.generate(name: "iPhone")
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try register.pinPhone(PairedPhone(fingerprint: phoneIdentity.fingerprint, name: "iPhone", pairedAt: t0))
        let mac = SimulatedMac(
            name: "Studio Mac", fingerprint: macIdentity.fingerprint, register: register, photosFolder: "\(folder)/p", answer: .byHand)
        let server = try TLSServer(identity: macIdentity, host: "127.0.0.1", port: 0)
        server.serve { mac.handle($0, from: $1, at: t0) }
        defer { server.stop() }
        let address = "127.0.0.1:\(server.port)"
        let bundle = RegisterBundle(
            format: RegisterBundle.format, version: 1, registerID: "R", assets: [], sites: [], people: [], vendors: [], agreements: [])
        let paired = PinnedClient(address: address, pin: macIdentity.fingerprint, identity: phoneIdentity)
        #expect(try paired.request(MacRequest.offer(transfer: "a"), bundle.encoded()).reply.name == "offer")
        let anonymous = PinnedClient(address: address, pin: macIdentity.fingerprint)
        let refused = try anonymous.request(MacRequest.offer(transfer: "b"), bundle.encoded())
        #expect(refused.reply == .refused(reason: SimulatedMac.notPaired))
        let stranger = PinnedClient(address: address, pin: macIdentity.fingerprint, identity: try Identity.generate(name: "x"))
        #expect(try stranger.request(MacRequest.photo(file: "s.jpg"), [1, 2]).reply.name == "refused")
        #expect(mac.offerCount == 1)
    }

    @Test("a silent connection does not hold up the next client")
    func silentClient() throws {
        let identity = try Identity.generate(name: "Studio Mac")
        let server = try TLSServer(identity: identity, host: "127.0.0.1", port: 0)
        server.serve { _, _ in (MacReply.hello(name: "Studio Mac", paired: false), []) }
        defer { server.stop() }
        // A plain TCP connection that never says anything.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = server.port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(silent, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let client = PinnedClient(address: "127.0.0.1:\(server.port)", pin: identity.fingerprint)
        client.timeoutMilliseconds = 2000
        #expect(try client.request(.hello).reply.name == "hello")
    }

    @Test("a header or body longer than the bounds is refused before anything is allocated for it")
    func bounds() throws {
        func frame(header: [UInt8]) -> [UInt8] {
            let n = UInt32(header.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header
        }
        var calls: [Int] = []
        let bigBody = frame(header: Array(#"{"message":{"photo":{"file":"a.jpg"}},"body":1073741824}"#.utf8))
        var offset = 0
        #expect(throws: LinkError(.protocolError("a body of 1073741824 bytes"))) {
            _ = try Framing.decode(MacRequest.self) { (n: Int) throws(LinkError) in
                calls.append(n)
                defer { offset += n }
                return Array(bigBody[offset..<offset + n])
            }
        }
        #expect(calls.allSatisfy { $0 <= Framing.maximumHeader })
        let unknown = frame(header: Array(#"{"message":{"format":{"disk":"/"}},"body":0}"#.utf8))
        offset = 0
        #expect(throws: LinkError(.protocolError("an unreadable header"))) {
            _ = try Framing.decode(MacRequest.self) { (n: Int) throws(LinkError) in
                defer { offset += n }
                return Array(unknown[offset..<offset + n])
            }
        }
        #expect(throws: LinkError(.protocolError("a header of 16777216 bytes"))) {
            _ = try Framing.decode(MacRequest.self) { (n: Int) throws(LinkError) in [1, 0, 0, 0] }
        }
    }

    @Test("an identity is written owner-only from the start, and one that others can read is refused")
    func secretFiles() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-identity-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try Identity.stored(at: "\(folder)/identity.pem", name: "Studio Mac")
        var info = stat()
        #expect(stat("\(folder)/identity.pem", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try Identity.stored(at: "\(folder)/identity.pem", name: "Studio Mac").fingerprint == made.fingerprint)
        chmod("\(folder)/identity.pem", 0o644)
        #expect(throws: LinkError.self) { try Identity.stored(at: "\(folder)/identity.pem", name: "Studio Mac") }
    }

    @Test("listening needs an IPv4 address: a name is refused, never silently every interface")
    func listenAddress() throws {
        let identity = try Identity.generate(name: "Studio Mac")
        #expect(throws: LinkError.self) { try TLSServer(identity: identity, host: "no-such-host.invalid", port: 0) }
        #expect(throws: LinkError.self) { try TLSServer(identity: identity, host: "", port: 0) }
    }

    @Test("something at the address that does not speak our TLS is named as that, not as the Mac being away")
    func notTLS() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: actual.sin_port)
        let server = Thread {
            let client = accept(listener, nil, nil)
            let reply = Array("HTTP/1.0 400 Bad Request\r\n\r\n".utf8)
            _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
        server.start()
        #expect {
            _ = try PinnedClient(address: "127.0.0.1:\(port)", pin: String(repeating: "ab", count: 32)).request(.hello)
        } throws: { error in
            guard case .handshakeFailed? = (error as? LinkError)?.kind else { return false }
            return "\(error)".contains("the secure connection failed")
        }
    }
}
