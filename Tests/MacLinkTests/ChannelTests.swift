import Companion
import Crypto
import Foundation
import Register
import Testing

@testable import MacLink

let t0 = Timestamp(year: 2026, month: 11, day: 30, hour: 9)

func macRegister() throws -> (Register, String) {
    let folder = NSTemporaryDirectory() + "fieldrig-maclink-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return (try Register(path: "\(folder)/mac.sqlite"), folder)
}

/// The phone the test Macs have pinned.
let phone = String(repeating: "9a", count: 32)

/// A simulated Mac with `phone` pinned.
func pairedMac(_ register: Register, _ folder: String, answer: MacAnswer = .byHand) throws -> SimulatedMac {
    try register.pinPhone(PairedPhone(fingerprint: phone, name: "iPhone", pairedAt: t0))
    return SimulatedMac(
        name: "Studio Mac", fingerprint: String(repeating: "5e", count: 32), register: register, photosFolder: "\(folder)/photos",
        answer: answer)
}

@Suite("The pinned channel, over a real loopback socket")
struct ChannelTests {
    @Test("the pinned client talks to the Mac whose certificate it pinned")
    func pinned() throws {
        let identity = try Identity.generate(name: "Studio Mac")
        let server = try TLSServer(identity: identity, host: "127.0.0.1", port: 0)
        let received = Locked([String]())
        server.serve { request, _ in
            received.withLock { $0.append(request.request.name) }
            return (MacReply.received(file: "echo", bytes: request.body.count, sha256: ""), request.body.reversed())
        }
        defer { server.stop() }
        let client = PinnedClient(address: "127.0.0.1:\(server.port)", pin: identity.fingerprint)
        let answer = try client.request(MacRequest.photo(file: "a.jpg"), [1, 2, 3])
        #expect(answer.reply == .received(file: "echo", bytes: 3, sha256: "") && answer.body == [3, 2, 1])
        #expect(received.current == ["photo"])
        #expect(identity.fingerprint.count == 64 && identity.fingerprint.allSatisfy(\.isHexDigit))
    }

    @Test("another certificate is refused before any data crosses")
    func wrongCertificate() throws {
        let impostor = try Identity.generate(name: "Studio Mac")
        let pinned = try Identity.generate(name: "Studio Mac")
        let server = try TLSServer(identity: impostor, host: "127.0.0.1", port: 0)
        let received = Locked([String]())
        server.serve { request, _ in
            received.withLock { $0.append(request.request.name) }
            return (MacReply.pairCancelled, [])
        }
        defer { server.stop() }
        let client = PinnedClient(address: "127.0.0.1:\(server.port)", pin: pinned.fingerprint)
        #expect {
            _ = try client.request(MacRequest.offer(transfer: "t1"), [1, 2, 3])
        } throws: { error in
            (error as? LinkError)?.kind == .notThePairedMac(presented: impostor.fingerprint)
        }
        #expect(received.current.isEmpty)
    }

    @Test("nothing listening: unreachable")
    func unreachable() throws {
        let server = try TLSServer(identity: try Identity.generate(name: "x"), host: "127.0.0.1", port: 0)
        let port = server.port
        server.stop()
        #expect(throws: LinkError(.unreachable)) { try PinnedClient(address: "127.0.0.1:\(port)", pin: "00").request(.hello) }
    }

    @Test("an identity survives being written and read back, fingerprint and all")
    func identityRoundTrip() throws {
        let identity = try Identity.generate(name: "Studio Mac")
        #expect(try Identity.load(pem: identity.pem).fingerprint == identity.fingerprint)
        #expect(throws: LinkError.self) { try Identity.load(pem: "not a certificate") }
    }
}

@Suite("The simulated Mac")
struct SimulatedMacTests {
    @Test("an offer is kept until accepted; nothing is written before; the phone hears only waiting or not")
    func offers() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = try pairedMac(register, folder)
        let bundle = RegisterBundle(
            format: RegisterBundle.format, version: 1, registerID: "R",
            assets: [
                .init(
                    tag: "MF-1", name: "Laptop", serial: "X", model: nil, state: "in service", site: nil, person: nil, vendor: nil,
                    agreement: nil)
            ], sites: [], people: [], vendors: [], agreements: [])
        let first = mac.handle((MacRequest.offer(transfer: "t1"), bundle.encoded()), from: phone, at: t0)
        #expect(
            first.reply == .offer(transfer: "t1", waiting: true, summary: "1 asset, 0 sites, 0 people, 0 vendors and 0 agreements"))
        // The same id again is the same offer.
        _ = mac.handle((MacRequest.offer(transfer: "t1"), bundle.encoded()), from: phone, at: t0)
        #expect(mac.offerCount == 1)
        #expect(try register.counts().assets == 0)
        mac.accept("t1", at: t0)
        #expect(try register.counts().assets == 1)
        #expect(
            mac.handle((MacRequest.status(transfer: "t1"), []), from: phone, at: t0).reply
                == .offer(transfer: "t1", waiting: false, summary: "1 asset, 0 sites, 0 people, 0 vendors and 0 agreements"))
    }

    @Test("declined and expired offers write nothing, and answer exactly as an accepted one does")
    func sameAnswer() throws {
        var answers: [MacReply] = []
        for answer in [MacAnswer.accept(after: .seconds(60)), .decline(after: .seconds(60)), .expire(after: .seconds(60))] {
            let (register, folder) = try macRegister()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mac = try pairedMac(register, folder, answer: answer)
            let bundle = RegisterBundle(
                format: RegisterBundle.format, version: 1, registerID: "R", assets: [], sites: [], people: [], vendors: [], agreements: [])
            _ = mac.handle((MacRequest.offer(transfer: "t"), bundle.encoded()), from: phone, at: t0)
            let summary = "0 assets, 0 sites, 0 people, 0 vendors and 0 agreements"
            #expect(
                mac.handle((MacRequest.status(transfer: "t"), []), from: phone, at: t0.adding(.seconds(59))).reply
                    == .offer(transfer: "t", waiting: true, summary: summary))
            answers.append(mac.handle((MacRequest.status(transfer: "t"), []), from: phone, at: t0.adding(.seconds(61))).reply)
        }
        #expect(answers[0] == answers[1] && answers[1] == answers[2])
        #expect(answers[0] == .offer(transfer: "t", waiting: false, summary: "0 assets, 0 sites, 0 people, 0 vendors and 0 agreements"))
    }

    @Test("a photograph is received whole and answered with its size and digest")
    func photo() throws {
        let (register, folder) = try macRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mac = try pairedMac(register, folder)
        let answer = mac.handle((MacRequest.photo(file: "p.jpg"), [1, 2, 3]), from: phone, at: t0)
        #expect(answer.reply == .received(file: "p.jpg", bytes: 3, sha256: sha256Hex([1, 2, 3])))
        #expect(mac.handle((MacRequest.photo(file: "../escape.jpg"), [1]), from: phone, at: t0).reply.name == "refused")
    }
}
