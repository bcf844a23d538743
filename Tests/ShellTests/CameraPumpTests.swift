import Camera
import Imaging
import Reader
import Shell
import Testing

/// A camera that plays a fixed list of events, and says whether it recovers on its own.
private final class ScriptedCamera: CameraDevice {
    let name = "scripted"
    let capabilities = CameraCapabilities(canScan: true, hasTorch: false, modes: [])
    let recoversOnItsOwn: Bool
    private var events: [CameraEvent]
    private var failed = false

    init(_ events: [CameraEvent], recovers: Bool) {
        self.events = events
        self.recoversOnItsOwn = recovers
    }

    func start(_ setup: CameraSetup) throws(CameraTrouble) {}
    func stop() {}

    func nextEvent(before deadline: Duration) -> CameraEvent? {
        // A camera that does not recover is silent after its trouble, as recordings are.
        guard !failed || recoversOnItsOwn, let next = events.first, next.time < deadline else { return nil }
        events.removeFirst()
        if case .trouble = next { failed = true }
        return next
    }
}

private final class NoReader: FrameReading {
    func read(_ frame: Frame) -> [Reading] { [] }
}

@Suite("The camera pump")
struct CameraPumpTests {
    let script: [CameraEvent] = [
        .frame(Frame(width: 2, height: 2, bytes: [0, 0, 0, 0], timestamp: .milliseconds(10))),
        .trouble(.stopped(reason: "stalled"), at: .milliseconds(100)),
        .recovered(at: .milliseconds(400)),
        .frame(Frame(width: 2, height: 2, bytes: [0, 0, 0, 0], timestamp: .milliseconds(400), index: 1)),
    ]

    func kinds(_ camera: any CameraDevice) -> [String] {
        let pump = CameraPump(camera: camera, reader: NoReader(), clock: VirtualClock())
        #expect(pump.start(.label) == nil)
        var seen: [String] = []
        pump.run(until: .seconds(1)) { event in
            switch event {
            case .frame: seen.append("frame")
            case .trouble: seen.append("trouble")
            case .recovered: seen.append("recovered")
            case .ended: seen.append("ended")
            }
        }
        return seen
    }

    @Test("a camera that recovers on its own (a webcam that stalled) is still asked after its trouble")
    func keepsAskingAWebcam() {
        #expect(kinds(ScriptedCamera(script, recovers: true)) == ["frame", "trouble", "recovered", "frame"])
    }

    @Test("a camera that does not (a recording, a scripted fault) is left alone after its trouble")
    func leavesARecording() {
        #expect(kinds(ScriptedCamera(script, recovers: false)) == ["frame", "trouble"])
    }
}
