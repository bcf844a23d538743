import Durable
import Foundation
import Model

extension Register {
    /// Queues a kept capture (QUEUE-1: kept first, queued second), or records why it stays kept
    /// on the phone: its asset is not synced yet, there is no queue (no Mac paired), or the
    /// storage ceiling refuses the file. Returns the reason it stays, or nil once queued.
    @discardableResult
    public func queue(_ capture: Capture, at time: Timestamp) throws(RegisterError) -> KeptReason? {
        try locked {
            guard let row = try db.query(Register.captureSelect + " WHERE c.id = ?", [capture.id]).first.map(Register.capture) else {
                throw RegisterError(path, .invalid(detail: "no capture \(capture.id)"))
            }
            if try !db.query("SELECT 1 AS one FROM upload_queue WHERE capture_id = ?", [row.id]).isEmpty { return nil }
            let reason = try keptReason(row)
            let actor = try readSettings().actorName
            try db.transaction {
                if let reason {
                    try db.query("UPDATE captures SET kept_reason = ? WHERE id = ?", [reason.rawValue, row.id])
                } else {
                    try db.query("UPDATE captures SET kept_reason = NULL WHERE id = ?", [row.id])
                    try db.query(
                        "INSERT INTO upload_queue(capture_id, state, updated_at) VALUES (?, 'going up', ?)", [row.id, time.milliseconds])
                    try audit(
                        at: time, actor: actor, entity: row.tag == nil ? "capture" : "asset", key: row.tag ?? row.file, field: "queued",
                        old: nil, new: row.file)
                }
            }
            return reason
        }
    }

    /// An asset (`a`) whose photographs wait for the register to be handed over: not on the Mac,
    /// and no offer that carried it is over yet.
    static let awaitingHandover = """
        a.synced != 1 AND NOT EXISTS (
            SELECT 1 FROM transfers t WHERE t.id = a.offered_in AND t.state = 'no longer waiting')
        """

    func keptReason(_ capture: Capture) throws -> KeptReason? {
        if capture.keptReason == .foundOnPhone, capture.tag == nil { return .foundOnPhone }
        if let tag = capture.tag {
            // An asset not in the register at all is not on the Mac either.
            let row = try db.query("SELECT (\(Register.awaitingHandover)) AS waiting FROM assets a WHERE a.tag = ?", [tag]).first
            if row.map({ $0.int("waiting") == 1 }) ?? true { return .assetNotSynced }
        }
        if try db.query("SELECT 1 AS one FROM pairing").isEmpty { return .noQueue }
        let queued =
            try db.query(
                "SELECT coalesce(sum(c.bytes), 0) AS n FROM upload_queue q JOIN captures c ON c.id = q.capture_id WHERE q.state != 'done'"
            ).first?.int("n") ?? 0
        if queued + capture.bytes > (try readSettings().storageCeiling) { return .storageCeiling }
        return nil
    }

    /// Tries again to queue every capture kept on the phone (after pairing, a sync, or room made).
    public func queueKept(at time: Timestamp) throws(RegisterError) {
        let queued = Set(try queueRows().map(\.capture.id))
        for capture in try captures() where !queued.contains(capture.id) {
            try queue(capture, at: time)
        }
    }

    /// The queue row of a capture, if it has one.
    public func queueRow(for capture: Capture) throws(RegisterError) -> QueueRow? {
        try queueRows().first { $0.capture.id == capture.id }
    }

    /// Every queue row, oldest first.
    public func queueRows() throws(RegisterError) -> [QueueRow] {
        let files = Set(Register.listFolder(photosFolder))
        return try locked {
            try db.query(
                Register.captureSelect.replacingOccurrences(
                    of: "SELECT c.id", with: "SELECT q.id AS qid, q.state, q.problem, q.attempts, c.id"
                )
                .replacingOccurrences(of: "FROM captures c", with: "FROM upload_queue q JOIN captures c ON c.id = q.capture_id")
                    + " ORDER BY q.id"
            ).map {
                let capture = Register.capture($0)
                return QueueRow(
                    id: $0.int("qid"), capture: capture, state: QueueRow.State(rawValue: $0.text("state")) ?? .goingUp,
                    problem: $0.optionalText("problem").flatMap(QueueProblem.init(rawValue:)), attempts: $0.int("attempts"),
                    fileMissing: !files.contains(capture.file))
            }
        }
    }

    /// The next row to push: the oldest going up. One at a time (QUEUE-5).
    public func nextUpload() throws(RegisterError) -> QueueRow? {
        try queueRows().first { $0.state == .goingUp }
    }

