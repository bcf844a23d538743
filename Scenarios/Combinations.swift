import Companion
import ScenarioKit

// The rules under combinations an independent QA author tried: each behaviour that broke, as a
// scenario of its own.

let notDueNamedByRegister = Scenario(
    "a proven tag not due on the walk-round is named as the register names it", rules: ["VERIFY-2", "VERIFY-1"],
    phone: Phone(camera: "intake-mf-0001")
) {
    openScan(.walkRound)
    wait(0.5)
    expectCard(tag: "MF-0001", name: "Reception iMac", reason: "Not on this walk-round.")
}

let threeTagsOnScan = Scenario(
    "three proven tags in view on Scan: each record opens once, in turn, and none flickers", rules: ["SCAN-2"],
    phone: Phone(camera: "three-tags")
) {
    openScan()
    wait(3.0)
    expectOpened(["record MF-0004", "record MF-0006", "record MF-0007"])
}

let threeTagsOnWalkRound = Scenario(
    "three proven tags in view on a walk-round: NEXT goes to the next, none is starved", rules: ["SCAN-2", "VERIFY-3"],
    phone: Phone(camera: "three-tags")
) {
    openScan(.walkRound)
    wait(0.5)
    expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room")
    tapNext()
    wait(0.1)
    expectCard(tag: "MF-0006", name: "Comms UPS", reason: "Battery due for replacement in December")
    tapNext()
    wait(0.1)
    expectCard(tag: "MF-0007", name: "File server", reason: "Not on this walk-round.")
    tapNext()
    wait(0.5)
    expectNoCard()
}

let impostorAtSend = Scenario(
    "an offer the impostor refused never left: not 'With Studio Mac now', even after a restart",
    rules: ["HANDOVER-1", "HANDOVER-6", "HANDOVER-7"],
    phone: Phone(camera: "desk-only", mac: .paired(answer: .byHand))
) {
    anImpostorAnswersForTheMac()
    openHandover()
    tapSendIt()
    expectHandover(heading: "Not sent yet", lines: ["Nothing has left this iPhone.", "Send it again once Studio Mac answers."])
    expectHandoverProblem(containing: "this is not the paired Mac")
    restartApp()
    openHandover()
    expectHandover(heading: "Not sent yet")
    theImpostorLeaves()
    tapSendIt()
    expectHandover(heading: "With Studio Mac now")
    expectMacOffers(1)
}

let serialCameraFailsAtOpen = Scenario(
    "the camera fails as Photograph a serial opens: straight through to typing it by hand, never reading for ever",
    rules: ["SERIAL-8"], phone: Phone(camera: "dell-latitude-hold", faults: ["stopped"])
) {
    openPhotographSerial()
    wait(0.1)
    expectSerialPhase("typing by hand")
    wait(5)
    expectSerialPhase("typing by hand")
}

let unsyncedAssetReason = Scenario(
    "a photograph kept for an unsynced asset: the queue says why", rules: ["QUEUE-3"], phone: Phone(camera: "desk-only", mac: .paired())
) {
    takePhotograph(of: "MF-0012")
    expectSummary(["1 kept on this phone, not queued to send yet"])
    expectExplanation("Some photographs show assets Studio Mac does not have yet. They go up once the register is handed over.")
}

let noStaleStorageReason = Scenario(
    "storage full is said only while the ceiling refuses: never once the queue has room", rules: ["QUEUE-3", "QUEUE-2"],
    phone: Phone(camera: "desk-only", register: smallCeiling, mac: .paired())
) {
    takePhotograph(of: "MF-0001", bytes: 200_000)
    takePhotograph(of: "MF-0002", bytes: 200_000)
    expectSummary(["1 still going up", "1 kept on this phone, not queued to send yet"])
    expectExplanation("This iPhone’s storage is full, so nothing more can be queued.")
    pushUploads()
    expectExplanation(nil)
    pushUploads()
    expectSummary(["All sent"])
}

/// The demo register with a 300 kB ceiling: one 200 kB photograph fits in the queue, two do not.
let smallCeiling: RegisterSeed = {
    var seed = RegisterSeed.demo
    seed.storageCeiling = 300_000
    return seed
}()

let impostorStopsUploads = Scenario(
    "uploads stopped by something else at the Mac's address: the queue says so", rules: ["QUEUE-3", "HANDOVER-1"],
    phone: Phone(camera: "desk-only", mac: .paired())
) {
    anImpostorAnswersForTheMac()
    takePhotograph(of: "MF-0001")
    pushUploads()
    expectSummary(["1 still going up"])
    expectExplanation("Something other than Studio Mac answers at its address, so nothing is sent. Waiting for Studio Mac.")
    expectMacHolds(photographs: 0)
}

