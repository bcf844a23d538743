import Camera
import Companion
import Crypto
import Foundation
import MacLink
import PhoneFace
import Reader
import Register
import Shell

/// The phone and the Mac of one running scenario: a register in a temporary folder, a virtual
/// clock, the recorded camera with its faults, the simulated Mac in process, and the screens.
public final class World {
    public let phone: Phone
    public let folder: String
    public private(set) var register: Register
    public let clock = VirtualClock()
    public let camera: any CameraDevice
    public let reader: any FrameReading
    public let mac: SimulatedMac?
    /// The channel to the paired Mac; nil until a Mac is paired.
    public private(set) var link: InProcessLink?
    /// The channel a pairing uses: pinned to the scanned code's certificate and key.
    public private(set) var pairingLink: InProcessLink?
    public private(set) var pairing: PairingDriver? = nil
    /// How many of the scan sheet's openings the world has acted on: of the sheet now open, so a
    /// new sheet counts from nothing.
    private var openingsSeen = 0
    /// The certificate fingerprint and key the Mac presents (Devices/tags/studio-mac.pem, whose
    /// key signed the recorded pairing code).
    public let macFingerprint: String
    let macKey: [UInt8]
    /// The phone's certificate fingerprint, which the Mac pins.
    public static let phoneFingerprint = String(repeating: "9a", count: 32)
    /// Fixed series of nonces, so the comparison number is the same on every run.
    private var phoneNonces = 0
    public private(set) var scan: ScanDriver? = nil
    public private(set) var handover: HandoverDriver? = nil
    public private(set) var sweep: SweepDriver? = nil
    /// "Photograph a serial instead", while it is open.
    public private(set) var serialDriver: SerialDriver? = nil
    /// The chooser as the person sees it.
    public var serial: SerialChooser? { serialDriver?.chooser }
    /// The serial the person confirmed with USE THIS SERIAL.
    public var usedSerial: String? { serialDriver?.usedSerial }
    public private(set) var provisioning: ProvisioningScreen? = nil
    public private(set) var uploadOutcomes: [Uploader.Outcome] = []
    public private(set) var transfersMade = 0

    /// Where a test of the runner stands between the companion and the checks.
    public var seams = Seams()
    /// A rule broken by the last step that only the step itself could see.
    public private(set) var brokenByStep: String? = nil

    /// The handover's heading as the person sees it.
    public var handoverHeading: String? {
        let real = handover?.screen.status?.heading
        return seams.handoverHeading.map { $0(real) } ?? real
    }

    /// The provisioning preview as the person sees it.
    public var preview: HistoryRow? {
        guard let real = provisioning?.preview else { return nil }
        return seams.preview.map { $0(real) } ?? real
    }

    /// The sweep's refusals as the person sees them.
    public var sweepRefused: [RackSweep.RefusedStamp] {
        let real = sweep?.sweep.refused ?? []
        return seams.sweepRefused.map { $0(real) } ?? real
    }

    /// Whether the chooser is reading.
    public var chooserReading: Bool {
        guard let serial else { return false }
        return seams.chooserReading.map { $0(serial.isReading) } ?? serial.isReading
    }

