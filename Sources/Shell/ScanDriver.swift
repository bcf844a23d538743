import Camera
import Companion
import Crypto
import Imaging
import Reader
import Register

/// Drives the scan sheet from a camera: camera events become the sheet's events, frames are read
/// in one pass, the clock moves, and the sheet's effects are carried out against the register.
/// The same driver serves the scenario shell (virtual clock, recorded cameras) and the live shell
/// (real clock, a webcam).
public final class ScanDriver {
    public private(set) var sheet: ScanSheet
    public let pump: CameraPump
    public let register: Register
    public var clock: any SessionClock { pump.clock }
    /// What happened, one line each: for transcripts and the log.
    public private(set) var log: [String] = []
    /// The records and screens the sheet opened, in order.
    public private(set) var opened: [ScanSheet.Effect] = []
    /// Proven tags that fired again while they had stayed in view since they last fired: SCAN-2
    /// says each fires once while in view. Watched here, from the frames, not taken from the sheet.
    public private(set) var firedAgainInView: [String] = []
    private var provenInView: Set<String> = []
    /// Given the sheet before each frame reaches it: a seam for tests of the checks, empty in the rig.
    public var beforeFrame: ((inout ScanSheet) -> Void)? = nil
    private var firedSinceInView: Set<String> = []

    /// Which frames get the text pass while a label settles.
    public var budget: TextBudget { spending.budget }
    private var spending: TextBudgetSpending
    /// Text passes spent in the settling window now open, for showing the budget's use.
    public var textPassesInWindow: Int { spending.spentInWindow }

    public init(
        purpose: ScanSheet.Purpose, camera: any CameraDevice, reader: any FrameReading, register: Register, clock: any SessionClock,
        budget: TextBudget = .standard
    ) throws(RegisterError) {
        let context = ScanContext(
            settings: try register.settings(), walkRound: try register.walkRound(), assets: try register.assets(), signatures: P256.checker)
        sheet = ScanSheet(purpose: purpose, context: context)
        pump = CameraPump(camera: camera, reader: reader, clock: clock)
        self.register = register
        spending = TextBudgetSpending(budget)
    }

    /// Sends the person's action (or the app's) to the sheet and carries out what follows.
    public func send(_ event: ScanSheet.Event) {
        perform(sheet.handle(event))
    }

    /// Pumps the camera until `time`, reading each frame as it comes; then moves the clock there.
    public func run(until time: Duration) {
        pump.drive(
            until: time, note: note, frame: { inHand, at in watchFiring(inHand.barcodes) { deliver(inHand, at: at) } },
            failed: { send(.cameraFailed($0)) }, recovered: { send(.cameraRecovered) })
        send(.clock(clock.now))
    }

    /// Barcodes first: the sheet gets the frame's barcode pass, and the printed text is read only
    /// when the sheet takes it, the barcodes fired nothing (a proven tag opens at once, its
    /// frame's text not waited for), and the text budget spends a pass on the frame (with the
    /// reader's second looks where the budget gives them).
    private func deliver(_ inHand: FrameInHand, at time: Duration) {
        var trial = sheet
        let effects = trial.handle(.frameRead(inHand.barcodes, at: time))
        let fired = !effects.isEmpty || (trial.hit != nil && sheet.hit == nil)
        if fired || !sheet.takesPrintedText || !spending.wantsText(inHand.frame, windowOpen: sheet.settling != nil) {
            sheet = trial
            perform(effects)
        } else {
            send(.frameRead(inHand.readings(secondLooks: spending.passTakesSecondLooks), at: time))
        }
    }

    private func perform(_ effects: [ScanSheet.Effect]) {
        for effect in effects {
            switch effect {
            case .startCamera(let setup):
                if let trouble = pump.start(setup, note: note) { send(.cameraFailed(trouble)) } else { send(.cameraStarted) }
            case .stopCamera:
                pump.stop(note: note)
            case .recordStamp(let tag):
                let outcome = register.recordVerification(tag: tag, at: clock.timestamp(clock.now))
                note("register: verification of \(tag) \(outcome.summary)")
                if case .refused(let refusal) = outcome, refusal == .damaged || refusal == .writeFailed, let failure = register.lastFailure
                {
                    note("log: register: \(failure)")
                }
                send(.stampResult(outcome))
            case .openRecord, .openPairing, .openSettings, .open:
                opened.append(effect)
                note("opened: \(effect.summary)")
            case .log(let line):
                note("log: \(line)")
            }
        }
    }

    /// Sends a frame, noting which proven tags are in view and which the sheet fired with it.
    private func watchFiring(_ readings: [Reading], _ sendFrame: () -> Void) {
        let context = sheet.context
        provenInView = Set(
            readings.compactMap { AssetTagCode.prove($0.value, registerID: context.registerID, key: context.tagKey)?.tag })
        firedSinceInView.formIntersection(provenInView)
        let openedBefore = opened.count
        let cardBefore = sheet.hit?.tag
        beforeFrame?(&sheet)
        sendFrame()
        var fired = opened[openedBefore...].compactMap { effect -> String? in if case .openRecord(let tag) = effect { tag } else { nil } }
        if let card = sheet.hit?.tag, card != cardBefore { fired.append(card) }
        for tag in fired {
            if firedSinceInView.contains(tag) { firedAgainInView.append(tag) }
            firedSinceInView.insert(tag)
        }
    }

    func note(_ line: String) {
        log.append("\(formatSeconds(clock.now)) \(line)")
    }

    /// The camera's own returnedToForeground, then the sheet's.
    public func returnToForeground() {
        pump.camera.returnedToForeground()
        send(.returnedToForeground)
    }
}

extension StampOutcome {
    /// "recorded" or "refused (asset disposed)".
    public var summary: String {
        switch self {
        case .recorded: return "recorded"
        case .refused(let refusal): return "refused (\(refusal.rawValue))"
        }
    }
}

extension ScanSheet.Effect {
    /// A short description: "record MF-0004", "Add it by hand".
    public var summary: String {
        switch self {
        case .openRecord(let tag): return "record \(tag)"
        case .openPairing(let code): return "pairing with \(code.macName)"
        case .openSettings: return "Settings"
        case .open(let route): return route.title
        case .startCamera(let setup): return "start camera (\(setup.purpose.rawValue))"
        case .stopCamera: return "stop camera"
        case .recordStamp(let tag): return "record stamp \(tag)"
        case .log(let line): return line
        }
    }
}
