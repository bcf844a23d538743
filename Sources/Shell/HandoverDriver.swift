import Companion
import Foundation
import MacLink
import Model
import Register

/// Carries out the handover screen's effects: stores the offer's id in the register, sends the
/// bundle over the connection, asks where it got to.
public final class HandoverDriver {
    public private(set) var screen: HandoverScreen
    public let register: Register
    public var connection: (any MacConnection)?
    public let clock: any SessionClock
    public private(set) var log: [String] = []
    /// How many times the Pair with the Mac row opened the pairing sheet.
    public private(set) var pairingOpenings = 0
    /// Whether the Pair with the Mac row opened the pairing sheet.
    public var pairingOpened: Bool { pairingOpenings > 0 }

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
            pairingOpenings += 1
            log.append("opened: pairing")
        case .storeTransfer(let id):
            do {
                let bundle = try register.bundle()
                try register.storeTransfer(
                    Transfer(
                        id: id, waiting: true, offeredAt: clock.timestamp(clock.now), assetCount: bundle.assets.count,
                        summary: bundle.summary, acknowledged: false))
                log.append("register: stored transfer \(id)")
            } catch {
                log.append("register: \(error)")
            }
        case .sendOffer(let id):
            do {
                ask(.offer(transfer: id), try register.bundle().encoded())
            } catch {
                log.append("register: \(error)")
                send(.linkFailed("the register could not be read (\(error))"))
            }
        case .checkStatus(let id):
            ask(.status(transfer: id), [])
        case .markAcknowledged(let id, let held):
            do {
                if held { try register.acknowledgeTransfer(id: id) } else { try register.unacknowledgeTransfer(id: id) }
            } catch {
                log.append("register: \(error)")
            }
        case .markResolved(let id):
            do {
                try register.resolveTransfer(id: id)
                log.append("register: transfer \(id) no longer waiting")
                // Photographs kept for the assets it carried go up now (HANDOVER-3).
                try register.queueKept(at: clock.timestamp(clock.now))
            } catch {
                log.append("register: \(error)")
            }
        }
    }

    /// Sends one request and hands the screen the Mac's reply; what it means is the screen's.
    private func ask(_ request: MacRequest, _ body: [UInt8]) {
        guard let connection else { return send(.linkFailed("no Mac is paired")) }
        do {
            let reply = try connection.request(request, body).reply
            log.append("mac: \(request.name) -> \(reply.name)")
            send(.macReplied(reply))
        } catch {
            log.append("link: \(error)")
            send(.linkFailed(error.description))
        }
    }
}

/// The upload queue's receiving end over the link to the paired Mac.
public final class LinkPhotoReceiver: PhotoReceiver {
    public let connection: any MacConnection
    public var maximumBytes = 50_000_000

    public init(connection: any MacConnection) { self.connection = connection }

    public func receive(name: String, bytes: [UInt8]) throws(ReceiveFailure) -> (bytes: Int, sha256: String) {
        let reply: MacReply
        do {
            reply = try connection.request(.photo(file: name), bytes).reply
        } catch {
            // Unreachable, or not the paired Mac: nothing was sent, and the queue pauses.
            throw .unreachable
        }
        switch reply {
        case .received(let file, let size, let digest) where file == name: return (size, digest)
        case .refused(let reason): throw .refused(reason)
        default: throw .refused("the Mac’s answer made no sense")
        }
    }
}
