import Model
/// What the scan sheet knows of the register: enough to prove tags and draw walk-round cards.
public struct ScanContext: Sendable, Hashable {
    public var registerID: String
    public var tagKey: [UInt8]
    /// The walk-round list: tag → (the machine's name, the reason it is on the list).
    public var walkRound: [String: WalkRoundEntry]
    /// Every asset's name in the register, by tag: a hit on an asset not due is still named as
    /// the register names it (VERIFY-2).
    public var names: [String: String]
    /// How long anything not provably ours is collected before it is offered (SCAN-3).
    public var settleWindow: Duration
    /// Checks a pairing code's signature (PAIR-1); a shell gives the real one.
    public var signatures: SignatureChecker

    /// One second: at 30 fps about 30 frames, and with OCR at about 65 ms a frame about 15 full
    /// reads, enough for every barcode and line of a label held in the hand to be seen while the
    /// hand steadies, and short enough not to feel like waiting.
    public static let defaultSettleWindow = Duration.seconds(1)

    public init(
        registerID: String, tagKey: [UInt8], walkRound: [String: WalkRoundEntry] = [:], names: [String: String] = [:],
        settleWindow: Duration = defaultSettleWindow, signatures: SignatureChecker = .refuseAll
    ) {
        self.signatures = signatures
        self.names = names
        self.registerID = registerID
        self.tagKey = tagKey
        self.walkRound = walkRound
        self.settleWindow = settleWindow
    }

    /// The context of a register, with its walk-round.
    public init(
        settings: RegisterSettings, walkRound items: [WalkRoundItem], assets: [Asset] = [], settleWindow: Duration = defaultSettleWindow,
        signatures: SignatureChecker = .refuseAll
    ) {
        self.init(
            registerID: settings.registerID, tagKey: settings.tagKey,
            walkRound: Dictionary(
                items.map { ($0.asset.tag, WalkRoundEntry(name: $0.asset.name, reason: $0.reason)) }, uniquingKeysWith: { a, _ in a }),
            names: Dictionary(assets.map { ($0.tag, $0.name) }, uniquingKeysWith: { a, _ in a }), settleWindow: settleWindow,
            signatures: signatures)
    }
}

public struct WalkRoundEntry: Sendable, Hashable {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// The walk-round card drawn over the live camera on a hit (VERIFY-1..4).
public struct HitCard: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        /// Nothing tapped yet.
        case waiting
        /// VERIFY tapped; the register is writing.
        case recording
        case recorded(Stamp)
        case refused(StampRefusal)
    }

    public var tag: String
    public var name: String
    /// Why it is on the list, in the register's words.
    public var reason: String
    public var status: Status

    /// The buttons, in order (VERIFY-3).
    public var actions: [String] { [Copy.verify, Copy.openRecord, Copy.next] }

    /// The line in the place where the confirmation appears: the confirmation, or the refusal
    /// in the same place, never quieter (VERIFY-4).
    public var confirmation: String? {
        switch status {
        case .waiting: return nil
        case .recording: return "Recording…"
        case .recorded(let stamp): return "Verified at \(stamp.at.stamp.split(separator: " ").last!)."
        case .refused(let refusal): return refusal.sentence
        }
    }
}

/// The settled offer: every value read, for the person to look at (SCAN-3).
public struct SettledOffer: Sendable, Hashable {
    public var values: [OfferedValue]
}

/// Everything the scan sheet shows at one moment: what a scenario asserts on.
public struct ScanScreen: Sendable, Hashable {
    public var sentence: String
    public var routes: [Route]
    /// Buttons on the sheet itself: "Open Settings" in access off, and nothing else.
    public var buttons: [String]
    public var card: Card?

    public enum Card: Sendable, Hashable {
        case hit(HitCard)
        case offer(SettledOffer)
    }

    /// The routes' titles, as the person reads them.
    public var routeTitles: [String] { routes.map(\.title) }
}

/// The scan sheet as a pure state machine (SCAN-1..10, VERIFY-1..5): events in, effects out.
/// Nothing here touches a clock, a file or a device; time arrives with the events.
public struct ScanSheet: Sendable, Hashable {
    /// What the sheet was opened for.
    public enum Purpose: String, Sendable, Hashable {
        /// Scan: an asset tag opens its record; a label settles and is offered.
        case intake
        /// A walk-round: a hit draws the card over the live camera, and the record is not opened.
        case walkRound
    }

