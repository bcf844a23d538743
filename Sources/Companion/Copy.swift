import Model
/// The exact words the person sees, in one place. Quoted from the product documentation; note the
/// typographic `…` and `’`.
public enum Copy {
    // The scan sheet's sentences (SCAN-6).
    public static let starting = "Starting the camera…"
    public static let ready = "Point at an asset tag, or a pairing code on your Mac when it is running."
    public static let accessOff = "Camera access is off. Turn it on in Settings, or add it by hand."
    public static let cannotScan = "This device cannot scan. Add it by hand instead."
    public static let busy = "The camera is busy. Another app is using it. Close it and come back, or add it by hand."
    public static let stopped = "The scanner stopped. Add it by hand instead."

    // Routes off the scan sheet, and its one remedy button (SCAN-7, SCAN-8).
    public static let photographSerial = "Photograph a serial instead"
    public static let sweepRack = "Sweep a rack instead"
    public static let addByHand = "Add it by hand"
    public static let openSettings = "Open Settings"

    // The walk-round card (VERIFY-3).
    public static let verify = "VERIFY"
    public static let openRecord = "OPEN THE RECORD"
    public static let next = "NEXT"

    // A walk-round hit on a proven tag that is not on the list (VERIFY-2): named as the register
    // names it; the register gives no reason, so the card says only that it is not due.
    public static let notDue = "Not on this walk-round."
    public static let notInRegister = "Not in the register on this iPhone"

    // The serial chooser (SERIAL-5..7).
    public static let chooserTitle = "Which one is the serial?"
    public static let chooserLine = "Everything the camera read. Tap the serial."
    public static let useThisSerial = "USE THIS SERIAL"
    public static let scanAgain = "Scan again"
    public static let cancel = "Cancel"
}

extension StampRefusal {
    /// The sentence on the card.
    public var sentence: String {
        switch self {
        case .unknownAsset: return "Not recorded: this tag is not in the register on this iPhone."
        case .assetDisposed: return "Not recorded: this asset is disposed of in the register."
        case .storageFull: return "Not recorded: this iPhone’s storage for the register is full."
        case .readOnly: return "Not recorded: the register on this iPhone cannot be written to."
        case .locked: return "Not recorded: the register is busy. Try VERIFY again."
        case .damaged: return "Not recorded: the register on this iPhone is damaged."
        case .writeFailed: return "Not recorded: the register on this iPhone could not be written. Try VERIFY again."
        }
    }
}

extension KeptReason {
    /// Why a photograph is still on the phone and not queued, for a person.
    public var sentence: String {
        switch self {
        case .assetNotSynced: return "asset not synced yet"
        case .noQueue: return "no queue when the shutter fired"
        case .storageCeiling: return "the storage ceiling refused the file"
        case .foundOnPhone: return "found on the phone with no record"
        }
    }
}

extension QueueProblem {
    /// Why a queue row stopped, as the queue screen shows it.
    public var sentence: String {
        switch self {
        case .macRefused: return "the Mac refused it"
        case .fileGone: return "the file is gone from this iPhone"
        case .tooLarge: return "it is too large to send"
        case .receivedDifferently: return "the Mac received a different file"
        }
    }
}

extension QueueRow.State {
    /// A queue row's state, as the queue screen shows it.
    public var label: String {
        switch self {
        case .goingUp: return "going up"
        case .needsDecision: return "needs decision"
        case .done: return "done"
        }
    }
}
