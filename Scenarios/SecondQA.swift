import Companion
import ScenarioKit

// What a second QA author found broken, one scenario each.

let secondScanSheetOpensPairing = Scenario(
    "a second Scan sheet opens pairing on the Mac's code after the first opened Add it by hand",
    rules: ["SCAN-4", "PAIR-1"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openScan()
    tap(.addByHand)
    openScan()
    wait(0.35)
    expectOpened(["pairing with Studio Mac"])
    expectPairing(lines: comparing, buttons: ["They match", "They don’t match"])
}

let scanAgainNotOfferedOnAFailedCamera: [Scenario] = ["stopped@1.3", "busy@1.3"].map { fault in
    Scenario(
        "the chooser up, the camera fails (\(fault)): Scan again is not offered, and tapping where it was keeps the rows",
        rules: ["SERIAL-7", "SERIAL-8", "SCAN-7"], phone: Phone(camera: "disagree-digit-hold", faults: [fault])
    ) {
        openPhotographSerial()
        wait(1.25)
        expectChooser(["CN0KX2M1742", "CN0KX2M1743"])
        expect("the chooser's toolbar offers Scan again and Cancel") { world in
            world.serial?.toolbar == ["Scan again", "Cancel"] ? nil : "the toolbar was \(world.serial?.toolbar ?? [])"
        }
        wait(0.1)
        expect("the chooser's toolbar offers only Cancel") { world in
            world.serial?.toolbar == ["Cancel"] ? nil : "the toolbar was \(world.serial?.toolbar ?? [])"
        }
        tapScanAgain()
        expectChooser(["CN0KX2M1742", "CN0KX2M1743"])
        tapCancel()
    }
}

let macConfirmsThenPhoneSeesAnotherNumber = Scenario(
    "the Mac's person confirms the number first, then the phone's sees another: nothing stays pinned on either side",
    rules: ["PAIR-2", "PAIR-3"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openScan()
    wait(0.35)
    expectPairing(lines: comparing, buttons: ["They match", "They don’t match"])
    macConfirmsNumber()
    expectPinned(phone: false, mac: true)
    tapNumbersDiffer()
    expectPairing(
        lines: [
            "The numbers were different, so this may not be your Mac. Nothing was paired.", "Scan the pairing code on your Mac again.",
        ],
        buttons: ["Done"])
    expectPinned(phone: false, mac: false)
    restartApp()
    expectPinned(phone: false, mac: false)
}

let pairingWhileSendToTheMacIsOpen = Scenario(
    "paired while Send to the Mac stayed open: it names the Mac, drops the Pair row and enables Send it",
    rules: ["HANDOVER-4", "HANDOVER-1", "HANDOVER-5"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openHandover()
    expectSendIt(detail: "Pair with the Mac first.", enabled: false)
    tapPairWithMac()
    expectPairingSheetInPlace()
    wait(0.35)
    tapNumbersMatch()
    macConfirmsNumber()
    tapPairingCheckAgain()
    expectPinned(phone: true, mac: true)
    expectSendIt(detail: "Goes straight to Studio Mac over Wi-Fi.", enabled: true)
    expect("the handover names Studio Mac and offers no Pair row") { world in
        guard let screen = world.handover?.screen else { return "Send to the Mac is not open" }
        if screen.pairRow != nil { return "it still offers Pair with the Mac" }
        return screen.macName == "Studio Mac" ? nil : "it names “\(screen.macName)”"
    }
    tapSendIt()
    expectMacOffers(1)
}

let photographAfterTheHandover: [Scenario] = [("accepted", true), ("declined", false)].map { outcome, accepts in
    Scenario(
        "a photograph kept for an asset the Mac did not hold goes up once the offer is no longer waiting (\(outcome))",
        rules: ["HANDOVER-3", "QUEUE-3", "QUEUE-5"], phone: Phone(camera: "desk-only", mac: .paired())
    ) {
        takePhotograph(of: "MF-0012")
        expectSummary(["1 kept on this phone, not queued to send yet"])
        openHandover()
        tapSendIt()
        pushUploads()
        // The offer is still waiting: kept, and the reason is still true.
        expectSummary(["1 kept on this phone, not queued to send yet"])
        expectExplanation("Some photographs show assets Studio Mac does not have yet. They go up once the register is handed over.")
        accepts ? macAccepts() : macDeclines()
        checkAgain()
        pushUploads()
        expectSummary(["All sent"])
        expectMacHolds(photographs: 1)
    }
}

let sweepCancelledAndLeftByARoute = Scenario(
    "a sweep cancelled writes nothing and closes; a sweep whose camera failed is left by Add it by hand",
    rules: ["SCAN-7", "INTAKE-3"], phone: Phone(camera: "rack-sweep", faults: ["stopped@3.0"])
) {
    openSweep()
    wait(1.0)
    cancelSweep()
    expectSweepOpen(false)
    expectStamps([])
    openSweep()
    wait(3.5)
    expectSweepScreen(sentence: "The scanner stopped. Add it by hand instead.", routes: ["Add it by hand"])
    tapSweepRoute(.addByHand)
    expectSweepOpen(false)
    expectStamps([])
}

let forgottenPhoneHandoverProblem = Scenario(
    "a Mac that forgot this phone refuses its offer, and the handover says the Mac's reason whole",
    rules: ["PAIR-3", "HANDOVER-1"], phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    macForgetsThisPhone()
    openHandover()
    tapSendIt()
    expectHandoverProblem("this Mac has not paired with this iPhone: pair again")
    expectMacOffers(0)
}

let keptThenQueuedAcrossARestart = Scenario(
    "a photograph kept without queueing survives a restart, and goes up once queued",
    rules: ["QUEUE-1", "QUEUE-2", "QUEUE-5"], phone: Phone(camera: "desk-only", mac: .paired())
) {
    keepPhotograph(of: "MF-0001")
    expectSummary(["1 kept on this phone, not queued to send yet"])
    restartApp()
    expectSummary(["1 kept on this phone, not queued to send yet"])
    queuePhotograph(of: "MF-0001")
    expectSummary(["1 still going up"])
    pushUploads()
    expectSummary(["All sent"])
    expectMacHolds(photographs: 1)
}

let pairingCancelled = Scenario(
    "pairing cancelled on the phone before it finished: nothing pinned on either side",
    rules: ["PAIR-2", "PAIR-3"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    openScan()
    wait(0.35)
    expectPairingTitle("Pair with Studio Mac")
    tapNumbersMatch()
    tapCancelPairing()
    expectPairing(lines: ["Pairing did not finish: it was cancelled", "Nothing was paired."], buttons: ["Done"])
    expectPinned(phone: false, mac: false)
}

let macOffTheNetworkWhilePairing = Scenario(
    "the Mac off the network during a first pairing: pairing does not finish, nothing pinned",
    rules: ["PAIR-2", "PAIR-3"], phone: Phone(camera: "pairing-code", mac: .notPaired)
) {
    macLeavesNetwork()
    openScan()
    wait(0.35)
    expectPairing(lines: ["Pairing did not finish: Studio Mac is not on this network", "Nothing was paired."], buttons: ["Done"])
    expectPinned(phone: false, mac: false)
    macReturns()
    openScan()
    wait(0.35)
    expectPairing(lines: comparing, buttons: ["They match", "They don’t match"])
}

let replyToTheOfferLost = Scenario(
    "the Mac's reply to an offer is lost: Send it again offers the same id, and the Mac holds one offer",
    rules: ["HANDOVER-7", "HANDOVER-6"], phone: Phone(camera: "desk-only", mac: .paired())
) {
    openHandover()
    macReplyIsLost()
    tapSendIt()
    expectHandover(heading: "Not sent yet")
    expectMacOffers(1)
    tapSendIt()
    expectHandover(heading: "With Studio Mac now")
    expectMacOffers(1)
    expect("the offer resent under the id it was stored with") { world in
        let id = try world.register.currentTransfer()?.id
        return id == "transfer-1" ? nil : "the stored offer is \(id ?? "none")"
    }
}

let aLabelThenATag = Scenario(
    "a label, then a proven tag behind its offer: the tag opens once the offer is put away",
    rules: ["SCAN-2", "SCAN-3", "SCAN-5"],
    phone: Phone(shots: [.hold("labels/dell-latitude.png", for: 1.5), .hold("tags/mf-0004.png", for: 2.0)])
) {
    openScan()
    wait(1.4)
    expectOffer(containing: ["7XK2M93"])
    wait(0.4)
    expectOpened([])
    putOfferAway()
    wait(0.3)
    expectOpened(["record MF-0004"])
}

let aPairingCodeWhileACardIsUp = Scenario(
    "a pairing code comes into view while a walk-round card is up: pairing opens once NEXT clears the card",
    rules: ["SCAN-4", "SCAN-5"], phone: Phone(shots: [.hold("tags/mf-0004.png", for: 1.0), .hold("tags/pairing-code.png", for: 1.0)])
) {
    openScan(.walkRound)
    wait(1.5)
    expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room")
    expectOpened([])
    tapNext()
    wait(0.3)
    expectPairingTitle("Pair with Studio Mac")
}

let aTagHeldUpsideDown = Scenario(
    "a tag held upside down, from a frame the scenario brings along, still opens its record",
    rules: ["SCAN-2"], phone: Phone(shots: [.nothing(for: 0.2), .hold("Frames/mf-0004-upside-down.png", for: 1.0)])
) {
    openScan()
    wait(0.1)
    expectOpened([])
    wait(0.4)
    expectOpened(["record MF-0004"])
}

let chooserToolbarOnAWorkingCamera = Scenario(
    "the chooser up on a camera that works offers Scan again and Cancel, and Scan again reads again",
    rules: ["SERIAL-7"], phone: Phone(camera: "disagree-digit-hold")
) {
    openPhotographSerial()
    wait(1.25)
    expectChooserToolbar(["Scan again", "Cancel"])
    tapScanAgain()
    expectChooserToolbar(["Cancel"])
}
