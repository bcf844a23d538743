import Foundation

/// A value shared between threads, touched only while its lock is held. The one lock box of the
/// rig: every shared counter, list or state goes through `withLock`.
public final class Locked<Value> {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; what `body` changes is kept.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now (a copy, taken under the lock).
    public var current: Value { withLock { $0 } }
}

extension Locked where Value == Int {
    /// Hands out 0, 1, 2, ... below `limit`, one number to one caller; nil once they run out.
    public func take(below limit: Int) -> Int? {
        withLock { value in
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}

// @unchecked Sendable: `value` is only read or written inside `withLock`, under `lock`; and only
// a value that may itself cross threads is shared this way.
extension Locked: @unchecked Sendable where Value: Sendable {}
