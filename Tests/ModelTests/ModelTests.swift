import Foundation
import Model
import Testing

let t0 = Timestamp(year: 2026, month: 11, day: 30, hour: 9)

@Suite("Timestamps")
struct TimestampTests {
    @Test("civil dates round-trip through milliseconds and ISO 8601")
    func civil() {
        #expect(Timestamp(year: 1970, month: 1, day: 1).milliseconds == 0)
        #expect(Timestamp(year: 2000, month: 3, day: 1).milliseconds == 951_868_800_000)
        #expect(t0.iso8601 == "2026-11-30T09:00:00.000Z")
        #expect(Timestamp(iso8601: "2026-11-30T09:00:00.250Z") == t0.adding(.milliseconds(250)))
        #expect(Timestamp(iso8601: "yesterday") == nil)
        #expect(Timestamp(year: 2024, month: 2, day: 29, hour: 23, minute: 59).stamp == "29 Feb 2024 23:59")
        #expect(Timestamp(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }
}

@Suite("Durations")
struct DurationTests {
    @Test("seconds, milliseconds and microseconds, and the two ways they are written")
    func conversions() {
        let d = Duration.seconds(1) + .microseconds(250_001)
        #expect(d.inMilliseconds == 1250 && d.inMicroseconds == 1_250_001)
        #expect(abs(d.inSeconds - 1.250001) < 1e-9)
        #expect(formatSeconds(d) == "1.250001")
        #expect(formatSeconds(.milliseconds(5)) == "0.005000")
        #expect(formatMilliseconds(.microseconds(12_345)) == "12.3 ms")
        #expect(formatMilliseconds(.zero) == "0.0 ms")
    }
}

@Suite("The lock box")
struct LockedTests {
    @Test("many threads taking numbers each get a different one, and none is lost")
    func counter() {
        let next = Locked(0)
        let taken = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            while let n = next.take(below: 10_000) { taken.withLock { $0.append(n) } }
        }
        #expect(taken.current.sorted() == Array(0..<10_000))
        #expect(next.take(below: 10_000) == nil)
    }
}

@Suite("Hex and base64url, in plain Swift")
struct EncodingTests {
    @Test("round trips, and what no encoder writes is refused")
    func roundTrips() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(base64urlDecode(base64url(bytes)) == bytes)
            #expect(hexBytes(strict: hexString(bytes)) == bytes)
        }
        #expect(base64urlDecode("Zm9vYg==") == nil && base64urlDecode("Zm9vY") == nil && base64urlDecode("Zm9vYh") == nil)
        #expect(hexBytes(strict: "0g") == nil && hexBytes(strict: "０a") == nil && hexBytes(strict: "abc") == nil)
    }

    @Test("SHA-256 and HMAC-SHA-256 give the published test vectors")
    func digests() {
        #expect(hexString(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hexString(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hexString(Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}

@Suite("Percentiles")
struct PercentileTests {
    @Test("median and 90th percentile by nearest rank; nothing for no samples")
    func nearestRank() {
        let samples = (1...10).map { Duration.milliseconds($0) }.shuffled()
        let (median, p90) = percentiles(samples)
        #expect(median == .milliseconds(5) && p90 == .milliseconds(9))
        #expect(percentiles([.seconds(3)]) == (.seconds(3), .seconds(3)))
        #expect(percentiles([]) == (.zero, .zero))
    }
}

@Suite("Boxes in a frame")
struct FramePartTests {
    @Test("the part of a box inside the frame: cut at its edges, nil where none of it is")
    func part() {
        let frame = Frame(width: 100, height: 50, bytes: [UInt8](repeating: 0, count: 5000))
        #expect(frame.part(Box(x: 10, y: 10, width: 20, height: 20)) == Box(x: 10, y: 10, width: 20, height: 20))
        #expect(frame.part(Box(x: -5, y: 40, width: 20, height: 30)) == Box(x: 0, y: 40, width: 15, height: 10))
        #expect(frame.part(Box(x: 100, y: 0, width: 10, height: 10)) == nil)
        #expect(frame.part(Box(x: 10, y: 10, width: 0, height: 5)) == nil)
    }
}

@Suite("A decoded code's box")
struct CodeBoxTests {
    @Test("a box bounds a code when it spans 16 pixels each way and is at most eight times as long as high")
    func boundsACode() {
        #expect(Box(x: 0, y: 0, width: 745, height: 97).boundsACode)
        #expect(Box(x: 0, y: 0, width: 40, height: 40).boundsACode)
        #expect(Box(x: 0, y: 0, width: 30, height: 300).boundsACode == false, "a line across a code standing on end")
        #expect(Box(x: 993, y: 477, width: 7, height: 41).boundsACode == false, "the end of a scan line")
        #expect(Box(x: 0, y: 0, width: 682, height: 20).boundsACode == false, "the row a tilted code was decoded along")
    }
}
