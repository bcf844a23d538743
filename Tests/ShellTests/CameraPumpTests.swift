import Camera
import Imaging
import Model
import Reader
import Register
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

/// A clock that runs on while frames are read, as the real one does: each read takes `cost`.
private final class BusyClock: SessionClock {
    var now: Duration = .zero
    func advance(to time: Duration) { if time > now { now = time } }
    func timestamp(_ time: Duration) -> Timestamp { Timestamp(year: 2026, month: 11, day: 30, hour: 9).adding(time) }
}

/// A reader that takes `cost` of its clock's time for each frame, and notes which it read.
private final class SlowReader: FrameReading {
    let clock: BusyClock
    let cost: Duration
    var indices: [Int] = []
    init(clock: BusyClock, cost: Duration) {
        self.clock = clock
        self.cost = cost
    }
    func read(_ frame: Frame) -> [Reading] {
        indices.append(frame.index)
        clock.now += cost
        return []
    }
    /// Its barcode pass costs nothing: the cost is the whole reading's.
    func readBarcodes(_ frame: Frame) -> [Reading] { [] }
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

    @Test("a reader slower than the camera reads the newest frame due, never a backlog; the skipped ones are counted")
    func newestFrame() {
        // 30 frames, one every 33 ms; each read takes 100 ms.
        let frames: [CameraEvent] = (0..<30).map {
            .frame(Frame(width: 2, height: 2, bytes: [0, 0, 0, 0], timestamp: .milliseconds(33 * $0), index: $0))
        }
        let clock = BusyClock()
        let reader = SlowReader(clock: clock, cost: .milliseconds(100))
        let pump = CameraPump(camera: ScriptedCamera(frames, recovers: false), reader: reader, clock: clock)
        #expect(pump.start(.label) == nil)
        pump.run(until: .seconds(2)) { event in
            if case .frame(let inHand, _) = event { _ = inHand.readings }
        }
        // Read at 0, 100, 200 ms...: the newest frame due then is every third one; after the one
        // read at 900 ms, the last two are due and the last is read.
        #expect(reader.indices == Array(stride(from: 0, to: 30, by: 3)) + [29])
        #expect(pump.framesRead == 11 && pump.framesDropped == 19)
    }

    @Test("on a clock that waits for each frame (scenarios) every frame is read")
    func everyFrameOnAVirtualClock() {
        let frames: [CameraEvent] = (0..<30).map {
            .frame(Frame(width: 2, height: 2, bytes: [0, 0, 0, 0], timestamp: .milliseconds(33 * $0), index: $0))
        }
        let pump = CameraPump(camera: ScriptedCamera(frames, recovers: false), reader: NoReader(), clock: VirtualClock())
        #expect(pump.start(.label) == nil)
        pump.run(until: .seconds(2)) { _ in }
        #expect(pump.framesRead == 30 && pump.framesDropped == 0)
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