    public init(phone: Phone, reader: any FrameReading, devices: String) throws {
        self.phone = phone
        self.reader = reader
        folder = NSTemporaryDirectory() + "fieldrig-scenario-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var seed = phone.register
        seed.actorName = phone.actor
        register = try Register(path: "\(folder)/phone.sqlite")
        try register.apply(seed, at: clock.timestamp(.zero))
        var script = FaultScript()
        for fault in phone.faults { try script.add(parsing: fault) }
        let source =
            try phone.shots.map { [folder] in try ShotSequence.write($0, devices: devices, to: folder) }
            ?? (phone.camera.hasPrefix("/") ? phone.camera : "\(devices)/sequences/\(phone.camera)")
        camera = try CameraSource(parsing: source).open(faults: script)
        let identity = try Identity.load(pem: try String(contentsOfFile: "\(devices)/tags/studio-mac.pem", encoding: .utf8))
        macFingerprint = identity.fingerprint
        macKey = identity.publicKey
        let clock = clock
        let macNonces = Locked(0)
        let nonces: @Sendable () -> [UInt8] = { sha256(Array("mac nonce \(macNonces.take(below: .max) ?? 0)".utf8)) }
        switch phone.mac {
        case .notPaired:
            mac = SimulatedMac(
                name: "Studio Mac", fingerprint: macFingerprint, register: try Register(path: "\(folder)/mac.sqlite"),
                photosFolder: "\(folder)/mac-photos", answer: .byHand, nonces: nonces)
            link = nil
        case .paired(let name, let reachable, let answer):
            let macRegister = try Register(path: "\(folder)/mac.sqlite")
            try macRegister.pinPhone(PairedPhone(fingerprint: World.phoneFingerprint, name: "iPhone", pairedAt: clock.timestamp(.zero)))
            let mac = SimulatedMac(
                name: name, fingerprint: macFingerprint, register: macRegister, photosFolder: "\(folder)/mac-photos", answer: answer,
                nonces: nonces)
            let link = InProcessLink(
                mac: mac, fingerprint: macFingerprint, key: macKey, phoneFingerprint: World.phoneFingerprint,
                now: { clock.timestamp(clock.now) })
            link.reachable = reachable
            macOnNetwork = reachable
            try register.pair(Pairing(macName: name, address: "in-process", fingerprint: macFingerprint, pairedAt: clock.timestamp(.zero)))
            self.mac = mac
            self.link = link
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Whether the phone's register has the Mac pinned, with the fingerprint it presents.
    public var phonePinnedMac: Bool { ((try? register.pairing()) ?? nil)?.fingerprint == macFingerprint }

    /// Whether the Mac pinned this phone.
    public var macPinnedPhone: Bool { mac?.pairedPhones.contains(World.phoneFingerprint) == true }

    // MARK: - What the person sees

    public var scanScreen: ScanScreen? {
        guard let screen = scan?.sheet.screen else { return nil }
        return seams.scanScreen.map { $0(screen) } ?? screen
    }

    public var summary: QueueSummary {
        let real =
            (try? QueueSummary.of(
                register, macReachable: link?.reachable ?? false, impostorAtMacAddress: link.map { $0.presented != $0.pin } ?? false))
            ?? QueueSummary(counts: QueueCounts(goingUp: 0, needDecision: 0, kept: 0), stall: nil)
        return seams.summary.map { $0(real) } ?? real
    }

    // MARK: - Doing

    func perform(_ action: Step.Action) throws {
        brokenByStep = nil
        watchFrames()
        try act(action)
        adoptOpenedPairing()
        watchFrames()
    }

    /// Called with every frame a camera screen's camera delivered, and what was read on it: what
    /// a scenario trace keeps for its filmstrip.
    public var frameObserver: ((Frame, [Reading]) -> Void)? = nil {
        didSet { watchFrames() }
    }

    private func watchFrames() {
        guard let frameObserver else { return }
        scan?.pump.observer = frameObserver
        sweep?.pump.observer = frameObserver
        serialDriver?.pump.observer = frameObserver
    }

    /// Every screen the person has open now, for the renderer.
    public var phoneView: PhoneView {
        PhoneView(
            scan: scan.flatMap { driver in scanScreen.map { (driver.sheet.purpose, $0) } }, chooser: serial, handIntake: handIntake,
            sweep: sweep?.sweep, queue: try? queueScreen(), handover: handover?.screen, pairing: pairing?.screen,
            preview: preview)
    }

    /// A pairing code the scan sheet opened starts pairing, over a channel pinned to the code.
    private func adoptOpenedPairing() {
        guard let scan, scan.opened.count > openingsSeen else { return }
        let new = scan.opened[openingsSeen...]
        openingsSeen = scan.opened.count
        for case .openPairing(let code) in new {
            guard let mac else { continue }
            let link = InProcessLink(
                mac: mac, fingerprint: macFingerprint, key: macKey, phoneFingerprint: World.phoneFingerprint,
                now: { [clock] in clock.timestamp(clock.now) })
            link.pin = code.fingerprint
            link.expectedKey = code.publicKey
            link.reachable = macOnNetwork
            if let impostor = impostorFingerprint { link.presented = impostor }
            link.relayedAs = relayFingerprint
            pairingLink = link
            phoneNonces += 1
            let series = phoneNonces
            var drawn = 0
            pairing = PairingDriver(
                code: code, phoneFingerprint: World.phoneFingerprint, connection: link, register: register, clock: clock,
                nonce: {
                    drawn += 1
                    return sha256(Array("phone nonce \(series).\(drawn)".utf8))
                })
            adoptPairing()
        }
    }

    /// Once the phone pinned the Mac, the pairing channel is the channel to the paired Mac, and
    /// a Send to the Mac screen that stayed open goes to it (HANDOVER-1, HANDOVER-5).
    private func adoptPairing() {
        guard let pairing, pairing.screen.isPaired, let pairingLink, link !== pairingLink else { return }
        pairingLink.expectedKey = nil
        link = pairingLink
        if let handover {
            handover.connection = pairingLink
            handover.send(.connectionChanged(.paired(name: pairing.screen.code.macName, reachable: pairingLink.reachable)))
        }
    }

    /// Whether the Mac is on the phone's network, paired or not: a pairing reaches it only then.
    private var macOnNetwork = true
    /// Whether the scan sheet in front was opened in place by Send to the Mac's Pair row.
    public private(set) var pairingSheetInPlace = false
    private var impostorFingerprint: String? = nil
    private var relayFingerprint: String? = nil

    /// The camera screen in front: one at a time, as on the phone. Only its camera is pumped.
    public enum Front: Sendable { case none, scan, serial, sweep }
    public private(set) var front: Front = .none

    /// Puts `screen` in front, stopping the camera of whichever camera screen was.
    private func bringToFront(_ screen: Front) {
        if front != screen {
            switch front {
            case .scan: scan?.pump.stop()
            case .serial: serialDriver?.pump.stop()
            case .sweep: sweep?.pump.stop()
            case .none: break
            }
        }
        front = screen
    }

    /// Values a scenario took at one step, to compare at a later one.
    public private(set) var remembered: [String: String] = [:]
    /// What the last hand intake said when the register refused it.
    public private(set) var handIntake: HandIntake? = nil

    /// A new scan sheet in front, its openings counted from nothing.
    private func openScanSheet(_ purpose: ScanSheet.Purpose) throws {
        bringToFront(.scan)
        scan = try ScanDriver(purpose: purpose, camera: camera, reader: reader, register: register, clock: clock)
        scan!.beforeFrame = seams.beforeScanFrame
        openingsSeen = 0
        pairingSheetInPlace = false
    }

    /// A photograph of `tag` of `bytes` bytes, kept in the register: the same bytes for the same
    /// moment and count of photographs, so runs repeat.
    private func keepPhotograph(of tag: String, bytes: Int) throws -> Capture {
        var photo = [UInt8](repeating: 0, count: bytes)
        for i in stride(from: 0, to: bytes, by: 97) { photo[i] = UInt8(truncatingIfNeeded: i &+ Int(clock.now.components.seconds)) }
        photo[0] = UInt8(truncatingIfNeeded: try register.captures().count)
        return try register.keepCapture(photo, tag: tag, at: clock.timestamp(clock.now))
    }

    private func act(_ action: Step.Action) throws {
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
            // SCAN-9: a camera screen that was in the background, in a trouble the app's return may
            // clear, tries again on its own when the app comes back.
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
        case .macReplyLost:
            guard let link else { throw ScenarioError("no Mac is paired, so no reply can be lost") }
            link.losesNextReply = true
        case .pushUploads:
            if let link {
                try register.queueKept(at: clock.timestamp(clock.now))
                uploadOutcomes = try Uploader(register: register, receiver: LinkPhotoReceiver(connection: link)).drain(
                    at: clock.timestamp(clock.now))
            }
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
        case .openSweep:
            bringToFront(.sweep)
            sweep = try SweepDriver(camera: camera, reader: reader, register: register, clock: clock)
            sweep!.send(.opened)
        case .sweep(let event):
            sweep?.send(event)
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
        case .remember(let name, let value):
            remembered[name] = value(self)
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
        case .typeName(let name):
            if provisioning == nil { provisioning = ProvisioningScreen(previewTime: clock.timestamp(clock.now)) }
            provisioning!.type(name)
        case .saveName:
            for effect in provisioning?.save() ?? [] {
                if case .saveActorName(let name) = effect { try register.setActorName(name, at: clock.timestamp(clock.now)) }
            }
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
        case .strangerSends:
            // Another device, with a certificate the Mac never pinned, offers a register and a photograph.
            let stranger = String(repeating: "e1", count: 32)
            let bundle = try register.bundle().encoded()
            _ = mac?.handle((.offer(transfer: "stranger-1"), bundle), from: stranger, at: clock.timestamp(clock.now))
            _ = mac?.handle((.photo(file: "stranger.jpg"), [1, 2, 3]), from: stranger, at: clock.timestamp(clock.now))
            _ = mac?.handle((.offer(transfer: "stranger-2"), bundle), from: nil, at: clock.timestamp(clock.now))
        case .expect:
            break
        }
    }

    /// The queue screen as the person sees it now.
    public func queueScreen() throws -> QueueScreen {
        let rows = try register.queueRows()
        return QueueScreen(summary: try checkedSummary(), rows: seams.queueRows.map { $0(rows) } ?? rows)
    }

    /// The summary, or the error that kept it from being computed (the invariants fail on it).
    public func checkedSummary() throws -> QueueSummary {
        if let failure = seams.summaryFailure { throw failure }
        let real = try QueueSummary.of(
            register, macReachable: link?.reachable ?? false, impostorAtMacAddress: link.map { $0.presented != $0.pin } ?? false)
        return seams.summary.map { $0(real) } ?? real
    }

    /// One line of what the person sees now, for the transcript.
    public var seen: String {
        var parts: [String] = []
        if let screen = scanScreen {
            if pairingSheetInPlace { parts.append("pairing sheet over Send to the Mac") }
            parts.append("“\(screen.sentence)”")
            parts.append("routes: " + (screen.routeTitles.isEmpty ? "-" : screen.routeTitles.joined(separator: ", ")))
            if !screen.buttons.isEmpty { parts.append("buttons: " + screen.buttons.joined(separator: ", ")) }
            switch screen.card {
            case .hit(let card)?: parts.append("card: \(card.tag) \(card.name)" + (card.confirmation.map { ", “\($0)”" } ?? ""))
            case .offer(let offer)?: parts.append("offer: " + offer.values.map(\.value).joined(separator: " · "))
            case nil: break
            }
        }
        if let serial {
            switch serial.phase {
            case .choosing:
                parts.append(
                    "chooser: " + serial.rows.map(\.value).joined(separator: " · ")
                        + (serial.useButton.map { " [USE THIS SERIAL \($0.value)]" } ?? ""))
            case .used(let value): parts.append("serial used: \(value)")
            case .typingByHand:
                parts.append(
                    "typing the serial by hand" + { if case .trouble(let t) = serial.camera { ", camera \(t.kind)" } else { "" } }())
            case .reading:
                if case .trouble(let trouble) = serial.camera {
                    parts.append("reading a serial, camera \(trouble.kind)")
                } else {
                    parts.append("reading a serial")
                }
            case .cancelled: parts.append("serial cancelled")
            }
        }
        if let sweep { parts.append("sweep: “\(sweep.sweep.sentence)” seen \(sweep.sweep.seen.map(\.tag).joined(separator: ","))") }
        if let handover, let status = handover.screen.status { parts.append("handover: \(status.heading)") }
        if let pairing {
            parts.append(
                "pairing: " + (pairing.screen.number.map { "\($0) " } ?? "") + pairing.screen.lines.joined(separator: " ") + " ["
                    + pairing.screen.buttons.joined(separator: ", ") + "]")
        }
        parts.append("queue: " + summary.lines.joined(separator: "; "))
        return parts.joined(separator: " | ")
    }
}

/// A step the world could not carry out, in the words of the scenario.
public struct ScenarioError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
