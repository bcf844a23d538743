import Companion
import ScenarioKit

let keptThenQueued = Scenario(
    "kept first, queued second; All sent only when nothing is left", rules: ["QUEUE-1", "QUEUE-2", "QUEUE-4", "QUEUE-5"],
    phone: Phone(camera: "desk-only", mac: .paired())
) {
    expectSummary(["All sent"])
    takePhotograph(of: "MF-0001")
    takePhotograph(of: "MF-0002")
    expectSummary(["2 still going up"])
    expect("the queue screen and the More screen agree") { world in
        QueueScreen(summary: world.summary, rows: []).summary.lines == MoreScreen(summary: world.summary).photographsRow.detail
            ? nil : "they differ"
    }
    pushUploads()
    expectSummary(["All sent"])
    expectMacHolds(photographs: 2)
}

let unsyncedAssetPhoto = Scenario(
    "a photograph of an asset not yet synced is kept on the phone, and counted", rules: ["QUEUE-2", "QUEUE-1"],
    phone: Phone(camera: "desk-only", mac: .paired())
) {
    takePhotograph(of: "MF-0012")
    expectSummary(["1 kept on this phone, not queued to send yet"])
    pushUploads()
    expectSummary(["1 kept on this phone, not queued to send yet"])
}

let noQueueYet = Scenario(
    "no queue when the shutter fired: kept, and the queue says why", rules: ["QUEUE-2", "QUEUE-3"],
    phone: Phone(camera: "desk-only", mac: .notPaired)
) {
    takePhotograph(of: "MF-0001")
    expectSummary(["1 kept on this phone, not queued to send yet"])
    expectExplanation("Nothing can go up until this iPhone is paired with your Mac.")
}

let networkLoss = Scenario(
    "network loss pauses the queue and loses nothing", rules: ["QUEUE-3", "QUEUE-5", "HANDOVER-3"],
    phone: Phone(camera: "desk-only", mac: .paired())
) {
    takePhotograph(of: "MF-0003")
    macLeavesNetwork()
    pushUploads()
    expectSummary(["1 still going up"])
    expectExplanation("Waiting for Studio Mac to be on this network.")
    macReturns()
    pushUploads()
    expectSummary(["All sent"])
}
