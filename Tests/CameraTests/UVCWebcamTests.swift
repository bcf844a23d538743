import Foundation
import Imaging
import Model
import Testing

@testable import Camera

/// Four 128x96 frames, each a checkerboard of a different square size (edges a JPEG keeps).
let uvcFrames = (0..<4).map { n in
    Frame(width: 128, height: 96, bytes: (0..<128 * 96).map { i in ((i % 128) / (4 << n) + (i / 128) / (4 << n)) % 2 == 0 ? 30 : 220 })
}

/// The kinds of events in order, a run of frames counted as one ("frame"): a reader that drains
/// to the newest buffer may take two frames as one.
func shape(_ events: [CameraEvent]) -> [String] {
    var kinds: [String] = []
    for event in events {
        let kind: String
        switch event {
        case .frame: kind = "frame"
        case .trouble: kind = "trouble"
        case .recovered: kind = "recovered"
        case .ended: kind = "ended"
        }
        if kind != "frame" || kinds.last != "frame" { kinds.append(kind) }
    }
    return kinds
}

/// The mean absolute difference between two frames of one size (JPEG is not byte for byte).
func difference(_ a: Frame, _ b: Frame) -> Double {
    guard a.width == b.width, a.height == b.height else { return .infinity }
    return Double(zip(a.packed().bytes, b.packed().bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.width * a.height)
}

/// Which of `sources` a delivered frame shows, if any (within JPEG's losses).
func which(_ frame: Frame, of sources: [Frame]) -> Int? {
    sources.firstIndex { difference(frame, $0) < 6 }
}

let uvcSetup = CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 128, height: 96, liveHighlighting: true)

@Suite(
    "V4L2 camera, as a UVC webcam: formats, mmap, stalls",
    .enabled(if: FakeV4L2Mount.available, "FUSE (/dev/fuse and fusermount3) is not available here, so the V4L2 camera cannot be tested"))
struct UVCWebcamTests {
    @Test(
        "a camera whose default is Motion-JPEG, read with read(): no crash, the MJPEG mode that gives the rate, decoded to gray",
        arguments: [[String](), ["--no-dht"]])
    func motionJPEGByRead(extra: [String]) throws {
        // The YUYV mode of the wanted size is slow: the rate decides, not the cheaper format.
        let device = try fakeDevice(
            uvcFrames, options: ["--mode", "MJPEG:128x96@30", "--mode", "YUYV:128x96@10", "--mode", "YUYV:64x48@30"] + extra)
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        #expect(camera.format == V4L2Format(width: 128, height: 96, pixelFormat: "MJPG", framesPerSecond: 30, streaming: false))
        let frames = collect(camera).frames
        #expect(frames.map { which($0, of: uvcFrames) } == [0, 1, 2, 3], "\(frames.map { f in uvcFrames.map { difference(f, $0) } })")
        camera.stop()
    }

    @Test("the rate, then the size, then the cheapest format decide the mode; libv4l2's conversions come last")
    func choosingModes() {
        let uvc = [
            CameraMode(width: 1280, height: 720, framesPerSecond: 30, pixelFormat: "MJPG"),
            CameraMode(width: 640, height: 480, framesPerSecond: 30, pixelFormat: "YUYV"),
            CameraMode(width: 1280, height: 720, framesPerSecond: 10, pixelFormat: "YUYV"),
            CameraMode(width: 1920, height: 1080, framesPerSecond: 30, pixelFormat: "H264"),
        ]
        let label = V4L2Camera.candidates(uvc, for: .label).map { "\(V4L2Camera.fourcc($0.fourcc)) \($0.width)x\($0.height)" }
        #expect(label == ["MJPG 1280x720", "YUYV 640x480", "YUYV 1280x720", "GREY 1280x720", "YU12 1280x720"])
        let sweep = V4L2Camera.candidates(uvc, for: .sweep).map { "\(V4L2Camera.fourcc($0.fourcc)) \($0.width)x\($0.height)" }
        #expect(sweep.first == "YUYV 640x480")
    }

