import Camera
import Foundation
import Imaging
import Model
import Testing

@Suite("fieldrig read --camera, record, cameras")
struct CameraCommandTests {
    @Test("reads a recorded sequence as it plays: each value once, with its time and frame, then the end")
    func liveSequence() throws {
        let run = try fieldrig("read", "--camera", "Devices/sequences/dell-latitude-hold", "--only", "barcodes")
        #expect(run.status == 0)
        #expect(
            run.stdout.split(separator: "\n") == [
                "0.200000 s  frame 6  7XK2M93  [CODE-39 barcode at 260,272 465x160]",
                "1.199999 s  the recording ended after 36 frames",
            ])
    }

    @Test("an injected fault is reported with its time and the exit code is 1")
    func fault() throws {
        let atStart = try fieldrig("read", "--camera", "Devices/sequences/dell-latitude-hold", "--fault", "denied")
        #expect(atStart.status == 1)
        #expect(atStart.stdout == "0.000000 s  camera trouble: access off\n")
        let midway = try fieldrig("read", "--camera", "Devices/sequences/dell-latitude-hold", "--only", "barcodes", "--fault", "busy@0.1")
        #expect(midway.status == 1)
        #expect(midway.stdout == "0.100000 s  camera trouble: busy\n")
    }

    @Test("a bad fault is wrong usage; a missing source is a failure naming it")
    func badSources() throws {
        let badFault = try fieldrig("read", "--camera", "Devices/sequences/dell-latitude-hold", "--fault", "sneeze")
        #expect(badFault.status == 2)
        #expect(badFault.stderr.contains("'sneeze' is not a fault"))
        let missing = try fieldrig("read", "--camera", "Devices/sequences/nothing-here")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Devices/sequences/nothing-here: no such device or folder"))
    }

    @Test("record writes a sequence that plays back the same frames")
    func record() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-record-\(getpid())-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try fieldrig("record", "--camera", "Devices/sequences/dell-latitude-hold", "--frames", "8", folder)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Recorded 8 frames"))
        let description = try String(contentsOfFile: "\(folder)/sequence", encoding: .utf8)
        #expect(description.contains("frame 0.200000 frame-000006.png"))
        let again = try fieldrig("read", "--camera", folder, "--only", "barcodes")
        #expect(again.stdout.hasPrefix("0.200000 s  frame 6  7XK2M93"))
        let refused = try fieldrig("record", "--camera", "Devices/sequences/dell-latitude-hold", "--frames", "1", folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already holds files"))
    }

    @Test(
        "record from a webcam whose stream stops: the whole frames are kept, the stop is named, the exit is 1",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func recordStops() throws {
        let frames = (0..<3).map { n in Frame(width: 64, height: 48, bytes: [UInt8](repeating: UInt8(40 * n + 20), count: 64 * 48)) }
        let device = try FakeV4L2Mount.beside(frames: frames)
        let folder = NSTemporaryDirectory() + "fieldrig-record-\(getpid())-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try fieldrig("record", "--camera", device.path, "--width", "64", "--height", "48", "--frames", "10", folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(device.path) stopped: "))
        #expect(run.stderr.contains("kept 3 whole frames in \(folder)"))
        let description = try String(contentsOfFile: "\(folder)/sequence", encoding: .utf8)
        #expect(description.split(separator: "\n").filter { $0.hasPrefix("frame ") }.count == 3)
    }

    @Test(
        "cameras lists a webcam's name, driver and modes, each with the camera's own pixel format",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func camerasListsModes() throws {
        let frame = Frame(width: 64, height: 48, bytes: [UInt8](repeating: 90, count: 64 * 48))
        let device = try FakeV4L2Mount.beside(frames: [frame], options: ["--format", "YUYV"])
        let run = try fieldrig("cameras", device.path)
        #expect(run.status == 0)
        #expect(run.stdout == "\(device.path): Field rig fake camera (fake-v4l2)\n  64x48 YUYV at 30 fps\n")
    }

    @Test(
        "cameras shows a webcam another program is streaming from as busy, not as fine",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func camerasShowsBusy() throws {
        let frame = Frame(width: 64, height: 48, bytes: [UInt8](repeating: 90, count: 64 * 48))
        let device = try FakeV4L2Mount.beside(frames: [frame], options: ["--mmap", "--loop"])
        let holder = V4L2Camera(path: device.path)
        try holder.start(CameraSetup(purpose: .label, torch: false, framesPerSecond: 30, width: 64, height: 48, liveHighlighting: true))
        let busy = try fieldrig("cameras", device.path)
        #expect(busy.stdout == "\(device.path): busy: another program is using it\n")
        holder.stop()
        let free = try fieldrig("cameras", device.path)
        #expect(free.stdout == "\(device.path): Field rig fake camera (fake-v4l2)\n  64x48 GREY at 30 fps\n")
    }

    @Test(
        "cameras names a device file with no device behind it (ENODEV at open) as gone, not as a wrong file",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func camerasShowsGone() throws {
        let frame = Frame(width: 64, height: 48, bytes: [UInt8](repeating: 90, count: 64 * 48))
        let device = try FakeV4L2Mount.beside(frames: [frame], options: ["--open-error", "gone"])
        let run = try fieldrig("cameras", device.path)
        #expect(run.stdout == "\(device.path): no device behind it (No such device): unplugged, or its driver is gone\n")
    }

    @Test(
        "scenarios through a webcam run one at a time, whatever --jobs says: a webcam serves one program",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func scenariosOnAWebcamOneAtATime() throws {
        let frame = Frame(width: 64, height: 48, bytes: [UInt8](repeating: 200, count: 64 * 48))
        let device = try FakeV4L2Mount.beside(frames: [frame], options: ["--loop"])
        let run = try fieldrig("scenarios", "--camera", device.path, "--jobs", "2", "--filter", "the stopped reason goes to the log")
        #expect(run.stdout.contains("1 scenarios in ") && run.stdout.contains(", 1 jobs)"), "\(run.stdout)")
    }

    @Test("cameras names a path that is not a camera, and one with nothing there, each as such")
    func cameras() throws {
        let run = try fieldrig("cameras", "Package.swift", "/dev/video-none")
        #expect(run.status == 0)
        #expect(run.stdout == "Package.swift: not a capture device\n/dev/video-none: no such device\n")
    }
}
