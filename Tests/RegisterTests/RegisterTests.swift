import CSQLite
import Crypto
import Foundation
import Testing

@testable import Register

let t0 = Timestamp(year: 2026, month: 11, day: 30, hour: 9, minute: 0)

/// A fresh folder for one test's register.
func scratch(_ name: String = "reg") -> String {
    let folder = NSTemporaryDirectory() + "fieldrig-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// A register seeded with the demo register.
func demoRegister() throws -> (Register, String) {
    let folder = scratch()
    let register = try Register(path: "\(folder)/register.sqlite")
    try register.apply(.demo, at: t0)
    return (register, folder)
}

func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

@Suite("Opening a register")
struct OpeningTests {
    @Test("a new path becomes a register at the latest schema, in WAL mode with foreign keys on")
    func fresh() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/r.sqlite")
        #expect(try register.db.query("PRAGMA user_version").first?.int("user_version") == Schema.migrations.count)
        #expect(try register.db.query("PRAGMA journal_mode").first?.text("journal_mode") == "wal")
        #expect(try register.db.query("PRAGMA foreign_keys").first?.int("foreign_keys") == 1)
        #expect(FileManager.default.fileExists(atPath: "\(folder)/r.sqlite-photos"))
        #expect(try register.integrityCheck() == "ok")
    }

    @Test("an empty file is taken as a new register")
    func emptyFile() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: "\(folder)/r.sqlite", contents: Data()))
        let register = try Register(path: "\(folder)/r.sqlite")
        #expect(try register.counts().assets == 0)
    }

    @Test(
        "a file at a schema version no migration leads from (a newer one, or a negative one) is refused, named, and left byte for byte as it was",
        arguments: [99, -3])
    func unknownVersion(version: Int) throws {
        // A negative version was found by the register fuzz target: it indexed the list of migrations.
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/r.sqlite"
        do {
            let register = try Register(path: path)
            try register.db.execute("PRAGMA journal_mode = DELETE; PRAGMA user_version = \(version)")
        }
        let before = fileBytes(path)
        let message =
            version > 0
            ? "\(path): written by a newer fieldrig (schema \(version); this one knows up to \(Schema.migrations.count)). It was left as it is; use a newer fieldrig."
            : "\(path): the register is damaged (schema version \(version), which no fieldrig writes). It was left as it is; restore it from a copy."
        #expect {
            _ = try Register(path: path)
        } throws: { error in
            "\(error)" == message
        }
        #expect(fileBytes(path) == before)
    }

    @Test("a file that is not SQLite is refused and never overwritten")
    func notSQLite() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/notes.sqlite"
        try Data("Shopping list: milk, eggs\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Register(path: path)
        } throws: { error in "\(error)".hasPrefix("\(path): not a register (not an SQLite database). It was left as it is") }
        #expect(fileBytes(path) == Data("Shopping list: milk, eggs\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: "\(path)-photos"))
    }

    @Test("a damaged register is refused and never overwritten")
    func corrupt() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/r.sqlite"
        do {
            let register = try Register(path: path)
            try register.apply(.demo, at: t0)
            try register.db.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        var data = try #require(fileBytes(path))
        for i in stride(from: 4096 + 100, to: data.count, by: 7) { data[i] ^= 0xA5 }  // every page after the first
        try data.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Register(path: path)
        } throws: { error in "\(error)".hasPrefix("\(path): the register is damaged") }
        #expect(fileBytes(path) == data)
    }

    @Test("a register locked by another program is waited on for a bounded time, then reported")
    func locked() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/r.sqlite"
        let register = try Register(path: path, busyTimeout: 50)
        try register.apply(.demo, at: t0)
        let other = try SQLiteConnection(path: path, create: false)
        try other.execute("BEGIN EXCLUSIVE")
        #expect(register.recordVerification(tag: "MF-0001", at: t0) == .refused(.locked))
        #expect {
            try register.addAsset(Asset(tag: "MF-0100", name: "Spare"), at: t0)
        } throws: { error in (error as? RegisterError)?.isLocked == true && "\(error)".contains("waited 50 ms") }
        try other.execute("ROLLBACK")
        guard case .recorded = register.recordVerification(tag: "MF-0001", at: t0) else {
            Issue.record("the stamp should record once the lock is gone")
            return
        }
    }
}

