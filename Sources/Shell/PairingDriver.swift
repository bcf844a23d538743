import Companion
import Crypto
import Foundation
import MacLink
import Register

/// Carries out the pairing screen's effects (PAIR-1..3): asks the Mac to pair over a channel
/// pinned to the code's certificate and key, exchanges the nonces, asks the Mac whether its person
/// confirmed, and pins the Mac in the register only then. Used by the scenario world and by
/// `fieldrig pair` alike.
public final class PairingDriver {
    public private(set) var screen: PairingScreen
    public let register: Register
    /// A channel that checks the Mac presents the code's certificate and key.
    public let connection: any MacConnection
    public let clock: any SessionClock
    public let phoneName: String
    public private(set) var log: [String] = []
    public private(set) var closed = false
    /// Where the phone's nonces come from: random bytes, or a fixed series in scenarios.
    let nonce: () -> [UInt8]

    /// Starts pairing with the Mac a proven `code` names; the first request goes out at once.
    public init(
        code: PairingCode, phoneFingerprint: String, connection: any MacConnection, register: Register, clock: any SessionClock,
        phoneName: String = "iPhone", nonce: @escaping () -> [UInt8] = { randomBytes(32) }
    ) {
        self.nonce = nonce
        self.register = register
        self.connection = connection
        self.clock = clock
        self.phoneName = phoneName
        let (screen, effects) = PairingScreen.start(code: code, phoneFingerprint: phoneFingerprint)
        self.screen = screen
        for effect in effects { perform(effect) }
    }

    public func send(_ event: PairingScreen.Event) {
        for effect in screen.handle(event) { perform(effect) }
    }

    private func perform(_ effect: PairingScreen.Effect) {
        switch effect {
        case .beginPairing:
            ask(.pairBegin(phoneName: phoneName)) { reply in
                guard case .pairCommit(let hex) = reply, let commitment = hexBytes(strict: hex) else { return nil }
                return .macCommitted(commitment: commitment, phoneNonce: nonce())
            }
        case .sendNonce(let nonce):
            ask(.pairNonce(nonce: hexString(nonce))) { reply in
                guard case .pairReveal(let hex) = reply, let nonce = hexBytes(strict: hex) else { return nil }
                return .macRevealed(nonce: nonce)
            }
        case .askMacToFinish:
            ask(.pairFinish) { reply in
                switch reply {
                case .paired: return .macConfirmed
                case .pairWaiting: return .macStillComparing
                default: return nil
                }
            }
        case .savePairing(let name, let address, let fingerprint):
            do {
                try register.pair(Pairing(macName: name, address: address, fingerprint: fingerprint, pairedAt: clock.timestamp(clock.now)))
                log.append("register: paired with \(name), pinned \(fingerprint.prefix(16))…")
            } catch {
                log.append("register: \(error)")
                send(.failed("the register could not be written (\(error))"))
            }
        case .abandon:
            // Best effort: the Mac pins nothing it was not told to, whether or not this arrives.
            _ = try? connection.request(.pairCancel)
            log.append("mac: pairing abandoned")
        case .close:
            closed = true
        }
    }

    /// Sends one request and feeds the screen the event its reply means (nil: it made no sense).
    private func ask(_ request: MacRequest, _ meaning: (MacReply) -> PairingScreen.Event?) {
        do {
            let reply = try connection.request(request).reply
            log.append("mac: \(request.name) -> \(reply.name)")
            if case .refused(let reason) = reply { return send(.failed(reason)) }
            send(meaning(reply) ?? .failed("the Mac’s answer made no sense"))
        } catch {
            log.append("link: \(error)")
            switch error.kind {
            case .notThePairedMac:
                send(.failed("the Mac at \(screen.code.address) presented another certificate than its pairing code names"))
            case .unreachable: send(.failed("\(screen.code.macName) is not on this network"))
            default: send(.failed(error.description))
            }
        }
    }
}

/// The phone's own certificate (PAIR-3), kept in its register: made the first time it is needed.
public enum PhoneIdentity {
    public static func of(_ register: Register, name: String = "iPhone") throws -> Identity {
        if let pem = try register.phoneIdentityPEM() { return try Identity.load(pem: pem) }
        let made = try Identity.generate(name: name)
        // Two processes making one at once: the first kept wins, and both use it.
        return try Identity.load(pem: try register.keepPhoneIdentityPEM(made.pem))
    }
}
