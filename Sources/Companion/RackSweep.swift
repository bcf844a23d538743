/// One asset tag seen during a sweep.
public struct SweptTag: Sendable, Hashable {
    public var tag: String
    /// Whether it is due on the walk-round.
    public var onWalkRound: Bool
}

/// "Sweep a rack instead" (INTAKE-2): its own camera set-up (torch, low frame rate, low heat),
/// many tags collected once each over minutes, nothing written until the person confirms (INTAKE-3).
///
/// Memory stays flat over a long sweep: only the distinct tags are kept, never frames.
public struct RackSweep: Sendable, Hashable {
    public enum Event: Sendable, Hashable {
        case opened
        case cameraStarted
        case cameraFailed(CameraTrouble)
        case frameRead([Reading], at: Duration)
        case tapConfirm
        case tapCancel
        case tapRoute(Route)
        /// The register recorded the sweep's stamps.
        case recorded(Int)
    }

    public enum Effect: Sendable, Hashable {
        case startCamera(CameraSetup)
        case stopCamera
        /// Verification stamps for these tags, as the person confirmed.
        case recordStamps([String])
        case open(Route)
        case close
        case log(String)
    }

    public static let readySentence = "Walk along the rack. Each asset tag the camera sees is listed once."
    public static func confirmTitle(_ count: Int) -> String { "VERIFY THESE \(count)" }

    /// Collecting tags as the rack goes past, or done: the person confirmed and the register
    /// recorded `recorded` stamps.
    public enum Phase: Sendable, Hashable {
        case collecting
        case done(recorded: Int)
    }

    public let context: ScanContext
    public private(set) var camera: ScanSheet.CameraState = .starting
    public private(set) var phase: Phase = .collecting
    public private(set) var seen: [SweptTag] = []
    public private(set) var frames = 0
    private var seenSet: Set<String> = []

    /// How many stamps the register recorded, once the sweep is done.
    public var recordedCount: Int? { if case .done(let count) = phase { count } else { nil } }

    public init(context: ScanContext) { self.context = context }

    /// The sentence at the top of the sweep.
    public var sentence: String {
        switch camera {
        case .starting: return Copy.starting
        case .ready: return Self.readySentence
        case .trouble(let trouble): return trouble.sentence
        }
    }

    /// The routes off the sweep, by the scan sheet's rule (the sweep itself is not one of them).
    public var routes: [Route] {
        let failed: Set<Requirement> = if case .trouble = camera { [.camera] } else { [] }
        return Route.offered(failed: failed, cardIsUp: false).filter { $0 != .sweepRack }
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .opened:
            camera = .starting
            return [.startCamera(.sweep)]
        case .cameraStarted:
            camera = .ready
            return []
        case .cameraFailed(let trouble):
            camera = .trouble(trouble)
            if case .stopped(let reason) = trouble { return [.log("sweep camera stopped: \(reason)")] }
            return []
        case .frameRead(let readings, _):
            guard camera == .ready, phase == .collecting else { return [] }
            frames += 1
            for reading in readings where reading.source.isBarcode {
                guard let code = AssetTagCode.prove(reading.value, registerID: context.registerID, key: context.tagKey),
                    seenSet.insert(code.tag).inserted
                else { continue }
                seen.append(SweptTag(tag: code.tag, onWalkRound: context.walkRound[code.tag] != nil))
            }
            return []
        case .tapConfirm:
            guard !seen.isEmpty, phase == .collecting else { return [] }
            return [.stopCamera, .recordStamps(seen.map(\.tag))]
        case .recorded(let count):
            guard phase == .collecting else { return [] }
            phase = .done(recorded: count)
            return [.close]
        case .tapCancel:
            return [.stopCamera, .close]
        case .tapRoute(let route):
            guard routes.contains(route) else { return [] }
            return [.stopCamera, .open(route)]
        }
    }
}
