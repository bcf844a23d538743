import Companion
import ScenarioKit

// Every fault kind, against every camera screen, at start and mid-flow: what the screen says, what
// it offers, and that nothing waits on the failed camera. The always-on checks run after each step.

/// A camera screen at a moment worth breaking, and what must hold once its camera failed.
struct MatrixScreen: Sendable {
    var name: String
    var camera: String
    /// When, on the recording, the screen is in the state named (a mid-flow fault comes then).
    var at: Double
    var rules: [String]
    /// Opens the screen and brings it to its state.
    var reach: [Step]
    /// What must hold after the fault, given its sentence; `atStart` says whether it came at start.
    var after: @Sendable (_ sentence: String, _ atStart: Bool) -> [Step]
}

let matrixScreens: [MatrixScreen] = [
    MatrixScreen(
        name: "Scan ready", camera: "desk-only", at: 0.2, rules: ["SCAN-6", "SCAN-7"], reach: [openScan(), wait(0.2)],
        after: { sentence, _ in [expectSentence(sentence), expectRoutes(onlyByHand), expectNoCard()] }),
    MatrixScreen(
        name: "Scan settling a label", camera: "dell-latitude-hold", at: 0.6, rules: ["SCAN-3", "SCAN-7"],
        reach: [openScan(), wait(0.6)],
        after: { sentence, _ in
            // What was collecting is dropped: no offer appears from a camera that failed.
            [expectSentence(sentence), expectRoutes(onlyByHand), wait(2.0), expectNoCard()]
        }),
    MatrixScreen(
        name: "a walk-round card up", camera: "walk-round", at: 0.8, rules: ["VERIFY-1", "VERIFY-4", "SCAN-5"],
        reach: [openScan(.walkRound), wait(0.8)],
        after: { sentence, atStart in
            atStart
                ? [expectSentence(sentence), expectNoCard(), expectRoutes(onlyByHand)]
                // The card stays over the trouble: its VERIFY needs no camera, and its routes stand down.
                : [
                    expectSentence(sentence), expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room"),
                    tapVerify(), expectStamps(["MF-0004"]), tapNext(), expectRoutes(onlyByHand),
                ]
        }),
    MatrixScreen(
        name: "the chooser reading", camera: "dell-latitude-hold", at: 0.5, rules: ["SERIAL-8", "SERIAL-4"],
        reach: [openPhotographSerial(), wait(0.5)],
        after: { _, _ in [expectSerialPhase("typing by hand"), expectSerialUsed(nil)] }),
    MatrixScreen(
        name: "the chooser showing rows", camera: "dell-latitude-hold", at: 2.0, rules: ["SERIAL-1", "SERIAL-6"],
        reach: [openPhotographSerial(), wait(2.0)],
        after: { _, atStart in
            atStart
                ? [expectSerialPhase("typing by hand")]
                // The rows need no camera: the person can still choose and confirm.
                : [expectChooser(["7XK2M93"]), tapRow(0), tapUseThisSerial(), expectSerialUsed("7XK2M93")]
        }),
    MatrixScreen(
        name: "a sweep collecting", camera: "rack-sweep", at: 1.5, rules: ["INTAKE-2", "SCAN-7"], reach: [openSweep(), wait(1.5)],
        after: { sentence, atStart in
            [expectSweepScreen(sentence: sentence, routes: onlyByHand)] + (atStart ? [expectSweepSeen([])] : [])
        }),
    MatrixScreen(
        name: "a sweep confirming", camera: "rack-sweep", at: 3.0, rules: ["INTAKE-3", "VERIFY-4"], reach: [openSweep(), wait(3.0)],
        after: { sentence, atStart in
            atStart
                ? [expectSweepSeen([]), confirmSweep(), expectStamps([])]
                // Confirming writes the tags seen before the fault: the stamps need no camera.
                : [
                    expectSweepScreen(sentence: sentence, routes: onlyByHand), confirmSweep(),
                    expectStamps(["MF-0004", "MF-0005", "MF-0006", "MF-0007"]),
                ]
        }),
]

/// Every fault kind x every camera screen x at start and mid-flow.
let faultMatrix: [Scenario] = faultKinds.flatMap { kind in
    matrixScreens.flatMap { screen in
        [true, false].map { atStart in
            Scenario(
                "matrix: \(kind.fault) \(atStart ? "at start" : "mid-flow"), \(screen.name)", rules: screen.rules + ["RIG-1", "RIG-2"],
                phone: Phone(camera: screen.camera, faults: [atStart ? kind.fault : "\(kind.fault)@\(screen.at)"])
            ) {
                screen.reach
                wait(0.1)
                screen.after(kind.sentence, atStart)
            }
        }
    }
}