    public enum CameraState: Sendable, Hashable {
        case starting
        case ready
        case trouble(CameraTrouble)
    }

    /// Something the person did, or something that happened.
    public enum Event: Sendable, Hashable {
        /// The sheet appeared.
        case opened
        case cameraStarted
        case cameraFailed(CameraTrouble)
        case cameraRecovered
        /// A frame was read (barcodes and text in one pass) at `at` on the session's clock.
        case frameRead([Reading], at: Duration)
        /// The clock moved.
        case clock(Duration)
        case tapRoute(Route)
        case tapOpenSettings
        case tapVerify
        case tapOpenRecord
        case tapNext
        /// The settled offer was looked at and put away.
        case dismissOffer
        case stampResult(StampOutcome)
        case wentToBackground
        case returnedToForeground
    }

    /// Something for the shell to do.
    public enum Effect: Sendable, Hashable {
        case startCamera(CameraSetup)
        case stopCamera
        case openRecord(tag: String)
        case openPairing(PairingCode)
        case recordStamp(tag: String)
        case openSettings
        case open(Route)
        /// For the log, never the screen (SCAN-10).
        case log(String)
    }

    /// What is in front of the camera's picture: nothing (perhaps collecting a label's values),
    /// a walk-round card, or a settled offer. One at a time, by construction.
    public enum Phase: Sendable, Hashable {
        case looking(settling: Settling?)
        case card(HitCard)
        case offer(SettledOffer)
    }

    public let purpose: Purpose
    public let context: ScanContext
    public private(set) var camera: CameraState = .starting
    public private(set) var phase: Phase = .looking(settling: nil)
    /// The proven tags already fired while they stay in view: each fires once, and again only
    /// after a frame without it (SCAN-2). Several in view open one at a time, in turn.
    public private(set) var firedTags: Set<String> = []
    /// The same for pairing codes, by payload.
    public private(set) var firedPairings: Set<String> = []
    public private(set) var inForeground = true

    /// The walk-round card, while one is up.
    public var hit: HitCard? { if case .card(let card) = phase { card } else { nil } }
    /// The settled offer, while one is up.
    public var offer: SettledOffer? { if case .offer(let offer) = phase { offer } else { nil } }
    /// The values being collected, while a label settles.
    public var settling: Settling? { if case .looking(let settling) = phase { settling } else { nil } }
    /// Whether a frame's printed text would be taken now: the camera ready, the sheet in front
    /// and looking (no card or offer up). Otherwise only proven codes matter, which are barcodes.
    public var takesPrintedText: Bool {
        guard camera == .ready, inForeground, case .looking = phase else { return false }
        return true
    }

    public init(purpose: Purpose, context: ScanContext) {
        self.purpose = purpose
        self.context = context
    }

    /// What the person sees now.
    public var screen: ScanScreen {
        let sentence: String
        var failed: Set<Requirement> = []
        var buttons: [String] = []
        switch camera {
        case .starting: sentence = Copy.starting
        case .ready: sentence = Copy.ready
        case .trouble(let trouble):
            sentence = trouble.sentence
            failed.insert(.camera)
            if trouble.personCanUndo { buttons.append(Copy.openSettings) }
        }
        let card: ScanScreen.Card?
        switch phase {
        case .looking: card = nil
        case .card(let hit): card = .hit(hit)
        case .offer(let offer): card = .offer(offer)
        }
        return ScanScreen(sentence: sentence, routes: Route.offered(failed: failed, cardIsUp: card != nil), buttons: buttons, card: card)
    }

