import Foundation
import Model
import Testing

@testable import Companion

let key = Array("test-tag-key-0123456789abcdef".utf8)
let context = ScanContext(
    registerID: "REG-T", tagKey: key,
    walkRound: ["MF-0004": WalkRoundEntry(name: "Core switch", reason: "Quarterly check of the comms room")], signatures: testSignatures)

func barcode(_ value: String, _ symbology: String = "QR-Code") -> Reading {
    Reading(value: value, source: .barcode(symbology: symbology), box: Box(x: 10, y: 10, width: 100, height: 100))
}

func printed(_ value: String, line: Int) -> Reading {
    Reading(value: value, source: .text(line: line), box: Box(x: 10, y: 200 + 30 * line, width: 200, height: 24))
}

let goodTag = AssetTagCode(registerID: "REG-T", tag: "MF-0004").payload(key: key)
let forgedTag = AssetTagCode(registerID: "REG-T", tag: "MF-0004").payload(key: Array("another-key-0123456789abcdef!!".utf8))
/// A stand-in for P-256 in the core's tests (which link no C library): a "signature" is the
/// SHA-256 of key and message and of message and key. The real check is tested with OpenSSL.
func testSign(_ message: [UInt8], _ key: [UInt8]) -> [UInt8] { Digest.sha256(key + message) + Digest.sha256(message + key) }
let testSignatures = SignatureChecker("test") { signature, message, key in signature == testSign(message, key) }

/// The Mac whose pairing code the tests scan.
let pairing: PairingCode = {
    let key = Array("Studio Mac's public key".utf8)
    var code = PairingCode(
        macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: String(repeating: "ab", count: 32), publicKey: key)
    code.signature = testSign(Array(code.signedText.utf8), key)
    return code
}()

/// A sheet brought to a state by a run of events.
func sheet(_ purpose: ScanSheet.Purpose = .intake, _ events: ScanSheet.Event...) -> ScanSheet {
    var s = ScanSheet(purpose: purpose, context: context)
    for e in events { _ = s.handle(e) }
    return s
}

// The copy, written out here from the specification, not taken from the code under test.
let sentences: [String: String] = [
    "starting": "Starting the camera…",
    "ready": "Point at an asset tag, or a pairing code on your Mac when it is running.",
    "access off": "Camera access is off. Turn it on in Settings, or add it by hand.",
    "cannot scan": "This device cannot scan. Add it by hand instead.",
    "busy": "The camera is busy. Another app is using it. Close it and come back, or add it by hand.",
    "stopped": "The scanner stopped. Add it by hand instead.",
]
let allRoutes = ["Photograph a serial instead", "Sweep a rack instead", "Add it by hand"]

@Suite("Scan sheet: sentences, routes and buttons")
struct ScanSheetScreenTests {
    @Test("starting and ready: their sentences, all three routes, no buttons")
    func working() {
        let starting = sheet(.intake, .opened).screen
        #expect(starting.sentence == sentences["starting"] && starting.routeTitles == allRoutes && starting.buttons.isEmpty)
        let ready = sheet(.intake, .opened, .cameraStarted).screen
        #expect(ready.sentence == sentences["ready"] && ready.routeTitles == allRoutes && ready.buttons.isEmpty)
    }

    @Test("each trouble: its sentence, only Add it by hand, Open Settings only when access is off", arguments: CameraTrouble.allCases)
    func trouble(trouble: CameraTrouble) {
        for before in [[ScanSheet.Event.opened], [.opened, .cameraStarted]] {
            var s = ScanSheet(purpose: .intake, context: context)
            for e in before { _ = s.handle(e) }
            _ = s.handle(.cameraFailed(trouble))
            let screen = s.screen
            #expect(screen.sentence == sentences[trouble.kind])
            #expect(screen.routeTitles == ["Add it by hand"])
            #expect(screen.buttons == (trouble == .accessOff ? ["Open Settings"] : []))
        }
    }

    @Test("the stopped reason goes to the log and never onto the screen")
    func stoppedReason() {
        var s = sheet(.intake, .opened, .cameraStarted)
        let effects = s.handle(.cameraFailed(.stopped(reason: "VIDIOC_DQBUF: No such device (errno 19)")))
        #expect(effects == [.log("scanner stopped: VIDIOC_DQBUF: No such device (errno 19)")])
        #expect(!s.screen.sentence.contains("errno") && !s.screen.sentence.contains("VIDIOC"))
    }

