import Companion
import ScenarioKit

/// Recorded at the webcam with `fieldrig live --record-scenario walkRoundAtTheWebcam`: the frames are in
/// Devices/recordings/walkRoundAtTheWebcam, with what was read live on each frame in its `readings` file.
let recordedWalkRoundAtTheWebcam = Scenario(
    "recorded at the webcam: walkRoundAtTheWebcam",
    rules: ["RIG-1", "RIG-2", "RIG-3", "SCAN-6", "SCAN-7", "VERIFY-1", "VERIFY-2", "VERIFY-4", "VERIFY-5"],
    phone: Phone(recording: "walkRoundAtTheWebcam")
) {
    openScan(.walkRound)
    wait(0.8)
    expectSentence("Point at an asset tag, or a pairing code on your Mac when it is running.")
    expectRoutes([])
    expectCard(tag: "MF-0004", name: "Core switch", reason: "Quarterly check of the comms room")
    expectOpened([])
    tapVerify()
    expectVerified()
    wait(0.3)
    cameraFails(.busy)
    expectSentence("The camera is busy. Another app is using it. Close it and come back, or add it by hand.")
    wait(0.9)
}
