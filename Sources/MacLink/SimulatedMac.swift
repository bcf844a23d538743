import Crypto
import Durable
import Foundation
import Model
import Register

/// What the person at the Mac does with an offer.
public enum MacAnswer: Sendable, Hashable {
    case accept(after: Duration)
    case decline(after: Duration)
    /// Nobody decides; the offer expires.
    case expire(after: Duration)
    /// Decided by hand: `accept(_:)` and `decline(_:)` (the prompt of `fieldrig mac`).
    case byHand
}

/// How the person at the Mac answers a pairing request's comparison number.
public enum PairingConfirmation: Sendable, Hashable {
    /// They look at the number and confirm it (for scripts and scenarios that do not play it).
    case automatic
    /// Typed at the Mac's prompt, or a scenario step: `confirmPairing(_:matches:at:)`.
    case byHand
}

/// A phone asking to pair, as the Mac sees it.
public struct PairingRequest: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// The Mac committed to its nonce and waits for the phone's.
        case committed
        /// Both nonces are known: the Mac shows `number` and waits for its person.
        case comparing(number: String)
        case confirmed
        case rejected
    }

    /// The fingerprint of the certificate the phone presented.
    public var phone: String
    public var phoneName: String
    public var state: State
    var macNonce: [UInt8]
    /// Whether the phone finished the pairing (it asked, and heard it was paired here): until
    /// then the phone may still call it off, and a pin made for it is taken back (PAIR-2).
    var finishedByPhone = false

    /// The comparison number as the Mac shows it, once there is one.
    public var number: String? {
        if case .comparing(let number) = state { return PairingComparison.shown(number) }
        return nil
    }
}

/// The Mac end, played for real: it shows a pairing code, accepts pairing, keeps each offer until
/// somebody accepts, declines or lets it expire, answers "where did it get to" without saying
/// which (HANDOVER-8), receives photographs, and writes nothing of an offer into its own register
/// until it is accepted (HANDOVER-9). Time is given to it (a virtual clock in scenarios).
///
/// Pairing is mutual (PAIR-3): a phone pairs by presenting its certificate, exchanging nonces and
/// having the Mac's person confirm the comparison number (PAIR-2); only then is its fingerprint
/// pinned, in the Mac's register. Offers, "where did it get to" and photographs from any other
/// peer are refused, and nothing of them is kept.
public final class SimulatedMac: Sendable {
    public enum OfferState: String, Sendable { case waiting, accepted, declined, expired }

    public struct Offer: Sendable {
        public var id: String
        public var bundle: RegisterBundle
        public var receivedAt: Timestamp
        public var state: OfferState
    }

    public let name: String
    /// The fingerprint of the certificate this Mac presents: what its comparison numbers use.
    public let macFingerprint: String
    public let register: Register
    public let photosFolder: String
    /// Where the Mac's pairing nonces come from: random bytes, or a fixed series in scenarios.
    let nonceSource: @Sendable () -> [UInt8]

    /// Everything that changes, behind one lock.
    struct State {
        var answer: MacAnswer
        var expiry: Duration = .seconds(600)
        var confirmation: PairingConfirmation
        var offers: [String: Offer] = [:]
        var pairings: [String: PairingRequest] = [:]
        var pinned: Set<String>
        var onPairing: (@Sendable (PairingRequest) -> Void)? = nil
    }
    private let state: Locked<State>

    public init(
        name: String, fingerprint: String, register: Register, photosFolder: String, answer: MacAnswer,
        pairing confirmation: PairingConfirmation = .byHand, nonces: @escaping @Sendable () -> [UInt8] = { randomBytes(32) }
    ) {
        nonceSource = nonces
        self.name = name
        macFingerprint = fingerprint.lowercased()
        self.register = register
        self.photosFolder = photosFolder
        state = Locked(
            State(answer: answer, confirmation: confirmation, pinned: Set(((try? register.pairedPhones()) ?? []).map(\.fingerprint))))
        try? FileManager.default.createDirectory(atPath: photosFolder, withIntermediateDirectories: true)
    }

