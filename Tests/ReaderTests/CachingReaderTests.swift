import Model
import Testing

@testable import Reader

/// Counts the frames it is asked to read.
final class CountingReader: FrameReading {
    var reads = 0
    func read(_ frame: Frame) -> [Reading] {
        reads += 1
        return [Reading(value: "V\(frame.bytes.first ?? 0)", source: .text(line: 1), box: Box(x: 0, y: 0, width: 1, height: 1))]
    }
    func readBarcodes(_ frame: Frame) -> [Reading] { read(frame) }
    var leanReads = 0
    func read(_ frame: Frame, secondLooks: Bool) -> [Reading] {
        guard !secondLooks else { return read(frame) }
        leanReads += 1
        return [Reading(value: "lean", source: .text(line: 1), box: Box(x: 0, y: 0, width: 1, height: 1))]
    }
}

@Suite("The caching reader")
struct CachingReaderTests {
    @Test("the same picture in a new buffer each time is read once, and only a few buffers are kept alive")
    func flatMemory() {
        let counting = CountingReader()
        let cache = CachingReader(counting)
        for _ in 0..<1000 {
            // A new array each time: each world's camera decodes its own copy of the same picture.
            let frame = Frame(width: 64, height: 48, bytes: [UInt8](repeating: 7, count: 64 * 48))
            #expect(cache.read(frame).map(\.value) == ["V7"])
        }
        #expect(counting.reads == 1)
        #expect(cache.buffersKept <= CachingReader.buffersRemembered)
    }

    @Test("a reading without the second looks is asked of the reader behind, and remembered apart from the whole one")
    func withoutSecondLooks() {
        let counting = CountingReader()
        let cache = CachingReader(counting)
        let frame = Frame(width: 8, height: 8, bytes: [UInt8](repeating: 3, count: 64))
        for _ in 0..<3 {
            #expect(cache.read(frame, secondLooks: false).map(\.value) == ["lean"])
            #expect(cache.read(frame, secondLooks: true).map(\.value) == ["V3"])
        }
        #expect(counting.leanReads == 1 && counting.reads == 1)
    }

    @Test("different pictures are each read, and read again once the content budget is spent")
    func budget() {
        let counting = CountingReader()
        let cache = CachingReader(counting)
        let side = 1024
        let perFrame = side * side
        let fit = CachingReader.contentBudget / perFrame
        for round in 0..<2 {
            for value in 0..<fit {
                _ = cache.read(Frame(width: side, height: side, bytes: [UInt8](repeating: UInt8(value), count: perFrame)))
            }
            #expect(counting.reads == fit, "round \(round)")
        }
        _ = cache.read(Frame(width: side, height: side, bytes: [UInt8](repeating: 255, count: perFrame)))
        _ = cache.read(Frame(width: side, height: side, bytes: [UInt8](repeating: 0, count: perFrame)))
        #expect(counting.reads == fit + 2)
    }
}
