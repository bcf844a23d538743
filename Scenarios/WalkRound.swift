import Companion
import ScenarioKit

/// The walk-round's four due assets, verified one by one with two taps each.
func verifyNext(_ tag: String, _ name: String, _ reason: String, confirmation: String) -> [Step] {
    [
        expectCard(tag: tag, name: name, reason: reason),
        expectRoutes([]),
        tapVerify(),
        expectConfirmation(confirmation),
        tapNext(),
    ]
}

let wholeWalkRound = Scenario(
    "a walk-round: each hit drawn over the live camera, two taps a job",
    rules: ["VERIFY-1", "VERIFY-2", "VERIFY-3", "VERIFY-4", "VERIFY-5", "AUDIT-1", "RIG-2"], phone: Phone(camera: "walk-round")
) {
    openScan(.walkRound)
    wait(0.5)
    verifyNext("MF-0004", "Core switch", "Quarterly check of the comms room", confirmation: "Verified at 09:00.")
    wait(1.5)
    verifyNext("MF-0006", "Comms UPS", "Battery due for replacement in December", confirmation: "Verified at 09:00.")
    wait(1.5)
    verifyNext("MF-0002", "Finance laptop", "Not seen since the office move", confirmation: "Verified at 09:00.")
    wait(1.5)
    verifyNext(
        "MF-0008", "Old print server", "Listed for collection by the recycler",
        confirmation: "Not recorded: this asset is disposed of in the register.")
    expectStamps(["MF-0002", "MF-0004", "MF-0006"])
    expectOpened([])
    expectLastEntrySignedBy("Sam Rivera")
}

let openRecordFromCard = Scenario(
    "OPEN THE RECORD is one tap away; the camera keeps running", rules: ["VERIFY-1", "VERIFY-3"], phone: Phone(camera: "walk-round")
) {
    openScan(.walkRound)
    wait(0.5)
    tapOpenRecord()
    expectOpened(["record MF-0004"])
    expectSentence(ready)
}

let offlineVerification = Scenario(
    "verifying needs no Mac: recorded offline on the phone", rules: ["FIELD-1", "VERIFY-4"],
    phone: Phone(camera: "walk-round", mac: .paired(reachable: false))
) {
    openScan(.walkRound)
    wait(0.5)
    tapVerify()
    expectConfirmation("Verified at 09:00.")
    expectStamps(["MF-0004"])
}

let unsignedStamp = Scenario(
    "with no name set, the stamp is unsigned and the trail says so", rules: ["AUDIT-1"], phone: Phone(camera: "walk-round", actor: nil)
) {
    openScan(.walkRound)
    wait(0.5)
    tapVerify()
    expectLastEntrySignedBy(nil)
}