@Suite("Stamps")
struct StampTests {
    @Test("a verification is recorded, signed, with an audit entry holding the previous one")
    func recorded() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard case .recorded(let first) = register.recordVerification(tag: "MF-0004", at: t0) else {
            Issue.record("not recorded")
            return
        }
        #expect(first.actor == "Sam Rivera" && first.tag == "MF-0004" && first.at == t0)
        let later = t0.adding(.seconds(3600))
        _ = register.recordVerification(tag: "MF-0004", at: later)
        let entries = try register.history(tag: "MF-0004").filter { $0.field == "verified" }
        #expect(entries.map(\.oldValue) == [nil, t0.iso8601])
        #expect(entries.map(\.newValue) == [t0.iso8601, later.iso8601])
        #expect(try register.stamps(tag: "MF-0004").count == 2)
    }

    @Test(
        "every refusal is a value with its sentence, and nothing is half-written",
        arguments: StampRefusal.allCases.filter { $0 != .damaged && $0 != .writeFailed })
    func refusals(refusal: StampRefusal) throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = register.path
        var subject = register
        var tag = "MF-0001"
        var blocker: SQLiteConnection? = nil
        switch refusal {
        case .unknownAsset: tag = "MF-9999"
        case .assetDisposed: tag = "MF-0008"
        case .storageFull: try register.setStorageCeiling(1024, at: t0)
        case .readOnly: subject = try Register(path: path, readOnly: true)
        case .locked:
            subject = try Register(path: path, busyTimeout: 20)
            blocker = try SQLiteConnection(path: path, create: false)
            try blocker?.execute("BEGIN EXCLUSIVE")
        case .damaged, .writeFailed: Issue.record("shown by the tests below")
        }
        #expect(subject.recordVerification(tag: tag, at: t0) == .refused(refusal))
        try blocker?.execute("ROLLBACK")
        #expect(try register.stamps().isEmpty)
        #expect(try register.history(tag: tag).filter { $0.field == "verified" }.isEmpty)
        // A disposed asset's refusal is itself on record; the others could not be written.
        #expect(try register.counts().refusedStamps == (refusal == .assetDisposed ? 1 : 0))
    }
}

@Suite("Refusals for a register that fails underneath")
struct FailingRegisterTests {
    @Test("a register damaged behind the app's back refuses as damaged, not read-only, with SQLite's code kept for the log")
    func damaged() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let raw = try SQLiteConnection(path: register.path, create: false)
        try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let root = try #require(raw.query("SELECT rootpage FROM sqlite_master WHERE name = 'stamps'").first?.int("rootpage"))
        let pageSize = try #require(raw.query("PRAGMA page_size").first?.int("page_size"))
        let file = try #require(FileHandle(forWritingAtPath: register.path))
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()
        #expect(register.recordVerification(tag: "MF-0001", at: t0) == .refused(.damaged))
        #expect(register.lastFailure?.contains("SQLite code 11") == true, "\(register.lastFailure ?? "nothing kept")")
    }

    @Test("each SQLite failure is its own refusal; one not classified is a failed write, never read-only")
    func classified() {
        let refusal = { (code: Int32) in StampRefusal(SQLiteFailure(code: code, message: "m")) }
        #expect(refusal(SQLITE_BUSY) == .locked && refusal(SQLITE_LOCKED) == .locked)
        #expect(refusal(SQLITE_READONLY) == .readOnly && refusal(SQLITE_FULL) == .storageFull)
        #expect(refusal(SQLITE_CORRUPT) == .damaged && refusal(SQLITE_NOTADB) == .damaged)
        // Extended codes: an I/O error on write (SQLITE_IOERR_WRITE) and on read (SQLITE_IOERR_READ).
        #expect(refusal(SQLITE_IOERR | (3 << 8)) == .writeFailed && refusal(SQLITE_IOERR | (1 << 8)) == .writeFailed)
        #expect(refusal(SQLITE_CANTOPEN) == .writeFailed)
    }
}

