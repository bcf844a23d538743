import Companion
import ScenarioKit

let provenTagOpensRecord = Scenario(
    "a proven tag opens its record on the frame it decodes", rules: ["SCAN-2", "SCAN-1", "RIG-4"], phone: Phone(camera: "tag-mf-0004")
) {
    openScan()
    wait(0.19)
    expectOpened([])
    wait(0.02)
    expectOpened(["record MF-0004"])
    expectNoCard()
}

let forgedTagSettles = Scenario(
    "a forged tag settles like any other code", rules: ["SCAN-2", "SCAN-3"], phone: Phone(camera: "tag-forged")
) {
    openScan()
    wait(1.1)
    expectNoCard()
    wait(0.2)
    expectOffer(containing: ["MFST-T1/REG-4F2A/MF-0004/1QIqQ_F1FrexNUMvh5M9vLqFyL_HWiRw9CwL3bJlHQ8"])
    expectOpened([])
}

let labelSettles = Scenario(
    "a label settles after the window, with every value read in the same pass", rules: ["SCAN-1", "SCAN-3", "SCAN-5", "RIG-4"],
    phone: Phone(camera: "dell-latitude-hold")
) {
    openScan()
    wait(0.5)
    expectSentence(ready)
    expectRoutes(allRoutes)
    expectNoCard()
    wait(1.0)
    expectOffer(containing: ["7XK2M93", "DELL Latitude 5420", "Service Tag (S/N): 7XK2M93"])
    expectRoutes([])
    putOfferAway()
    expectRoutes(allRoutes)
}

let readySentence = Scenario(
    "the ready sentence names pairing codes as well as tags", rules: ["SCAN-4", "SCAN-6"], phone: Phone(camera: "desk-only")
) {
    openScan()
    expectSentence(ready)  // a recorded camera starts at once; "Starting the camera…" shows while a webcam comes up
    wait(0.1)
    expectSentence(ready)
    expectRoutes(allRoutes)
}

let pairingCodeOpensPairing = Scenario(
    "a Mac's pairing code is provably ours: it opens pairing at once", rules: ["SCAN-4", "SCAN-2"], phone: Phone(camera: "pairing-code")
) {
    openScan()
    wait(0.29)
    expectOpened([])
    wait(0.02)
    expectOpened(["pairing with Studio Mac"])
    wait(1.5)
    expectOpened(["pairing with Studio Mac"])  // once, not again on every frame it stays in view
    expectNoCard()
}
