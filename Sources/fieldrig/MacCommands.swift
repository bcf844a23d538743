import Companion
import Foundation
import Imaging
import MacLink
import Register
import Shell

/// `fieldrig mac`: the simulated Mac, as its own process, over a real socket.
enum MacCommand: Command {
    static let name = ["mac"]
    static let summary = "run the simulated Mac: pairing code, pinned TLS, offers, photographs"
    static let help = """
        Usage: fieldrig mac --listen 127.0.0.1:PORT [--name NAME] [--state DIR] [--answer ANSWER] [--after S] [--code-png FILE]

        Plays the Mac end for real over TLS with a self-signed certificate (kept in DIR, so its
        fingerprint stays the same across restarts). Prints its pairing code (name, address and
        certificate fingerprint) and serves: pairing, register offers, "where did it get to",
        and photographs. Nothing of an offer is written to its register until it is accepted.

        Options:
          --listen HOST:PORT  where to listen (PORT 0 picks a free one; the code says which)
          --name NAME         the Mac's name (default "Studio Mac")
          --state DIR         its identity, register and photographs (default: a temporary folder)
          --answer ANSWER     what the person at the Mac does with an offer: accept, decline,
                              expire, or ask (type 'accept ID' or 'decline ID'; 'list' lists)
          --after S           how many seconds after an offer arrives they answer (default 0)
          --code-png FILE     also draw the pairing code as a QR code
          -h, --help          this help

        Runs until its standard input closes, or 'quit' is typed.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, flags: [], values: ["--listen", "--name", "--state", "--answer", "--after", "--code-png"])
        guard let listen = options.value("--listen"), let (host, port) = splitHostPort(listen) else {
            throw UsageError("--listen HOST:PORT is required")
        }
        let name = options.value("--name") ?? "Studio Mac"
        let after = Duration.seconds(try options.integer("--after", default: 0, in: 0...86_400))
        let answer: MacAnswer
        switch options.value("--answer") ?? "ask" {
        case "accept": answer = .accept(after: after)
        case "decline": answer = .decline(after: after)
        case "expire": answer = .expire(after: after)
        case "ask": answer = .byHand
        case let other: throw UsageError("--answer takes accept, decline, expire or ask, not '\(other)'")
        }
        let state = options.value("--state") ?? NSTemporaryDirectory() + "fieldrig-mac-\(getpid())"
        try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let identity = try link { () throws(LinkError) in try Identity.stored(at: "\(state)/identity.pem", name: name) }
        let register = try registerCall { () throws(RegisterError) in try Register(path: "\(state)/mac-register.sqlite") }
        let mac = SimulatedMac(name: name, register: register, photosFolder: "\(state)/photos", answer: answer)
        let server = try link { () throws(LinkError) in try TLSServer(identity: identity, host: host, port: port) }
        let code = PairingCode(macName: name, address: "\(host):\(server.port)", fingerprint: identity.fingerprint)
        if let png = options.value("--code-png"), let frame = QRCodeImage.frame(code.payload) {
            try wrapImage { () throws(ImageError) in try ImageFile.writePNG(frame, to: png) }
        }
        server.serve { request in mac.handle(request, at: RegisterCommand.now()) }
        emit("pairing code: \(code.payload)")
        emit("listening on \(host):\(server.port) as \(name), fingerprint \(identity.fingerprint)")
        // The clock moves on its own: scripted answers and expiries fall due.
        let ticker = Thread {
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                mac.tick(RegisterCommand.now())
            }
        }
        ticker.start()
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "quit": return ExitCode.success
            case "accept" where words.count == 2:
                mac.accept(words[1], at: RegisterCommand.now())
                emit("accepted \(words[1])")
            case "decline" where words.count == 2:
                mac.decline(words[1], at: RegisterCommand.now())
                emit("declined \(words[1])")
            case "list": emit("\(mac.offerCount) offers")
            default: emit("type: accept ID, decline ID, list, quit")
            }
        }
        server.stop()
        return ExitCode.success
    }

    static func splitHostPort(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        return (String(text[..<colon]), port)
    }
}

/// Runs `body`, turning a link error into a command failure.
func link<T>(_ body: () throws(LinkError) -> T) throws -> T {
    do throws(LinkError) {
        return try body()
    } catch {
        throw CommandFailure(error.description)
    }
}

/// `fieldrig pair`: pair the phone's register with a Mac from its pairing code.
enum PairCommand: Command {
    static let name = ["pair"]
    static let summary = "pair a register with a Mac from its pairing code, pinning its certificate"
    static let help = """
        Usage: fieldrig pair --register PATH CODE

