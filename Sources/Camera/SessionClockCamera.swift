import Model

/// A recording played on the session's clock, as a live camera would be: started at session time
/// S, it delivers the frames recorded from S on (those before were the past), with times counted
/// from its start, as the camera pump expects. What a webcam showed while the app was on another
/// screen is not replayed after it comes back.
public final class SessionClockCamera: CameraDevice {
    public let underlying: any CameraDevice
    /// The session's time now.
    let now: () -> Duration
    private var offset = Duration.zero
    private var pending: CameraEvent? = nil

    public init(_ underlying: any CameraDevice, now: @escaping () -> Duration) {
        self.underlying = underlying
        self.now = now
    }

    public var name: String { underlying.name }
    public var capabilities: CameraCapabilities { underlying.capabilities }
    public var recoversOnItsOwn: Bool { underlying.recoversOnItsOwn }

    public func start(_ setup: CameraSetup) throws(CameraTrouble) {
        try underlying.start(setup)
        offset = now()
        pending = nil
        // The recording's past: frames before the session's now are passed over.
        while let event = underlying.nextEvent(before: offset) {
            if case .frame = event { continue }
            pending = event
            break
        }
    }

    public func nextEvent(before deadline: Duration) -> CameraEvent? {
        let event: CameraEvent
        if let waiting = pending {
            guard waiting.time < deadline + offset else { return nil }
            pending = nil
            event = waiting
        } else {
            guard let next = underlying.nextEvent(before: deadline + offset) else { return nil }
            event = next
        }
        switch event {
        case .frame(var frame):
            frame.timestamp -= offset
            return .frame(frame)
        case .trouble(let trouble, let at): return .trouble(trouble, at: at - offset)
        case .recovered(let at): return .recovered(at: max(.zero, at - offset))
        case .ended(let at): return .ended(at: max(.zero, at - offset))
        }
    }

    public func stop() { underlying.stop() }

    public func returnedToForeground() { underlying.returnedToForeground() }
}
