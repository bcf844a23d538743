import Companion
import ScenarioKit

/// Every fault kind, at start and mid-flow, in intake, on a walk-round and in a sweep.
let faultScenarios: [Scenario] = faultKinds.flatMap { kind in
    [
        Scenario(
            "\(kind.fault) at start, on Scan", rules: ["SCAN-6", "SCAN-7", "SCAN-8", "INTAKE-1", "RIG-1"],
            phone: Phone(camera: "intake-mf-0001", faults: [kind.fault])
        ) {
            openScan()
            wait(0.5)
            expectSentence(kind.sentence)
            expectRoutes(onlyByHand)
            expectButtons(kind.fault == "denied" ? ["Open Settings"] : [])
            tap(.photographSerial)
            tap(.sweepRack)
            expectOpened([])
            tap(.addByHand)
            expectOpened(["Add it by hand"])
        },
        Scenario(
            "\(kind.fault) mid-walk-round", rules: ["SCAN-6", "SCAN-7", "RIG-1", "RIG-2"],
            phone: Phone(camera: "walk-round", faults: ["\(kind.fault)@1.5"])
        ) {
            openScan(.walkRound)
            wait(1.0)
            expectSentence(ready)
            expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room")
            tapNext()
            wait(1.0)
            expectSentence(kind.sentence)
            expectRoutes(onlyByHand)
        },
        Scenario(
            "\(kind.fault) at start and mid-sweep", rules: ["INTAKE-2", "SCAN-7", "RIG-1"],
            phone: Phone(camera: "rack-sweep", faults: ["\(kind.fault)#12"])
        ) {
            openSweep()
            wait(1.5)
            expectSweepScreen(
                sentence: "Walk along the rack. Each asset tag the camera sees is listed once.",
                routes: ["Photograph a serial instead", "Add it by hand"])
            wait(2.0)
            expectSweepScreen(sentence: kind.sentence, routes: ["Add it by hand"])
        },
        Scenario(
            "\(kind.fault) at start of a sweep", rules: ["INTAKE-2", "RIG-1"], phone: Phone(camera: "rack-sweep", faults: [kind.fault])
        ) {
            openSweep()
            wait(1.0)
            expectSweepScreen(sentence: kind.sentence, routes: ["Add it by hand"])
            expectSweepSeen([])
        },
    ]
}

let busyComesBack = Scenario(
    "busy clears when the app returns to the foreground: no retry button", rules: ["SCAN-9"],
    phone: Phone(camera: "intake-mf-0001", faults: ["busy"])
) {
    openScan()
    wait(0.2)
    expectSentence(busy)
    expectButtons([])
    goToBackground()
    returnToForeground()
    wait(0.6)
    expectOpened(["record MF-0001"])
}

let stoppedReasonInLog = Scenario(
    "the stopped reason goes to the log, never the screen", rules: ["SCAN-10"], phone: Phone(camera: "walk-round", faults: ["stopped@0.5"])
) {
    openScan(.walkRound)
    wait(1.0)
    expectSentence(stopped)
    expect("the reason in the log only") { world in
        let logged = world.scan?.log.contains { $0.contains("log: scanner stopped: injected fault: the camera stopped") } ?? false
        return logged ? nil : "the log was \(world.scan?.log ?? [])"
    }
}

let accessTurnedOn = Scenario(
    "access off offers Open Settings; coming back tries again", rules: ["SCAN-8"],
    phone: Phone(camera: "intake-mf-0001", faults: ["denied"])
) {
    openScan()
    wait(0.2)
    tapOpenSettings()
    expectOpened(["Settings"])
    goToBackground()
    returnToForeground()
    wait(0.2)
    expectSentence(accessOff)
}
