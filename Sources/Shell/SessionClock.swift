import Foundation
import Model
import Register

/// The time a shell runs on: virtual in scenarios (it jumps, nobody waits), or real in the live
/// shell. Either way it is time since the session began, and a wall-clock moment for the register.
public protocol SessionClock: AnyObject {
    /// Time since the session began.
    var now: Duration { get }
    /// Moves to `time` (virtual), or waits until it (real). Never moves backwards.
    func advance(to time: Duration)
    /// The moment `time` into the session, for the register's records.
    func timestamp(_ time: Duration) -> Timestamp
}

/// A clock that only moves when told to: the same transcript on every run.
public final class VirtualClock: SessionClock {
    public private(set) var now: Duration = .zero
    /// The wall-clock moment the session begins at.
    public let origin: Timestamp

    public init(origin: Timestamp = Timestamp(year: 2026, month: 11, day: 30, hour: 9)) {
        self.origin = origin
    }

    public func advance(to time: Duration) {
        if time > now { now = time }
    }

    public func timestamp(_ time: Duration) -> Timestamp { origin.adding(time) }
}

/// The real clock, for a developer at a desk: advancing waits.
public final class RealClock: SessionClock {
    private let start = ContinuousClock.now
    private let origin = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))

    public init() {}

    public var now: Duration { ContinuousClock.now - start }

    public func advance(to time: Duration) {
        let wait = time - now
        if wait > .zero { Thread.sleep(forTimeInterval: wait.inSeconds) }
    }

    public func timestamp(_ time: Duration) -> Timestamp { origin.adding(time) }
}
