import Model
import Testing

@testable import Companion

@Suite("The handover screen and provisioning")
struct HandoverScreenTests {
    @Test("not paired: your Mac, the Pair with the Mac row opening pairing in place, Send it disabled")
    func notPaired() {
        var screen = HandoverScreen(connection: .notPaired, assetCount: 12)
        #expect(screen.macName == "your Mac")
        #expect(
            screen.account == [
                "The register: 12 assets, and the sites, people, vendors and agreements around them.",
                "Sending removes nothing from this iPhone.",
                "Nothing is written until somebody at the Mac accepts it.",
                "Photographs do not travel with the register; they go up on the queue, one at a time.",
                "Keep the phone paired until the queue is empty.",
            ])
        #expect(screen.pairRow?.title == "Pair with the Mac")
        #expect(screen.pairRow?.detail == "This iPhone hasn’t met a Mac yet. Pair first, then hand the register over.")
        #expect(screen.sendDetail == "Pair with the Mac first." && !screen.sendEnabled)
        #expect(screen.handle(.tapPair) == [.openPairing])
        #expect(screen.handle(.tapSend(newTransfer: "t1")).isEmpty)
    }

    @Test("paired: by name; the line under Send it follows the connection; disabled unless it is up")
    func paired() {
        var screen = HandoverScreen(connection: .paired(name: "Studio Mac", reachable: true), assetCount: 1)
        #expect(screen.macName == "Studio Mac" && screen.pairRow == nil)
        #expect(screen.account[0] == "The register: 1 asset, and the sites, people, vendors and agreements around them.")
        #expect(screen.sendDetail == "Goes straight to Studio Mac over Wi-Fi." && screen.sendEnabled)
        _ = screen.handle(.connectionChanged(.paired(name: "Studio Mac", reachable: false)))
        #expect(screen.sendDetail == "Needs the Mac on this network." && !screen.sendEnabled)
    }

    @Test("sending stores the id first; waiting; Check again asks; resolved claims no outcome")
    func flow() {
        var screen = HandoverScreen(connection: .paired(name: "Studio Mac", reachable: true), assetCount: 12)
        #expect(screen.handle(.tapSend(newTransfer: "t1")) == [.storeTransfer("t1"), .sendOffer("t1")])
        #expect(screen.handle(.tapSend(newTransfer: "t2")).isEmpty)  // never a second offer by accident
        _ = screen.handle(
            .macReplied(.offer(transfer: "t1", waiting: true, summary: "12 assets, 3 sites, 4 people, 8 vendors and 3 agreements")))
        #expect(screen.status?.heading == "With Studio Mac now")
        #expect(screen.status?.lines == ["Waiting for somebody to accept it", "12 assets, 3 sites, 4 people, 8 vendors and 3 agreements"])
        #expect(screen.checkAgainOffered && screen.handle(.tapCheckAgain) == [.checkStatus("t1")])
        #expect(screen.handle(.close).isEmpty)  // closing does not stop the offer
        #expect(screen.handle(.macReplied(.offer(transfer: "t1", waiting: false, summary: ""))) == [.markResolved("t1")])
        #expect(screen.status?.heading == "No longer waiting")
        #expect(
            screen.status?.lines == [
                "Studio Mac has dealt with the offer: it was accepted, declined, or it timed out, and the Mac shows which.",
                "Your register is still on this iPhone, exactly as it was.",
            ])
        for word in ["accepted it", "declined it", "expired", "was accepted.", "was declined."] {
            #expect(!(screen.status!.heading + screen.status!.lines.joined()).contains(word))
        }
    }

    @Test("coming back resumes the stored offer, and asks where it got to")
    func resume() {
        var screen = HandoverScreen(connection: .paired(name: "Studio Mac", reachable: true), assetCount: 12)
        let stored = Transfer(id: "t9", waiting: true, offeredAt: Timestamp(milliseconds: 0), assetCount: 12, summary: "12 assets")
        #expect(screen.handle(.appeared(stored: stored)) == [.checkStatus("t9")])
        #expect(screen.phase == .waiting(transfer: "t9", summary: "12 assets") && !screen.sendEnabled)
    }

    @Test("provisioning: the In the audit trail card is the history row, Nobody yet until a name is typed")
    func provisioning() {
        var screen = ProvisioningScreen(previewTime: Timestamp(year: 2026, month: 11, day: 30, hour: 9))
        #expect(ProvisioningScreen.cardTitle == "In the audit trail")
        #expect(screen.preview.actorLine == "Nobody yet" && screen.preview.actorIsFaint && screen.preview.isUnsigned)
        screen.type("Sam")
        #expect(screen.preview.actorLine == "Sam" && !screen.preview.isUnsigned)
        #expect(screen.preview == HistoryRow.preview(actorName: "Sam", at: Timestamp(year: 2026, month: 11, day: 30, hour: 9)))
        #expect(screen.preview.accessibilityText.hasPrefix("Example of an audit trail entry."))
        #expect(screen.save() == [.saveActorName("Sam")])
    }

    @Test("an offer that never left is not with the Mac: Send it sends the same id again; a Mac that lost it gets it again")
    func lostOffer() {
        var screen = HandoverScreen(connection: .paired(name: "Studio Mac", reachable: true), assetCount: 12)
        _ = screen.handle(.tapSend(newTransfer: "t1"))
        _ = screen.handle(.linkFailed("this is not the paired Mac"))
        #expect(screen.status?.heading == "Not sent yet" && screen.problem == "this is not the paired Mac")
        #expect(screen.handle(.tapCheckAgain).isEmpty && screen.sendEnabled)
        #expect(screen.handle(.tapSend(newTransfer: "t2")) == [.sendOffer("t1")])  // the same offer, never a second
        #expect(
            screen.handle(.macReplied(.offer(transfer: "t1", waiting: true, summary: "s"))) == [.markAcknowledged("t1", true)])
        #expect(screen.status?.heading == "With Studio Mac now" && screen.problem == nil)
        #expect(screen.handle(.tapCheckAgain) == [.checkStatus("t1")])
        #expect(screen.handle(.macReplied(.unknownOffer(transfer: "t1"))) == [.markAcknowledged("t1", false), .sendOffer("t1")])
        #expect(screen.handle(.macReplied(.offer(transfer: "t9", waiting: false, summary: ""))).isEmpty)
        // A stored offer the Mac never acknowledged comes back as not sent, not as "With Studio Mac now".
        var again = HandoverScreen(connection: .paired(name: "Studio Mac", reachable: true), assetCount: 12)
        _ = again.handle(
            .appeared(
                stored: Transfer(
                    id: "t1", waiting: true, offeredAt: Timestamp(milliseconds: 0), assetCount: 12, summary: "s", acknowledged: false)))
        #expect(again.status?.heading == "Not sent yet")
    }
}