    @Test("padded rows are unpadded: GREY and YUYV byte for byte", arguments: ["GREY", "YUYV"])
    func paddedRows(format: String) throws {
        let device = try fakeDevice(fakeFrames, options: ["--format", format, "--pad", "12"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        #expect(collect(camera).frames.map(\.bytes) == fakeFrames.map(\.bytes))
    }

    @Test("mmap streaming through the page cache: the frames, whole, with rising capture times")
    func mmapStreaming() throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "MJPEG:128x96@30", "--loop"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        #expect(camera.format?.streaming == true && camera.format?.pixelFormat == "MJPG")
        let frames = collect(camera, max: 8).frames
        #expect(frames.count == 8)
        #expect(frames.allSatisfy { which($0, of: uvcFrames) != nil })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        camera.stop()
    }

    @Test("a reader that comes late gets the newest frame, not the oldest of the backlog, and the others are counted")
    func newestFrame() throws {
        // --burst: the camera filled all four buffers before the first look, one interval apart.
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "MJPEG:128x96@30", "--burst"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        guard case .frame(let first)? = camera.nextEvent(before: .seconds(30)) else {
            Issue.record("expected a frame, got \(camera.nextEvent(before: .seconds(30)).map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(which(first, of: uvcFrames) == 3)
        #expect(camera.framesDropped == 3)
        camera.stop()
    }

    @Test("nothing captured at or after a deadline is delivered before it; it comes with a later deadline")
    func deadlinesHold() throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "GREY:128x96@30", "--loop"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        // A shell whose clock lags asks again and again with a deadline long past: frames keep
        // coming meanwhile, and none of them may be delivered before that deadline.
        let asking = ContinuousClock.now
        while ContinuousClock.now - asking < .milliseconds(400) {
            if case .frame(let frame)? = camera.nextEvent(before: .milliseconds(1)) {
                #expect(frame.timestamp < .milliseconds(1), "a frame of \(frame.timestamp) delivered before 1 ms")
            }
        }
        // Asked with a later deadline, the frame that waited comes.
        guard case .frame(let later)? = camera.nextEvent(before: .seconds(30)) else {
            Issue.record("expected a frame")
            return
        }
        #expect(later.timestamp >= .milliseconds(1))
        camera.stop()
    }

    @Test("frame times are the buffers' capture times, not the time they were taken off the queue")
    func captureTimestamps() throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "GREY:128x96@30", "--loop", "--latency-ms", "400"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        var ages: [Duration] = []
        for _ in 0..<24 {
            guard case .frame(let frame)? = camera.nextEvent(before: .seconds(30)) else { break }
            ages.append(camera.age(of: frame))
        }
        // The first frames predate the start (their time is then the start); once the camera has
        // run longer than the latency, every frame was captured 400 ms before it was delivered.
        #expect(ages.count == 24 && ages.suffix(4).allSatisfy { $0 >= .milliseconds(400) }, "\(ages)")
        camera.stop()
    }

    @Test("a mapping that fails falls back to read() where the device offers it")
    func mmapFailsToRead() throws {
        // A device that offers streaming but whose buffers cannot be mapped (a direct-I/O file).
        let device = try fakeDevice(fakeFrames, options: ["--streaming"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        #expect(camera.format?.streaming == false)
        #expect(collect(camera).frames.map(\.bytes) == fakeFrames.map(\.bytes))
    }

    @Test("flagged and short buffers are skipped and counted; whole frames still come", arguments: ["--flag-every", "--short-every"])
    func badBuffers(option: String) throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "GREY:128x96@30", "--loop", option, "2"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        let frames = collect(camera, max: 6).frames
        #expect(frames.count == 6)
        // The fake spoils every second frame: only the first and third patterns come whole.
        #expect(
            frames.allSatisfy { $0.bytes == uvcFrames[0].bytes || $0.bytes == uvcFrames[2].bytes },
            "\(frames.map { f in uvcFrames.map { difference(f, $0) } })")
        #expect(camera.framesSkipped >= 3)
        camera.stop()
    }

    @Test("no bandwidth for a format (ENOSPC at STREAMON): the next one that fits, compressed or smaller")
    func bandwidth() throws {
        let compressed = try fakeDevice(
            uvcFrames, options: ["--mmap", "--mode", "YUYV:128x96@30", "--mode", "MJPEG:128x96@30", "--enospc-above", "100", "--loop"])
        let first = V4L2Camera(path: compressed.path)
        try first.start(uvcSetup)
        #expect(first.format?.pixelFormat == "MJPG" && first.format?.width == 128)
        #expect(collect(first, max: 2).frames.count == 2)
        first.stop()

        let smaller = try fakeDevice(
            uvcFrames, options: ["--mmap", "--mode", "YUYV:128x96@30", "--mode", "YUYV:64x48@30", "--enospc-above", "100", "--loop"])
        let second = V4L2Camera(path: smaller.path)
        try second.start(uvcSetup)
        #expect(second.format?.pixelFormat == "YUYV" && second.format?.width == 64)
        #expect(collect(second, max: 2).frames.count == 2)
        second.stop()

        let none = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "YUYV:128x96@30", "--enospc-above", "100"])
        #expect(throws: CameraTrouble.stopped(reason: "VIDIOC_STREAMON on \(none.path): No space left on device (errno \(ENOSPC))")) {
            try V4L2Camera(path: none.path).start(uvcSetup)
        }
    }

    @Test("a second program is refused at S_FMT with EBUSY: busy, and fine again once the first lets go")
    func secondProgram() throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "GREY:128x96@30", "--loop"])
        let first = V4L2Camera(path: device.path)
        try first.start(uvcSetup)
        let second = V4L2Camera(path: device.path)
        #expect(throws: CameraTrouble.busy) { try second.start(uvcSetup) }
        #expect(throws: CameraTrouble.busy) { try second.probeInUse() }
        first.stop()
        try second.probeInUse()
        try second.start(uvcSetup)
        #expect(collect(second, max: 1).frames.count == 1)
        second.stop()
    }

    @Test("an unplug while streaming is named as an unplug")
    func unplugWhileStreaming() throws {
        let device = try fakeDevice(uvcFrames, options: ["--mmap", "--mode", "GREY:128x96@30", "--loop", "--vanish-after", "3"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(uvcSetup)
        let events = collect(camera)
        guard case .trouble(.stopped(let reason), _)? = events.last else {
            Issue.record("expected stopped, got \(events)")
            return
        }
        #expect(reason.hasPrefix(device.path) && reason.contains("unplugged"), "\(reason)")
        camera.stop()
    }

    @Test(
        "a call that never returns becomes trouble within the stall timeout; stopping does not wait for it",
        arguments: [["--mode", "GREY:128x96@30"], ["--mmap", "--mode", "GREY:128x96@30"]])
    func blockingStall(device options: [String]) throws {
        let device = try fakeDevice(uvcFrames, options: options + ["--loop", "--stall-after", "2", "--stall", "blocking"])
        let camera = V4L2Camera(path: device.path)
        camera.stallTimeout = .seconds(1)
        try camera.start(uvcSetup)
        let began = ContinuousClock.now
        let events = collect(camera)
        // The device never answers again: only the camera's own timeout can end this (well
        // before the 30 s deadline collect gives).
        #expect(ContinuousClock.now - began < .seconds(20))
        #expect(shape(events) == ["frame", "trouble"])
        guard case .trouble(.stopped(let reason), _)? = events.last else {
            Issue.record("expected stopped, got \(events)")
            return
        }
        #expect(reason.contains("no frame for 1000.0 ms"), "\(reason)")
        let stopping = ContinuousClock.now
        camera.stop()
        #expect(ContinuousClock.now - stopping < .seconds(5))
    }

    @Test(
        "a camera that comes back after a stall is picked up again: trouble, then recovered, then frames",
        arguments: ["quiet", "blocking"])
    func stallThenResume(kind: String) throws {
        let device = try fakeDevice(
            uvcFrames,
            options: ["--mmap", "--mode", "GREY:128x96@30", "--loop", "--stall-after", "2", "--stall", kind, "--resume-on-reopen"])
        let camera = V4L2Camera(path: device.path)
        camera.stallTimeout = .seconds(1)
        try camera.start(uvcSetup)
        var events: [CameraEvent] = []
        while events.count < 12, let event = camera.nextEvent(before: .seconds(30)) { events.append(event) }
        #expect(shape(events) == ["frame", "trouble", "recovered", "frame"], "\(events)")
        #expect(camera.reopenCount >= 1)
        camera.stop()
    }
}
