import Companion
import Foundation
import MacLink
import Model
import Register
import Testing

@testable import fieldrig

/// A `fieldrig mac` process on a free loopback port, for one test.
final class MacProcess {
    let process = Process()
    let input = Pipe()
    let reader: LineReader
    let code: String
    let state: String

    init(answer: String, name: String = "Studio Mac", confirmPairing: Bool = true) throws {
        state = NSTemporaryDirectory() + "fieldrig-mac-\(getpid())-\(UUID().uuidString.prefix(8))"
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments =
            ["mac", "--listen", "127.0.0.1:0", "--answer", answer, "--name", name, "--state", state]
            + (confirmPairing ? ["--confirm-pairing"] : [])
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        reader = LineReader(out.fileHandleForReading)
        code = String(reader.next()?.dropFirst("pairing code: ".count) ?? "")
        _ = reader.next()  // "listening on ..."
    }

    /// Types a line at the Mac's prompt and returns its answer (the lines it prints about
    /// pairing as phones pair are passed over).
    func type(_ line: String) -> String {
        send(line)
        return nextAnswer()
    }

    /// Types a line at the Mac's prompt, reading nothing.
    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// The next line that is not news of a pairing.
    func nextAnswer() -> String {
        while let line = reader.next() {
            if !line.hasPrefix("pairing request from ") && !line.hasPrefix("paired with ") { return line }
        }
        return ""
    }

    /// The next line that is.
    func nextPairingLine() -> String {
        while let line = reader.next() {
            if line.hasPrefix("pairing request from ") || line.hasPrefix("paired with ") { return line }
        }
        return ""
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: state)
    }
}

/// `fieldrig pair --confirm` running on its own, waiting for the person at the Mac.
func startPairing(_ phone: String, _ code: String) throws -> (Process, Pipe, Pipe) {
    let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let pair = Process()
    pair.executableURL = folder.appendingPathComponent("fieldrig")
    pair.arguments = ["pair", "--register", phone, "--confirm", "--wait", "30", code]
    let (out, err) = (Pipe(), Pipe())
    pair.standardOutput = out
    pair.standardError = err
    try pair.run()
    return (pair, out, err)
}

/// A demo register in a scratch folder of its own, so that `discard` takes its side files
/// (`-wal`, `-shm`, `-lock`, `-photos`) with it.
func freshRegister(_ name: String = "phone") throws -> String {
    let folder = NSTemporaryDirectory() + "fieldrig-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/register.sqlite"
    _ = try fieldrig("register", path, "create", "--demo")
    return path
}

/// Removes a register made by `freshRegister`, with everything beside it.
func discard(_ register: String) {
    try? FileManager.default.removeItem(atPath: (register as NSString).deletingLastPathComponent)
}

