import CSQLite
import Crypto
import Durable
import Foundation

/// The phone's own register, in SQLite (FIELD-1): assets and what surrounds them, the walk-round,
/// verification stamps, captures and their photographs, the upload queue, the audit trail,
/// pairing and handover transfers.
///
/// One connection, serialised: every call takes the register's lock, so one `Register` may be
/// used from any thread. WAL, foreign keys on, every change in one transaction, parameters
/// always bound. Nothing here reads a clock: every write is given its time.
// @unchecked Sendable: the connection and all mutable state are only touched while holding `lock`.
public final class Register: @unchecked Sendable {
    /// The register file.
    public let path: String
    /// Where photographs are kept: a folder beside the register file.
    public let photosFolder: String
    /// What opening found on disk and put right.
    public private(set) var reconciliation = Reconciliation()

    /// SQLite's words and code for the last verification refused as damaged or a failed write.
    public internal(set) var lastFailure: String? {
        get { failureNote.withLock { $0 } }
        set { failureNote.withLock { $0 = newValue } }
    }
    private let failureNote = Locked<String?>(nil)

    let db: SQLiteConnection
    /// Held around every use of `db`: through `locked`, or `withLock` where nothing throws.
    let lock = NSLock()
    let busyTimeout: Int
    /// Whether this register holds the process's claim on its file (see `ProcessLock`).
    private var holdsLock = false

    deinit { if holdsLock { ProcessLock.release(path + "-lock") } }

    /// What opening the register found among the photographs.
    public struct Reconciliation: Sendable, Equatable {
        /// Photo files with no capture row: now recorded as kept on the phone, never deleted.
        public var orphansFound: [String] = []
        /// Half-written photo files from an interrupted capture (never committed): removed.
        public var partialsRemoved: [String] = []
        /// Capture rows whose photo file is gone.
        public var missingFiles: [String] = []
    }

