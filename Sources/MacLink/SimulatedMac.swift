import Durable
import Foundation
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

/// The Mac end, played for real: it shows a pairing code, accepts pairing, keeps each offer until
/// somebody accepts, declines or lets it expire, answers "where did it get to" without saying
/// which (HANDOVER-8), receives photographs, and writes nothing of an offer into its own register
/// until it is accepted (HANDOVER-9). Time is given to it (a virtual clock in scenarios).
// @unchecked Sendable: every mutable field is touched only under `lock`.
public final class SimulatedMac: @unchecked Sendable {
    public enum OfferState: String, Sendable { case waiting, accepted, declined, expired }

    public struct Offer: Sendable {
        public var id: String
        public var bundle: RegisterBundle
        public var receivedAt: Timestamp
        public var state: OfferState
    }

    public let name: String
    public let register: Register
    public let photosFolder: String
    public var answer: MacAnswer
    /// An offer nobody decides on expires after this long.
    public var expiry: Duration = .seconds(600)
    private(set) var offers: [String: Offer] = [:]
    private(set) var pairedPhones: [String] = []
    private let lock = NSLock()

    public init(name: String, register: Register, photosFolder: String, answer: MacAnswer) {
        self.name = name
        self.register = register
        self.photosFolder = photosFolder
        self.answer = answer
        try? FileManager.default.createDirectory(atPath: photosFolder, withIntermediateDirectories: true)
    }

    /// Every offer received, by id.
    public func offer(_ id: String) -> Offer? {
        lock.lock()
        defer { lock.unlock() }
        return offers[id]
    }

    public var offerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return offers.count
    }

    /// Moves the Mac's clock: scripted answers and expiries fall due.
    public func tick(_ now: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        for (id, offer) in offers where offer.state == .waiting {
            let age = Duration.milliseconds(now.milliseconds - offer.receivedAt.milliseconds)
            switch answer {
            case .accept(let after) where age >= after: decide(id, .accepted, at: now)
            case .decline(let after) where age >= after: decide(id, .declined, at: now)
            case .expire(let after) where age >= after: decide(id, .expired, at: now)
            default: if age >= expiry { decide(id, .expired, at: now) }
            }
        }
    }

    /// The person at the Mac accepts: only now is anything written (HANDOVER-9).
    public func accept(_ id: String, at now: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        if offers[id]?.state == .waiting { decide(id, .accepted, at: now) }
    }

    public func decline(_ id: String, at now: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        if offers[id]?.state == .waiting { decide(id, .declined, at: now) }
    }

    private func decide(_ id: String, _ state: OfferState, at now: Timestamp) {
        guard var offer = offers[id] else { return }
        if state == .accepted { try? register.take(offer.bundle, at: now) }
        offer.state = state
        offers[id] = offer
    }

    /// Answers one request from the phone, at `now`.
    public func handle(_ request: Message, at now: Timestamp) -> Message {
        tick(now)
        lock.lock()
        defer { lock.unlock() }
        let envelope = request.envelope
        switch envelope.type {
        case "hello":
            return (Envelope("hello", ["name": name]), [])
        case "pair":
            pairedPhones.append(envelope["phone"] ?? "an iPhone")
            return (Envelope("paired", ["name": name]), [])
        case "offer":
            guard let id = envelope["transfer"], !id.isEmpty else { return refused("an offer needs its transfer id") }
            // The same id again is the same offer: a retried send after a lost answer (HANDOVER-7).
            if offers[id] == nil {
                guard let bundle = RegisterBundle.decode(request.body) else { return refused("the register bundle could not be read") }
                offers[id] = Offer(id: id, bundle: bundle, receivedAt: now, state: .waiting)
            }
            return (
                Envelope(
                    "offer",
                    [
                        "transfer": id, "state": offers[id]!.state == .waiting ? "waiting" : "no longer waiting",
                        "summary": offers[id]!.bundle.summary,
                    ]), []
            )
        case "status":
            guard let id = envelope["transfer"], let offer = offers[id] else { return refused("no such offer") }
            // Accepted, declined and expired look the same from the phone.
            return (
                Envelope(
                    "status",
                    ["transfer": id, "state": offer.state == .waiting ? "waiting" : "no longer waiting", "summary": offer.bundle.summary]),
                []
            )
        case "photo":
            guard let file = envelope["file"], !file.contains("/"), !file.hasPrefix(".") else {
                return refused("a photograph needs a plain file name")
            }
            do {
                try DurableFile.write(request.body, to: "\(photosFolder)/\(file)")
            } catch {
                return refused(error.description)
            }
            let held = (try? DurableFile.read("\(photosFolder)/\(file)")) ?? []
            return (Envelope("received", ["file": file, "bytes": String(held.count), "sha256": sha256Hex(held)]), [])
        default:
            return refused("unknown request '\(envelope.type)'")
        }
    }

    private func refused(_ why: String) -> Message { (Envelope("refused", ["reason": why]), []) }
}