    @Test("busy has no retry: tapping anything does not start the camera; the foreground does")
    func busyRetriesOnForeground() {
        var s = sheet(.intake, .opened, .cameraFailed(.busy))
        #expect(s.handle(.tapOpenSettings).isEmpty)
        #expect(s.handle(.tapRoute(.photographSerial)).isEmpty)
        #expect(s.handle(.wentToBackground).isEmpty)
        #expect(s.handle(.returnedToForeground) == [.startCamera(.label)])
        #expect(s.screen.sentence == sentences["starting"])
    }

    @Test("on the foreground, access off tries again; cannot scan and stopped do not")
    func foregroundByTrouble() {
        for trouble in CameraTrouble.allCases {
            var s = sheet(.intake, .opened, .cameraFailed(trouble), .wentToBackground)
            let effects = s.handle(.returnedToForeground)
            let retries = trouble == .busy || trouble == .accessOff
            #expect(effects == (retries ? [.startCamera(.label)] : []), "\(trouble)")
        }
    }

    @Test("Open Settings opens Settings, only in access off")
    func openSettings() {
        var s = sheet(.intake, .opened, .cameraFailed(.accessOff))
        #expect(s.handle(.tapOpenSettings) == [.openSettings])
        var r = sheet(.intake, .opened, .cameraStarted)
        #expect(r.handle(.tapOpenSettings).isEmpty)
    }

    @Test("a route offered opens; a route not offered does nothing")
    func routes() {
        var ready = sheet(.intake, .opened, .cameraStarted)
        for route in Route.allCases { #expect(ready.handle(.tapRoute(route)) == [.open(route)]) }
        var broken = sheet(.intake, .opened, .cameraFailed(.cannotScan))
        #expect(broken.handle(.tapRoute(.sweepRack)).isEmpty)
        #expect(broken.handle(.tapRoute(.photographSerial)).isEmpty)
        #expect(broken.handle(.tapRoute(.addByHand)) == [.open(.addByHand)])
    }
}

@Suite("Scan sheet: tags, settling and the walk-round card")
struct ScanSheetReadingTests {
    @Test("a proven tag opens its record on the frame it decodes, with no window")
    func provenTag() {
        var s = sheet(.intake, .opened, .cameraStarted)
        #expect(s.handle(.frameRead([barcode(goodTag)], at: .milliseconds(200))) == [.openRecord(tag: "MF-0004")])
        #expect(s.settling == nil && s.offer == nil)
        // It does not fire again while it stays in view, and fires again after it has left.
        #expect(s.handle(.frameRead([barcode(goodTag)], at: .milliseconds(233))).isEmpty)
        _ = s.handle(.frameRead([], at: .milliseconds(266)))
        #expect(s.handle(.frameRead([barcode(goodTag)], at: .milliseconds(300))) == [.openRecord(tag: "MF-0004")])
    }

    @Test(
        "a tag that fails the proof is not ours: it settles like any other code",
        arguments: [
            forgedTag, AssetTagCode(registerID: "REG-OTHER", tag: "MF-0004").payload(key: key), String(goodTag.dropLast(3)),
            goodTag.replacingOccurrences(of: "MF-0004", with: "MF-0005"),
        ])
    func unproven(payload: String) {
        var s = sheet(.intake, .opened, .cameraStarted)
        #expect(s.handle(.frameRead([barcode(payload)], at: .zero)).isEmpty)
        #expect(s.settling != nil && s.offer == nil)
        _ = s.handle(.clock(.seconds(1)))
        #expect(s.offer?.values.map(\.value) == [payload])
    }

    @Test("a Mac's pairing code opens pairing at once")
    func pairingCode() {
        var s = sheet(.intake, .opened, .cameraStarted)
        #expect(s.handle(.frameRead([barcode(pairing.payload)], at: .zero)) == [.openPairing(pairing)])
        #expect(s.handle(.frameRead([barcode(pairing.payload)], at: .milliseconds(33))).isEmpty)  // once while in view
        #expect(PairingCode.prove(pairing.payload, checking: testSignatures) == pairing)
        #expect(PairingCode.prove(pairing.payload, checking: .refuseAll) == nil)
        #expect(PairingCode.prove(pairing.payload.replacingOccurrences(of: "7443", with: "7444"), checking: testSignatures) == nil)
    }