    /// Marks a row done, only if the Mac confirmed the whole file: the same size and digest.
    /// A different file counts as an attempt; after three it stops and needs a decision.
    @discardableResult
    public func confirmUpload(_ row: QueueRow, receivedBytes: Int, receivedSHA256: String, at time: Timestamp) throws(RegisterError)
        -> QueueRow.State
    {
        try locked {
            let whole = receivedBytes == row.capture.bytes && receivedSHA256 == row.capture.sha256
            let attempts = row.attempts + 1
            let state: QueueRow.State = whole ? .done : attempts >= 3 ? .needsDecision : .goingUp
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query(
                    "UPDATE upload_queue SET state = ?, problem = ?, attempts = ?, updated_at = ? WHERE id = ?",
                    [
                        state.rawValue, state == .needsDecision ? QueueProblem.receivedDifferently.rawValue : nil, attempts,
                        time.milliseconds, row.id,
                    ])
                if whole {
                    try audit(
                        at: time, actor: actor, entity: row.capture.tag == nil ? "capture" : "asset",
                        key: row.capture.tag ?? row.capture.file, field: "sent", old: nil, new: row.capture.file)
                }
            }
            return state
        }
    }

    /// Stops a row: it needs the person to decide (retry, or remove it).
    public func stopUpload(_ row: QueueRow, problem: QueueProblem, at time: Timestamp) throws(RegisterError) {
        try locked {
            try db.query(
                "UPDATE upload_queue SET state = 'needs decision', problem = ?, updated_at = ? WHERE id = ?",
                [problem.rawValue, time.milliseconds, row.id])
        }
    }

    /// The person's choice: try a stopped row again.
    public func retryUpload(_ row: QueueRow, at time: Timestamp) throws(RegisterError) {
        try locked {
            try db.query(
                "UPDATE upload_queue SET state = 'going up', problem = NULL, attempts = 0, updated_at = ? WHERE id = ? AND state = 'needs decision'",
                [time.milliseconds, row.id])
        }
    }

    /// The person's choice, confirmed: remove a stopped row and its photograph from the phone.
    public func removeUpload(_ row: QueueRow, confirmed: Bool, at time: Timestamp) throws(RegisterError) {
        guard confirmed else { throw RegisterError(path, .invalid(detail: "removing a photograph needs the person's confirmation")) }
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query("DELETE FROM upload_queue WHERE id = ?", [row.id])
                try db.query("DELETE FROM captures WHERE id = ?", [row.capture.id])
                try audit(
                    at: time, actor: actor, entity: row.capture.tag == nil ? "capture" : "asset", key: row.capture.tag ?? row.capture.file,
                    field: "photograph removed", old: row.capture.file, new: nil)
            }
        }
        unlink("\(photosFolder)/\(row.capture.file)")
    }

    /// The three counts, from the register and the files on disk: a row going up whose file is
    /// gone needs a decision; a photo file on disk with no capture row is kept on the phone.
    /// Computed in SQL and one folder listing, so it stays well under a frame's time.
    public func queueCounts() throws(RegisterError) -> QueueCounts {
        let files = Set(Register.listFolder(photosFolder).filter { !$0.hasSuffix(".partial") })
        return try locked {
            var counts = QueueCounts(goingUp: 0, needDecision: 0, kept: 0)
            var recordedOnDisk = 0
            try db.forEachPair("SELECT c.file, q.state FROM captures c LEFT JOIN upload_queue q ON q.capture_id = c.id") { file, state in
                let present = files.contains(file)
                if present { recordedOnDisk += 1 }
                switch state {
                case nil: counts.kept += 1
                case QueueRow.State.goingUp.rawValue?: if present { counts.goingUp += 1 } else { counts.needDecision += 1 }
                case QueueRow.State.needsDecision.rawValue?: counts.needDecision += 1
                default: break
                }
            }
            counts.kept += files.count - recordedOnDisk
            return counts
        }
    }

    /// Whether any capture is kept for this reason.
    public func hasKept(_ reason: KeptReason) throws(RegisterError) -> Bool {
        try locked { try !db.query("SELECT 1 AS one FROM captures WHERE kept_reason = ? LIMIT 1", [reason.rawValue]).isEmpty }
    }

    /// Whether a photograph is kept, not queued, because its asset has not reached the Mac yet (now).
    public func keptForUnsyncedAsset() throws(RegisterError) -> Bool {
        try locked {
            try !db.query(
                """
                SELECT 1 AS one FROM captures c JOIN assets a ON a.id = c.asset_id LEFT JOIN upload_queue q ON q.capture_id = c.id
                WHERE q.id IS NULL AND \(Register.awaitingHandover) LIMIT 1
                """
            ).isEmpty
        }
    }

    /// Whether the storage ceiling refuses a kept photograph now: one was kept for it, and queueing
    /// it would still go over (QUEUE-3: never a stale reason).
    public func ceilingRefusesNow() throws(RegisterError) -> Bool {
        try locked {
            let kept = try db.query(Register.captureSelect + " WHERE c.kept_reason = ?", [KeptReason.storageCeiling.rawValue]).map(
                Register.capture)
            return try kept.contains { try keptReason($0) == .storageCeiling }
        }
    }

    /// The names in a folder, read straight from the directory.
    static func listFolder(_ folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: - Pairing

    /// The paired Mac, if any.
    public func pairing() throws(RegisterError) -> Pairing? {
        try locked {
            try db.query("SELECT * FROM pairing").first.map {
                Pairing(
                    macName: $0.text("mac_name"), address: $0.text("address"), fingerprint: $0.text("fingerprint"),
                    pairedAt: Timestamp(milliseconds: Int64($0.int("paired_at"))))
            }
        }
    }

    /// Records the paired Mac and the certificate fingerprint pinned for it (HANDOVER-1).
    public func pair(_ pairing: Pairing) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query(
                    "INSERT OR REPLACE INTO pairing(id, mac_name, address, fingerprint, paired_at) VALUES (1, ?, ?, ?, ?)",
                    [pairing.macName, pairing.address, pairing.fingerprint, pairing.pairedAt.milliseconds])
                try audit(
                    at: pairing.pairedAt, actor: actor, entity: "settings", key: "pairing", field: "mac", old: nil, new: pairing.macName)
            }
        }
    }

    /// Forgets the paired Mac.
    public func unpair(at time: Timestamp) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            let old = try db.query("SELECT mac_name FROM pairing").first?.text("mac_name")
            try db.transaction {
                try db.query("DELETE FROM pairing")
                if let old { try audit(at: time, actor: actor, entity: "settings", key: "pairing", field: "mac", old: old, new: nil) }
            }
        }
    }
}

