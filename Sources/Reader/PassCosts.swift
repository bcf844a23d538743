import Foundation

/// What each named pass of the reader cost over many reads: how often it ran, and the wall time
/// it took on the reading thread, not counting the passes it led to (a page made easier and read
/// again counts its reading under "text" and the passes after it). `fieldrig bench read` prints it; a reader keeps none unless
/// one is given (`FrameReader.costs`).
public final class PassCosts {
    public struct Cost: Sendable {
        public var runs = 0
        public var total = Duration.zero
    }

    /// Each pass's cost, by name, and the names in the order they first ran.
    public private(set) var costs: [String: Cost] = [:]
    public private(set) var order: [String] = []

    public init() {}

    /// Runs `body` as the pass `name`, adding its time to the pass's cost.
    func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer {
            if costs[name] == nil { order.append(name) }
            costs[name, default: Cost()].runs += 1
            costs[name]!.total += ContinuousClock.now - start
        }
        return try body()
    }

    /// When each pass runs, for the table `bench read` prints.
    public static let triggers: [String: String] = [
        "barcodes": "every frame: zbar, then zxing-cpp for 2-D codes",
        "upright": "every text pass: the skew measured, the frame turned level",
        "barcodes upright": "no barcode read on a tilted frame",
        "rules erased": "every text pass: ruled lines painted out",
        "text": "every text pass: tesseract over the page",
        "small print enlarged": "small print read with doubt",
        "lines split": "every reading of a page; reads only words boxed across two lines",
        "rows read whole": "every reading of a page; reads only rows read in pieces",
        "smear measured": "every text pass",
        "smear drawn back": "print smeared along its rows (the page then read again: text and the rest)",
        "barcodes unsmeared": "print smeared along its rows, barcodes asked for",
        "pale stretched": "pale print, or nothing read (the page then read again)",
        "code rows resized": "every text pass; reads only rows with a doubtful code no barcode carries",
        "unread ink": "every text pass; reads only inked rows nothing was read on",
    ]
}
