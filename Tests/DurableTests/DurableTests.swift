import Durable
import Foundation
import Testing

func scratchFolder() -> String {
    let folder = NSTemporaryDirectory() + "fieldrig-durable-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("Whole files, written so that a crash leaves the old one or the new")
struct DurableFileTests {
    @Test("a written file reads back whole; a leftover partial file from a crash is replaced")
    func roundTrip() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: "\(folder)/a.bin.partial", contents: Data([1, 2, 3])))
        try DurableFile.write(bytes, to: "\(folder)/a.bin")
        #expect(try DurableFile.read("\(folder)/a.bin") == bytes)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/a.bin.partial"))
    }

    @Test("a secret is owner-only from its first byte")
    func mode() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DurableFile.write([1], to: "\(folder)/key", mode: 0o600)
        var info = stat()
        #expect(stat("\(folder)/key", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("a missing file, a folder and a FIFO are each named for what they are")
    func notFiles() throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: FileError(path: "\(folder)/none", .missing)) { try DurableFile.read("\(folder)/none") }
        #expect(throws: FileError(path: folder, .isDirectory)) { try DurableFile.read(folder) }
        #expect(throws: FileError.self) { try DurableFile.write([1], to: "\(folder)/no/such/folder/x") }
    }

    @Test("a failed call's errno is captured once, with the call named; an interrupted call is tried again")
    func systemCalls() {
        var calls = 0
        let interrupted = retryingInterrupts("fake") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(calls == 3 && (try? interrupted.get()) == 7)
        let failed = retryingInterrupts("open /nonexistent") { open("/nonexistent/x", O_RDONLY) }
        guard case .failure(let error) = failed else {
            Issue.record("it did not fail")
            return
        }
        #expect(error.code == ENOENT)
        #expect(error.description == "open /nonexistent: No such file or directory (errno 2)")
    }
}
