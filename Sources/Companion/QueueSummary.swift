/// Why the queue is not moving, when it knows (QUEUE-3).
public enum QueueStall: Sendable, Hashable {
    case noMacPaired
    case macNotOnNetwork(macName: String)
    case storageFull

    /// The queue's own explanation.
    public var sentence: String {
        switch self {
        case .noMacPaired: return "Nothing can go up until this iPhone is paired with your Mac."
        case .macNotOnNetwork(let name): return "Waiting for \(name) to be on this network."
        case .storageFull: return "This iPhone’s storage is full, so nothing more can be queued."
        }
    }
}

/// What this iPhone is still holding, in the words both the queue screen and the More screen use
/// (QUEUE-2, QUEUE-4): one function, so the two cannot disagree.
public struct QueueSummary: Sendable, Hashable {
    public let counts: QueueCounts
    public let stall: QueueStall?

    public init(counts: QueueCounts, stall: QueueStall?) {
        self.counts = counts
        self.stall = stall
    }

    /// "All sent" only when all three counts are zero; otherwise one line for each count that is
    /// not, with correct singulars.
    public var lines: [String] {
        if counts.allSent { return ["All sent"] }
        var lines: [String] = []
        if counts.goingUp > 0 { lines.append("\(counts.goingUp) still going up") }
        if counts.needDecision > 0 { lines.append("\(counts.needDecision) \(counts.needDecision == 1 ? "needs" : "need") a decision") }
        if counts.kept > 0 { lines.append("\(counts.kept) kept on this phone, not queued to send yet") }
        return lines
    }

    /// The queue's explanation, shown when something is waiting and it knows why nothing moves.
    public var explanation: String? {
        guard !counts.allSent, counts.goingUp > 0 || counts.kept > 0 else { return nil }
        return stall?.sentence
    }

    /// The summary from what the shell gathered: the three counts, the pairing, the connection
    /// and the storage ceiling. The rule for which reason the queue gives lives here, not in a shell.
    public init(_ facts: QueueFacts) {
        let stall: QueueStall?
        if let name = facts.pairedMac {
            stall = facts.macReachable ? nil : .macNotOnNetwork(macName: name)
        } else {
            stall = .noMacPaired
        }
        self.init(counts: facts.counts, stall: facts.storageCeilingRefused && stall == nil ? .storageFull : stall)
    }
}

/// The queue screen: the summary, the queue's explanation, and each row with the person's choices.
public struct QueueScreen: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public var file: String
        public var state: String
        public var problem: String?
        /// For a row that needs a decision: "Try again", "Remove…".
        public var choices: [String]
    }

    public let summary: QueueSummary
    public let rows: [Row]

    public init(summary: QueueSummary, rows: [QueueRow]) {
        self.summary = summary
        self.rows = rows.filter { $0.state != .done }.map {
            Row(
                file: $0.capture.file, state: $0.state.label, problem: $0.problem?.sentence,
                choices: $0.state == .needsDecision ? ["Try again", "Remove…"] : [])
        }
    }

    /// What the screen says at the top: the summary's lines, then the explanation.
    public var header: [String] { summary.lines + (summary.explanation.map { [$0] } ?? []) }
}

/// The More screen's line about photographs: the same summary, drawn in its own row.
public struct MoreScreen: Sendable, Hashable {
    public let summary: QueueSummary

    public init(summary: QueueSummary) { self.summary = summary }

    /// The row "Photographs" with the summary under it.
    public var photographsRow: (title: String, detail: [String]) { ("Photographs", summary.lines) }
}