    /// Opens the register at `path`, creating it (and its photo folder) when there is no file and
    /// `create` allows it; otherwise a missing file is an error, never a new empty register.
    ///
    /// A file that is not SQLite, is another application's SQLite database, is damaged, or was
    /// written by a newer schema is refused and left exactly as it was. Another program's lock is
    /// waited on for `busyTimeout` ms. With `readOnly`, nothing is created, migrated, reconciled
    /// or written: for looking inside. A new register file is readable by its owner only: it
    /// holds the tag key and the phone's certificate key.
    public init(path: String, busyTimeout: Int = 2000, readOnly: Bool = false, create: Bool = true) throws(RegisterError) {
        self.path = path
        self.busyTimeout = busyTimeout
        photosFolder = path + "-photos"
        guard !path.isEmpty else { throw RegisterError(path, .cannotOpen(detail: "an empty path")) }
        try Register.checkHeader(path)
        let exists = FileManager.default.fileExists(atPath: path)
        if readOnly || !create, !exists {
            throw RegisterError(path, .cannotOpen(detail: "no such register (create one with `fieldrig register PATH create`)"))
        }
        if !exists {
            // Owner-only from its first byte: SQLite would create it readable by everyone.
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        // A folder that cannot be written (a read-only disk): a register there can be looked at,
        // not changed. SQLite would need to make a shared-memory file beside it even to read, so
        // it is read as it is on disk, which is whole when no write-ahead log is left beside it.
        let folder = (path as NSString).deletingLastPathComponent
        let folderWritable = access(folder.isEmpty ? "." : folder, W_OK) == 0 || (errno != EROFS && errno != EACCES)
        if !folderWritable && !readOnly { throw RegisterError(path, .readOnly) }
        var walSize = stat()
        let immutable = readOnly && !folderWritable && (stat(path + "-wal", &walSize) != 0 || walSize.st_size == 0)
        if !readOnly {
            // One process at a time: opening reconciles the photo folder, which must never touch
            // another live process's half-written or just-renamed photographs.
            guard ProcessLock.acquire(path + "-lock") else { throw RegisterError(path, .inUse) }
        }
        do throws(SQLiteFailure) {
            db = try SQLiteConnection(path: path, create: !readOnly, readOnly: readOnly, immutable: immutable)
        } catch {
            if !readOnly { ProcessLock.release(path + "-lock") }
            throw RegisterError(path, .cannotOpen(detail: error.message))
        }
        holdsLock = !readOnly
        db.setBusyTimeout(milliseconds: busyTimeout)
        // Read before anything is written: a newer or damaged file must be left untouched.
        let version = try Register.schemaVersion(of: db, path: path, waited: busyTimeout)
        let migrating = { [db] in try Register.migrate(db, from: version, path: path) }
        try Register.translating(path, waited: busyTimeout, otherwise: Register.opening, migrating)
        if !db.isReadOnly {
            do {
                try FileManager.default.createDirectory(atPath: photosFolder, withIntermediateDirectories: true)
            } catch {
                throw RegisterError(photosFolder, .storage(detail: "cannot create the photo folder (\(error.localizedDescription))"))
            }
        }
        reconciliation = try reconcile()
    }

    /// The schema version of the register open on `db` at `path`, checked whole first: a
    /// damaged file, another application's database, or a version no fieldrig writes or this
    /// one knows is refused before anything is written to or beside it.
    static func schemaVersion(of db: SQLiteConnection, path: String, waited busyTimeout: Int) throws(RegisterError) -> Int {
        let reading = { () throws -> Int in
            let version = try db.query("PRAGMA user_version").first?.int("user_version") ?? 0
            let check = try db.query("PRAGMA quick_check").first?.text("quick_check") ?? "ok"
            guard check == "ok" else { throw RegisterError(path, .corrupt(detail: check)) }
            // A database with tables but no register schema is another application's: refused
            // before anything (WAL mode, a table, a photo folder) is written to or beside it.
            if version == 0, let tables = try db.query("SELECT count(*) AS n FROM sqlite_master").first?.int("n"), tables > 0 {
                throw RegisterError(
                    path, .cannotOpen(detail: "another application's SQLite database, not a register; it was left as it was"))
            }
            return version
        }
        let version = try Register.translating(path, waited: busyTimeout, otherwise: Register.opening, reading)
        // SQLite keeps any 32-bit number as the version; a negative one no fieldrig writes.
        guard version >= 0 else {
            throw RegisterError(path, .corrupt(detail: "schema version \(version), which no fieldrig writes"))
        }
        guard version <= Schema.migrations.count else {
            throw RegisterError(path, .newerSchema(found: version, known: Schema.migrations.count))
        }
        return version
    }

    /// What a failure opening a register is, where it is no SQLite one.
    static func opening(_ detail: String) -> RegisterError.Kind { .cannotOpen(detail: detail) }

    /// Sets the register open on `db` up for use (WAL, full syncs and foreign keys where it is
    /// written) and brings its schema from `version` to the newest.
    static func migrate(_ db: SQLiteConnection, from version: Int, path: String) throws {
        if !db.isReadOnly {
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = FULL")
        }
        try db.execute("PRAGMA foreign_keys = ON")
        guard version < Schema.migrations.count else { return }
        guard !db.isReadOnly else {
            throw RegisterError(
                path, .invalid(detail: "the register is at schema \(version) and needs upgrading; open it for writing once"))
        }
        // Every pending migration in one transaction: one flush to disk, and a crash leaves the
        // file at its old version or the new one, never between.
        try db.transaction {
            for sql in Schema.migrations[version...] { try db.execute(sql) }
            try db.execute("PRAGMA user_version = \(Schema.migrations.count)")
        }
    }

    /// Refuses a file that exists, is not empty, and does not start as an SQLite database does.
    static func checkHeader(_ path: String) throws(RegisterError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }  // missing: will be created
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return }
        guard header == Data("SQLite format 3\0".utf8) else { throw RegisterError(path, .notARegister) }
    }

    static func map(_ failure: SQLiteFailure, path: String, waited: Int) -> RegisterError {
        if failure.isBusy { return RegisterError(path, .locked(waitedMilliseconds: waited)) }
        if failure.isCorrupt { return RegisterError(path, .corrupt(detail: failure.message)) }
        if failure.isReadOnly { return RegisterError(path, .readOnly) }
        if failure.isFull { return RegisterError(path, .storage(detail: "the disk is full: free some space and try again")) }
        return RegisterError(path, .cannotOpen(detail: failure.description))
    }

    /// Runs `body` holding the lock, mapping SQLite failures to register errors.
    @discardableResult
    func locked<T>(_ body: () throws -> T) throws(RegisterError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try Register.translating(path, waited: busyTimeout, otherwise: { .invalid(detail: $0) }, body)
    }

    /// Runs `body`, passing register errors through, mapping SQLite failures, and wrapping
    /// anything else as `otherwise` says.
    @discardableResult
    static func translating<T>(
        _ path: String, waited: Int, otherwise: (String) -> RegisterError.Kind, _ body: () throws -> T
    ) throws(RegisterError) -> T {
        do {
            return try body()
        } catch let error as RegisterError {
            throw error
        } catch let failure as SQLiteFailure {
            throw map(failure, path: path, waited: waited)
        } catch {
            throw RegisterError(path, otherwise("\(error)"))
        }
    }

    /// Whether the register can be written.
    public var isReadOnly: Bool { db.isReadOnly }

    // MARK: - Settings

    public func settings() throws(RegisterError) -> RegisterSettings {
        try locked { try readSettings() }
    }

    func readSettings() throws -> RegisterSettings {
        var values: [String: String] = [:]
        for row in try db.query("SELECT key, value FROM settings") { values[row.text("key")] = row.text("value") }
        return RegisterSettings(
            actorName: values["actor_name"].flatMap { $0.isEmpty ? nil : $0 },
            registerID: values["register_id"] ?? "",
            tagKey: values["tag_key"].flatMap { hexBytes(strict: $0) } ?? [],
            storageCeiling: values["storage_ceiling"].flatMap(Int.init) ?? Register.defaultStorageCeiling)
    }

    /// 512 MiB: the ceiling when none is set.
    public static let defaultStorageCeiling = 512 << 20

    /// The actor's name, written into every audit entry from now on; nil or empty makes them unsigned.
    public func setActorName(_ name: String?, at time: Timestamp) throws(RegisterError) {
        try locked {
            let old = try readSettings().actorName
            let new = normalisedActorName(name)
            guard old != new else { return }
            try db.transaction {
                try setSetting("actor_name", new ?? "")
                // The change of name is signed by the name it changes to.
                try audit(at: time, actor: new, entity: "settings", key: "actor", field: "name", old: old, new: new)
            }
        }
    }

    /// The most bytes the register and its photographs may take.
    public func setStorageCeiling(_ bytes: Int, at time: Timestamp) throws(RegisterError) {
        try locked {
            let old = try readSettings()
            try db.transaction {
                try setSetting("storage_ceiling", String(bytes))
                try audit(
                    at: time, actor: old.actorName, entity: "settings", key: "storage", field: "ceiling", old: String(old.storageCeiling),
                    new: String(bytes))
            }
        }
    }

    func setSetting(_ key: String, _ value: String) throws {
        try db.query("INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
    }

    // MARK: - Audit

    func audit(at time: Timestamp, actor: String?, entity: String, key: String, field: String, old: String?, new: String?) throws {
        try db.query(
            "INSERT INTO audit(at, actor, entity, key, field, old_value, new_value) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [time.milliseconds, actor, entity, key, field, old, new])
    }

    /// The audit entries about one asset (its fields, its stamps, its captures), oldest first.
    public func history(tag: String) throws(RegisterError) -> [AuditEntry] {
        try locked {
            try db.query("SELECT * FROM audit WHERE entity = 'asset' AND key = ? ORDER BY id", [tag]).map(Register.auditEntry)
        }
    }

    /// The whole audit trail, oldest first.
    public func auditTrail() throws(RegisterError) -> [AuditEntry] {
        try locked { try db.query("SELECT * FROM audit ORDER BY id").map(Register.auditEntry) }
    }

    static func auditEntry(_ row: SQLRow) -> AuditEntry {
        AuditEntry(
            id: row.int("id"), at: Timestamp(milliseconds: Int64(row.int("at"))), actor: row.optionalText("actor"),
            entity: row.text("entity"),
            key: row.text("key"), field: row.text("field"), oldValue: row.optionalText("old_value"), newValue: row.optionalText("new_value")
        )
    }

    // MARK: - Integrity

    /// SQLite's full integrity check: "ok", or what is wrong.
    /// Writes everything in the write-ahead log into the file itself.
    public func checkpoint() throws(RegisterError) {
        try locked { _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    public func integrityCheck() throws(RegisterError) -> String {
        try locked { try db.query("PRAGMA integrity_check").map { $0.text("integrity_check") }.joined(separator: "; ") }
    }

    /// How many of each thing the register holds.
    public func counts() throws(RegisterError) -> RegisterCounts {
        try locked {
            func count(_ sql: String) throws -> Int { try db.query(sql).first?.int("n") ?? 0 }
            return RegisterCounts(
                assets: try count("SELECT count(*) AS n FROM assets"),
                walkRound: try count("SELECT count(*) AS n FROM walk_round"),
                stamps: try count("SELECT count(*) AS n FROM stamps WHERE outcome = 'recorded'"),
                refusedStamps: try count("SELECT count(*) AS n FROM stamps WHERE outcome = 'refused'"),
                captures: try count("SELECT count(*) AS n FROM captures"),
                queueRows: try count("SELECT count(*) AS n FROM upload_queue"),
                auditEntries: try count("SELECT count(*) AS n FROM audit"))
        }
    }

    /// Bytes the register takes now: its database pages and its photographs.
    func storageUsed() throws -> Int {
        let pages = try db.query("PRAGMA page_count").first?.int("page_count") ?? 0
        let size = try db.query("PRAGMA page_size").first?.int("page_size") ?? 4096
        let photos = try db.query("SELECT coalesce(sum(bytes), 0) AS n FROM captures").first?.int("n") ?? 0
        return pages * size + photos
    }
}

/// The claim one process holds on a register it writes: a POSIX lock on `PATH-lock`, taken when
/// the first `Register` for the path opens in this process and given up when the last closes.
/// Another process that tries is refused at once: a register is used by one process at a time.
enum ProcessLock {
    private static let held = Locked([String: (fd: Int32, count: Int)]())

    /// Takes the claim, or counts one more holder in this process; false when another process has it.
    static func acquire(_ path: String) -> Bool {
        held.withLock { table in
            if var entry = table[path] {
                entry.count += 1
                table[path] = entry
                return true
            }
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            // A folder where no lock file can be made cannot hold a written register either:
            // opening goes on and reports what fails there.
            guard fd >= 0 else { return true }
            guard lockf(fd, F_TLOCK, 0) == 0 else {
                close(fd)
                return false
            }
            table[path] = (fd, 1)
            return true
        }
    }

    /// One holder fewer; the claim is given up with the last.
    static func release(_ path: String) {
        held.withLock { table in
            guard var entry = table[path] else { return }
            entry.count -= 1
            if entry.count == 0 {
                close(entry.fd)
                table[path] = nil
            } else {
                table[path] = entry
            }
        }
    }
}
