import Imaging
import Model

/// Remembers what a reader read in each distinct frame, so a recording that holds one picture
/// for a second is read once, not thirty times. Exact: a frame is found again only when every
/// pixel is the same, and reading is deterministic. The barcode pass and the whole reading are
/// remembered apart. For recorded and generated sequences; a live webcam never repeats a frame
/// exactly.
public final class CachingReader: FrameReading {
    public let underlying: any FrameReading
    private var whole = Remembered()
    private var codes = Remembered()
    private var withoutLooks = Remembered()
    public private(set) var hits = 0
    public private(set) var misses = 0
    /// The most frames remembered; beyond it the cache starts again.
    public let limit: Int

    public init(_ underlying: any FrameReading, limit: Int = 512) {
        self.underlying = underlying
        self.limit = limit
    }

    /// How many frame buffers the cache keeps alive now, over both kinds of reading.
    var buffersKept: Int { whole.byBuffer.count + codes.byBuffer.count + withoutLooks.byBuffer.count }

    public func read(_ frame: Frame) -> [Reading] {
        remembered(frame, in: &whole) { underlying.read($0) }
    }

    public func readBarcodes(_ frame: Frame) -> [Reading] {
        remembered(frame, in: &codes) { underlying.readBarcodes($0) }
    }

    /// The whole reading, or the reading without the second looks, each remembered apart.
    public func read(_ frame: Frame, secondLooks: Bool) -> [Reading] {
        guard !secondLooks else { return read(frame) }
        return remembered(frame, in: &withoutLooks) { underlying.read($0, secondLooks: false) }
    }

    /// What one kind of reading read, by buffer and by content.
    struct Remembered {
        var byBuffer: [UnsafeRawPointer: (bytes: [UInt8], readings: [Reading])] = [:]
        var byContent: [Key: [Reading]] = [:]
        /// The pixel bytes the content keys hold.
        var contentBytes = 0
    }

    /// The buffers remembered by address: a hold hands out one buffer, so a few are enough, and
    /// each one kept is a whole frame kept alive.
    static let buffersRemembered = 16
    /// The pixel bytes the content keys may hold before the cache starts again.
    static let contentBudget = 64 << 20

    struct Key: Hashable {
        let width: Int
        let height: Int
        let bytes: [UInt8]
    }

    private func remembered(_ frame: Frame, in store: inout Remembered, _ read: (Frame) -> [Reading]) -> [Reading] {
        // A recording hands out the same pixel buffer for every frame of a hold: that buffer is
        // found by its address first (kept alive here, so the address cannot be reused), and only
        // a new buffer is hashed.
        let address = frame.bytes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        if let address, let known = store.byBuffer[address], known.bytes.count == frame.bytes.count {
            hits += 1
            return known.readings
        }
        let packed = frame.packed()
        let key = Key(width: packed.width, height: packed.height, bytes: packed.bytes)
        let readings: [Reading]
        if let known = store.byContent[key] {
            hits += 1
            readings = known
        } else {
            misses += 1
            readings = read(frame)
            if store.byContent.count >= limit || store.contentBytes + key.bytes.count > Self.contentBudget {
                store.byContent.removeAll()
                store.contentBytes = 0
            }
            store.byContent[key] = readings
            store.contentBytes += key.bytes.count
        }
        if let address {
            if store.byBuffer.count >= Self.buffersRemembered { store.byBuffer.removeAll() }
            store.byBuffer[address] = (frame.bytes, readings)
        }
        return readings
    }
}
