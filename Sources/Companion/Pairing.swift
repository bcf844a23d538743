import Model
/// Pairing with the Mac from its pairing code (PAIR-1..3), on the phone.
///
/// The code was proven on the scan sheet. The phone then reaches the Mac over TLS, presenting its
/// own certificate; the Mac commits to a nonce, the phone sends its own, the Mac reveals its nonce,
/// and both screens show the six-digit comparison number (`PairingComparison`). Only when the
/// person taps "They match" does the phone ask the Mac to finish, and only once the Mac says its
/// person confirmed the same number is the Mac pinned on the phone (PAIR-2). The Mac pins the
/// phone's certificate on its side when its person confirms (PAIR-3).
///
/// The copy is ours (the product documents are silent on it): it names the Mac, shows the number
/// large, and says plainly that nothing was saved when pairing does not finish.
public struct PairingScreen: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        /// Reaching the Mac and exchanging nonces.
        case connecting
        /// The Mac has committed to its nonce; the phone has sent its own.
        case exchanging(commitment: [UInt8], phoneNonce: [UInt8])
        /// Both screens show `number`; the person compares them.
        case comparing(number: String)
        /// The person said they match; waiting for the Mac's person to say the same.
        case finishing(number: String, macStillComparing: Bool)
        /// Pinned on both sides.
        case paired
        /// The person said the numbers differ: nothing was pinned, on either side.
        case mismatch
        /// Pairing did not finish; `reason` says why. Nothing was pinned.
        case failed(reason: String)
    }

    public enum Event: Sendable, Hashable {
        /// The Mac answered the first request with the commitment to its nonce; `phoneNonce` is
        /// the one the shell drew for this pairing.
        case macCommitted(commitment: [UInt8], phoneNonce: [UInt8])
        /// The Mac revealed its nonce.
        case macRevealed(nonce: [UInt8])
        case tapMatch
        case tapNoMatch
        /// The Mac's person confirmed the number: the Mac pinned this phone.
        case macConfirmed
        /// The Mac's person has not answered yet.
        case macStillComparing
        case tapCheckAgain
        /// The Mac refused, or the channel failed; the words say what happened.
        case failed(String)
        case tapClose
    }

    public enum Effect: Sendable, Hashable {
        /// Reach the Mac at the code's address, check it presents the code's certificate and key,
        /// and ask to pair.
        case beginPairing(PairingCode)
        case sendNonce([UInt8])
        /// Ask the Mac whether its person confirmed the same number.
        case askMacToFinish
        /// Pin the Mac: record it and its fingerprint in the phone's register.
        case savePairing(macName: String, address: String, fingerprint: String)
        /// Tell the Mac the person saw another number, so it pins nothing either.
        case abandon
        case close
    }

    public let code: PairingCode
    /// The phone's own certificate fingerprint, which the Mac pins.
    public let phoneFingerprint: String
    public private(set) var phase: Phase = .connecting

    /// A new pairing from a proven code; its first effect is `beginPairing`.
    public static func start(code: PairingCode, phoneFingerprint: String) -> (PairingScreen, [Effect]) {
        (PairingScreen(code: code, phoneFingerprint: phoneFingerprint), [.beginPairing(code)])
    }

    init(code: PairingCode, phoneFingerprint: String) {
        self.code = code
        self.phoneFingerprint = phoneFingerprint
    }

    // MARK: - What the person sees

    public var title: String { "Pair with \(code.macName)" }

    /// The comparison number as shown ("042 917"), while there is one to compare.
    public var number: String? {
        switch phase {
        case .comparing(let number), .finishing(let number, _): return PairingComparison.shown(number)
        default: return nil
        }
    }

    /// The lines under the title.
    public var lines: [String] {
        switch phase {
        case .connecting, .exchanging: return ["Reaching \(code.macName)…"]
        case .comparing:
            return ["Check that \(code.macName) shows the same number.", "Nothing is paired until you say they match."]
        case .finishing(_, let stillComparing):
            return stillComparing
                ? ["Now confirm the same number on \(code.macName).", "Nothing is paired until both of you say they match."]
                : ["Finishing with \(code.macName)…"]
        case .paired:
            return ["Paired with \(code.macName).", "This iPhone now talks only to this Mac, and the Mac only to this iPhone."]
        case .mismatch:
            return [
                "The numbers were different, so this may not be your Mac. Nothing was paired.",
                "Scan the pairing code on your Mac again.",
            ]
        case .failed(let reason): return ["Pairing did not finish: \(reason)", "Nothing was paired."]
        }
    }

    /// The buttons on the screen.
    public var buttons: [String] {
        switch phase {
        case .comparing: return ["They match", "They don’t match"]
        case .finishing(_, true): return ["Check again", "Cancel"]
        case .connecting, .exchanging, .finishing: return ["Cancel"]
        case .paired, .mismatch, .failed: return ["Done"]
        }
    }

    /// Whether the Mac is pinned on the phone now.
    public var isPaired: Bool { phase == .paired }

    // MARK: - Events

    public mutating func handle(_ event: Event) -> [Effect] {
        switch (phase, event) {
        case (.connecting, .macCommitted(let commitment, let nonce)):
            guard commitment.count == 32, nonce.count >= 16 else { return fail("the Mac’s answer made no sense") }
            phase = .exchanging(commitment: commitment, phoneNonce: nonce)
            return [.sendNonce(nonce)]
        case (.exchanging(let commitment, let phoneNonce), .macRevealed(let macNonce)):
            // A nonce that is not the one promised means something changed it on the way.
            guard PairingComparison.keeps(commitment, macNonce) else {
                return fail("the Mac’s answer did not match what it promised, so somebody may be in between")
            }
            phase = .comparing(
                number: PairingComparison.number(
                    macFingerprint: code.fingerprint, phoneFingerprint: phoneFingerprint, macNonce: macNonce, phoneNonce: phoneNonce))
            return []
        case (.comparing(let number), .tapMatch):
            phase = .finishing(number: number, macStillComparing: false)
            return [.askMacToFinish]
        case (.comparing, .tapNoMatch):
            phase = .mismatch
            return [.abandon]
        case (.finishing, .macConfirmed):
            phase = .paired
            return [.savePairing(macName: code.macName, address: code.address, fingerprint: code.fingerprint)]
        case (.finishing(let number, _), .macStillComparing):
            phase = .finishing(number: number, macStillComparing: true)
            return []
        case (.finishing(let number, true), .tapCheckAgain):
            phase = .finishing(number: number, macStillComparing: false)
            return [.askMacToFinish]
        case (.connecting, .failed(let why)), (.exchanging, .failed(let why)), (.comparing, .failed(let why)),
            (.finishing, .failed(let why)), (.paired, .failed(let why)):
            return fail(why)
        case (.paired, .tapClose), (.mismatch, .tapClose), (.failed, .tapClose):
            return [.close]
        case (_, .tapClose):
            // Cancelled half-way: the Mac is told, and nothing is pinned.
            phase = .failed(reason: "it was cancelled")
            return [.abandon, .close]
        default:
            return []
        }
    }

    private mutating func fail(_ why: String) -> [Effect] {
        phase = .failed(reason: why)
        return [.abandon]
    }
}
