import Companion
import ScenarioKit

/// Faults written in Swift rather than as text: the compiler checks them, and a time computed in a
/// loop (0.1 + 0.2 is 0.30000000000000004) is rounded to the clock's microsecond, not refused.
let faultsAtComputedTimes: [Scenario] = [0.1 + 0.2, 1.1 - 0.9].map { seconds in
    Scenario(
        "busy at a computed time (\(seconds) s) mid-walk-round, until the camera restarts", rules: ["SCAN-6", "SCAN-7", "RIG-1"],
        phone: Phone(camera: "walk-round", faults: [.busy(at: seconds)])
    ) {
        openScan(.walkRound)
        wait(seconds - 0.1)
        expectSentence(ready)
        wait(0.2)
        expectSentence(busy)
        expectRoutes(onlyByHand)
        goToBackground()
        returnToForeground()
        wait(0.8)
        expectSentence(ready)
        expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room")
    }
}

let stoppedAtAFrameUntilForeground = Scenario(
    "busy at frame 12 of a sweep, clearing when the app comes back", rules: ["SCAN-9", "INTAKE-2", "RIG-1"],
    phone: Phone(camera: "rack-sweep", faults: [.busy(atFrame: 12, clears: .onForeground)])
) {
    openSweep()
    wait(3.5)
    expectSweepScreen(sentence: busy, routes: ["Add it by hand"])
    goToBackground()
    returnToForeground()
    wait(0.5)
    expectSweepScreen(
        sentence: "Walk along the rack. Each asset tag the camera sees is listed once.",
        routes: ["Photograph a serial instead", "Add it by hand"])
}
