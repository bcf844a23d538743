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
    public private(set) var closed = false

    public init(camera: any CameraDevice, reader: any FrameReading, register: Register, clock: any SessionClock) throws(RegisterError) {
        sweep = RackSweep(
            context: ScanContext(settings: try register.settings(), walkRound: try register.walkRound(), signatures: P256.checker))
        pump = CameraPump(camera: camera, reader: reader, clock: clock)
        self.register = register
    }

    public func send(_ event: RackSweep.Event) {
        for effect in sweep.handle(event) {
            switch effect {
            case .startCamera(let setup):
                if let trouble = pump.start(setup) { send(.cameraFailed(trouble)) } else { send(.cameraStarted) }
            case .stopCamera:
                pump.stop()
            case .recordStamps(let tags):
                for tag in tags { outcomes[tag] = register.recordVerification(tag: tag, at: clock.timestamp(clock.now)) }
                send(.recorded(outcomes.values.filter { if case .recorded = $0 { true } else { false } }.count))
            case .open(let route):
                log.append("opened: \(route.title)")
            case .close:
                closed = true
            case .log(let line):
                log.append("log: \(line)")
            }
        }
    }

    public func run(until time: Duration) {
        pump.run(until: time) { event in
            switch event {
            case .frame(let readings, let at): send(.frameRead(readings, at: at))
            case .trouble(let trouble): send(.cameraFailed(trouble))
            case .recovered: send(.cameraStarted)
            case .ended: break
            }
        }
    }
}