/// The Mac this phone is paired with.
extension Register {
    /// The phones this register's Mac has pinned (PAIR-3), oldest first.
    public func pairedPhones() throws(RegisterError) -> [PairedPhone] {
        try locked {
            try db.query("SELECT * FROM paired_phones ORDER BY paired_at, fingerprint").map {
                PairedPhone(
                    fingerprint: $0.text("fingerprint"), name: $0.text("name"),
                    pairedAt: Timestamp(milliseconds: Int64($0.int("paired_at"))))
            }
        }
    }

    /// Pins a phone's certificate on the Mac's side, once its person confirmed the comparison number.
    public func pinPhone(_ phone: PairedPhone) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query(
                    "INSERT OR REPLACE INTO paired_phones(fingerprint, name, paired_at) VALUES (?, ?, ?)",
                    [phone.fingerprint, phone.name, phone.pairedAt.milliseconds])
                try audit(at: phone.pairedAt, actor: actor, entity: "settings", key: "pairing", field: "phone", old: nil, new: phone.name)
            }
        }
    }

    /// Unpins a phone on the Mac's side: a pairing its phone called off before it finished.
    public func unpinPhone(_ fingerprint: String, at now: Timestamp) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                guard let name = try db.query("SELECT name FROM paired_phones WHERE fingerprint = ?", [fingerprint]).first?.text("name")
                else { return }
                _ = try db.query("DELETE FROM paired_phones WHERE fingerprint = ?", [fingerprint])
                try audit(at: now, actor: actor, entity: "settings", key: "pairing", field: "phone", old: name, new: nil)
            }
        }
    }

    /// The phone's own certificate and key, as PEM, if one was made (PAIR-3). It is a secret as the
    /// tag key is: the register file is what protects both.
    public func phoneIdentityPEM() throws(RegisterError) -> String? {
        try locked { try db.query("SELECT value FROM settings WHERE key = 'phone_identity'").first?.text("value") }
    }

    /// Keeps the phone's certificate and key; the first one kept stays (a second call returns it).
    @discardableResult
    public func keepPhoneIdentityPEM(_ pem: String) throws(RegisterError) -> String {
        try locked {
            try db.transaction {
                try db.query("INSERT OR IGNORE INTO settings(key, value) VALUES ('phone_identity', ?)", [pem])
            }
            return try db.query("SELECT value FROM settings WHERE key = 'phone_identity'").first?.text("value") ?? pem
        }
    }
}