@Suite("The audit trail")
struct AuditTests {
    @Test("every write carries the actor's name; with none set the entry is unsigned")
    func signed() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try register.history(tag: "MF-0002").allSatisfy { $0.actor == "Sam Rivera" })
        try register.setActorName(nil, at: t0)
        try register.updateAsset(tag: "MF-0002", field: "serial", to: "7XK2M94", at: t0)
        let last = try #require(register.history(tag: "MF-0002").last)
        #expect(last.actor == nil && last.oldValue == "7XK2M93" && last.newValue == "7XK2M94")
    }
}

@Suite("Transactions and seeds")
struct TransactionTests {
    @Test("a seed that fails part-way leaves nothing written")
    func rollback() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/r.sqlite")
        var seed = RegisterSeed.demo
        seed.walkRound.append((tag: "MF-NOPE", reason: "typo"))
        #expect(throws: RegisterError.self) { try register.apply(seed, at: t0) }
        #expect(
            try register.counts()
                == RegisterCounts(assets: 0, walkRound: 0, stamps: 0, refusedStamps: 0, captures: 0, queueRows: 0, auditEntries: 0))
        #expect(try register.settings().registerID == "")
        try register.apply(.demo, at: t0)
        #expect(try register.counts().assets == 12)
    }

    @Test(
        "a seed's tag key must be whole hex pairs, at least 16 bytes; the stored key reads back as those bytes",
        arguments: ["00112233445566778899aabbccddee", "00112233445566778899aabbccddeeff0", "00112233445566778899aabbccddeefg", ""])
    func tagKeyRefused(key: String) throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/r.sqlite")
        var seed = RegisterSeed.demo
        seed.tagKey = key
        #expect(throws: RegisterError.self) { try register.apply(seed, at: t0) }
        seed.tagKey = "00112233445566778899AABBCCDDEEFF"
        try register.apply(seed, at: t0)
        #expect(try register.settings().tagKey == Array(0..<16).map { UInt8($0 * 17) })
    }

    @Test("the walk-round lists its assets in order, with the reason in the register's words")
    func walkRound() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let items = try register.walkRound()
        #expect(items.map(\.asset.tag) == ["MF-0004", "MF-0006", "MF-0002", "MF-0008"])
        #expect(items[0].reason == "Quarterly check of the comms room" && items[0].asset.name == "Core switch")
    }

    @Test("a bad field or value is refused with what is wrong")
    func badUpdates() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: RegisterError.self) { try register.updateAsset(tag: "MF-0001", field: "colour", to: "red", at: t0) }
        #expect(throws: RegisterError.self) { try register.updateAsset(tag: "MF-0001", field: "state", to: "lost", at: t0) }
        #expect(throws: RegisterError.self) { try register.updateAsset(tag: "MF-9999", field: "serial", to: "x", at: t0) }
        #expect(throws: RegisterError.self) { try register.addAsset(Asset(tag: "MF-0001", name: "Twin"), at: t0) }
    }
}

@Suite("Photographs on disk")
struct PhotoTests {
    @Test("a kept capture's file is on disk, whole, before its row; its digest is SHA-256")
    func keep() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = [UInt8]([0xFF, 0xD8, 0xFF, 0xE0]) + [UInt8](repeating: 7, count: 1000)
        let capture = try register.keepCapture(photo, tag: "MF-0003", at: t0)
        #expect(fileBytes(register.photoPath(capture)) == Data(photo))
        #expect(capture.file.hasSuffix(".jpg") && capture.sha256 == sha256Hex(photo) && capture.actor == "Sam Rivera")
        #expect(try register.captures() == [capture])
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a capture for an unknown asset is refused and leaves no file")
    func unknownAsset() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: RegisterError.self) { try register.keepCapture([1, 2, 3], tag: "MF-9999", at: t0) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: register.photosFolder).isEmpty)
    }

    @Test("opening finds a photo with no row and keeps it, removes a half-written one, reports a missing one")
    func reconcile() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kept = try register.keepCapture([1, 2, 3, 4], tag: "MF-0001", at: t0)
        let gone = try register.keepCapture([5, 6, 7, 8], tag: "MF-0002", at: t0.adding(.seconds(1)))
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: "\(register.photosFolder)/stray.jpg"))
        try Data([1]).write(to: URL(fileURLWithPath: "\(register.photosFolder)/capture-x.jpg.partial"))
        try FileManager.default.removeItem(atPath: register.photoPath(gone))
        let reopened = try Register(path: register.path)
        #expect(reopened.reconciliation.orphansFound == ["stray.jpg"])
        #expect(reopened.reconciliation.partialsRemoved == ["capture-x.jpg.partial"])
        #expect(reopened.reconciliation.missingFiles == [gone.file])
        #expect(FileManager.default.fileExists(atPath: "\(register.photosFolder)/stray.jpg"))
        let stray = try #require(reopened.captures().first { $0.file == "stray.jpg" })
        #expect(stray.keptReason == .foundOnPhone && stray.tag == nil && stray.actor == nil && stray.bytes == 3)
        #expect(try reopened.captures().contains(kept))
        // A second opening finds nothing new.
        #expect(try Register(path: register.path).reconciliation.orphansFound.isEmpty)
    }
}

