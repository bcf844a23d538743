import Companion
import Foundation
import Testing

@testable import fieldrig

/// A `fieldrig mac` process on a free loopback port, for one test.
final class MacProcess {
    let process = Process()
    let input = Pipe()
    let reader: LineReader
    let code: String
    let state: String

    init(answer: String, name: String = "Studio Mac") throws {
        state = NSTemporaryDirectory() + "fieldrig-mac-\(getpid())-\(UUID().uuidString.prefix(8))"
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments = ["mac", "--listen", "127.0.0.1:0", "--answer", answer, "--name", name, "--state", state]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        reader = LineReader(out.fileHandleForReading)
        code = String(reader.next()?.dropFirst("pairing code: ".count) ?? "")
        _ = reader.next()  // "listening on ..."
    }

    /// Types a line at the Mac's prompt and returns its answer.
    func type(_ line: String) -> String {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return reader.next() ?? ""
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

func freshRegister() throws -> String {
    let path = NSTemporaryDirectory() + "fieldrig-phone-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite"
    _ = try fieldrig("register", path, "create", "--demo")
    return path
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
            #expect(
                try fieldrig("pair", "--register", phone, mac.code).stdout.hasPrefix("Paired with Studio Mac, certificate fingerprint "))
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
        let real = try #require(PairingCode.prove(paired.code))
        let elsewhere = try #require(PairingCode.prove(impostor.code))
        // A code carrying the paired Mac's fingerprint but the impostor's address.
        let code = PairingCode(macName: real.macName, address: elsewhere.address, fingerprint: real.fingerprint).payload
        let phone = try freshRegister()
        let run = try fieldrig("pair", "--register", phone, code)
        #expect(run.status == 1)
        #expect(run.stderr.contains("this is not the paired Mac"))
        #expect(impostor.type("list") == "0 offers")
        #expect(try fieldrig("handover", "--register", phone).stdout.contains("Pair with the Mac first."))
    }

    @Test("the Mac not on the network: Needs the Mac on this network, and Send it disabled")
    func unreachable() throws {
        let mac = try MacProcess(answer: "accept")
        let phone = try freshRegister()
        _ = try fieldrig("pair", "--register", phone, mac.code)
        mac.stop()
        let run = try fieldrig("handover", "--register", phone, "--send")
        #expect(run.stdout.contains("  [Send it] (disabled)\n    Needs the Mac on this network."))
    }

    @Test("a restart mid-offer resumes the same transfer: the Mac holds one offer, not two")
    func restart() throws {
        let mac = try MacProcess(answer: "ask")
        let phone = try freshRegister()
        _ = try fieldrig("pair", "--register", phone, mac.code)
        _ = try fieldrig("handover", "--register", phone, "--send")
        let again = try fieldrig("handover", "--register", phone, "--send")  // a new process: the app restarted
        #expect(again.stdout.contains("With Studio Mac now"))
        #expect(mac.type("list") == "1 offers")
    }
}
