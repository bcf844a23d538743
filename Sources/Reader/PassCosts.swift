import Foundation

/// What each named pass of the reader cost over many reads: how often it ran, and the wall time
/// it took on the reading thread, not counting the passes it led to (a page made easier and read
/// again counts its reading under "text" and the passes after it). `fieldrig bench read` prints it; a reader keeps none unless
/// one is given (`FrameReader.costs`).
public final class PassCosts {
    public struct Cost: Sendable {
        public var runs = 0
        public var total = Duration.zero
    }

    /// Each pass's cost, by name, and the names in the order they first ran.
    public private(set) var costs: [String: Cost] = [:]
    public private(set) var order: [String] = []

    public init() {}

    /// Passes' costs, each by name, in the order they first ran.
    public typealias Table = [(name: String, cost: Cost)]

    /// These costs as a table: what a worker hands over to be added up.
    public var table: Table { order.map { ($0, costs[$0]!) } }

    /// Adds `table`'s costs to these (each worker of a bench keeps its own).
    public func add(_ table: Table) {
        for (name, cost) in table {
            if costs[name] == nil { order.append(name) }
            costs[name, default: Cost()].runs += cost.runs
            costs[name]!.total += cost.total
        }
    }

    /// Runs `body` as the pass `name` (a `ReaderPass`'s), adding its time to the pass's cost.
    func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer {
            if costs[name] == nil { order.append(name) }
            costs[name, default: Cost()].runs += 1
            costs[name]!.total += ContinuousClock.now - start
        }
        return try body()
    }
}
