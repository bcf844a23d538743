import Companion
import ScenarioKit

let accountAndPairing = Scenario(
    "not paired: your Mac, the Pair with the Mac row, Send it disabled",
    rules: ["HANDOVER-1", "HANDOVER-2", "HANDOVER-3", "HANDOVER-4", "HANDOVER-5"], phone: Phone(camera: "desk-only", mac: .notPaired)
) {
    openHandover()
    expect("the account before any button") { world in
        guard let screen = world.handover?.screen else { return "not open" }
        let want = [
            "The register: 12 assets, and the sites, people, vendors and agreements around them.",
            "Sending removes nothing from this iPhone.",
            "Nothing is written until somebody at the Mac accepts it.",
            "Photographs do not travel with the register; they go up on the queue, one at a time.",
            "Keep the phone paired until the queue is empty.",
        ]
        guard screen.macName == "your Mac" else { return "it named \(screen.macName)" }
        guard screen.pairRow?.detail == "This iPhone hasn’t met a Mac yet. Pair first, then hand the register over." else {
            return "no Pair with the Mac row"
        }
        return screen.account == want ? nil : "it said \(screen.account)"
    }
    expectSendIt(detail: "Pair with the Mac first.", enabled: false)
    tapPairWithMac()
    expect("pairing opened in place") { world in world.handover?.pairingOpened == true ? nil : "it was not" }
}

/// Sending, waiting, and the Mac's person deciding, which the phone never names.
func handover(deciding accept: Bool?) -> [Step] {
    [
        openHandover(),
        expectSendIt(detail: "Goes straight to Studio Mac over Wi-Fi.", enabled: true),
        tapSendIt(),
        expectHandover(
            heading: "With Studio Mac now",
            lines: ["Waiting for somebody to accept it", "12 assets, 3 sites, 4 people, 8 vendors and 3 agreements"]),
        expectMacHolds(assets: 0),
        closeHandover(),
        openHandover(),
        expectMacOffers(1),
    ]
        + (accept.map { [$0 ? macAccepts() : macDeclines()] } ?? [wait(700)])
        + [
            checkAgain(),
            expectHandover(
                heading: "No longer waiting",
                lines: [
                    "Studio Mac has dealt with the offer: it was accepted, declined, or it timed out, and the Mac shows which.",
                    "Your register is still on this iPhone, exactly as it was.",
                ]),
        ]
}

let handoverAccepted = Scenario(
    "accepted: the Mac writes only now; the phone does not say so", rules: ["HANDOVER-6", "HANDOVER-8", "HANDOVER-9"],
    phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    handover(deciding: true)
    expectMacHolds(assets: 12)
}

let handoverDeclined = Scenario(
    "declined: nothing written on the Mac; the phone looks the same", rules: ["HANDOVER-8", "HANDOVER-9"],
    phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    handover(deciding: false)
    expectMacHolds(assets: 0)
}

let handoverExpired = Scenario(
    "expired: the same again", rules: ["HANDOVER-8"], phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    handover(deciding: nil)
    expectMacHolds(assets: 0)
}

let handoverRestart = Scenario(
    "a restart mid-offer resumes the same offer; never a second", rules: ["HANDOVER-7", "HANDOVER-6"],
    phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    openHandover()
    tapSendIt()
    restartApp()
    openHandover()
    expectHandover(heading: "With Studio Mac now")
    tapSendIt()
    expectMacOffers(1)
}

let handoverUnreachable = Scenario(
    "paired but away: Needs the Mac on this network", rules: ["HANDOVER-5"],
    phone: Phone(camera: "desk-only", mac: .paired(reachable: false))
) {
    openHandover()
    expectSendIt(detail: "Needs the Mac on this network.", enabled: false)
}

let handoverImpostor = Scenario(
    "another certificate at the Mac's address is refused; nothing is sent", rules: ["HANDOVER-1"],
    phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    anImpostorAnswersForTheMac()
    openHandover()
    tapSendIt()
    expectHandoverProblem(containing: "this is not the paired Mac")
    expectMacOffers(0)
}

let provisioning = Scenario(
    "the name in the audit trail: Nobody yet, then the name as it is typed", rules: ["AUDIT-2", "AUDIT-3", "AUDIT-1"],
    phone: Phone(camera: "desk-only", actor: nil)
) {
    typeActorName("")
    expectPreview(actor: "Nobody yet", faint: true)
    typeActorName("Sam")
    expectPreview(actor: "Sam", faint: false)
    typeActorName("Sam Rivera")
    saveActorName()
    expectLastEntrySignedBy("Sam Rivera")
}

let scenariosAreSwift = Scenario(
    "scenarios are plain Swift: loops, functions and conditionals", rules: ["RIG-3"], phone: Phone(camera: "walk-round")
) {
    openScan(.walkRound)
    for seconds in [0.5, 1.0] {
        wait(seconds)
    }
    if true {
        expectSentence(ready)
    }
}