@Suite("Handing the register over, between two processes on a real socket", .serialized)
struct HandoverTests {
    @Test(
        "accepted, declined and expired look the same on the phone; only an accepted offer is written on the Mac; the phone's register is unchanged"
    )
    func outcomes() throws {
        var screens: [String] = []
        for answer in ["accept", "decline", "expire"] {
            let mac = try MacProcess(answer: answer)
            let phone = try freshRegister()
            defer { discard(phone) }
            #expect(
                try fieldrig("pair", "--register", phone, "--confirm", mac.code).stdout.contains(
                    "\nPaired with Studio Mac, certificate fingerprint "))
            let before = try fieldrig("register", phone, "assets").stdout
            let sent = try fieldrig("handover", "--register", phone, "--send")
            #expect(
                sent.stdout.contains(
                    "With Studio Mac now\n  Waiting for somebody to accept it\n  12 assets, 3 sites, 4 people, 8 vendors and 3 agreements\n  [Check again]"
                ))
            let checked = try fieldrig("handover", "--register", phone, "--check")
            screens.append(checked.stdout)
            #expect(try fieldrig("register", phone, "assets").stdout == before)
            let macAssets = try fieldrig("register", "\(mac.state)/mac-register.sqlite", "counts", "--json").stdout
            #expect(macAssets.contains(answer == "accept" ? #""assets": 12"# : #""assets": 0"#), "\(answer): \(macAssets)")
        }
        #expect(screens[0] == screens[1] && screens[1] == screens[2])
        #expect(
            screens[0].contains(
                "No longer waiting\n  Studio Mac has dealt with the offer: it was accepted, declined, or it timed out, and the Mac shows which.\n  Your register is still on this iPhone, exactly as it was."
            ))
    }

    @Test("a Mac presenting another certificate is refused before any data is sent")
    func wrongCertificate() throws {
        let paired = try MacProcess(answer: "accept")
        let impostor = try MacProcess(answer: "accept")
        let elsewhere = try #require(PairingCode.prove(impostor.code))
        // A code the paired Mac really signed, but naming the address where the impostor listens.
        let realIdentity = try Identity.load(pem: String(contentsOfFile: "\(paired.state)/identity.pem", encoding: .utf8))
        let code = try realIdentity.pairingCode(name: "Studio Mac", address: elsewhere.address).payload
        let phone = try freshRegister()
        defer { discard(phone) }
        let run = try fieldrig("pair", "--register", phone, "--confirm", code)
        #expect(run.status == 1)
        #expect(run.stderr.contains("presented another certificate than its pairing code names"), "\(run.stderr)")
        #expect(impostor.type("list") == "0 offers")
        #expect(try fieldrig("handover", "--register", phone).stdout.contains("Pair with the Mac first."))
    }

    @Test("the Mac not on the network: Needs the Mac on this network, and Send it disabled")
    func unreachable() throws {
        let mac = try MacProcess(answer: "accept")
        let phone = try freshRegister()
        defer { discard(phone) }
        _ = try fieldrig("pair", "--register", phone, "--confirm", mac.code)
        mac.stop()
        let run = try fieldrig("handover", "--register", phone, "--send")
        #expect(run.stdout.contains("  [Send it] (disabled)\n    Needs the Mac on this network."))
    }

    @Test("a restart mid-offer resumes the same transfer: the Mac holds one offer, not two")
    func restart() throws {
        let mac = try MacProcess(answer: "ask")
        let phone = try freshRegister()
        defer { discard(phone) }
        _ = try fieldrig("pair", "--register", phone, "--confirm", mac.code)
        _ = try fieldrig("handover", "--register", phone, "--send")
        let again = try fieldrig("handover", "--register", phone, "--send")  // a new process: the app restarted
        #expect(again.stdout.contains("With Studio Mac now"))
        #expect(mac.type("list") == "1 offers")
    }

    @Test("pairing by hand: the phone and the Mac print the same number; only after both say yes is anything pinned")
    func pairingByHand() throws {
        let mac = try MacProcess(answer: "accept", confirmPairing: false)
        let phone = try freshRegister()
        defer { discard(phone) }
        let (pair, out, _) = try startPairing(phone, mac.code)
        let request = mac.nextPairingLine()
        let macNumber = try #require(
            request.range(of: #"comparison number \d{3} \d{3}"#, options: .regularExpression).map { String(request[$0].suffix(7)) })
        // Not pinned on either side before the Mac's person answers (looked at read-only: the
        // pairing process holds the register for writing).
        #expect(try Register(path: phone, readOnly: true).pairing() == nil)
        mac.send("pair yes")
        #expect(mac.nextPairingLine().hasPrefix("paired with iPhone: its certificate "))
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        pair.waitUntilExit()
        #expect(pair.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("Comparison number: \(macNumber)"), "\(printed)")
        #expect(printed.contains("Paired with Studio Mac, certificate fingerprint "))
        #expect(try fieldrig("handover", "--register", phone, "--send").stdout.contains("With Studio Mac now"))
    }

    @Test("the numbers said not to match: nothing is pinned, and the command says so")
    func pairingRefused() throws {
        let mac = try MacProcess(answer: "accept", confirmPairing: false)
        let phone = try freshRegister()
        defer { discard(phone) }
        let (pair, _, err) = try startPairing(phone, mac.code)
        _ = mac.nextPairingLine()
        #expect(mac.type("pair no") == "not paired: nothing was pinned")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        pair.waitUntilExit()
        #expect(pair.terminationStatus == 1)
        #expect(stderr.contains("the person at the Mac saw another number") && stderr.contains("Nothing was paired."), "\(stderr)")
        #expect(try fieldrig("handover", "--register", phone).stdout.contains("Pair with the Mac first."))
    }

    @Test("a phone the Mac never pinned is refused, even holding the Mac's fingerprint")
    func unpairedPhoneRefused() throws {
        let mac = try MacProcess(answer: "accept")
        let code = try #require(PairingCode.prove(mac.code))
        let phone = try freshRegister()
        defer { discard(phone) }
        // The phone's register names the Mac, but the Mac never took part in a pairing with it.
        try Register(path: phone).pair(
            Pairing(macName: code.macName, address: code.address, fingerprint: code.fingerprint, pairedAt: Timestamp(milliseconds: 0)))
        let run = try fieldrig("handover", "--register", phone, "--send")
        #expect(run.stdout.contains("this Mac has not paired with this iPhone"), "\(run.stdout)")
        #expect(mac.type("list") == "0 offers")
    }
}