    @Test("settling collects every distinct value across frames and offers them once the window has run; one frame never settles early")
    func settling() {
        var s = sheet(.intake, .opened, .cameraStarted)
        _ = s.handle(.frameRead([barcode("7XK2M93", "CODE-39")], at: .milliseconds(100)))
        _ = s.handle(.clock(.milliseconds(1099)))
        #expect(s.offer == nil)
        _ = s.handle(.frameRead([barcode("7XK2M93", "CODE-39"), printed("S/N: 7XK2M93", line: 2)], at: .milliseconds(600)))
        _ = s.handle(.frameRead([printed("S/N: 7XK2M93", line: 2), printed("P/N: 0XW6YK", line: 4)], at: .milliseconds(900)))
        #expect(s.screen.routeTitles == allRoutes)  // collecting is not a card
        _ = s.handle(.clock(.milliseconds(1100)))
        let offer = try! #require(s.offer)
        #expect(offer.values.map(\.value) == ["7XK2M93", "S/N: 7XK2M93", "P/N: 0XW6YK"])
        #expect(offer.values.map(\.whereRead) == [["CODE-39 barcode"], ["printed line 2"], ["printed line 4"]])
        // The alternatives stand down while the card is up, and come back when it is put away.
        #expect(s.screen.routes.isEmpty)
        _ = s.handle(.dismissOffer)
        #expect(s.screen.routeTitles == allRoutes && s.screen.card == nil)
    }

    @Test("on a walk-round a hit draws the card over the live camera; the record is not opened")
    func walkRoundHit() {
        var s = sheet(.walkRound, .opened, .cameraStarted)
        #expect(s.handle(.frameRead([barcode(goodTag)], at: .zero)).isEmpty)  // no stopCamera, no openRecord
        let card = try! #require(s.hit)
        #expect(card.tag == "MF-0004" && card.name == "Core switch" && card.reason == "Quarterly check of the comms room")
        #expect(card.actions == ["VERIFY", "OPEN THE RECORD", "NEXT"])
        #expect(s.screen.routes.isEmpty && s.camera == .ready)
    }

    @Test("VERIFY writes a stamp; the card shows it recorded, or the refusal in the same place")
    func verify() {
        let stamp = Stamp(id: 1, tag: "MF-0004", at: Timestamp(year: 2026, month: 11, day: 30, hour: 9, minute: 14), actor: "Sam")
        for outcome in [StampOutcome.recorded(stamp)] + StampRefusal.allCases.map(StampOutcome.refused) {
            var s = sheet(.walkRound, .opened, .cameraStarted, .frameRead([barcode(goodTag)], at: .zero))
            #expect(s.handle(.tapVerify) == [.recordStamp(tag: "MF-0004")])
            #expect(s.hit?.confirmation == "Recording…")
            #expect(s.handle(.tapVerify).isEmpty)  // no second stamp while the first is writing
            _ = s.handle(.stampResult(outcome))
            switch outcome {
            case .recorded: #expect(s.hit?.confirmation == "Verified at 09:14.")
            case .refused(let refusal): #expect(s.hit?.confirmation == refusal.sentence)
            }
        }
    }

    @Test("OPEN THE RECORD opens it; NEXT clears the card and the camera reads again")
    func openAndNext() {
        var s = sheet(.walkRound, .opened, .cameraStarted, .frameRead([barcode(goodTag)], at: .zero))
        #expect(s.handle(.tapOpenRecord) == [.openRecord(tag: "MF-0004")])
        #expect(s.handle(.tapNext).isEmpty)
        #expect(s.hit == nil && s.screen.routeTitles == allRoutes)
        _ = s.handle(.frameRead([], at: .milliseconds(100)))
        _ = s.handle(.frameRead([barcode(goodTag)], at: .milliseconds(200)))
        #expect(s.hit?.tag == "MF-0004")
    }

    @Test("a refused stamp survives a camera failure: the card stays until NEXT")
    func refusalSurvivesTrouble() {
        var s = sheet(.walkRound, .opened, .cameraStarted, .frameRead([barcode(goodTag)], at: .zero), .tapVerify)
        _ = s.handle(.cameraFailed(.busy))
        _ = s.handle(.stampResult(.refused(.assetDisposed)))
        #expect(s.hit?.confirmation == StampRefusal.assetDisposed.sentence)
        #expect(s.screen.sentence == sentences["busy"] && s.screen.routes.isEmpty)
        _ = s.handle(.tapNext)
        #expect(s.screen.routeTitles == ["Add it by hand"])
    }
}