        Proves CODE is a Manifest pairing code, connects to the Mac it names, checks the Mac
        presents the certificate whose fingerprint the code carries, and records the Mac and the
        fingerprint in the register: from now on the channel is pinned to it (HANDOVER-1).
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, flags: [], values: ["--register"])
        guard let path = options.value("--register"), options.positional.count == 1 else {
            throw UsageError("give --register PATH and the CODE")
        }
        guard let code = PairingCode.prove(options.positional[0]) else {
            throw CommandFailure("that is not a Manifest pairing code: check you copied all of it")
        }
        let register = try registerCall { () throws(RegisterError) in try Register(path: path) }
        let client = PinnedClient(address: code.address, pin: code.fingerprint)
        let answer = try link { () throws(LinkError) in try client.request(Envelope("pair", ["phone": "iPhone"])) }
        guard answer.envelope.type == "paired" else { throw CommandFailure("the Mac did not pair: \(answer.envelope["reason"] ?? "")") }
        try registerCall { () throws(RegisterError) in
            try register.pair(
                Pairing(macName: code.macName, address: code.address, fingerprint: code.fingerprint, pairedAt: RegisterCommand.now()))
        }
        emit("Paired with \(code.macName), certificate fingerprint \(code.fingerprint.prefix(16))…")
        return ExitCode.success
    }
}

/// `fieldrig handover`: the phone's Send to the Mac screen, against a running `fieldrig mac`.
enum HandoverCommand: Command {
    static let name = ["handover"]
    static let summary = "the Send to the Mac screen: offer the register, check where it got to"
    static let help = """
        Usage: fieldrig handover --register PATH [--send] [--check]

        Shows the handover screen as the phone would: where the register goes, what will be sent,
        the Pair with the Mac row when nothing is paired, and the line under Send it. A stored
        offer is resumed (its id is in the register), never a second one opened.

        Options:
          --send       press Send it (only when there is no offer yet and the Mac is reachable)
          --check      press Check again
          -h, --help   this help

        Exit codes: 0 shown, 1 the Mac presented another certificate or the register failed.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, flags: ["--send", "--check"], values: ["--register"])
        guard let path = options.value("--register"), options.positional.isEmpty else { throw UsageError("give --register PATH") }
        let register = try registerCall { () throws(RegisterError) in try Register(path: path) }
        let pairing = try registerCall { () throws(RegisterError) in try register.pairing() }
        var connection: (any MacConnection)? = nil
        var reachable = false
        if let pairing {
            let client = PinnedClient(address: pairing.address, pin: pairing.fingerprint)
            do throws(LinkError) {
                _ = try client.request(Envelope("hello"))
                reachable = true
            } catch {
                if case .notThePairedMac = error.kind { throw CommandFailure("\(pairing.address): \(error)") }
            }
            connection = client
        }
        let driver = try registerCall { () throws(RegisterError) in
            try HandoverDriver(register: register, connection: connection, reachable: reachable, clock: RealClock())
        }
        driver.send(.appeared(stored: try registerCall { () throws(RegisterError) in try register.currentTransfer() }))
        if options.has("--send") { driver.send(.tapSend(newTransfer: UUID().uuidString.lowercased())) }
        if options.has("--check") { driver.send(.tapCheckAgain) }
        emit(render(driver.screen))
        return ExitCode.success
    }

    static func render(_ screen: HandoverScreen) -> String {
        var lines = ["Send to \(screen.macName)"]
        lines += screen.account.map { "  \($0)" }
        if let row = screen.pairRow { lines += ["  [\(row.title)]", "    \(row.detail)"] }
        if let status = screen.status {
            lines.append(status.heading)
            lines += status.lines.filter { !$0.isEmpty }.map { "  \($0)" }
            if screen.checkAgainOffered { lines.append("  [Check again]") }
        } else {
            lines.append("  [Send it]" + (screen.sendEnabled ? "" : " (disabled)"))
            lines.append("    \(screen.sendDetail)")
        }
        if let problem = screen.problem { lines.append("  (\(problem))") }
        return lines.joined(separator: "\n")
    }
}
