import Model
/// What a route off the scan sheet needs in order to work.
public enum Requirement: Sendable, Hashable {
    case camera
}

/// A way off the scan sheet into intake (INTAKE-1, INTAKE-2).
public enum Route: String, Sendable, Hashable, CaseIterable {
    case photographSerial
    case sweepRack
    case addByHand

    /// The route's label.
    public var title: String {
        switch self {
        case .photographSerial: return Copy.photographSerial
        case .sweepRack: return Copy.sweepRack
        case .addByHand: return Copy.addByHand
        }
    }

    /// What the route depends on: two of the three open a camera; "Add it by hand" needs no lens.
    public var requirements: Set<Requirement> {
        switch self {
        case .photographSerial, .sweepRack: return [.camera]
        case .addByHand: return []
        }
    }

    /// The routes offered (SCAN-7), by one rule for every state: a route is offered unless it
    /// depends on something that has failed, and none is offered while a result card is up
    /// (SCAN-5). A new trouble cannot forget the rule: it only has to say what failed.
    public static func offered(failed: Set<Requirement>, cardIsUp: Bool) -> [Route] {
        guard !cardIsUp else { return [] }
        return allCases.filter { $0.requirements.isDisjoint(with: failed) }
    }
}

extension CameraTrouble {
    /// The sentence the scan sheet shows for this trouble (SCAN-6). The reason of `stopped` is
    /// for the log and never appears here (SCAN-10).
    public var sentence: String {
        switch self {
        case .accessOff: return Copy.accessOff
        case .cannotScan: return Copy.cannotScan
        case .busy: return Copy.busy
        case .stopped: return Copy.stopped
        }
    }

    /// Whether the person can undo it: only camera access, in Settings (SCAN-8).
    public var personCanUndo: Bool { self == .accessOff }

    /// Whether returning to the foreground is worth a new try: busy (SCAN-9), and access, which
    /// the person may have just turned on in Settings.
    public var retriesOnForeground: Bool { self == .busy || self == .accessOff }
}
