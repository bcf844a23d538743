import Model
/// A fault written in Swift: `.busy` (at start), `.busy(at: 0.3)`, `.stopped(atFrame: 12,
/// clears: .onForeground)`. It reads as the text `fieldrig read --fault` takes (its
/// `description`), and a time given as a Double is taken as it is, rounded to the clock's
/// microsecond.
public struct CameraFault: Sendable, Hashable, CustomStringConvertible {
    /// When a fault that came mid-stream clears.
    public enum Clears: Sendable, Hashable {
        case never
        case onForeground
        /// At this time, in seconds on the camera's clock.
        case at(Double)
    }

    /// The fault as text, in the form the fault parser reads.
    public let description: String

    private init(_ kind: String, _ when: String = "", clears: Clears = .never) {
        let until: String
        switch clears {
        case .never: until = ""
        case .onForeground: until = "~foreground"
        case .at(let seconds): until = "~" + Self.written(seconds)
        }
        description = kind + when + until
    }

    /// `seconds` rounded to the microsecond and written without trailing zeros ("0.3", "2").
    static func written(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else { return "\(seconds)" }
        var text = formatSeconds(.microseconds(Int64((seconds * 1_000_000).rounded())))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func at(_ kind: String, _ seconds: Double, _ clears: Clears) -> CameraFault {
        CameraFault(kind, "@" + written(seconds), clears: clears)
    }

    private static func frame(_ kind: String, _ index: Int, _ clears: Clears) -> CameraFault {
        CameraFault(kind, "#\(index)", clears: clears)
    }

    /// Camera access is off at start.
    public static let denied = CameraFault("denied")
    /// The device cannot scan at start (no accelerator).
    public static let noAccelerator = CameraFault("no-accelerator")
    /// Another app holds the camera at start; it clears when the app returns to the foreground.
    public static let busy = CameraFault("busy")
    /// The camera stops at start, for good.
    public static let stopped = CameraFault("stopped")

    public static func denied(at seconds: Double, clears: Clears = .never) -> CameraFault { at("denied", seconds, clears) }
    public static func denied(atFrame index: Int, clears: Clears = .never) -> CameraFault { frame("denied", index, clears) }
    public static func noAccelerator(at seconds: Double, clears: Clears = .never) -> CameraFault { at("no-accelerator", seconds, clears) }
    public static func noAccelerator(atFrame index: Int, clears: Clears = .never) -> CameraFault {
        frame("no-accelerator", index, clears)
    }
    public static func busy(at seconds: Double, clears: Clears = .never) -> CameraFault { at("busy", seconds, clears) }
    public static func busy(atFrame index: Int, clears: Clears = .never) -> CameraFault { frame("busy", index, clears) }
    public static func stopped(at seconds: Double, clears: Clears = .never) -> CameraFault { at("stopped", seconds, clears) }
    public static func stopped(atFrame index: Int, clears: Clears = .never) -> CameraFault { frame("stopped", index, clears) }
}