    /// What the person at the Mac does with an offer.
    public var answer: MacAnswer {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    /// An offer nobody decides on expires after this long.
    public var expiry: Duration {
        get { state.withLock { $0.expiry } }
        set { state.withLock { $0.expiry = newValue } }
    }

    /// How its person answers a pairing request.
    public var pairingConfirmation: PairingConfirmation {
        get { state.withLock { $0.confirmation } }
        set { state.withLock { $0.confirmation = newValue } }
    }

    /// Told when a pairing request has its comparison number, and when a phone is pinned.
    public var onPairing: (@Sendable (PairingRequest) -> Void)? {
        get { state.withLock { $0.onPairing } }
        set { state.withLock { $0.onPairing = newValue } }
    }

    /// The fingerprints of the phones pinned here.
    public var pairedPhones: Set<String> { state.withLock { $0.pinned } }

    /// The pairing requests not yet confirmed or rejected.
    public var pendingPairings: [PairingRequest] {
        state.withLock { $0.pairings.values.filter { $0.state != .confirmed && $0.state != .rejected }.sorted { $0.phone < $1.phone } }
    }

    /// The Mac's person answers a pairing request: the numbers match (the phone is pinned) or not.
    /// Returns false when there is no such request waiting for a comparison.
    @discardableResult
    public func confirmPairing(_ phone: String, matches: Bool, at now: Timestamp) -> Bool {
        state.withLock { s in
            guard let request = s.pairings[phone], case .comparing = request.state else { return false }
            if matches { pin(request, in: &s, at: now) } else { s.pairings[phone]?.state = .rejected }
            return true
        }
    }

    /// Forgets a phone: it must pair again before anything it sends is taken.
    public func forget(_ phone: String) {
        state.withLock { s in
            s.pinned.remove(phone)
            s.pairings[phone] = nil
        }
    }

    private func pin(_ request: PairingRequest, in s: inout State, at now: Timestamp) {
        s.pairings[request.phone]?.state = .confirmed
        s.pinned.insert(request.phone)
        try? register.pinPhone(PairedPhone(fingerprint: request.phone, name: request.phoneName, pairedAt: now))
        s.onPairing?(s.pairings[request.phone]!)
    }

    /// Every offer received, by id.
    public func offer(_ id: String) -> Offer? { state.withLock { $0.offers[id] } }

    public var offerCount: Int { state.withLock { $0.offers.count } }

    /// Moves the Mac's clock: scripted answers and expiries fall due.
    public func tick(_ now: Timestamp) {
        state.withLock { s in
            for (id, offer) in s.offers where offer.state == .waiting {
                let age = Duration.milliseconds(now.milliseconds - offer.receivedAt.milliseconds)
                switch s.answer {
                case .accept(let after) where age >= after: decide(id, .accepted, in: &s, at: now)
                case .decline(let after) where age >= after: decide(id, .declined, in: &s, at: now)
                case .expire(let after) where age >= after: decide(id, .expired, in: &s, at: now)
                default: if age >= s.expiry { decide(id, .expired, in: &s, at: now) }
                }
            }
        }
    }

    /// The person at the Mac accepts: only now is anything written (HANDOVER-9).
    public func accept(_ id: String, at now: Timestamp) {
        state.withLock { s in if s.offers[id]?.state == .waiting { decide(id, .accepted, in: &s, at: now) } }
    }

    public func decline(_ id: String, at now: Timestamp) {
        state.withLock { s in if s.offers[id]?.state == .waiting { decide(id, .declined, in: &s, at: now) } }
    }

    private func decide(_ id: String, _ outcome: OfferState, in s: inout State, at now: Timestamp) {
        guard var offer = s.offers[id] else { return }
        if outcome == .accepted { try? register.take(offer.bundle, at: now) }
        offer.state = outcome
        s.offers[id] = offer
    }

    /// Answers one request from a peer presenting the certificate with fingerprint `peer` (nil:
    /// none), at `now`.
    public func handle(_ request: Request, from peer: String?, at now: Timestamp) -> Reply {
        tick(now)
        return state.withLock { s in
            switch request.request {
            case .hello:
                return (.hello(name: name, paired: peer.map { s.pinned.contains($0) } == true), [])
            case .pairBegin, .pairNonce, .pairFinish, .pairCancel:
                guard let peer else { return refused("pairing needs the phone's certificate") }
                return pairing(request.request, from: peer, in: &s, at: now)
            case .offer, .status, .photo:
                // PAIR-3: only a phone pinned here is heard; nothing of anybody else's is kept.
                guard let peer, s.pinned.contains(peer) else { return refused(Self.notPaired) }
                return paired(request, in: &s, at: now)
            }
        }
    }

    /// Why a peer that is not pinned is refused.
    public static let notPaired = "this Mac has not paired with this iPhone: pair again"

    private func pairing(_ request: MacRequest, from peer: String, in s: inout State, at now: Timestamp) -> Reply {
        switch request {
        case .pairBegin(let phoneName):
            let nonce = nonceSource()
            let name = phoneName.isEmpty ? "an iPhone" : String(phoneName.prefix(64))
            s.pairings[peer] = PairingRequest(phone: peer, phoneName: name, state: .committed, macNonce: nonce)
            return (.pairCommit(commitment: hexString(PairingComparison.commitment(to: nonce))), [])
        case .pairNonce(let hex):
            guard let request = s.pairings[peer], request.state == .committed else { return refused("no pairing was begun") }
            guard let nonce = hexBytes(strict: hex), nonce.count >= 16, nonce.count <= 64 else {
                return refused("a pairing nonce must be 16 to 64 bytes, as hex")
            }
            let number = PairingComparison.number(
                macFingerprint: macFingerprint, phoneFingerprint: peer, macNonce: request.macNonce, phoneNonce: nonce)
            s.pairings[peer]?.state = .comparing(number: number)
            s.onPairing?(s.pairings[peer]!)
            if s.confirmation == .automatic { pin(s.pairings[peer]!, in: &s, at: now) }
            return (.pairReveal(nonce: hexString(request.macNonce)), [])
        case .pairFinish:
            switch s.pairings[peer]?.state {
            case .confirmed?:
                s.pairings[peer]?.finishedByPhone = true
                return (.paired(name: name), [])
            case .comparing?: return (.pairWaiting, [])
            case .rejected?: return refused("the person at the Mac saw another number")
            default: return refused("no pairing was begun")
            }
        default:  // .pairCancel
            // Pinning is mutual or not at all: a phone that calls pairing off before it finished
            // (its person saw another number) is not left pinned here.
            guard let request = s.pairings[peer], !request.finishedByPhone else { return (.pairCancelled, []) }
            if request.state == .confirmed {
                s.pinned.remove(peer)
                try? register.unpinPhone(peer, at: now)
            }
            s.pairings[peer]?.state = .rejected
            return (.pairCancelled, [])
        }
    }

    private func paired(_ request: Request, in s: inout State, at now: Timestamp) -> Reply {
        switch request.request {
        case .offer(let id):
            guard !id.isEmpty, id.utf8.count <= 128 else { return refused("an offer needs its transfer id") }
            // The same id again is the same offer: a retried send after a lost answer (HANDOVER-7).
            if s.offers[id] == nil {
                guard let bundle = RegisterBundle.decode(request.body) else { return refused("the register bundle could not be read") }
                s.offers[id] = Offer(id: id, bundle: bundle, receivedAt: now, state: .waiting)
            }
            let offer = s.offers[id]!
            return (.offer(transfer: id, waiting: offer.state == .waiting, summary: offer.bundle.summary), [])
        case .status(let id):
            // Accepted, declined and expired look the same from the phone.
            guard let offer = s.offers[id] else { return (.unknownOffer(transfer: id), []) }
            return (.offer(transfer: id, waiting: offer.state == .waiting, summary: offer.bundle.summary), [])
        default:  // .photo
            guard case .photo(let file) = request.request, !file.isEmpty, file.utf8.count <= 255, !file.contains("/"),
                !file.hasPrefix(".")
            else {
                return refused("a photograph needs a plain file name")
            }
            do {
                try DurableFile.write(request.body, to: "\(photosFolder)/\(file)")
            } catch {
                return refused(error.description)
            }
            let held = (try? DurableFile.read("\(photosFolder)/\(file)")) ?? []
            return (.received(file: file, bytes: held.count, sha256: sha256Hex(held)), [])
        }
    }

    private func refused(_ why: String) -> Reply { (.refused(reason: why), []) }
}
