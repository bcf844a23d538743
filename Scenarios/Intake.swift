import Companion
import ScenarioKit

let rackSweep = Scenario(
    "a rack sweep lists every tag once and writes nothing until confirmed", rules: ["INTAKE-2", "INTAKE-3"],
    phone: Phone(camera: "rack-sweep")
) {
    openSweep()
    wait(7.5)
    expectSweepSeen(["MF-0007", "MF-0006", "MF-0004", "MF-0005", "MF-0009", "MF-0010"])
    expectStamps([])
    confirmSweep()
    expectStamps(["MF-0004", "MF-0005", "MF-0006", "MF-0007", "MF-0009", "MF-0010"])
}

let byHandWithBrokenCamera = Scenario(
    "a cracked lens can still add a machine by hand", rules: ["INTAKE-1", "INTAKE-3"],
    phone: Phone(camera: "desk-only", faults: ["stopped"])
) {
    openScan()
    wait(0.2)
    expectRoutes(onlyByHand)
    tap(.addByHand)
    addByHand(tag: "MF-0200", name: "Spare monitor")
    expect("the asset in the register") { world in
        ((try? world.register.asset(tag: "MF-0200")) ?? nil)?.name == "Spare monitor" ? nil : "it is not there"
    }
}

let scanWritesNothing = Scenario(
    "reading labels writes nothing to the register", rules: ["INTAKE-3", "SCAN-3"], phone: Phone(camera: "dell-latitude-hold")
) {
    openScan()
    wait(2.0)
    expectStamps([])
    expect("no new asset") { world in ((try? world.register.counts().assets) ?? 0) == 12 ? nil : "the register changed" }
}
