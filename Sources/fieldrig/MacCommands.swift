import Companion
import Foundation
import Imaging
import MacLink
import Model
import Register
import Shell

/// `fieldrig mac`: the simulated Mac, as its own process, over a real socket.
enum MacCommand: Command {
    static let name = ["mac"]
    static let summary = "run the simulated Mac: pairing code, pinned TLS, offers, photographs"
    static let about = """
        Usage: fieldrig mac --listen HOST:PORT [--name NAME] [--state DIR] [--answer ANSWER] [--after S]
                            [--confirm-pairing] [--code-png FILE]

        Plays the Mac end for real over TLS with a self-signed certificate (kept in DIR, so its
        fingerprint stays the same across restarts). Prints its pairing code (name, address and
        certificate fingerprint, signed by the certificate's key) and serves: pairing, register
        offers, "where did it get to", and photographs. Nothing of an offer is written to its
        register until it is accepted.

        Pairing is mutual: a phone asking to pair presents its own certificate, and the Mac prints
        the six-digit comparison number the phone shows too. Type 'pair yes' when the numbers
        match (the phone's certificate is pinned) or 'pair no'. Offers and photographs from a phone
        that is not pinned are refused.
        """
    static let notes = """
        Runs until its standard input closes, or 'quit' is typed.
        """

    enum Option: CommandOption {
        case listen, name, state, answer, after, confirmPairing, codePng

        var spec: OptionSpec {
            switch self {
            case .listen:
                .value(
                    "--listen", "HOST:PORT",
                    "where to listen: an IPv4 address (or localhost) and a port (0 picks a\nfree one; the code says which). Only that address is bound."
                )
            case .name: .value("--name", "NAME", "the Mac's name (default \"Studio Mac\")")
            case .state:
                .value(
                    "--state", "DIR",
                    "its identity, register and photographs (default: a new private\ntemporary folder). DIR is created readable by its owner only; an\nidentity in it that others can read, or that another user owns, is\nrefused."
                )
            case .answer:
                .value(
                    "--answer", "ANSWER",
                    "what the person at the Mac does with an offer: accept, decline,\nexpire, or ask (type 'accept ID' or 'decline ID'; 'list' lists)"
                )
            case .after: .integer("--after", "S", 0...86_400, default: 0, "how many seconds after an offer arrives they answer (default 0)")
            case .confirmPairing: .flag("--confirm-pairing", "confirm every comparison number without asking (for scripts)")
            case .codePng: .value("--code-png", "FILE", "also draw the pairing code as a QR code")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard let listen = options.value(.listen) else { throw UsageError("--listen HOST:PORT is required") }
        let (host, port) = try listenAddress(listen)
        let name = options.value(.name) ?? "Studio Mac"
        let after = Duration.seconds(options.integer(.after))
        let answer: MacAnswer
        switch options.value(.answer) ?? "ask" {
        case "accept": answer = .accept(after: after)
        case "decline": answer = .decline(after: after)
        case "expire": answer = .expire(after: after)
        case "ask": answer = .byHand
        case let other: throw UsageError("--answer takes accept, decline, expire or ask, not '\(other)'")
        }
        let state = try privateFolder(options.value(.state))
        let identity = try Identity.stored(at: "\(state)/identity.pem", name: name)
        let register = try Register(path: "\(state)/mac-register.sqlite")
        let mac = SimulatedMac(
            name: name, fingerprint: identity.fingerprint, register: register, photosFolder: "\(state)/photos", answer: answer,
            pairing: options.has(.confirmPairing) ? .automatic : .byHand)
        mac.onPairing = { request in
            if request.state == .confirmed {
                emit("paired with \(request.phoneName): its certificate \(request.phone.prefix(16))… is pinned")
            } else if let number = request.number {
                emit(
                    "pairing request from \(request.phoneName) (certificate \(request.phone.prefix(16))…): comparison number \(number). "
                        + "Type 'pair yes' if the iPhone shows the same number, 'pair no' if not.")
            }
        }
        let server = try TLSServer(identity: identity, host: host, port: port)
        let code = try identity.pairingCode(name: name, address: "\(host):\(server.port)")
        if let png = options.value(.codePng), let frame = QRCodeImage.frame(code.payload) {
            try ImageFile.writePNG(frame, to: png)
        }
        server.serve { request, peer in mac.handle(request, from: peer, at: RegisterCommand.now()) }
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
            case "pair" where words.count >= 2 && ["yes", "no"].contains(words[1]):
                let pending = mac.pendingPairings.filter { $0.number != nil && (words.count < 3 || $0.phone.hasPrefix(words[2])) }
                guard pending.count == 1 else {
                    emit(pending.isEmpty ? "no pairing request is waiting" : "several are waiting: add the certificate's first digits")
                    continue
                }
                mac.confirmPairing(pending[0].phone, matches: words[1] == "yes", at: RegisterCommand.now())
                if words[1] == "no" { emit("not paired: nothing was pinned") }
            case "list": emit("\(mac.offerCount) offers")
            default: emit("type: accept ID, decline ID, pair yes, pair no, list, quit")
            }
        }
        server.stop()
        return ExitCode.success
    }

