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
