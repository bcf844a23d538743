/// Why a camera cannot deliver frames. Each has its own sentence on the scan sheet (SCAN-6).
public enum CameraTrouble: Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The person has not allowed camera access (permission denied).
    case accessOff
    /// The device has no accelerator to scan with (the Simulator), or no capture device at all.
    case cannotScan
    /// Another app holds the camera.
    case busy
    /// Anything else. `reason` is for the log, never for the screen (SCAN-10).
    case stopped(reason: String)

    /// One of each, `stopped` with a generic reason.
    public static let allCases: [CameraTrouble] = [.accessOff, .cannotScan, .busy, .stopped(reason: "the camera stopped")]

    /// The trouble without its reason, for comparing kinds.
    public var kind: String {
        switch self {
        case .accessOff: return "access off"
        case .cannotScan: return "cannot scan"
        case .busy: return "busy"
        case .stopped: return "stopped"
        }
    }

    /// For the log: the kind, and for `stopped` the underlying reason.
    public var description: String {
        if case .stopped(let reason) = self { return "stopped: \(reason)" }
        return kind
    }
}

/// What happened at the camera, on its clock (time since it was started).
public enum CameraEvent: Sendable, Equatable {
    case frame(Frame)
    case trouble(CameraTrouble, at: Duration)
    /// A trouble that came mid-stream has cleared; frames follow.
    case recovered(at: Duration)
    /// A recording came to its end; no more events until it is started again.
    case ended(at: Duration)

    public var time: Duration {
        switch self {
        case .frame(let frame): return frame.timestamp
        case .trouble(_, let at), .recovered(let at), .ended(let at): return at
        }
    }
}

/// A size and rate a camera can deliver.
public struct CameraMode: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var framesPerSecond: Int
    /// The camera's own pixel format (a fourcc such as "YUYV" or "MJPG"), where it names one:
    /// the same size can come in two formats at two rates.
    public var pixelFormat: String?

    public init(width: Int, height: Int, framesPerSecond: Int, pixelFormat: String? = nil) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.pixelFormat = pixelFormat
    }

    public var description: String {
        "\(width)x\(height)\(pixelFormat.map { " \($0)" } ?? "") at \(framesPerSecond) fps"
    }
}

/// What a camera can do.
public struct CameraCapabilities: Sendable, Equatable {
    /// False where there is no accelerator to scan with ("no Neural Engine": the Simulator).
    public var canScan: Bool
    public var hasTorch: Bool
    public var modes: [CameraMode]

    public init(canScan: Bool = true, hasTorch: Bool = false, modes: [CameraMode] = []) {
        self.canScan = canScan
        self.hasTorch = hasTorch
        self.modes = modes
    }
}

/// How the camera is set up for a job (INTAKE-2): reading one label in the hand, or sweeping a rack.
public struct CameraSetup: Sendable, Hashable {
    public enum Purpose: String, Sendable, Hashable {
        case label, sweep
    }

    public var purpose: Purpose
    public var torch: Bool
    public var framesPerSecond: Int
    public var width: Int
    public var height: Int
    /// Whether readings are highlighted over the live picture as they are found.
    public var liveHighlighting: Bool

    public init(purpose: Purpose, torch: Bool, framesPerSecond: Int, width: Int, height: Int, liveHighlighting: Bool) {
        self.purpose = purpose
        self.torch = torch
        self.framesPerSecond = framesPerSecond
        self.width = width
        self.height = height
        self.liveHighlighting = liveHighlighting
    }

    /// A label held in the hand for a few seconds: full resolution, live highlighting.
    public static let label = CameraSetup(
        purpose: .label, torch: false, framesPerSecond: 30, width: 1280, height: 720, liveHighlighting: true)

    /// A rack walked past for minutes in a dark aisle: torch on, low rate and resolution, low heat.
    public static let sweep = CameraSetup(
        purpose: .sweep, torch: true, framesPerSecond: 5, width: 640, height: 480, liveHighlighting: false)
}
