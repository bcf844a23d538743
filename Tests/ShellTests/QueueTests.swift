import Foundation
import Model
import Register
import Shell
import Testing

@testable import Companion

@Suite("Captures and the upload queue")
struct QueueTests {
    func setUp(paired: Bool = true) throws -> (Register, FolderReceiver, String) {
        let folder = NSTemporaryDirectory() + "fieldrig-queue-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: t0)
        if paired {
            try register.pair(
                Pairing(macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: String(repeating: "ab", count: 32), pairedAt: t0))
        }
        return (register, FolderReceiver(folder: "\(folder)/mac"), folder)
    }

    let t0 = Timestamp(year: 2026, month: 11, day: 30, hour: 9)

    @Test("a capture is kept first and queued second; each reason to stay kept is recorded")
    func keptReasons() throws {
        let (register, _, folder) = try setUp(paired: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let noQueue = try register.keepCapture([1, 2, 3], tag: "MF-0001", at: t0)
        #expect(try register.queueCounts() == QueueCounts(goingUp: 0, needDecision: 0, kept: 1))  // kept, before queueing
        #expect(try register.queue(noQueue, at: t0) == .noQueue)
        try register.pair(Pairing(macName: "Studio Mac", address: "x", fingerprint: "f", pairedAt: t0))
        let unsynced = try register.keepCapture([4, 5, 6], tag: "MF-0012", at: t0)
        #expect(try register.queue(unsynced, at: t0) == .assetNotSynced)
        try register.setStorageCeiling(2, at: t0)
        let big = try register.keepCapture([7, 8, 9], tag: "MF-0002", at: t0)
        #expect(try register.queue(big, at: t0) == .storageCeiling)
        #expect(try register.captures().map(\.keptReason) == [.noQueue, .assetNotSynced, .storageCeiling])
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["3 kept on this phone, not queued to send yet"])
        try register.setStorageCeiling(1 << 20, at: t0)
        try register.markSynced(tag: "MF-0012", at: t0)
        try register.queueKept(at: t0)
        #expect(try register.queueCounts() == QueueCounts(goingUp: 3, needDecision: 0, kept: 0))
    }

    @Test("one at a time, done only when the Mac holds the whole file; then All sent")
    func uploads() throws {
        let (register, receiver, folder) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for i in 0..<3 {
            try register.queue(try register.keepCapture([UInt8](repeating: UInt8(i), count: 1000), tag: "MF-000\(i + 1)", at: t0), at: t0)
        }
        let uploader = Uploader(register: register, receiver: receiver)
        #expect(try uploader.pushNext(at: t0) == .sent(try register.captures()[0].file))
        #expect(try register.queueCounts() == QueueCounts(goingUp: 2, needDecision: 0, kept: 0))
        try uploader.drain(at: t0)
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["All sent"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: receiver.folder).count == 3)
    }

    @Test("network loss pauses and loses nothing")
    func paused() throws {
        let (register, receiver, folder) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try register.queue(try register.keepCapture([1, 2, 3], tag: "MF-0001", at: t0), at: t0)
        receiver.reachable = false
        #expect(try Uploader(register: register, receiver: receiver).drain(at: t0) == [.paused])
        let summary = try QueueSummary.of(register, macReachable: false)
        #expect(summary.lines == ["1 still going up"] && summary.explanation == "Waiting for Studio Mac to be on this network.")
        receiver.reachable = true
        try Uploader(register: register, receiver: receiver).drain(at: t0)
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["All sent"])
    }

    @Test("a refused, missing or too large file stops and needs a decision: retry, or remove with confirmation")
    func decisions() throws {
        let (register, receiver, folder) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gone = try register.keepCapture([1, 2, 3], tag: "MF-0001", at: t0)
        try register.queue(gone, at: t0)
        try FileManager.default.removeItem(atPath: register.photoPath(gone))
        let large = try register.keepCapture([UInt8](repeating: 9, count: 5000), tag: "MF-0002", at: t0)
        try register.queue(large, at: t0)
        receiver.maximumBytes = 4000
        let outcomes = try Uploader(register: register, receiver: receiver).drain(at: t0)
        #expect(outcomes == [.stopped(gone.file, .fileGone), .stopped(large.file, .tooLarge)])
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["2 need a decision"])
        let rows = try register.queueRows()
        #expect(rows.map(\.problem) == [.fileGone, .tooLarge])
        #expect(
            QueueScreen(summary: try QueueSummary.of(register, macReachable: true), rows: rows).rows.map(\.choices) == [
                ["Try again", "Remove…"], ["Try again", "Remove…"],
            ])
        #expect(throws: RegisterError.self) { try register.removeUpload(rows[0], confirmed: false, at: t0) }
        try register.removeUpload(rows[0], confirmed: true, at: t0)
        receiver.maximumBytes = 10_000
        try register.retryUpload(rows[1], at: t0)
        try Uploader(register: register, receiver: receiver).drain(at: t0)
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["All sent"])
    }

    @Test("a photo file on the phone with no row keeps the summary from saying All sent")
    func orphanFile() throws {
        let (register, _, folder) = try setUp()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["All sent"])
        try Data([1, 2]).write(to: URL(fileURLWithPath: "\(register.photosFolder)/stray.jpg"))
        #expect(try QueueSummary.of(register, macReachable: true).lines == ["1 kept on this phone, not queued to send yet"])
    }
}