@Suite("Stored reasons are codes")
struct StoredCodesTests {
    @Test("a register that stored the old sentences is migrated to codes, and reads back the same reasons")
    func migratesSentencesToCodes() throws {
        // A register as schema 2 wrote it, with the sentences it stored then.
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/old.sqlite"
        let old = try SQLiteConnection(path: path, create: true)
        for sql in Schema.migrations[0..<2] { try old.execute(sql) }
        try old.execute(
            """
            INSERT INTO assets(id, tag, name, state) VALUES (1, 'MF-0004', 'Core switch', 'in service');
            INSERT INTO captures(id, file, asset_id, bytes, sha256, taken_at, kept_reason)
                VALUES (1, 'a.jpg', 1, 3, 'x', 0, 'asset not synced yet');
            INSERT INTO captures(id, file, asset_id, bytes, sha256, taken_at) VALUES (2, 'b.jpg', 1, 3, 'y', 0);
            INSERT INTO upload_queue(capture_id, state, problem, updated_at)
                VALUES (2, 'needs decision', 'the file is gone from this iPhone', 0);
            INSERT INTO transfers(id, state, offered_at, asset_count, summary) VALUES ('t1', 'waiting', 0, 1, 's');
            PRAGMA user_version = 2;
            """)
        let reopened = try Register(path: path)
        #expect(try reopened.db.query("SELECT kept_reason FROM captures WHERE id = 1").first?.text("kept_reason") == "asset-not-synced")
        #expect(try reopened.captures().first { $0.id == 1 }?.keptReason == .assetNotSynced)
        #expect(try reopened.queueRows().first?.problem == .fileGone)
        // An offer stored before acknowledgements were kept had been sent: it counts as received.
        #expect(try reopened.currentTransfer()?.acknowledged == true)
        #expect(try reopened.db.query("PRAGMA user_version").first?.int("user_version") == Schema.migrations.count)
    }
}

@Suite("Photographs of assets the Mac does not hold")
struct HandedOverTests {
    func transfer(_ id: String) -> Transfer {
        Transfer(id: id, waiting: true, offeredAt: t0, assetCount: 12, summary: "12 assets", acknowledged: true)
    }

    @Test("kept while the offer that carries the asset waits, queued once it is no longer waiting, the asset itself unchanged")
    func queuedOnceHandedOver() throws {
        let (register, folder) = try demoRegister()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try register.pair(
            Pairing(macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: String(repeating: "5e", count: 32), pairedAt: t0))
        let photo = [UInt8]([0xFF, 0xD8, 0xFF, 0xE0]) + [UInt8](repeating: 7, count: 100)
        let capture = try register.keepCapture(photo, tag: "MF-0012", at: t0)
        #expect(try register.queue(capture, at: t0) == .assetNotSynced)
        try register.storeTransfer(transfer("t-1"))
        try register.queueKept(at: t0)
        #expect(try register.queueRows().isEmpty && register.keptForUnsyncedAsset())
        try register.resolveTransfer(id: "t-1")
        #expect(try !register.keptForUnsyncedAsset())
        try register.queueKept(at: t0)
        #expect(try register.queueRows().map(\.capture.id) == [capture.id])
        // Nothing of the asset itself changed: the phone cannot tell accepted from declined.
        #expect(try register.db.query("SELECT synced FROM assets WHERE tag = 'MF-0012'").first?.int("synced") == 0)
    }
}
