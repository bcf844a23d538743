import Companion
import Foundation
import MacLink
import Register

/// Carries out the handover screen's effects: stores the offer's id in the register, sends the
/// bundle over the connection, asks where it got to.
public final class HandoverDriver {
    public private(set) var screen: HandoverScreen
    public let register: Register
    public var connection: (any MacConnection)?
    public let clock: any SessionClock
    public private(set) var log: [String] = []
    /// Set when pairing was asked for.
    public private(set) var pairingOpened = false

    public init(register: Register, connection: (any MacConnection)?, reachable: Bool, clock: any SessionClock) throws(RegisterError) {
        self.register = register
        self.connection = connection
        self.clock = clock
        let pairing = try register.pairing()
        screen = HandoverScreen(
            connection: pairing.map { .paired(name: $0.macName, reachable: reachable) } ?? .notPaired,
            assetCount: try register.counts().assets)
    }

    public func send(_ event: HandoverScreen.Event) {
        for effect in screen.handle(event) { perform(effect) }
    }

    private func perform(_ effect: HandoverScreen.Effect) {
        switch effect {
        case .openPairing:
            pairingOpened = true
            log.append("opened: pairing")
        case .storeTransfer(let id):
            do {
                let bundle = try register.bundle()
                try register.storeTransfer(
                    Transfer(
                        id: id, waiting: true, offeredAt: clock.timestamp(clock.now), assetCount: bundle.assets.count,
                        summary: bundle.summary))
                log.append("register: stored transfer \(id)")
            } catch {
                log.append("register: \(error)")
            }
        case .sendOffer(let id):
            send(offer: id)
        case .checkStatus(let id):
            guard let connection else { return send(.offerFailed("no Mac is paired")) }
            do {
                let answer = try connection.request(Envelope("status", ["transfer": id]), [])
                if answer.envelope.type == "refused" {
                    // The Mac never got it (the answer was lost): offer it again under the same id.
                    log.append("mac: no such offer; sending it again")
                    resend(id)
                    return
                }
                log.append("mac: \(answer.envelope["state"] ?? "?")")
                send(.status(waiting: answer.envelope["state"] == "waiting", summary: answer.envelope["summary"] ?? ""))
            } catch {
                log.append("link: \(error)")
            }
        case .markResolved(let id):
            try? register.resolveTransfer(id: id)
            log.append("register: transfer \(id) no longer waiting")
        }
    }

    /// Sends the stored offer again under its id; the Mac takes the same id as the same offer.
    private func resend(_ id: String) {
        guard let connection else { return }
        do {
            let answer = try connection.request(Envelope("offer", ["transfer": id]), try register.bundle().encoded())
            send(.status(waiting: answer.envelope["state"] == "waiting", summary: answer.envelope["summary"] ?? ""))
        } catch {
            log.append("link: \(error)")
        }
    }

    private func send(offer id: String) {
        guard let connection else { return send(.offerFailed("no Mac is paired")) }
        do {
            let bundle = try register.bundle()
            let answer = try connection.request(Envelope("offer", ["transfer": id]), bundle.encoded())
            guard answer.envelope.type == "offer" else {
                log.append("mac: refused the offer: \(answer.envelope["reason"] ?? "")")
                return send(.offerFailed(answer.envelope["reason"] ?? "the Mac refused the offer"))
            }
            log.append("mac: offer \(id) \(answer.envelope["state"] ?? "")")
            send(.offerAnswered(summary: answer.envelope["summary"] ?? bundle.summary))
            if answer.envelope["state"] != "waiting" { send(.status(waiting: false, summary: answer.envelope["summary"] ?? "")) }
        } catch {
            log.append("link: \(error)")
            send(.offerFailed("\(error)"))
        }
    }
}

/// The upload queue's receiving end over the link to the paired Mac.
public final class LinkPhotoReceiver: PhotoReceiver {
    public let connection: any MacConnection
    public var maximumBytes = 50_000_000

    public init(connection: any MacConnection) { self.connection = connection }

    public func receive(name: String, bytes: [UInt8]) throws(ReceiveFailure) -> (bytes: Int, sha256: String) {
        let answer: Message
        do {
            answer = try connection.request(Envelope("photo", ["file": name]), bytes)
        } catch {
            // Unreachable, or not the paired Mac: nothing was sent, and the queue pauses.
            throw .unreachable
        }
        guard answer.envelope.type == "received", let size = answer.envelope["bytes"].flatMap(Int.init),
            let digest = answer.envelope["sha256"]
        else {
            throw .refused(answer.envelope["reason"] ?? "the Mac refused it")
        }
        return (size, digest)
    }
}