    /// HOST:PORT for listening: an IPv4 address or localhost (which is 127.0.0.1), and a port.
    static func listenAddress(_ text: String) throws(UsageError) -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":") else { throw UsageError("--listen takes HOST:PORT, such as 127.0.0.1:7443") }
        let host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = UInt16(portText) else {
            throw UsageError("--listen: '\(portText)' is not a port (0 to 65535; 0 picks a free one)")
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        var probe = in_addr()
        guard inet_pton(AF_INET, address, &probe) == 1 else {
            throw UsageError("--listen: '\(host)' is not an IPv4 address (give one such as 127.0.0.1, or localhost)")
        }
        return (address, port)
    }

    /// The state folder: the one given (created owner-only when new), or a fresh private one.
    static func privateFolder(_ given: String?) throws -> String {
        if let given {
            guard !given.isEmpty else { throw UsageError("--state needs a folder") }
            if mkdir(given, 0o700) != 0, errno != EEXIST {
                throw CommandFailure("\(given): the state folder cannot be made (\(String(cString: strerror(errno))))")
            }
            return given
        }
        var template = Array((NSTemporaryDirectory() + "fieldrig-mac-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CommandFailure("no private temporary folder could be made (\(String(cString: strerror(errno))))")
        }
        return String(cString: made)
    }
}

/// `fieldrig pair`: pair the phone's register with a Mac from its pairing code.
enum PairCommand: Command {
    static let name = ["pair"]
    static let summary = "pair a register with a Mac: prove its code, compare the number, pin both ways"
    static let about = """
        Usage: fieldrig pair --register PATH [--confirm] [--name NAME] [--wait S] CODE

        Proves CODE is a Mac's pairing code signed by the key it names (PAIR-1), reaches the Mac it
        names presenting this phone's own certificate, checks the Mac presents the certificate and
        key the code carries, and shows the six-digit comparison number that the Mac shows too
        (PAIR-2). When the person says the numbers match, and the person at the Mac says so too,
        the Mac is pinned in the register and the Mac pins this phone (PAIR-3). Nothing is pinned
        before that.
        """
    static let notes = """
        Exit codes: 0 paired, 1 not paired (the numbers differed, the Mac refused or was not
        reached, or the register failed), 2 wrong usage.
        """

    enum Option: CommandOption {
        case register, confirm, name, wait

