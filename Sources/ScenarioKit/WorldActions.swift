import Camera
import Companion
import Foundation
import MacLink
import Model
import PhoneFace
import Reader
import Register
import Shell

extension World {
    /// Carries out one action, by the part of the world it touches.
    func act(_ action: Step.Action) throws {
        let handled = try actOnScreens(action) || actOnQueue(action) || actWithMac(action) || actOnPairing(action) || actOnApp(action)
        precondition(handled, "no part of the world carries out \(action)")
    }

    /// Actions on the camera screens: opening, waiting on the clock, events, the background and back; false for any other.
    private func actOnScreens(_ action: Step.Action) throws -> Bool {
        switch action {
        case .openScan(let purpose):
            try openScanSheet(purpose)
            scan!.send(.opened)
        case .closeScan:
            scan?.pump.stop()
            scan = nil
            if front == .scan { front = .none }
        case .wait(let duration):
            let until = clock.now + duration
            switch front {
            case .serial where serialDriver != nil: serialDriver!.run(until: until)
            case .scan where scan != nil: scan!.run(until: until)
            case .sweep where sweep != nil: sweep!.run(until: until)
            default: clock.advance(to: until)
            }
            mac?.tick(clock.timestamp(clock.now))
        case .scan(let event):
            scan?.send(event)
        case .background:
            switch front {
            case .scan: scan?.send(.wentToBackground)
            case .sweep: sweep?.send(.wentToBackground)
            case .serial: serialDriver?.send(.wentToBackground)
            case .none: break
            }
        case .foreground:
            comeBackToForeground()
        case .openSweep:
            bringToFront(.sweep)
            sweep = try SweepDriver(camera: camera, reader: reader, register: register, clock: clock)
            sweep!.send(.opened)
        case .sweep(let event):
            sweep?.send(event)
        case .openSerial:
            bringToFront(.serial)
            scan = nil
            serialDriver = SerialDriver(camera: camera, reader: reader, clock: clock)
            serialDriver!.send(.opened)
        case .serial(let event):
            serialDriver?.send(event)
            // Cancel hands back to Scan, its scanner re-armed (SERIAL-7).
            if serialDriver?.handedBack == .rearmScanner, front == .serial {
                try openScanSheet(.intake)
                scan!.send(.opened)
            }
        default: return false
        }
        return true
    }

    /// Actions on photographs and the upload queue; false for any other.
    private func actOnQueue(_ action: Step.Action) throws -> Bool {
        switch action {
        case .photograph(let tag, let bytes):
            try register.queue(try keepPhotograph(of: tag, bytes: bytes), at: clock.timestamp(clock.now))
        case .keepPhotograph(let tag, let bytes):
            _ = try keepPhotograph(of: tag, bytes: bytes)
        case .queuePhotograph(let tag):
            let queued = Set(try register.queueRows().map(\.capture.id))
            guard let capture = try register.captures().last(where: { $0.tag == tag && !queued.contains($0.id) }) else {
                throw ScenarioError("no photograph of \(tag) is kept without being queued")
            }
            try register.queue(capture, at: clock.timestamp(clock.now))
        case .pushUploads:
            if let link {
                try register.queueKept(at: clock.timestamp(clock.now))
                uploadOutcomes = try Uploader(register: register, receiver: LinkPhotoReceiver(connection: link)).drain(
                    at: clock.timestamp(clock.now))
            }
        case .photographFileDisappears(let tag):
            let capture = try register.captures().last { $0.tag == tag }
            guard let capture else { throw ScenarioError("no photograph of \(tag) is on the phone") }
            try FileManager.default.removeItem(atPath: register.photoPath(capture))
        case .decideUpload(let tag, let retry):
            let row = try register.queueRows().last { $0.capture.tag == tag && $0.state != .done }
            guard let row else { throw ScenarioError("no queue row for a photograph of \(tag)") }
            if retry {
                try register.retryUpload(row, at: clock.timestamp(clock.now))
            } else {
                try register.removeUpload(row, confirmed: true, at: clock.timestamp(clock.now))
            }
        case .networkDrops(let afterUploads):
            guard let link else { break }
            try register.queueKept(at: clock.timestamp(clock.now))
            let uploader = Uploader(register: register, receiver: LinkPhotoReceiver(connection: link))
            uploadOutcomes = try uploader.drain(at: clock.timestamp(clock.now), limit: afterUploads)
            link.reachable = false
            macOnNetwork = false
            uploadOutcomes += try uploader.drain(at: clock.timestamp(clock.now))
            handover?.send(.connectionChanged(.paired(name: mac?.name ?? "Studio Mac", reachable: false)))
        default: return false
        }
        return true
    }

