import Camera
import Companion
import Model
import Reader

/// Drives "Photograph a serial instead" from a camera: frames read in one pass become the
/// chooser's events, the clock moves, and its effects are carried out. The scenario world,
/// `fieldrig live` and `fieldrig serial` all draw the chooser from this one model.
public final class SerialDriver {
    public private(set) var chooser: SerialChooser
    public let pump: CameraPump
    public var clock: any SessionClock { pump.clock }
    /// What happened, one line each: for transcripts and the log.
    public private(set) var log: [String] = []
    /// The serial the person confirmed, once USE THIS SERIAL was tapped.
    public private(set) var usedSerial: String? = nil
    /// Set when the flow handed back to the scan sheet (Cancel) or to typing by hand.
    public private(set) var handedBack: SerialChooser.Effect? = nil

    /// Which frames get the text pass.
    public var budget: TextBudget { spending.budget }
    private var spending: TextBudgetSpending
    /// Text passes spent in the settling window now open, for showing the budget's use.
    public var textPassesInWindow: Int { spending.spentInWindow }

    public init(
        camera: any CameraDevice, reader: any FrameReading, clock: any SessionClock, window: Duration = ScanContext.defaultSettleWindow,
        budget: TextBudget = .standard
    ) {
        chooser = SerialChooser(window: window)
        pump = CameraPump(camera: camera, reader: reader, clock: clock)
        spending = TextBudgetSpending(budget)
    }

    /// Sends the person's action (or the app's) to the chooser and carries out what follows.
    public func send(_ event: SerialChooser.Event) {
        perform(chooser.handle(event))
    }

    /// Pumps the camera until `time`, reading each frame as it comes; then moves the clock there.
    public func run(until time: Duration) {
        pump.drive(
            until: time, note: note, frame: { send(.frameRead(read($0), at: $1)) }, failed: { send(.cameraFailed($0)) },
            recovered: { send(.cameraStarted) })
        send(.clock(clock.now))
    }

    /// A frame's barcodes, and its printed text where the budget spends a text pass on it.
    private func read(_ inHand: FrameInHand) -> [Reading] {
        guard chooser.isReading else { return inHand.barcodes }
        let settling = chooser.settling
        guard spending.wantsText(inHand.frame, windowOpen: settling != nil, printOffered: settling?.printOffered ?? true) else {
            return inHand.barcodes
        }
        return inHand.readings(secondLooks: spending.passTakesSecondLooks)
    }

    /// The camera's own returnedToForeground, then the chooser's.
    public func returnToForeground() {
        pump.camera.returnedToForeground()
        send(.returnedToForeground)
    }

    /// The chooser for one still picture's readings, as if it were held in front of the camera for
    /// the settling window: what `fieldrig serial` shows for an image file.
    public static func still(_ readings: [Reading], window: Duration = ScanContext.defaultSettleWindow) -> SerialChooser {
        var chooser = SerialChooser(window: window)
        _ = chooser.handle(.opened)
        _ = chooser.handle(.cameraStarted)
        _ = chooser.handle(.frameRead(readings, at: .zero))
        _ = chooser.handle(.frameRead(readings, at: window))
        _ = chooser.handle(.clock(window))
        // Print it offers nothing from opens no window: nothing read, held on until it says so.
        if chooser.isReading { _ = chooser.handle(.clock(chooser.nothingReadAfter)) }
        return chooser
    }

    private func perform(_ effects: [SerialChooser.Effect]) {
        for effect in effects {
            switch effect {
            case .startCamera(let setup):
                if let trouble = pump.start(setup, note: note) { send(.cameraFailed(trouble)) } else { send(.cameraStarted) }
            case .stopCamera:
                pump.stop(note: note)
            case .useSerial(let value):
                usedSerial = value
                note("serial used: \(value)")
            case .openTypingByHand, .rearmScanner:
                handedBack = effect
                note(effect == .rearmScanner ? "back to Scan, re-armed" : "typing the serial by hand")
            case .log(let line):
                note("log: \(line)")
            }
        }
    }

    func note(_ line: String) {
        log.append("\(formatSeconds(clock.now)) \(line)")
    }
}
