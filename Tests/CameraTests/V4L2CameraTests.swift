import Foundation
import Imaging
import Model
import Testing

@testable import Camera

/// The fake V4L2 device serving `frames`, for one test.
func fakeDevice(_ frames: [Frame], options: [String] = []) throws -> FakeV4L2Mount {
    try FakeV4L2Mount.beside(frames: frames, options: options)
}

/// Three 64x48 frames, each a different pattern.
let fakeFrames = (0..<3).map { n in
    Frame(width: 64, height: 48, bytes: (0..<64 * 48).map { UInt8(truncatingIfNeeded: $0 * (n + 1) + n * 50) })
}

/// Every event a camera gives until it stops, asking with deadlines in real time.
func collect(_ camera: V4L2Camera, max: Int = 10) -> [CameraEvent] {
    var events: [CameraEvent] = []
    while events.count < max, let event = camera.nextEvent(before: .seconds(30)) {
        events.append(event)
        if case .trouble = event { break }
    }
    return events
}

@Suite(
    "V4L2 camera, against the fake device",
    .enabled(if: FakeV4L2Mount.available, "FUSE (/dev/fuse and fusermount3) is not available here, so the V4L2 camera cannot be tested"))
struct V4L2CameraTests {
    @Test("opens, negotiates gray, and reads the device's frames byte for byte through read()")
    func grey() throws {
        let device = try fakeDevice(fakeFrames)
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        #expect(camera.card == "Field rig fake camera")
        #expect(camera.format?.width == 64 && camera.format?.height == 48 && camera.format?.pixelFormat == "GREY")
        #expect(camera.format?.streaming == false)
        #expect(camera.capabilities.modes == [CameraMode(width: 64, height: 48, framesPerSecond: 30, pixelFormat: "GREY")])
        #expect(camera.capabilities.modes.map(\.description) == ["64x48 GREY at 30 fps"])
        let events = collect(camera)
        let frames = events.frames
        #expect(frames.map(\.bytes) == fakeFrames.map(\.bytes))
        #expect(frames.map(\.index) == [0, 1, 2])
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        // The recording ran out: for a webcam that is the stream stopping, with the call in the reason.
        guard case .trouble(.stopped(let reason), _) = events.last else {
            Issue.record("expected stopped, got \(events.last.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(reason.contains("read: the device ended its stream"))
        camera.stop()
    }

    @Test("a YUYV camera is converted to gray: the luma, byte for byte")
    func yuyv() throws {
        let device = try fakeDevice(fakeFrames, options: ["--format", "YUYV"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        let frames = collect(camera).frames
        #expect(frames.map(\.bytes) == fakeFrames.map(\.bytes))
        // The camera's own format only: not the ones libv4l2 offers to convert it to.
        #expect(camera.capabilities.modes.map(\.description) == ["64x48 YUYV at 30 fps"])
    }

    @Test("open errors map to troubles", arguments: [("busy", CameraTrouble.busy), ("denied", .accessOff)])
    func openErrors(option: String, trouble: CameraTrouble) throws {
        let device = try fakeDevice(fakeFrames, options: ["--open-error", option])
        #expect(throws: trouble) { try V4L2Camera(path: device.path).start(.label) }
    }

    @Test("a device that is not a capture device cannot scan")
    func notCapture() throws {
        let device = try fakeDevice(fakeFrames, options: ["--no-capture"])
        #expect(throws: CameraTrouble.cannotScan) { try V4L2Camera(path: device.path).start(.label) }
    }

    @Test("a camera unplugged mid-stream stops, with the errno and the call in the reason")
    func unplugged() throws {
        let device = try fakeDevice(fakeFrames, options: ["--loop", "--vanish-after", "5"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        let events = collect(camera)
        #expect(events.count == 6)
        guard case .trouble(.stopped(let reason), _) = events.last else {
            Issue.record("expected stopped, got \(events)")
            return
        }
        #expect(reason.contains("read: ") && reason.contains("errno \(ENODEV)") && reason.hasPrefix(device.path))
        #expect(camera.nextEvent(before: (events.last?.time ?? .zero) + .milliseconds(200)) == nil)
    }

    @Test("recording the device and playing it back gives the same frames, byte for byte, at the same times")
    func recordAndPlayBack() throws {
        let device = try fakeDevice(fakeFrames)
        let camera = V4L2Camera(path: device.path)
        try camera.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        let folder = temporaryFolder("recording") + "/take"
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let recorder = try SequenceRecorder(folder: folder, note: "test")
        var recorded: [Frame] = []
        for event in collect(camera) {
            if case .frame(let frame) = event {
                try recorder.append(frame)
                recorded.append(frame)
            }
        }
        let playback = try FileSequenceCamera(folder: folder)
        try playback.start(.label)
        let played = drain(playback, until: .seconds(60)).frames
        #expect(played.map(\.bytes) == recorded.map(\.bytes))
        #expect(played.map { formatSeconds($0.timestamp) } == recorded.map { formatSeconds($0.timestamp) })
    }
}

@Suite("V4L2 camera, without a device")
struct V4L2WithoutDeviceTests {
    @Test("a missing device cannot scan; a file that is not a video device cannot scan")
    func notDevices() {
        #expect(throws: CameraTrouble.cannotScan) { try V4L2Camera(path: "/dev/video-none-\(getpid())").start(.label) }
        #expect(throws: CameraTrouble.cannotScan) { try V4L2Camera(path: "\(root)/Package.swift").start(.label) }
    }

    @Test("open errnos map as the companion expects")
    func errnoMapping() {
        #expect(V4L2Camera.trouble(openErrno: EACCES, path: "x") == .accessOff)
        #expect(V4L2Camera.trouble(openErrno: EPERM, path: "x") == .accessOff)
        #expect(V4L2Camera.trouble(openErrno: EBUSY, path: "x") == .busy)
        #expect(V4L2Camera.trouble(openErrno: ENOENT, path: "x") == .cannotScan)
        #expect(V4L2Camera.trouble(openErrno: ENODEV, path: "x") == .cannotScan)
        #expect(V4L2Camera.trouble(openErrno: EIO, path: "x") == .stopped(reason: "open x: Input/output error (errno 5)"))
    }
}

@Suite(
    "V4L2 camera, as real UVC cameras behave",
    .enabled(if: FakeV4L2Mount.available, "FUSE (/dev/fuse and fusermount3) is not available here, so the V4L2 camera cannot be tested"))
struct UVCBehaviourTests {
    let setup = CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true)

    @Test("a camera another program holds refuses at S_FMT, not at open: that is busy, not stopped")
    func busyAtSetFormat() throws {
        let device = try fakeDevice(fakeFrames, options: ["--busy-at-sfmt"])
        #expect(throws: CameraTrouble.busy) { try V4L2Camera(path: device.path).start(setup) }
    }

    @Test("a device whose streaming set-up fails falls back to read() where it offers read()")
    func reqbufsFallsBackToRead() throws {
        let device = try fakeDevice(fakeFrames, options: ["--reqbufs-error", "EIO"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(setup)
        #expect(camera.format?.streaming == false)
        let frames = collect(camera).frames
        #expect(frames.map(\.bytes) == fakeFrames.map(\.bytes))
        camera.stop()
    }

    @Test("a streaming-only device whose buffers cannot be set up stops, naming the call and its errno")
    func reqbufsNamed() throws {
        let device = try fakeDevice(fakeFrames, options: ["--reqbufs-error", "ENOMEM", "--no-read"])
        do {
            try V4L2Camera(path: device.path).start(setup)
            Issue.record("expected the start to fail")
        } catch {
            guard case .stopped(let reason) = error else {
                Issue.record("expected stopped, got \(error)")
                return
            }
            #expect(reason.contains("VIDIOC_REQBUFS on \(device.path)"), "\(reason)")
            #expect(reason.contains("errno \(ENOMEM)"), "\(reason)")
        }
    }

    @Test("the odd short frame is skipped and counted; the camera goes on")
    func shortFrames() throws {
        let device = try fakeDevice(fakeFrames, options: ["--loop", "--short-every", "3"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(setup)
        let events = collect(camera, max: 8)
        let frames = events.frames
        #expect(frames.count == 8, "\(events)")
        // Frames 3 and 6 of the loop were short: the whole ones are the first two patterns.
        #expect(frames.allSatisfy { $0.bytes == fakeFrames[0].bytes || $0.bytes == fakeFrames[1].bytes })
        #expect(camera.framesSkipped >= 3)
        camera.stop()
    }

    @Test("frames that stay bad stop the camera, saying how many and why")
    func alwaysShort() throws {
        let device = try fakeDevice(fakeFrames, options: ["--loop", "--short-every", "1"])
        let camera = V4L2Camera(path: device.path)
        try camera.start(setup)
        let events = collect(camera, max: 5)
        guard case .trouble(.stopped(let reason), _)? = events.last else {
            Issue.record("expected stopped, got \(events)")
            return
        }
        #expect(
            reason.contains("\(V4L2Camera.badFramesInARow) bad frames in a row") && reason.contains("shorter than its format"), "\(reason)")
        #expect(events.count == 1)
    }
}
