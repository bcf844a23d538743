import Imaging
import Model

/// A camera: a real webcam, a recorded sequence, or one of those with faults injected (RIG-1).
///
/// Time is the camera's own, from `start`: a recording's timestamps, or the real clock for a
/// webcam. The shell that drives a camera asks for the next event before a deadline; a camera
/// with nothing to say before it returns nil, and the shell's clock moves on to the deadline.
public protocol CameraDevice: AnyObject {
    /// A name for the person and the log: a device path, a sequence folder.
    var name: String { get }
    var capabilities: CameraCapabilities { get }
    /// Starts delivering in `setup`; time starts at zero. A camera that cannot start says why.
    func start(_ setup: CameraSetup) throws(CameraTrouble)
    /// The next event if it happens before `deadline`, or nil.
    func nextEvent(before deadline: Duration) -> CameraEvent?
    /// Stops delivering and releases what `start` took.
    func stop()
    /// The app came back to the foreground (SCAN-9: a busy camera may be free again).
    func returnedToForeground()
    /// Whether, after a mid-stream trouble, the camera keeps trying on its own and says
    /// `.recovered` when it delivers again (a webcam that stalled and came back). Those that do
    /// not (recordings, scripted faults) go silent after a trouble.
    var recoversOnItsOwn: Bool { get }
}

extension CameraDevice {
    public func returnedToForeground() {}
    public var recoversOnItsOwn: Bool { false }
}
