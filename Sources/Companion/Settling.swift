/// One distinct value the camera read while settling, and every place it was read.
public struct OfferedValue: Sendable, Hashable {
    public var value: String
    /// Where it was read, in the order first seen: "CODE-128 barcode at ...", "printed line 2 at ...".
    public var whereRead: [String]
    /// Whether a barcode carried it (exact), as well as or instead of print (a hint).
    public var fromBarcode: Bool
    public var fromText: Bool
}

/// Values collected over the settling window (SCAN-3): every distinct value seen, from barcodes
/// and print, across frames, with where each was read.
public struct Settling: Sendable, Hashable {
    /// When the first value was seen, on the session's clock.
    public let startedAt: Duration
    public private(set) var values: [OfferedValue] = []

    public init(startedAt: Duration) { self.startedAt = startedAt }

    /// Adds a frame's readings.
    public mutating func add(_ readings: [Reading]) {
        for reading in readings {
            let place = reading.place
            if let index = values.firstIndex(where: { $0.value == reading.value }) {
                if !values[index].whereRead.contains(place) { values[index].whereRead.append(place) }
                values[index].fromBarcode = values[index].fromBarcode || reading.source.isBarcode
                values[index].fromText = values[index].fromText || !reading.source.isBarcode
            } else {
                values.append(
                    OfferedValue(
                        value: reading.value, whereRead: [place], fromBarcode: reading.source.isBarcode, fromText: !reading.source.isBarcode
                    ))
            }
        }
    }

    /// Whether the window has run its course at `now`. A single frame never settles early: the
    /// window always runs, because one frame showing one barcode proves only that one barcode was
    /// legible in that frame.
    public func isSettled(at now: Duration, window: Duration) -> Bool {
        now - startedAt >= window
    }
}