let fileGoneNeedsDecision = Scenario(
    "a queued photograph whose file is gone: the header and the row agree it needs a decision", rules: ["QUEUE-2", "QUEUE-4"],
    phone: Phone(camera: "desk-only", mac: .paired(reachable: false))
) {
    takePhotograph(of: "MF-0001")
    photographFileDisappears(of: "MF-0001")
    expectSummary(["1 needs a decision"])
    expectQueueRows(["needs decision [Try again, Remove…]"])
    removeUpload(of: "MF-0001")
    expectQueueRows([])
}

let sweepBusyRetries = Scenario(
    "a sweep that starts while the camera is busy tries again when the app comes back", rules: ["SCAN-9", "INTAKE-2"],
    phone: Phone(camera: "rack-sweep", faults: ["busy"])
) {
    openSweep()
    wait(0.5)
    expectSweepScreen(
        sentence: "The camera is busy. Another app is using it. Close it and come back, or add it by hand.", routes: ["Add it by hand"])
    goToBackground()
    returnToForeground()
    wait(3.0)
    expectSweepScreen(
        sentence: "Walk along the rack. Each asset tag the camera sees is listed once.",
        routes: ["Photograph a serial instead", "Add it by hand"])
    expectSweepSeen(["MF-0007", "MF-0006", "MF-0004", "MF-0005"])
}

let pastedNameWithLineBreak = Scenario(
    "a pasted name with a line break is previewed and recorded the same way", rules: ["AUDIT-3", "AUDIT-1"],
    phone: Phone(camera: "desk-only", actor: nil)
) {
    typeActorName("Alex Kim\n")
    expectPreview(actor: "Alex Kim", faint: false)
    saveActorName()
    expectLastEntrySignedBy("Alex Kim")
}

let sweepPastDisposed = Scenario(
    "a sweep past a disposed machine lists its refusal by tag, and stays until it is read", rules: ["VERIFY-4", "INTAKE-3"],
    phone: Phone(camera: "rack-disposed")
) {
    openSweep()
    wait(5.0)
    expectSweepSeen(["MF-0005", "MF-0007", "MF-0006", "MF-0008"])
    confirmSweep()
    expectStamps(["MF-0005", "MF-0006", "MF-0007"])
    expectSweepRefusals(["MF-0008: Not recorded: this asset is disposed of in the register."])
    expect("the sweep still open") { world in world.sweep?.closed == false ? nil : "it closed" }
    tapSweepDone()
    expect("the sweep closed") { world in world.sweep?.closed == true ? nil : "it is still open" }
}

let refusedHandIntake = Scenario(
    "a hand intake the register refuses shows why on the form; nothing is written", rules: ["INTAKE-1", "INTAKE-3"],
    phone: Phone(camera: "desk-only")
) {
    addByHand(tag: "MF-0001", name: "A second reception iMac")
    expect("the form says why") { world in
        (world.handIntake?.problem ?? "").contains("MF-0001") ? nil : "it said “\(world.handIntake?.problem ?? "nothing")”"
    }
    remember("MF-0001's name") { world in ((try? world.register.asset(tag: "MF-0001")) ?? nil)?.name ?? "" }
    expectRemembered("MF-0001's name") { _ in "Reception iMac" }
}

let cancelRearmsScan = Scenario(
    "Cancel on the chooser goes back to Scan, re-armed: the next tag opens its record", rules: ["SERIAL-7", "SCAN-2"],
    phone: Phone(camera: "intake-mf-0001")
) {
    openPhotographSerial()
    wait(0.1)
    tapCancel()
    expectSerialPhase("cancelled")
    wait(0.5)
    expectOpened(["record MF-0001"])
}

let networkDropsMidPush = Scenario(
    "the network drops mid-push: what went up is on the Mac, the rest still going up, and the queue says why",
    rules: ["QUEUE-3", "QUEUE-5", "QUEUE-2"], phone: Phone(camera: "desk-only", mac: .paired())
) {
    takePhotograph(of: "MF-0001")
    takePhotograph(of: "MF-0002")
    networkDropsDuringPush(after: 1)
    expectMacHolds(photographs: 1)
    expectSummary(["1 still going up"])
    expectExplanation("Waiting for Studio Mac to be on this network.")
    macReturns()
    pushUploads()
    expectSummary(["All sent"])
}

let retryAfterRefusal = Scenario(
    "a photograph whose file is gone: Try again still needs a decision; Remove takes it off the queue", rules: ["QUEUE-2", "QUEUE-4"],
    phone: Phone(camera: "desk-only", mac: .paired())
) {
    takePhotograph(of: "MF-0001")
    photographFileDisappears(of: "MF-0001")
    pushUploads()
    expectSummary(["1 needs a decision"])
    expectQueueRows(["needs decision [Try again, Remove…]"])
    retryUpload(of: "MF-0001")
    expectSummary(["1 needs a decision"])
    removeUpload(of: "MF-0001")
    expectQueueRows([])
}
