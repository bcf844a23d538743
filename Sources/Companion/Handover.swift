import Model
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
        /// The id is stored but the Mac never acknowledged the offer: nothing has left the phone,
        /// and "Send it" sends it again under the same id (HANDOVER-6, HANDOVER-7).
        case unsent(transfer: String)
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
        /// Record whether the Mac holds the offer (it answered that it does, or that it does not).
        case markAcknowledged(String, Bool)
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

    /// "Send it" works only while the connection is up, and only before the Mac holds an offer
    /// (an offer it never received is sent again under the same id).
    public var sendEnabled: Bool {
        guard case .paired(_, true) = connection else { return false }
        switch phase {
        case .ready, .unsent: return true
        case .sending, .waiting, .resolved: return false
        }
    }

    /// The heading and lines once an offer exists (HANDOVER-6, HANDOVER-8).
    public var status: (heading: String, lines: [String])? {
        switch phase {
        case .ready: return nil
        case .sending: return ("Sending to \(macName)…", [])
        case .unsent: return ("Not sent yet", ["Nothing has left this iPhone.", "Send it again once \(macName) answers."])
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
            if !stored.acknowledged {
                // Stored but never received: not with the Mac, whatever the screen said before.
                phase = .unsent(transfer: stored.id)
                return []
            }
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
            problem = nil
            if case .unsent(let stored) = phase {
                // The same offer again, never a second (HANDOVER-7).
                phase = .sending(transfer: stored)
                return [.sendOffer(stored)]
            }
            phase = .sending(transfer: id)
            return [.storeTransfer(id), .sendOffer(id)]
        case .tapCheckAgain:
            guard case .waiting(let id, _) = phase else { return [] }
            return [.checkStatus(id)]
        case .macReplied(let reply):
            return replied(reply)
        case .linkFailed(let why):
            switch phase {
            case .sending(let id):
                // Nothing left the phone: the id is stored, and Send it tries the same offer again.
                phase = .unsent(transfer: id)
                problem = why
            case .waiting, .unsent:
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
        case .ready, .resolved, .unsent: return []
        }
        let wasSending = if case .sending = phase { true } else { false }
        switch reply {
        case .offer(let transfer, let waiting, let summary) where transfer == id:
            problem = nil
            let acknowledged: [Effect] = wasSending ? [.markAcknowledged(id, true)] : []
            if waiting {
                phase = .waiting(transfer: id, summary: summary)
                return acknowledged
            }
            phase = .resolved(transfer: id)
            return acknowledged + [.markResolved(id)]
        case .unknownOffer(let transfer) where transfer == id:
            // The Mac does not hold it (the offer was lost on the way): offer it again under the
            // same id, which the Mac takes as the same offer (HANDOVER-7).
            phase = .sending(transfer: id)
            return [.markAcknowledged(id, false), .sendOffer(id)]
        case .refused(let reason):
            if wasSending { phase = .unsent(transfer: id) }
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
