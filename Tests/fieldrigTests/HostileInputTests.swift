import Foundation
import Testing

@testable import fieldrig

@Suite("The tool against careless and hostile input")
struct HostileInputTests {
    func scratch() -> String {
        let folder = NSTemporaryDirectory() + "fieldrig-hostile-cli-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a mistyped register path is an error, never a new empty register that says All sent")
    func mistypedPath() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let verify = try fieldrig("register", "\(folder)/typo.sqlite", "verify", "MF-0004")
        #expect(verify.status == 1 && verify.stderr.contains("no such register"), "\(verify.stderr)")
        let queue = try fieldrig("queue", "\(folder)/typo.sqlite", "--json")
        #expect(queue.status == 1 && queue.stderr.contains("no such register"), "\(queue.stderr)")
        let noTag = try fieldrig("register", "\(folder)/typo.sqlite", "verify")
        #expect(noTag.status == 2 && noTag.stderr.contains("'verify' takes one TAG"), "\(noTag.stderr)")
        let handover = try fieldrig("handover", "--register", "\(folder)/typo.sqlite")
        #expect(handover.status == 1 && handover.stderr.contains("no such register"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("another application's SQLite file is refused byte for byte, with nothing made beside it")
    func foreignDatabase() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/notes.db"
        let made = try fieldrig("register", "\(folder)/r.sqlite", "create")
        #expect(made.status == 0)
        // Any SQLite file with a table of its own: a copy of a register whose user_version is reset.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "python3", "-c", "import sqlite3; c = sqlite3.connect('\(path)'); c.execute('create table notes(x)'); c.commit()",
        ]
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = try fieldrig("register", path, "verify", "MF-0004")
        #expect(run.status == 1 && run.stderr.contains("another application's SQLite database"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-photos") && !FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a new register is owner-only, made whole or not at all")
    func created() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try fieldrig("register", "\(folder)/r.sqlite", "create", "--demo").status == 0)
        var info = stat()
        #expect(stat("\(folder)/r.sqlite", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/r.sqlite.creating"))
        #expect(try fieldrig("register", "\(folder)/r.sqlite", "create").status == 1)
    }

    @Test("standard output that cannot be written ends the tool with one line and exit 1, never a crash")
    func fullOutput() throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments = ["rules"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        process.standardError = err
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)
        #expect(stderr.contains("cannot write to standard output") && stderr.contains("No space left on device"), "\(stderr)")
    }

    @Test("what a camera read is printed with its control characters escaped")
    func escapes() {
        #expect(terminalSafe("evil\u{1B}[2J\u{07}text\n") == "evil\\u{1B}[2J\\u{7}text\n")
        #expect(terminalSafe("Ünïcode and tabs\tstay") == "Ünïcode and tabs\tstay")
        #expect(terminalSafe("\u{9B}31m") == "\\u{9B}31m")
    }

    @Test("--annotate onto the image being read is refused, and the image kept")
    func annotateOverInput() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = "\(folder)/label.png"
        try FileManager.default.copyItem(atPath: "\(root)/Devices/labels/dell-latitude.png", toPath: image)
        let before = try Data(contentsOf: URL(fileURLWithPath: image))
        let run = try fieldrig("read", "--annotate", "\(folder)/./label.png", image)
        #expect(run.status == 2 && run.stderr.contains("is the image being read"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == before)
    }
}

@Suite("One clear line, the true reason")
struct OneLineTests {
    @Test("a JPEG with flipped bytes and a PNG with damaged data but good checksums: only the tool's own line, no library's")
    func libraryNoise() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-noise-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(root)/Devices/images/hp-elitebook-half.jpg")))
        for i in stride(from: 2000, to: 2400, by: 7) { jpeg[i] ^= 0xFF }
        #expect(FileManager.default.createFile(atPath: "\(folder)/flipped.jpg", contents: Data(jpeg)))
        let run = try fieldrig("read", "\(folder)/flipped.jpg", "\(root)/Devices/labels/dell-latitude.png")
        let lines = run.stderr.split(separator: "\n")
        #expect(run.status == 1 && lines.count == 1 && lines.allSatisfy { $0.hasPrefix("fieldrig: ") }, "\(run.stderr)")
        #expect(run.stdout.contains("7XK2M93"))
    }

    @Test("a tag too long for a QR code, or too many codes for a frame, is one line and exit 1")
    func tagTooLong() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-tag-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = String(repeating: "T", count: 5000)
        let run = try fieldrig(
            "tag", "make", long, "--register-id", "R", "--key", String(repeating: "ab", count: 16), "--png", "\(folder)/t.png")
        #expect(run.status == 1 && run.stderr.contains("too long for a QR code"), "\(run.stderr)")
        let t = String(repeating: "T", count: 600)
        let many = try fieldrig(
            "tag", "make", t + "1", t + "2", t + "3", t + "4", t + "5", t + "6", t + "7", t + "8", "--register-id", "R", "--key",
            String(repeating: "ab", count: 16), "--frame", "\(folder)/f.png")
        #expect(many.status == 1 && many.stderr.contains("do not fit side by side"), "\(many.stderr)")
        let wide = try fieldrig("tag", "make", "MF-1", "--register-id", "R", "--key", "ＡＢ" + String(repeating: "ab", count: 16))
        #expect(wide.status == 2 && wide.stderr.contains("--key takes at least 16 bytes as hex"), "\(wide.stderr)")
    }
}