    /// Handles one event, returning what the shell must do.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .opened:
            camera = .starting
            return [.startCamera(.label)]
        case .cameraStarted, .cameraRecovered:
            camera = .ready
            return []
        case .cameraFailed(let trouble):
            camera = .trouble(trouble)
            // A walk-round card stays: its stamp needs no camera, and a refusal must be seen.
            if case .card = phase {} else { phase = .looking(settling: nil) }
            if case .stopped(let reason) = trouble { return [.log("scanner stopped: \(reason)")] }
            return []
        case .frameRead(let readings, let now):
            return read(readings, at: now)
        case .clock(let now):
            return tick(now)
        case .tapRoute(let route):
            guard screen.routes.contains(route) else { return [] }
            return [.open(route)]
        case .tapOpenSettings:
            guard screen.buttons.contains(Copy.openSettings) else { return [] }
            return [.openSettings]
        case .tapVerify:
            guard var card = hit, card.status == .waiting || card.isRefusedForRetry else { return [] }
            card.status = .recording
            phase = .card(card)
            return [.recordStamp(tag: card.tag)]
        case .stampResult(let outcome):
            guard var card = hit, card.status == .recording else { return [] }
            switch outcome {
            case .recorded(let stamp): card.status = .recorded(stamp)
            case .refused(let refusal): card.status = .refused(refusal)
            }
            phase = .card(card)
            return []
        case .tapOpenRecord:
            guard let card = hit else { return [] }
            return [.openRecord(tag: card.tag)]
        case .tapNext:
            guard let card = hit, card.status != .recording else { return [] }
            phase = .looking(settling: nil)
            firedTags.insert(card.tag)
            return []
        case .dismissOffer:
            guard offer != nil else { return [] }
            phase = .looking(settling: nil)
            return []
        case .wentToBackground:
            guard inForeground else { return [] }
            inForeground = false
            if case .looking = phase { phase = .looking(settling: nil) }
            return camera == .ready || camera == .starting ? [.stopCamera] : []
        case .returnedToForeground:
            guard !inForeground else { return [] }
            inForeground = true
            switch camera {
            case .ready, .starting:
                camera = .starting
                return [.startCamera(.label)]
            case .trouble(let trouble) where trouble.retriesOnForeground:
                // No retry button: the scanner tries again on its own (SCAN-9).
                camera = .starting
                return [.startCamera(.label)]
            case .trouble:
                return []
            }
        }
    }

    private mutating func read(_ readings: [Reading], at now: Duration) -> [Effect] {
        guard camera == .ready, inForeground else { return [] }
        // A code out of view may fire again when it comes back.
        let tagsInView = Set(readings.compactMap { proveTag($0.value)?.tag })
        firedTags.formIntersection(tagsInView.union(hit.map { [$0.tag] } ?? []))
        firedPairings.formIntersection(readings.map(\.value))
        // While a card is up nothing new is taken: NEXT, or putting the offer away, re-arms.
        guard case .looking(var settling) = phase else { return [] }
        // A provable code fires the instant it decodes: no settling window (SCAN-2, SCAN-4).
        // Several proven codes in view fire in turn, left to right as the person sees them.
        let barcodes = readings.filter(\.source.isBarcode).sorted { ($0.box.x, $0.box.y) < ($1.box.x, $1.box.y) }
        for reading in barcodes {
            if let code = proveTag(reading.value) {
                guard !firedTags.contains(code.tag) else { continue }
                firedTags.insert(code.tag)
                switch purpose {
                case .intake:
                    phase = .looking(settling: nil)
                    return [.openRecord(tag: code.tag)]
                case .walkRound:
                    let entry = context.walkRound[code.tag]
                    phase = .card(
                        HitCard(
                            tag: code.tag, name: entry?.name ?? context.names[code.tag] ?? Copy.notInRegister,
                            reason: entry?.reason ?? Copy.notDue, status: .waiting))
                    return []  // the camera keeps running (VERIFY-1)
                }
            }
            if let pairing = PairingCode.prove(reading.value, checking: context.signatures) {
                guard !firedPairings.contains(reading.value) else { continue }
                phase = .looking(settling: nil)
                firedPairings.insert(reading.value)
                return [.openPairing(pairing)]
            }
        }
        // Proven tags and pairing codes never settle: what is left is anything not provably ours.
        let others = readings.filter { proveTag($0.value) == nil && PairingCode.prove($0.value, checking: context.signatures) == nil }
        guard !others.isEmpty else { return tick(now) }
        var collecting = settling ?? Settling(startedAt: now)
        collecting.add(others)
        settling = collecting
        phase = .looking(settling: settling)
        return tick(now)
    }

    private mutating func tick(_ now: Duration) -> [Effect] {
        guard case .looking(let collected?) = phase, collected.isSettled(at: now, window: context.settleWindow) else { return [] }
        phase = .offer(SettledOffer(values: collected.values))
        return []
    }

    private func proveTag(_ value: String) -> AssetTagCode? {
        AssetTagCode.prove(value, registerID: context.registerID, key: context.tagKey)
    }
}

extension HitCard {
    /// A refusal for a passing reason (the register was busy) may be tried again with VERIFY.
    var isRefusedForRetry: Bool { status == .refused(.locked) }
}
