import Foundation
import Imaging
import Model

/// The fake V4L2 device (Devices/fake-v4l2) mounted in a temporary folder, for tests and benchmarks.
///
/// It serves the given frames through real V4L2 ioctls, `read()` or mmap streaming (as its options say; see
/// Devices/fake-v4l2/README.md), so the V4L2 camera runs against real libv4l2 with no hardware. Unmounted when released.
public final class FakeV4L2Mount {
    public let mountpoint: String
    private let process = Process()
    private let rawFile: String

    /// The device file to open.
    public var path: String { "\(mountpoint)/video0" }

    /// Whether this machine lets a program mount a FUSE file system.
    public static var available: Bool {
        access("/dev/fuse", R_OK | W_OK) == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/fusermount3")
    }

    /// Mounts a device serving `frames` (all one size) with the fake's extra `options`
    /// (`--format YUYV`, `--open-error busy|denied`, `--vanish-after N`, `--no-capture`, `--loop`).
    /// `binary` is the built fake-v4l2.
    public init(frames: [Frame], options: [String] = [], binary: String) throws(SequenceError) {
        let base = NSTemporaryDirectory() + "fieldrig-v4l2-\(getpid())-\(UUID().uuidString.prefix(8))"
        mountpoint = base
        rawFile = base + ".raw"
        guard let first = frames.first, frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw SequenceError("the fake device needs one or more frames, all of one size")
        }
        do {
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            try Data(frames.flatMap { $0.packed().bytes }).write(to: URL(fileURLWithPath: rawFile))
        } catch {
            throw SequenceError("\(base): cannot prepare the fake device (\(error.localizedDescription))")
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [base, "--frames", rawFile, "--size", "\(first.width)x\(first.height)"] + options
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SequenceError("\(binary): cannot start the fake device (\(error.localizedDescription)); build it with 'swift build'")
        }
        // The device prints "ready" once mounted: wait for that line, not for a time.
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("ready") else { throw SequenceError("\(binary) did not mount \(base) (is FUSE usable here?)") }
    }

    deinit {
        let unmount = Process()
        unmount.executableURL = URL(fileURLWithPath: "/usr/bin/fusermount3")
        unmount.arguments = ["-u", "-z", mountpoint]
        unmount.standardError = FileHandle.nullDevice
        if (try? unmount.run()) != nil { unmount.waitUntilExit() }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: mountpoint)
        try? FileManager.default.removeItem(atPath: rawFile)
    }

    /// The fake device serving `frames`, run from the fake-v4l2 built beside the running program.
    public static func beside(frames: [Frame], options: [String] = []) throws(SequenceError) -> FakeV4L2Mount {
        guard let binary = binaryBeside() else { throw SequenceError("fake-v4l2 is not built beside this program") }
        return try FakeV4L2Mount(frames: frames, options: options, binary: binary)
    }

    /// The fake-v4l2 built beside the running program, if there is one.
    public static func binaryBeside(_ executable: String = "/proc/self/exe") -> String? {
        let folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let path = folder.appendingPathComponent("fake-v4l2").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