@Suite("The simulated Mac's address, exactly as given")
struct ListenTests {
    @Test("a port out of range or a host that is not an IPv4 address is a usage error naming what is wrong")
    func badAddresses() throws {
        let port = try fieldrig("mac", "--listen", "127.0.0.1:99999")
        #expect(port.status == 2 && port.stderr.contains("'99999' is not a port"), "\(port.stderr)")
        let host = try fieldrig("mac", "--listen", "no-such-host.invalid:0")
        #expect(host.status == 2 && host.stderr.contains("is not an IPv4 address"), "\(host.stderr)")
        let empty = try fieldrig("mac", "--listen", "127.0.0.1:0", "--state", "")
        #expect(empty.status == 2 && empty.stderr.contains("--state needs a value, not an empty one"), "\(empty.stderr)")
    }
}

@Suite("Empty paths")
struct EmptyPathTests {
    @Test("an empty path is a usage error, never the root folder or ./-photos")
    func emptyPaths() throws {
        let keep = try fieldrig("crash", "register", "--kills", "1", "--keep", "")
        #expect(keep.status == 2 && keep.stderr.contains("--keep needs a value, not an empty one"), "\(keep.stderr)")
        let register = try fieldrig("handover", "--register", "")
        #expect(register.status == 2 && register.stderr.contains("--register needs a value, not an empty one"), "\(register.stderr)")
        let pair = try fieldrig("pair", "--register=", "MFST-P2/x")
        #expect(pair.status == 2)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/-photos"))
    }
}

@Suite("Two processes and one register", .serialized)
struct TwoProcessTests {
    @Test("while one process writes a register, another that would write is refused; nothing the writer reported is lost")
    func oneWriterAtATime() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-two-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/r.sqlite"
        #expect(try fieldrig("register", path, "create", "--demo").status == 0)
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("fieldrig")
        let writer = Process()
        writer.executableURL = binary
        writer.arguments = ["register", path, "churn", "--seed", "5", "--ops", "1000000"]
        let out = Pipe()
        writer.standardOutput = out
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        let lines = LineReader(out.fileHandleForReading)
        var reported: [String] = []
        // Wait for the writer to have written something: it holds the register from then on.
        while reported.count < 3, let line = lines.next() { reported.append(line) }
        for _ in 0..<3 {
            let other = try fieldrig("register", path, "verify", "MF-0004")
            #expect(other.status == 1 && other.stderr.contains("another process is using this register"), "\(other.stderr)")
        }
        // A reader looks in without writing, and is let in.
        #expect(try fieldrig("register", path, "counts").status == 0)
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        while let line = lines.next() { reported.append(line) }
        // With the writer gone the register opens, and every capture it reported is whole.
        let checked = try fieldrig("register", path, "verify", "MF-0004")
        #expect(checked.status == 0, "\(checked.stderr)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: path + "-photos"))
        for line in reported where line.hasPrefix("capture ") {
            let file = String(line.split(separator: " ")[2])
            #expect(files.contains(file), "\(file) was reported kept and is gone")
        }
    }
}

/// Runs a system command quietly; whether it succeeded.
@discardableResult
func system(_ arguments: String...) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// Whether this machine lets the tests mount a small RAM disk (root, and mounts allowed).
let canMountDisks: Bool = {
    let probe = NSTemporaryDirectory() + "fieldrig-mount-probe-\(getpid())"
    try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: probe) }
    guard system("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe) else { return false }
    system("umount", probe)
    return true
}()

@Suite(
    "A full disk and a read-only disk", .serialized,
    .enabled(if: canMountDisks, "needs root and permission to mount a RAM disk (tmpfs); without them these are skipped"))
struct DiskTests {
    /// Runs `body` with a RAM disk of `size` mounted at a new folder, unmounted afterwards.
    func withRAMDisk(size: String, _ body: (String) throws -> Void) throws {
        let disk = NSTemporaryDirectory() + "fieldrig-disk-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(system("mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", disk))
        defer {
            system("umount", disk)
            try? FileManager.default.removeItem(atPath: disk)
        }
        try body(disk)
    }

    @Test("a register made on a full disk leaves nothing in the way, says the disk is full, and a retry with room works")
    func fullDisk() throws {
        try withRAMDisk(size: "48k") { disk in try fullDisk(disk) }
    }

    func fullDisk(_ disk: String) throws {
        let run = try fieldrig("register", "\(disk)/r.sqlite", "create", "--demo")
        #expect(run.status == 1 && run.stderr.contains("\(disk)/r.sqlite: the disk is full"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
        #expect(system("mount", "-o", "remount,size=4m", disk))
        #expect(try fieldrig("register", "\(disk)/r.sqlite", "create", "--demo").status == 0)
    }

    @Test("on a read-only disk a register can be looked at, and a change is refused with the true reason")
    func readOnlyDisk() throws {
        try withRAMDisk(size: "4m") { disk in try readOnlyDisk(disk) }
    }

    func readOnlyDisk(_ disk: String) throws {
        #expect(try fieldrig("register", "\(disk)/r.sqlite", "create", "--demo").status == 0)
        #expect(system("mount", "-o", "remount,ro", disk))
        #expect(try fieldrig("queue", "\(disk)/r.sqlite").status == 0)
        #expect(try fieldrig("register", "\(disk)/r.sqlite", "counts").stdout.contains("assets: 12"))
        let verify = try fieldrig("register", "\(disk)/r.sqlite", "verify", "MF-0004")
        #expect(verify.status == 1 && verify.stderr.contains("cannot be written here"), "\(verify.stderr)")
    }
}
