import Model
/// When a trouble that came mid-stream clears.
public enum Recovery: Sendable, Hashable {
    /// It never clears while the camera runs.
    case never
    /// It clears at this time on the camera's clock; frames follow.
    case at(Duration)
    /// It clears when the app returns to the foreground; the next start succeeds (SCAN-9).
    case onForeground
}

/// A trouble injected into a running camera, at a time or a frame, and when it clears.
public struct Fault: Sendable, Hashable {
    public enum Trigger: Sendable, Hashable {
        /// At this time on the camera's clock.
        case time(Duration)
        /// Instead of the frame with this index (counted from 0 since start).
        case frame(Int)
    }

    public var trigger: Trigger
    public var trouble: CameraTrouble
    public var recovery: Recovery

    public init(_ trouble: CameraTrouble, _ trigger: Trigger, recovery: Recovery = .never) {
        self.trouble = trouble
        self.trigger = trigger
        self.recovery = recovery
    }
}

/// What goes wrong, and when: at start, and at points on the timeline.
public struct FaultScript: Sendable, Hashable {
    /// A trouble that stops the camera starting; `clearsOnForeground` lets a start after the app
    /// returns to the foreground succeed (busy: SCAN-9).
    public var atStart: CameraTrouble?
    public var clearsOnForeground: Bool
    public var faults: [Fault]

    public init(atStart: CameraTrouble? = nil, clearsOnForeground: Bool = false, faults: [Fault] = []) {
        self.atStart = atStart
        self.clearsOnForeground = clearsOnForeground
        self.faults = faults
    }

    /// No faults: the camera underneath, as it is.
    public static let none = FaultScript()

    /// The trouble at start; busy clears when the app returns to the foreground, the others stay.
    public static func atStart(_ trouble: CameraTrouble) -> FaultScript {
        FaultScript(atStart: trouble, clearsOnForeground: trouble == .busy)
    }

    /// The trouble mid-stream at `time`.
    public static func at(_ time: Duration, _ trouble: CameraTrouble, recovery: Recovery = .never) -> FaultScript {
        FaultScript(faults: [Fault(trouble, .time(time), recovery: recovery)])
    }

    /// The trouble mid-stream instead of frame `index`.
    public static func atFrame(_ index: Int, _ trouble: CameraTrouble, recovery: Recovery = .never) -> FaultScript {
        FaultScript(faults: [Fault(trouble, .frame(index), recovery: recovery)])
    }
}

/// Wraps any camera and applies a fault script on its timeline (RIG-1).
///
/// Deterministic: the same script over the same camera yields the same events on every run. While
/// a mid-stream trouble lasts, the frames underneath pass unseen; a recovery at a time is reported
/// as `.recovered` and frames follow; a trouble that clears on the foreground stays silent until
/// the app restarts the camera after `returnedToForeground()`. Each mid-stream fault fires once in
/// the camera's life, so a restart does not meet it again. "No accelerator" at start also
/// makes the capabilities say the device cannot scan.
public final class FaultyCamera: CameraDevice {
    public let underlying: any CameraDevice
    public let script: FaultScript
    public var name: String { "\(underlying.name) with faults" }
    public var capabilities: CameraCapabilities {
        var capabilities = underlying.capabilities
        if script.atStart == .cannotScan { capabilities.canScan = false }
        return capabilities
    }

    private var pending: [Fault] = []
    private var fired = Set<Int>()
    private var active: Fault? = nil
    private var buffered: CameraEvent? = nil
    private var framesSeen = 0
    private var foregroundCleared = false
    private var waitingForForeground = false
    private var running = false

    public init(_ underlying: any CameraDevice, script: FaultScript) {
        self.underlying = underlying
        self.script = script
    }

    public func start(_ setup: CameraSetup) throws(CameraTrouble) {
        if let trouble = script.atStart, !(script.clearsOnForeground && foregroundCleared) { throw trouble }
        if waitingForForeground && !foregroundCleared { throw active?.trouble ?? .busy }
        try underlying.start(setup)
        // Each fault fires once in the camera's life: after a restart the timeline begins again,
        // and a fault that already fired would otherwise fire again and again.
        pending = script.faults.indices.filter { !fired.contains($0) }.map { script.faults[$0] }
        active = nil
        buffered = nil
        framesSeen = 0
        waitingForForeground = false
        running = true
    }

    public func stop() {
        running = false
        buffered = nil
        underlying.stop()
    }

    public func returnedToForeground() {
        foregroundCleared = true
        underlying.returnedToForeground()
    }

    public func nextEvent(before deadline: Duration) -> CameraEvent? {
        guard running else { return nil }
        while true {
            if let fault = active {
                // Inside a trouble: frames pass unseen until it clears.
                switch fault.recovery {
                case .never, .onForeground:
                    drain(before: deadline)
                    return nil
                case .at(let time):
                    guard time < deadline else {
                        drain(before: deadline)
                        return nil
                    }
                    drain(before: time)
                    active = nil
                    return .recovered(at: time)
                }
            }
            let next = buffered ?? underlying.nextEvent(before: deadline)
            buffered = nil
            // A fault at a time fires before any event at or after that time.
            let timed = pending.indices.compactMap { i -> (index: Int, time: Duration)? in
                if case .time(let t) = pending[i].trigger { return (i, t) }
                return nil
            }.min { $0.time < $1.time }
            if let timed, timed.time < deadline, timed.time <= (next?.time ?? deadline) {
                buffered = next
                return fire(pending.remove(at: timed.index), at: timed.time)
            }
            guard let event = next else { return nil }
            if case .frame(let frame) = event {
                defer { framesSeen += 1 }
                if let index = pending.firstIndex(where: { $0.trigger == .frame(framesSeen) }) {
                    return fire(pending.remove(at: index), at: frame.timestamp)
                }
            }
            return event
        }
    }

    private func fire(_ fault: Fault, at time: Duration) -> CameraEvent {
        active = fault
        if let index = script.faults.indices.first(where: { script.faults[$0] == fault && !fired.contains($0) }) { fired.insert(index) }
        if fault.recovery == .onForeground {
            waitingForForeground = true
            foregroundCleared = false
        }
        return .trouble(fault.trouble, at: time)
    }

    /// Consumes the events underneath that come before `deadline`.
    private func drain(before deadline: Duration) {
        if let event = buffered {
            guard event.time >= deadline else {
                buffered = nil
                return drain(before: deadline)
            }
            return
        }
        while let event = underlying.nextEvent(before: deadline) {
            if case .frame = event { framesSeen += 1 }
        }
    }
}
