import Model
/// Why the queue is not moving, when it knows (QUEUE-3).
public enum QueueStall: Sendable, Hashable {
    case noMacPaired
    case macNotOnNetwork(macName: String)
    /// Something answers at the paired Mac's address with another certificate (HANDOVER-1).
    case notThePairedMac(macName: String)
    case storageFull
    /// Photographs wait for their assets to reach the Mac with the register.
    case assetNotSynced(macName: String?)

    /// The queue's own explanation.
    public var sentence: String {
        switch self {
        case .noMacPaired: return "Nothing can go up until this iPhone is paired with your Mac."
        case .macNotOnNetwork(let name): return "Waiting for \(name) to be on this network."
        case .notThePairedMac(let name):
            return "Something other than \(name) answers at its address, so nothing is sent. Waiting for \(name)."
        case .storageFull: return "This iPhone’s storage is full, so nothing more can be queued."
        case .assetNotSynced(let name):
            return "Some photographs show assets \(name ?? "your Mac") does not have yet. They go up once the register is handed over."
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
            if !facts.macReachable {
                stall = .macNotOnNetwork(macName: name)
            } else if facts.impostorAtMacAddress {
                stall = .notThePairedMac(macName: name)
            } else if facts.storageCeilingRefused {
                stall = .storageFull
            } else if facts.assetNotSynced && facts.counts.kept > 0 {
                stall = .assetNotSynced(macName: name)
            } else {
                stall = nil
            }
        } else {
            stall = .noMacPaired
        }
        self.init(counts: facts.counts, stall: stall)
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
        self.rows = rows.filter { $0.state != .done }.map { row in
            // A row going up whose photograph is gone cannot go: it needs the person's decision,
            // and says so, as the header counts it (QUEUE-2, QUEUE-4).
            let stopped = row.state == .needsDecision || row.fileMissing
            let problem = row.state == .needsDecision ? row.problem : (row.fileMissing ? .fileGone : nil)
            return Row(
                file: row.capture.file, state: (stopped ? QueueRow.State.needsDecision : row.state).label, problem: problem?.sentence,
                choices: stopped ? ["Try again", "Remove…"] : [])
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
