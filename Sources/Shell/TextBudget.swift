import Imaging
import Model

/// Which frames of a live read get the text pass, the expensive one (a frame's barcodes are
/// always read). The camera delivers thirty frames a second and one text pass costs several
/// frames' time, so the pass is spent on the frames most worth it: at most `perWindow` passes
/// in a settling window, at least `spacing` frames apart, each on a frame with the contrast of
/// print (`leastContrast`: a desk or a wall alone is not read) and at least `sharpEnough` times
/// as sharp as the sharpest of the last `remembered` frames measured (a frame smeared by the hand
/// or out of focus reads print badly and outvotes nothing). Counted in passes, not time, so a scenario
/// reads the same frames on every machine.
public struct TextBudget: Sendable, Equatable {
    /// Text passes at most in one settling window.
    public var perWindow: Int
    /// Frames at least from one text pass to the next (1: every frame may have one).
    public var spacing: Int
    /// The share of the sharpest frame's sharpness a frame needs (0: any frame).
    public var sharpEnough: Double
    /// The least contrast (grey levels from the 2nd to the 98th percentile) a frame needs, unless
    /// it is print in dim light (`FrameQuality.isDimPrint`).
    public var leastContrast: Int
    /// Text passes at most in one window that take the reader's second looks too (smear drawn
    /// back, pale print stretched, codes at other sizes, unread rows): the window's first (each
    /// pass before a window opens is one), then any sharper than every pass before it; the rest
    /// read the page and its reading repairs only. Besides these, in the serial chooser, each
    /// pass while none of the window's has read a value in print (`wantsText`'s `printOffered`).
    public var secondLooksPerWindow: Int

    public init(perWindow: Int, spacing: Int, sharpEnough: Double, leastContrast: Int = 0, secondLooksPerWindow: Int = .max) {
        self.perWindow = perWindow
        self.spacing = spacing
        self.sharpEnough = sharpEnough
        self.leastContrast = leastContrast
        self.secondLooksPerWindow = secondLooksPerWindow
    }

    /// How many of the frames measured last the sharpest is taken over. A frame is measured when
    /// the spacing and the window's passes would let it have one: with the standard budget,
    /// about every third frame, so the last second and a half at 30 frames a second.
    public static let remembered = 15

    /// Every frame read whole, as a still image is.
    public static let everyFrame = TextBudget(perWindow: .max, spacing: 1, sharpEnough: 0)
    /// The default, measured on the live corpus's development half (`fieldrig bench live`).
    public static let standard = TextBudget(
        perWindow: 6, spacing: 3, sharpEnough: 0.8, leastContrast: FrameQuality.printContrast, secondLooksPerWindow: 1)
}

/// A `TextBudget` being spent: what it has seen and spent since the read began.
struct TextBudgetSpending {
    let budget: TextBudget
    /// The sharpness of the last `TextBudget.remembered` frames measured with print's contrast: a
    /// frame is judged against the sharpest of these, so a sharper scene that left the view (a
    /// desk of papers before the label came) stops counting a little later.
    private var recent: [Double] = []
    private var sinceLast = Int.max
    /// Text passes spent in the settling window now open (or since the last one closed).
    private(set) var spentInWindow = 0
    /// The window's text passes that took the second looks, and the sharpest of its passes.
    private var looksInWindow = 0
    private var sharpestPass = 0.0
    /// Whether the text pass just spent takes the second looks too: the window's first (and so
    /// each pass before a window opens: the chooser's opens on the first print it offers a value
    /// from), then one sharper than every pass before it, as many as the budget says; and each
    /// while the window's print has offered no value.
    private(set) var passTakesSecondLooks = false

    init(_ budget: TextBudget) { self.budget = budget }

    /// Whether `frame` gets the text pass; `windowOpen` says whether a settling window is
    /// collecting (its passes are counted against the window), and `printOffered` whether any of
    /// the window's passes has read a value in print: until one has, each pass takes the second
    /// looks too (print the page's reading finds nothing on, faint or pale, is what they read).
    mutating func wantsText(_ frame: Frame, windowOpen: Bool, printOffered: Bool = true) -> Bool {
        if !windowOpen { (spentInWindow, looksInWindow, sharpestPass) = (0, 0, 0) }
        if sinceLast < Int.max { sinceLast += 1 }
        guard spentInWindow < budget.perWindow, sinceLast >= budget.spacing else { return false }
        let quality = frame.quality()
        guard quality.contrast >= budget.leastContrast || quality.isDimPrint else { return false }
        recent.append(quality.sharpness)
        if recent.count > TextBudget.remembered { recent.removeFirst() }
        guard quality.sharpness >= budget.sharpEnough * (recent.max() ?? 0) else { return false }
        let best = looksInWindow == 0 || quality.sharpness > sharpestPass
        let counted = budget.secondLooksPerWindow == .max || looksInWindow < budget.secondLooksPerWindow && best
        if counted { looksInWindow += 1 }
        passTakesSecondLooks = counted || windowOpen && !printOffered
        sharpestPass = max(sharpestPass, quality.sharpness)
        return spend()
    }

    private mutating func spend() -> Bool {
        sinceLast = 0
        spentInWindow += 1
        return true
    }
}
