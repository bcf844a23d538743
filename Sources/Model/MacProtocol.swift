/// What the phone asks the Mac, over the pinned channel. A body (a register bundle, a photograph)
/// travels beside the request, not in it.
public enum MacRequest: Codable, Sendable, Hashable {
    /// Who is there, and whether it has paired with this phone.
    case hello
    /// Begin pairing (PAIR-2): the Mac answers with a commitment to its nonce.
    case pairBegin(phoneName: String)
    /// The phone's nonce, as hex; the Mac answers by revealing its own.
    case pairNonce(nonce: String)
    /// Has the Mac's person confirmed the number?
    case pairFinish
    /// The phone's person saw another number, or cancelled: pin nothing.
    case pairCancel
    /// Offer the register (the body is the bundle) under this transfer id (HANDOVER-7).
    case offer(transfer: String)
    /// Where did the offer get to?
    case status(transfer: String)
    /// A photograph (the body), under its file name (QUEUE-5).
    case photo(file: String)

    /// A name for the log.
    public var name: String {
        switch self {
        case .hello: return "hello"
        case .pairBegin: return "pair-begin"
        case .pairNonce: return "pair-nonce"
        case .pairFinish: return "pair-finish"
        case .pairCancel: return "pair-cancel"
        case .offer: return "offer"
        case .status: return "status"
        case .photo: return "photo"
        }
    }
}

/// What the Mac answers. Accepted, declined and expired are one answer to the phone:
/// `waiting: false` (HANDOVER-8).
public enum MacReply: Codable, Sendable, Hashable {
    case hello(name: String, paired: Bool)
    case pairCommit(commitment: String)
    case pairReveal(nonce: String)
    /// The Mac's person has not confirmed the number yet.
    case pairWaiting
    case paired(name: String)
    case pairCancelled
    /// The offer as the Mac holds it.
    case offer(transfer: String, waiting: Bool, summary: String)
    /// The Mac holds no offer with this id: the send was lost on the way, and may be made again
    /// under the same id.
    case unknownOffer(transfer: String)
    case received(file: String, bytes: Int, sha256: String)
    /// The Mac would not do it; `reason` says why, for a person.
    case refused(reason: String)

    /// A name for the log.
    public var name: String {
        switch self {
        case .hello: return "hello"
        case .pairCommit: return "pair-commit"
        case .pairReveal: return "pair-reveal"
        case .pairWaiting: return "pair-waiting"
        case .paired: return "paired"
        case .pairCancelled: return "pair-cancelled"
        case .offer: return "offer"
        case .unknownOffer: return "unknown-offer"
        case .received: return "received"
        case .refused: return "refused"
        }
    }
}
