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
    public internal(set) var register: Register
    public let clock = VirtualClock()
    public let camera: any CameraDevice
    public let reader: any FrameReading
    public let mac: SimulatedMac?
    /// The channel to the paired Mac; nil until a Mac is paired.
    public internal(set) var link: InProcessLink?
    /// The channel a pairing uses: pinned to the scanned code's certificate and key.
    public internal(set) var pairingLink: InProcessLink?
    public internal(set) var pairing: PairingDriver? = nil
    /// How many of the scan sheet's openings the world has acted on: of the sheet now open, so a
    /// new sheet counts from nothing.
    var openingsSeen = 0
    /// The certificate fingerprint and key the Mac presents (Devices/tags/studio-mac.pem, whose
    /// key signed the recorded pairing code).
    public let macFingerprint: String
    let macKey: [UInt8]
    /// The phone's certificate fingerprint, which the Mac pins.
    public static let phoneFingerprint = String(repeating: "9a", count: 32)
    /// Fixed series of nonces, so the comparison number is the same on every run.
    var phoneNonces = 0
    public internal(set) var scan: ScanDriver? = nil
    public internal(set) var handover: HandoverDriver? = nil
    public internal(set) var sweep: SweepDriver? = nil
    /// "Photograph a serial instead", while it is open.
    public internal(set) var serialDriver: SerialDriver? = nil
    /// The chooser as the person sees it.
    public var serial: SerialChooser? { serialDriver?.chooser }
    /// The serial the person confirmed with USE THIS SERIAL.
    public var usedSerial: String? { serialDriver?.usedSerial }
    public internal(set) var provisioning: ProvisioningScreen? = nil
    public internal(set) var uploadOutcomes: [Uploader.Outcome] = []
    public internal(set) var transfersMade = 0

    /// Where a test of the runner stands between the companion and the checks.
    public var seams = Seams()
    /// A rule broken by the last step that only the step itself could see.
    public internal(set) var brokenByStep: String? = nil

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
        folder = World.scratch + "fieldrig-scenario-\(getpid())-\(UUID().uuidString.prefix(8))"
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
        let sessionClock = clock
        camera = try CameraSource(parsing: source).open(
            faults: script, onSessionClock: phone.playsOnSessionClock ? { sessionClock.now } : nil)
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

    /// Where worlds keep their registers and photographs: memory (/dev/shm) when the machine has
    /// it, so a register's disk syncs cost nothing and scenarios side by side do not queue on the
    /// disk's journal; the temporary folder otherwise. The register's code is the same either way.
    static let scratch: String = {
        if access("/dev/shm", W_OK) == 0 { return "/dev/shm/" }
        return NSTemporaryDirectory()
    }()

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

    /// Carries out a step's action; an expectation only looks, so the world is left as it is.
    func perform(_ step: Step) throws {
        brokenByStep = nil
        watchFrames()
        if let action = step.action { try act(action) }
        adoptOpenedPairing()
        watchFrames()
    }

    /// Called with every frame a camera screen's camera delivered, and what was read on it: what
    /// a scenario trace keeps for its filmstrip.
    public var frameObserver: ((Frame, [Reading]) -> Void)? = nil {
        didSet { watchFrames() }
    }

    func watchFrames() {
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
    func adoptOpenedPairing() {
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
    func adoptPairing() {
        guard let pairing, pairing.screen.isPaired, let pairingLink, link !== pairingLink else { return }
        pairingLink.expectedKey = nil
        link = pairingLink
        if let handover {
            handover.connection = pairingLink
            handover.send(.connectionChanged(.paired(name: pairing.screen.code.macName, reachable: pairingLink.reachable)))
        }
    }

    /// Whether the Mac is on the phone's network, paired or not: a pairing reaches it only then.
    var macOnNetwork = true
    /// Whether the scan sheet in front was opened in place by Send to the Mac's Pair row.
    public internal(set) var pairingSheetInPlace = false
    var impostorFingerprint: String? = nil
    var relayFingerprint: String? = nil

    /// The camera screen in front: one at a time, as on the phone. Only its camera is pumped.
    public enum Front: Sendable { case none, scan, serial, sweep }
    public internal(set) var front: Front = .none

    /// Puts `screen` in front, stopping the camera of whichever camera screen was.
    func bringToFront(_ screen: Front) {
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
    public internal(set) var remembered: [String: String] = [:]
    /// What the last hand intake said when the register refused it.
    public internal(set) var handIntake: HandIntake? = nil

    /// A new scan sheet in front, its openings counted from nothing.
    func openScanSheet(_ purpose: ScanSheet.Purpose) throws {
        bringToFront(.scan)
        scan = try ScanDriver(purpose: purpose, camera: camera, reader: reader, register: register, clock: clock)
        scan!.beforeFrame = seams.beforeScanFrame
        openingsSeen = 0
        pairingSheetInPlace = false
    }

    /// A photograph of `tag` of `bytes` bytes, kept in the register: the same bytes for the same
    /// moment and count of photographs, so runs repeat.
    func keepPhotograph(of tag: String, bytes: Int) throws -> Capture {
        var photo = [UInt8](repeating: 0, count: bytes)
        for i in stride(from: 0, to: bytes, by: 97) { photo[i] = UInt8(truncatingIfNeeded: i &+ Int(clock.now.components.seconds)) }
        photo[0] = UInt8(truncatingIfNeeded: try register.captures().count)
        return try register.keepCapture(photo, tag: tag, at: clock.timestamp(clock.now))
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
}

/// A step the world could not carry out, in the words of the scenario.
public struct ScenarioError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
