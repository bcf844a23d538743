import Companion
import Model
import Register
import Shell

/// Where a test of the runner may stand between the companion and the checks, to put a defect
/// back and see a check catch it. Each seam is empty unless a test sets it; the rig never does,
/// and the defects themselves are written in the tests.
public struct Seams {
    /// The scan sheet as the person sees it.
    public var scanScreen: ((ScanScreen) -> ScanScreen)? = nil
    /// The queue's summary as the person sees it.
    public var summary: ((QueueSummary) -> QueueSummary)? = nil
    /// When set, the queue's summary cannot be computed, with this error.
    public var summaryFailure: (any Error)? = nil
    /// The queue's rows as the person sees them.
    public var queueRows: (([QueueRow]) -> [QueueRow])? = nil
    /// The handover's heading as the person sees it.
    public var handoverHeading: ((String?) -> String?)? = nil
    /// The provisioning preview as the person sees it.
    public var preview: ((HistoryRow) -> HistoryRow)? = nil
    /// The sweep's refusals as the person sees them.
    public var sweepRefused: (([RackSweep.RefusedStamp]) -> [RackSweep.RefusedStamp])? = nil
    /// Whether the chooser is reading, as the checks see it.
    public var chooserReading: ((Bool) -> Bool)? = nil
    /// Given the scan sheet before each frame reaches it.
    public var beforeScanFrame: ((inout ScanSheet) -> Void)? = nil
    /// What the sweep does when the app returns to the foreground; the sweep's own return if nil.
    public var sweepForeground: ((SweepDriver) -> Void)? = nil

    public init() {}
}