    /// Actions on the Mac, its network, and Send to the Mac; false for any other.
    private func actWithMac(_ action: Step.Action) throws -> Bool {
        switch action {
        case .macReachable(let reachable):
            macOnNetwork = reachable
            pairingLink?.reachable = reachable
            guard let link else { break }
            link.reachable = reachable
            handover?.send(.connectionChanged(.paired(name: mac?.name ?? "Studio Mac", reachable: reachable)))
        case .macDecides(let accept):
            if let mac, let id = try register.currentTransfer()?.id {
                if accept { mac.accept(id, at: clock.timestamp(clock.now)) } else { mac.decline(id, at: clock.timestamp(clock.now)) }
            }
        case .pair:
            break
        case .openHandover:
            handover = try HandoverDriver(register: register, connection: link, reachable: link?.reachable ?? false, clock: clock)
            handover!.send(.appeared(stored: try register.currentTransfer()))
        case .handover(let event):
            let openings = handover?.pairingOpenings ?? 0
            handover?.send(event)
            if let handover, handover.pairingOpenings > openings {
                // The Pair row opens the pairing sheet in place: a Scan sheet over Send to the Mac,
                // pointed at the Mac's pairing code (HANDOVER-4).
                try openScanSheet(.intake)
                scan!.send(.opened)
                pairingSheetInPlace = true
            }
        case .sendHandover:
            transfersMade += 1
            handover?.send(.tapSend(newTransfer: "transfer-\(transfersMade)"))
        case .cameraFails(let trouble):
            switch front {
            case .scan:
                scan?.pump.stop()
                scan?.send(.cameraFailed(trouble))
            case .serial:
                serialDriver?.pump.stop()
                serialDriver?.send(.cameraFailed(trouble))
            case .sweep:
                sweep?.pump.stop()
                sweep?.send(.cameraFailed(trouble))
            case .none: throw ScenarioError("no camera screen is in front, so no camera can fail")
            }
        case .macReplyLost:
            guard let link else { throw ScenarioError("no Mac is paired, so no reply can be lost") }
            link.losesNextReply = true
        case .strangerSends:
            // Another device, with a certificate the Mac never pinned, offers a register and a photograph.
            let stranger = String(repeating: "e1", count: 32)
            let bundle = try register.bundle().encoded()
            _ = mac?.handle((.offer(transfer: "stranger-1"), bundle), from: stranger, at: clock.timestamp(clock.now))
            _ = mac?.handle((.photo(file: "stranger.jpg"), [1, 2, 3]), from: stranger, at: clock.timestamp(clock.now))
            _ = mac?.handle((.offer(transfer: "stranger-2"), bundle), from: nil, at: clock.timestamp(clock.now))
        default: return false
        }
        return true
    }

    /// Actions on pairing, impostors and relays; false for any other.
    private func actOnPairing(_ action: Step.Action) throws -> Bool {
        switch action {
        case .impostor:
            impostorFingerprint = String(repeating: "0b", count: 32)
            link?.presented = impostorFingerprint!
            pairingLink?.presented = impostorFingerprint!
        case .impostorLeaves:
            impostorFingerprint = nil
            link?.presented = macFingerprint
            pairingLink?.presented = macFingerprint
        case .relayPairing:
            relayFingerprint = String(repeating: "7c", count: 32)
        case .pairing(let event):
            pairing?.send(event)
            adoptPairing()
        case .macAnswersPairing(let matches):
            let phone = relayFingerprint ?? World.phoneFingerprint
            if mac?.confirmPairing(phone, matches: matches, at: clock.timestamp(clock.now)) != true {
                throw ScenarioError("no pairing request is waiting at the Mac")
            }
        case .macForgetsPhone:
            mac?.forget(World.phoneFingerprint)
        default: return false
        }
        return true
    }

    /// Actions on the app itself: restarts, hand intake, the actor's name, remembered values; false for any other.
    private func actOnApp(_ action: Step.Action) throws -> Bool {
        switch action {
        case .restartApp:
            // The app is killed and started again: every screen in memory is gone, the register stays.
            bringToFront(.none)
            scan = nil
            handover = nil
            sweep = nil
            serialDriver = nil
            provisioning = nil
            pairing = nil
            handIntake = nil
            openingsSeen = 0
            register = try Register(path: register.path)
        case .addByHand(let tag, let name):
            var form = HandIntake()
            _ = form.handle(.type(.tag, tag))
            _ = form.handle(.type(.name, name))
            for effect in form.handle(.save) {
                guard case .addAsset(let asset) = effect else { continue }
                // A refusal is the form's to show, under it, not the end of the scenario.
                do {
                    try register.addAsset(asset, at: clock.timestamp(clock.now))
                    _ = form.handle(.saved)
                } catch {
                    _ = form.handle(.refused(error.description))
                }
            }
            handIntake = form
        case .typeName(let name):
            if provisioning == nil { provisioning = ProvisioningScreen(previewTime: clock.timestamp(clock.now)) }
            provisioning!.type(name)
        case .saveName:
            for effect in provisioning?.save() ?? [] {
                if case .saveActorName(let name) = effect { try register.setActorName(name, at: clock.timestamp(clock.now)) }
            }
        case .remember(let name, let value):
            remembered[name] = value(self)
        default: return false
        }
        return true
    }

    /// The app comes back to the foreground, on whichever camera screen is in front. SCAN-9: a
    /// camera screen that was in the background, in a trouble the app's return may clear, tries
    /// again on its own; the step notes it when it did not.
    private func comeBackToForeground() {
        let retries: Bool
        let tried: Int
        switch front {
        case .scan:
            retries =
                scan?.sheet.inForeground == false
                && { if case .trouble(let t) = scan?.sheet.camera { t.retriesOnForeground } else { false } }()
            tried = scan?.pump.startsTried ?? 0
            scan?.returnToForeground()
        case .sweep:
            retries =
                sweep?.sweep.inForeground == false
                && { if case .trouble(let t) = sweep?.sweep.camera { t.retriesOnForeground } else { false } }()
            tried = sweep?.pump.startsTried ?? 0
            if let sweep { seams.sweepForeground.map { $0(sweep) } ?? sweep.returnToForeground() }
        case .serial:
            retries = false
            tried = 0
            serialDriver?.returnToForeground()
        case .none:
            retries = false
            tried = 0
        }
        let triedNow = front == .scan ? scan?.pump.startsTried ?? 0 : front == .sweep ? sweep?.pump.startsTried ?? 0 : tried
        if retries, triedNow == tried {
            brokenByStep = "SCAN-9: the app came back and the camera, in a trouble its return may clear, was not tried again"
        }
    }
}
