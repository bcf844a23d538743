import Model
import Testing

@testable import Companion

let phoneFingerprint = String(repeating: "9a", count: 32)
let macNonce = Array(repeating: UInt8(7), count: 32)
let phoneNonce = Array(repeating: UInt8(9), count: 32)

/// A pairing screen taken to the comparison.
func comparingScreen() -> PairingScreen {
    var (screen, effects) = PairingScreen.start(code: pairing, phoneFingerprint: phoneFingerprint)
    #expect(effects == [.beginPairing(pairing)])
    #expect(
        screen.handle(.macCommitted(commitment: PairingComparison.commitment(to: macNonce), phoneNonce: phoneNonce)) == [
            .sendNonce(phoneNonce)
        ])
    #expect(screen.handle(.macRevealed(nonce: macNonce)).isEmpty)
    return screen
}

@Suite("Pairing on the phone: the number, then the pin (PAIR-1, PAIR-2)")
struct PairingScreenTests {
    @Test("both sides derive the number from both certificates and both nonces; it is shown in two groups of three")
    func number() {
        let screen = comparingScreen()
        let expected = PairingComparison.number(
            macFingerprint: pairing.fingerprint, phoneFingerprint: phoneFingerprint, macNonce: macNonce, phoneNonce: phoneNonce)
        #expect(screen.number == PairingComparison.shown(expected))
        #expect(expected.count == 6 && expected.allSatisfy(\.isNumber))
        #expect(screen.lines == ["Check that Studio Mac shows the same number.", "Nothing is paired until you say they match."])
        #expect(screen.buttons == ["They match", "They don’t match"])
        // Any other certificate or nonce gives another number.
        for other in [
            PairingComparison.number(
                macFingerprint: pairing.fingerprint, phoneFingerprint: String(repeating: "7c", count: 32), macNonce: macNonce,
                phoneNonce: phoneNonce),
            PairingComparison.number(
                macFingerprint: String(repeating: "5e", count: 32), phoneFingerprint: phoneFingerprint, macNonce: macNonce,
                phoneNonce: phoneNonce),
            PairingComparison.number(
                macFingerprint: pairing.fingerprint, phoneFingerprint: phoneFingerprint, macNonce: phoneNonce, phoneNonce: macNonce),
        ] {
            #expect(other != expected)
        }
    }

    @Test("nothing is pinned until the person says the numbers match and the Mac's person has too")
    func pinnedOnlyAfterBoth() {
        var screen = comparingScreen()
        #expect(screen.handle(.tapMatch) == [.askMacToFinish])
        #expect(!screen.isPaired)
        #expect(screen.handle(.macStillComparing).isEmpty)
        #expect(screen.buttons == ["Check again", "Cancel"])
        #expect(screen.handle(.tapCheckAgain) == [.askMacToFinish])
        #expect(
            screen.handle(.macConfirmed) == [
                .savePairing(macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: pairing.fingerprint)
            ])
        #expect(screen.isPaired && screen.buttons == ["Done"])
    }

    @Test("different numbers: nothing pinned, the Mac told, the person told plainly")
    func mismatch() {
        var screen = comparingScreen()
        #expect(screen.handle(.tapNoMatch) == [.abandon])
        #expect(screen.phase == .mismatch && screen.number == nil)
        #expect(screen.lines.first == "The numbers were different, so this may not be your Mac. Nothing was paired.")
        // A late confirmation from the Mac changes nothing.
        #expect(screen.handle(.macConfirmed).isEmpty)
        #expect(!screen.isPaired)
    }

    @Test("a Mac nonce that is not the one it committed to stops the pairing")
    func brokenCommitment() {
        var (screen, _) = PairingScreen.start(code: pairing, phoneFingerprint: phoneFingerprint)
        _ = screen.handle(.macCommitted(commitment: PairingComparison.commitment(to: macNonce), phoneNonce: phoneNonce))
        #expect(screen.handle(.macRevealed(nonce: phoneNonce)) == [.abandon])
        guard case .failed(let reason) = screen.phase else {
            Issue.record("it went on to \(screen.phase)")
            return
        }
        #expect(reason.contains("did not match what it promised"))
        #expect(screen.number == nil)
    }

    @Test("events out of order change nothing; a failure at any step pins nothing")
    func outOfOrder() {
        var (screen, _) = PairingScreen.start(code: pairing, phoneFingerprint: phoneFingerprint)
        #expect(screen.handle(.tapMatch).isEmpty)
        #expect(screen.handle(.macConfirmed).isEmpty)
        #expect(screen.handle(.macRevealed(nonce: macNonce)).isEmpty)
        #expect(screen.phase == .connecting)
        #expect(screen.handle(.failed("Studio Mac is not on this network")) == [.abandon])
        #expect(screen.lines == ["Pairing did not finish: Studio Mac is not on this network", "Nothing was paired."])
        var comparing = comparingScreen()
        #expect(comparing.handle(.tapClose) == [.abandon, .close])
        #expect(!comparing.isPaired)
    }
}
