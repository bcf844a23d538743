import Camera
import Companion
import Crypto
import Reader
import Register

/// Drives a rack sweep from a camera, and writes its stamps when the person confirms.
public final class SweepDriver {
    public private(set) var sweep: RackSweep
    public let pump: CameraPump
    public let register: Register
    public var clock: any SessionClock { pump.clock }
    public private(set) var log: [String] = []
    /// The outcome of each stamp the confirmed sweep wrote.
    public private(set) var outcomes: [String: StampOutcome] = [:]
    /// Set once the sweep was left: done, cancelled, or a route taken.
    public private(set) var closed = false

    public init(camera: any CameraDevice, reader: any FrameReading, register: Register, clock: any SessionClock) throws(RegisterError) {
        sweep = RackSweep(
            context: ScanContext(
                settings: try register.settings(), walkRound: try register.walkRound(), assets: try register.assets(),
                signatures: P256.checker))
        pump = CameraPump(camera: camera, reader: reader, clock: clock)
        self.register = register
    }

    public func send(_ event: RackSweep.Event) {
        for effect in sweep.handle(event) {
            switch effect {
            case .startCamera(let setup):
                if let trouble = pump.start(setup, note: note) { send(.cameraFailed(trouble)) } else { send(.cameraStarted) }
            case .stopCamera:
                pump.stop(note: note)
            case .recordStamps(let tags):
                for tag in tags { outcomes[tag] = register.recordVerification(tag: tag, at: clock.timestamp(clock.now)) }
                send(.recorded(outcomes))
            case .open(let route):
                // The route's screen takes over: the sweep is left, as Cancel leaves it.
                note("opened: \(route.title)")
                closed = true
            case .close:
                closed = true
            case .log(let line):
                note("log: \(line)")
            }
        }
    }

    /// Pumps the camera until `time`; a sweep collects proven tags, so only barcodes are read.
    public func run(until time: Duration) {
        pump.drive(
            until: time, note: note, frame: { send(.frameRead($0.barcodes, at: $1)) }, failed: { send(.cameraFailed($0)) },
            recovered: { send(.cameraStarted) })
    }

    /// The camera's own returnedToForeground, then the sweep's (SCAN-9).
    public func returnToForeground() {
        pump.camera.returnedToForeground()
        send(.returnedToForeground)
    }

    func note(_ line: String) {
        log.append("\(formatSeconds(clock.now)) \(line)")
    }
}