        var spec: OptionSpec {
            switch self {
            case .register: .value("--register", "PATH", "the phone's register")
            case .confirm: .flag("--confirm", "say the numbers match without asking (for scripts that compare them)")
            case .name: .value("--name", "NAME", "the name the Mac shows for this phone (default \"iPhone\")")
            case .wait: .integer("--wait", "S", 0...3600, default: 120, "how long to wait for the person at the Mac (default 120)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard let path = options.value(.register), !path.isEmpty, options.positional.count == 1 else {
            throw UsageError("give --register PATH and the CODE")
        }
        let wait = options.integer(.wait)
        guard let code = PairingCode.prove(options.positional[0]) else {
            throw CommandFailure("that is not a Mac's pairing code, or it was altered: check you copied all of it")
        }
        let register = try Register(path: path, create: false)
        let identity = try PhoneIdentity.of(register)
        let client = PinnedClient(address: code.address, pin: code.fingerprint, identity: identity, expectedKey: code.publicKey)
        let driver = PairingDriver(
            code: code, phoneFingerprint: identity.fingerprint, connection: client, register: register, clock: RealClock(),
            phoneName: options.value(.name) ?? "iPhone")
        guard let number = driver.screen.number else { throw CommandFailure(driver.screen.lines.joined(separator: " ")) }
        emit("\(driver.screen.title)\n  Comparison number: \(number)\n  " + driver.screen.lines.joined(separator: "\n  "))
        var matches = options.has(.confirm)
        if !matches {
            emit("Do the numbers match? Type yes or no:")
            matches = ["yes", "y"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
        }
        driver.send(matches ? .tapMatch : .tapNoMatch)
        var waited = 0.0
        var told = false
        while case .finishing(_, true) = driver.screen.phase, waited < Double(wait) {
            if !told {
                emit(driver.screen.lines.joined(separator: "\n"))
                told = true
            }
            Thread.sleep(forTimeInterval: 0.25)
            waited += 0.25
            driver.send(.tapCheckAgain)
        }
        guard driver.screen.isPaired else {
            if case .finishing = driver.screen.phase {
                driver.send(.tapClose)
                throw CommandFailure("\(code.macName) did not confirm the number within \(wait) seconds. Nothing was paired.")
            }
            throw CommandFailure(driver.screen.lines.joined(separator: " "))
        }
        emit("Paired with \(code.macName), certificate fingerprint \(code.fingerprint.prefix(16))…")
        return ExitCode.success
    }
}

/// `fieldrig handover`: the phone's Send to the Mac screen, against a running `fieldrig mac`.
enum HandoverCommand: Command {
    static let name = ["handover"]
    static let summary = "the Send to the Mac screen: offer the register, check where it got to"
    static let about = """
        Usage: fieldrig handover --register PATH [--send] [--check]

        Shows the handover screen as the phone would: where the register goes, what will be sent,
        the Pair with the Mac row when nothing is paired, and the line under Send it. A stored
        offer is resumed (its id is in the register), never a second one opened.
        """
    static let notes = """
        Exit codes: 0 shown, 1 the Mac presented another certificate or the register failed.
        """

    enum Option: CommandOption {
        case send, check, register

        var spec: OptionSpec {
            switch self {
            case .send: .flag("--send", "press Send it (only when there is no offer yet and the Mac is reachable)")
            case .check: .flag("--check", "press Check again")
            case .register: .value("--register", "PATH", "the phone's register")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard let path = options.value(.register), options.positional.isEmpty else { throw UsageError("give --register PATH") }
        let register = try Register(path: path, create: false)
        let pairing = try register.pairing()
        var connection: (any MacConnection)? = nil
        var reachable = false
        if let pairing {
            let client = PinnedClient(address: pairing.address, pin: pairing.fingerprint, identity: try PhoneIdentity.of(register))
            do throws(LinkError) {
                _ = try client.request(.hello)
                reachable = true
            } catch {
                if case .notThePairedMac = error.kind { throw CommandFailure("\(pairing.address): \(error)") }
            }
            connection = client
        }
        let driver = try HandoverDriver(register: register, connection: connection, reachable: reachable, clock: RealClock())
        driver.send(.appeared(stored: try register.currentTransfer()))
        if options.has(.send) { driver.send(.tapSend(newTransfer: UUID().uuidString.lowercased())) }
        if options.has(.check) { driver.send(.tapCheckAgain) }
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
