/// "Send to the Mac" (HANDOVER-1..9): the phone offers its register, the Mac decides, and the
/// phone never claims an outcome it cannot know.
public struct HandoverScreen: Sendable, Hashable {
    /// What the screen knows of the Mac.
    public enum Connection: Sendable, Hashable {
        case notPaired
        /// Paired, and on this network or not.
        case paired(name: String, reachable: Bool)
    }

    public enum Phase: Sendable, Hashable {
        /// Before any offer: what will be sent, and the Send it button.
        case ready
        /// The offer is being sent.
        case sending(transfer: String)
        /// "With NAME now": waiting for somebody at the Mac.
        case waiting(transfer: String, summary: String)
        /// The Mac has dealt with it; the phone does not know how.
        case resolved(transfer: String)
    }

    public enum Event: Sendable, Hashable {
        /// The screen appeared; `stored` is the offer the register holds, if any (HANDOVER-7).
        case appeared(stored: Transfer?)
        case connectionChanged(Connection)
        case tapPair
        /// Send it, with a new id the shell made for the offer.
        case tapSend(newTransfer: String)
        case tapCheckAgain
        /// The Mac's reply to an offer or to "where did it get to".
        case macReplied(MacReply)
        /// The channel failed (not on the network, not the paired Mac); the words say which.
        case linkFailed(String)
        case close
    }

    public enum Effect: Sendable, Hashable {
        case openPairing
        /// Store the id first, then send the register under it.
        case storeTransfer(String)
        case sendOffer(String)
        case checkStatus(String)
        case markResolved(String)
    }

    public private(set) var connection: Connection
    public private(set) var phase: Phase = .ready
    public private(set) var problem: String? = nil
    public let assetCount: Int

    public init(connection: Connection, assetCount: Int) {
        self.connection = connection
        self.assetCount = assetCount
    }

    // MARK: - What the person sees

    /// The destination, by name; "your Mac" when nothing is paired.
    public var macName: String {
        if case .paired(let name, _) = connection { return name }
        return "your Mac"
    }

    /// The plain account before any button (HANDOVER-2, HANDOVER-3).
    public var account: [String] {
        [
            "The register: \(assetCount) \(assetCount == 1 ? "asset" : "assets"), and the sites, people, vendors and agreements around them.",
            "Sending removes nothing from this iPhone.",
            "Nothing is written until somebody at the Mac accepts it.",
            "Photographs do not travel with the register; they go up on the queue, one at a time.",
            "Keep the phone paired until the queue is empty.",
        ]
    }

    /// The "Pair with the Mac" row above the send button, when nothing is paired (HANDOVER-4).
    public var pairRow: (title: String, detail: String)? {
        guard connection == .notPaired else { return nil }
        return ("Pair with the Mac", "This iPhone hasn’t met a Mac yet. Pair first, then hand the register over.")
    }

    /// The line under "Send it" (HANDOVER-5).
    public var sendDetail: String {
        switch connection {
        case .notPaired: return "Pair with the Mac first."
        case .paired(let name, true): return "Goes straight to \(name) over Wi-Fi."
        case .paired(_, false): return "Needs the Mac on this network."
        }
    }

    /// "Send it" works only while the connection is up, and only before an offer exists.
    public var sendEnabled: Bool {
        guard case .paired(_, true) = connection else { return false }
        return phase == .ready
    }

    /// The heading and lines once an offer exists (HANDOVER-6, HANDOVER-8).
    public var status: (heading: String, lines: [String])? {
        switch phase {
        case .ready: return nil
        case .sending: return ("Sending to \(macName)…", [])
        case .waiting(_, let summary): return ("With \(macName) now", ["Waiting for somebody to accept it", summary])
        case .resolved:
            return (
                "No longer waiting",
                [
                    "\(macName) has dealt with the offer: it was accepted, declined, or it timed out, and the Mac shows which.",
                    "Your register is still on this iPhone, exactly as it was.",
                ]
            )
        }
    }

    /// "Check again" is offered while waiting.
    public var checkAgainOffered: Bool { if case .waiting = phase { true } else { false } }

    // MARK: - Events

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .appeared(let stored):
            // The stored id, not memory: backing out and coming back resumes the same offer.
            guard let stored else { return [] }
            if stored.waiting {
                phase = .waiting(transfer: stored.id, summary: stored.summary)
                return [.checkStatus(stored.id)]
            }
            phase = .resolved(transfer: stored.id)
            return []
        case .connectionChanged(let new):
            connection = new
            return []
        case .tapPair:
            return pairRow == nil ? [] : [.openPairing]
        case .tapSend(let id):
            guard sendEnabled else { return [] }
            phase = .sending(transfer: id)
            problem = nil
            return [.storeTransfer(id), .sendOffer(id)]
        case .tapCheckAgain:
            guard case .waiting(let id, _) = phase else { return [] }
            return [.checkStatus(id)]
        case .macReplied(let reply):
            return replied(reply)
        case .linkFailed(let why):
            switch phase {
            case .sending(let id):
                // The id is stored: Check again (or coming back) retries the same offer, never a second.
                phase = .waiting(transfer: id, summary: "")
                problem = why
            case .waiting:
                problem = why
            case .ready, .resolved:
                break
            }
            return []
        case .close:
            // Closing the screen does not stop the offer: it is stored and stays with the Mac.
            return []
        }
    }

    /// What the Mac's reply means for the offer in hand.
    private mutating func replied(_ reply: MacReply) -> [Effect] {
        let id: String
        switch phase {
        case .sending(let transfer), .waiting(let transfer, _): id = transfer
        case .ready, .resolved: return []
        }
        switch reply {
        case .offer(let transfer, let waiting, let summary) where transfer == id:
            problem = nil
            if waiting {
                phase = .waiting(transfer: id, summary: summary)
                return []
            }
            phase = .resolved(transfer: id)
            return [.markResolved(id)]
        case .unknownOffer(let transfer) where transfer == id:
            // The Mac never got it (the answer was lost on the way): offer it again under the same
            // id, which the Mac takes as the same offer (HANDOVER-7).
            phase = .sending(transfer: id)
            return [.sendOffer(id)]
        case .refused(let reason):
            if case .sending = phase { phase = .waiting(transfer: id, summary: "") }
            problem = reason
            return []
        default:
            problem = "the Mac’s answer made no sense"
            return []
        }
    }
}

/// The provisioning screen's name field and its "In the audit trail" card (AUDIT-2, AUDIT-3).
public struct ProvisioningScreen: Sendable, Hashable {
    public private(set) var name: String = ""
    public let previewTime: Timestamp

    public init(previewTime: Timestamp) { self.previewTime = previewTime }

    public static let cardTitle = "In the audit trail"

    public enum Effect: Sendable, Hashable { case saveActorName(String?) }

    public mutating func type(_ text: String) { name = text }

    /// The entry as it will be drawn, by the same renderer as the real history row.
    public var preview: HistoryRow { HistoryRow.preview(actorName: name, at: previewTime) }

    public func save() -> [Effect] { [.saveActorName(name.isEmpty ? nil : name)] }
}
