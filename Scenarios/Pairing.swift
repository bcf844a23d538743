import Companion
import ScenarioKit

// Pairing with the Mac (PAIR-1..3): the code proves who made it, the person compares a number
// shown on both screens before anything is pinned, and the Mac pins the phone in turn.

let comparing = [
    "Check that Studio Mac shows the same number.", "Nothing is paired until you say they match.",
]

let pairingComparesANumber = Scenario(
    "pairing: both screens show the same number; nothing is pinned until both people say it matches",
    rules: ["PAIR-2", "PAIR-3", "PAIR-1", "SCAN-4"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openScan()
    wait(0.35)
    expectOpened(["pairing with Studio Mac"])
    expectPairing(lines: comparing, buttons: ["They match", "They don’t match"])
    expectSameNumberOnBothScreens()
    expectPinned(phone: false, mac: false)
    tapNumbersMatch()
    expectPairing(
        lines: ["Now confirm the same number on Studio Mac.", "Nothing is paired until both of you say they match."],
        buttons: ["Check again", "Cancel"])
    expectPinned(phone: false, mac: false)
    macConfirmsNumber()
    expectPinned(phone: false, mac: true)
    tapPairingCheckAgain()
    expectPairing(
        lines: ["Paired with Studio Mac.", "This iPhone now talks only to this Mac, and the Mac only to this iPhone."], buttons: ["Done"])
    expectPinned(phone: true, mac: true)
    // Paired both ways: the handover reaches the Mac it pinned.
    closeScan()
    openHandover()
    expectSendIt(detail: "Goes straight to Studio Mac over Wi-Fi.", enabled: true)
    tapSendIt()
    expectMacOffers(1)
}

let pairingNumbersDiffer = Scenario(
    "pairing through somebody in between: the numbers differ, and nothing is pinned on either side",
    rules: ["PAIR-2"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    somebodyRelaysPairing()
    openScan()
    wait(0.35)
    expectOpened(["pairing with Studio Mac"])
    expectDifferentNumbers()
    tapNumbersDiffer()
    expectPairing(
        lines: [
            "The numbers were different, so this may not be your Mac. Nothing was paired.", "Scan the pairing code on your Mac again.",
        ],
        buttons: ["Done"])
    expectPinned(phone: false, mac: false)
}

let alteredPairingCode = Scenario(
    "an altered pairing code is not a pairing code: nothing opens, and it settles like any other code",
    rules: ["PAIR-1", "SCAN-2", "SCAN-3"], phone: Phone(camera: "pairing-code-altered", mac: .notPaired)
) {
    openScan()
    wait(0.35)
    expectOpened([])
    expectNoCard()
    wait(1.2)
    expect("the altered code offered as a plain value, pairing never opened") { world in
        guard case .offer(let offer)? = world.scanScreen?.card else { return "no offer was up" }
        guard offer.values.contains(where: { $0.value.hasPrefix("MFST-P2/Studio%20Mac/127.0.0.1:7444/") }) else {
            return "the offer held \(offer.values.map(\.value))"
        }
        return world.pairing == nil ? nil : "pairing opened"
    }
    expectPinned(phone: false, mac: false)
}

let impostorAtPairing = Scenario(
    "a Mac at the code's address with another certificate is not the one the code names: pairing stops",
    rules: ["PAIR-1", "HANDOVER-1"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    anImpostorAnswersForTheMac()
    openScan()
    wait(0.35)
    expectPairing(
        lines: [
            "Pairing did not finish: the Mac at 127.0.0.1:7443 presented another certificate than its pairing code names",
            "Nothing was paired.",
        ], buttons: ["Done"])
    expectPinned(phone: false, mac: false)
}

let macRefusesStrangers = Scenario(
    "the Mac hears only the phone it pinned: a stranger's offer and photograph are refused, and nothing is kept",
    rules: ["PAIR-3", "HANDOVER-9"], phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    aStrangerSendsToTheMac()
    expectMacOffers(0)
    expectMacHolds(photographs: 0)
    takePhotograph(of: "MF-0004")
    pushUploads()
    expectMacHolds(photographs: 1)
    macForgetsThisPhone()
    openHandover()
    tapSendIt()
    expectHandoverProblem(containing: "this Mac has not paired with this iPhone")
    expectMacOffers(0)
}

let macSaysNumbersDiffer = Scenario(
    "the person at the Mac says the numbers differ: the phone pins nothing, though its person said they match",
    rules: ["PAIR-2", "PAIR-3"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openScan()
    wait(0.35)
    tapNumbersMatch()
    macRejectsNumber()
    tapPairingCheckAgain()
    expectPairing(lines: ["Pairing did not finish: the person at the Mac saw another number", "Nothing was paired."], buttons: ["Done"])
    expectPinned(phone: false, mac: false)
    closeScan()
    openHandover()
    expectSendIt(detail: "Pair with the Mac first.", enabled: false)
}
