import Model
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
        /// The register answered for each confirmed tag: recorded, or refused with why.
        case recorded([String: StampOutcome])
        /// The person read the refusals and closes the sweep.
        case tapDone
        case wentToBackground
        case returnedToForeground
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
    /// recorded `recorded` stamps and refused the others, each listed by tag with its sentence
    /// in the place the confirmation appears (VERIFY-4).
    public enum Phase: Sendable, Hashable {
        case collecting
        case done(recorded: Int, refused: [RefusedStamp])
    }

    /// A tag whose stamp the register refused, and why.
    public struct RefusedStamp: Sendable, Hashable {
        public var tag: String
        public var refusal: StampRefusal
        /// "MF-0009: Not recorded: this asset is disposed of in the register."
        public var line: String { "\(tag): \(refusal.sentence)" }
    }

    public let context: ScanContext
    public private(set) var camera: ScanSheet.CameraState = .starting
    public private(set) var phase: Phase = .collecting
    public private(set) var seen: [SweptTag] = []
    public private(set) var frames = 0
    private var seenSet: Set<String> = []

    /// How many stamps the register recorded, once the sweep is done.
    public var recordedCount: Int? { if case .done(let count, _) = phase { count } else { nil } }
    /// The refused stamps, once the sweep is done: shown until the person taps Done.
    public var refused: [RefusedStamp] { if case .done(_, let refused) = phase { refused } else { [] } }
    public private(set) var inForeground = true

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
        case .recorded(let outcomes):
            guard phase == .collecting else { return [] }
            var recorded = 0
            var refused: [RefusedStamp] = []
            for tag in seen.map(\.tag) {
                switch outcomes[tag] {
                case .recorded?: recorded += 1
                case .refused(let refusal)?: refused.append(RefusedStamp(tag: tag, refusal: refusal))
                case nil: break
                }
            }
            phase = .done(recorded: recorded, refused: refused)
            // A refusal is never quieter than a confirmation: the sweep stays until it is read.
            return refused.isEmpty ? [.close] : []
        case .tapDone:
            guard case .done = phase else { return [] }
            return [.close]
        case .wentToBackground:
            guard inForeground else { return [] }
            inForeground = false
            return camera == .ready || camera == .starting ? [.stopCamera] : []
        case .returnedToForeground:
            guard !inForeground else { return [] }
            inForeground = true
            guard phase == .collecting else { return [] }
            switch camera {
            case .ready, .starting:
                camera = .starting
                return [.startCamera(.sweep)]
            case .trouble(let trouble) where trouble.retriesOnForeground:
                // No retry button here either: the sweep tries again on its own (SCAN-9).
                camera = .starting
                return [.startCamera(.sweep)]
            case .trouble:
                return []
            }
        case .tapCancel:
            return [.stopCamera, .close]
        case .tapRoute(let route):
            guard routes.contains(route) else { return [] }
            return [.stopCamera, .open(route)]
        }
    }
}
