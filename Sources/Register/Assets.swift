import Foundation
import Model

extension Register {
    /// Every asset, by tag.
    public func assets() throws(RegisterError) -> [Asset] {
        try locked { try db.query(Register.assetSelect + " ORDER BY a.tag").map(Register.asset) }
    }

    /// The asset with `tag`, or nil.
    public func asset(tag: String) throws(RegisterError) -> Asset? {
        try locked { try db.query(Register.assetSelect + " WHERE a.tag = ?", [tag]).first.map(Register.asset) }
    }

    static let assetSelect = """
        SELECT a.tag, a.name, a.serial, a.model, a.state, a.synced, s.name AS site, p.name AS person, v.name AS vendor,
               g.reference AS agreement
        FROM assets a LEFT JOIN sites s ON s.id = a.site_id LEFT JOIN people p ON p.id = a.person_id
        LEFT JOIN vendors v ON v.id = a.vendor_id LEFT JOIN agreements g ON g.id = a.agreement_id
        """

    static func asset(_ row: SQLRow) -> Asset {
        Asset(
            tag: row.text("tag"), name: row.text("name"), serial: row.optionalText("serial"), model: row.optionalText("model"),
            state: AssetState(rawValue: row.text("state")) ?? .inService, site: row.optionalText("site"),
            person: row.optionalText("person"),
            vendor: row.optionalText("vendor"), agreement: row.optionalText("agreement"), synced: row.int("synced") != 0)
    }

    /// Adds an asset, signed by the actor, with an audit entry for each field it sets.
    public func addAsset(_ asset: Asset, at time: Timestamp) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction { try insertAsset(asset, actor: actor, at: time) }
        }
    }

    func insertAsset(_ asset: Asset, actor: String?, at time: Timestamp) throws {
        guard !asset.tag.isEmpty, !asset.name.isEmpty else {
            throw RegisterError(path, .invalid(detail: "an asset needs a tag and a name"))
        }
        guard try db.query("SELECT 1 AS one FROM assets WHERE tag = ?", [asset.tag]).isEmpty else {
            throw RegisterError(path, .invalid(detail: "an asset with the tag \(asset.tag) is already in the register"))
        }
        try db.query(
            """
            INSERT INTO assets(tag, name, serial, model, state, site_id, person_id, vendor_id, agreement_id, synced)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                asset.tag, asset.name, asset.serial, asset.model, asset.state.rawValue, try id(in: "sites", "name", asset.site),
                try id(in: "people", "name", asset.person), try id(in: "vendors", "name", asset.vendor),
                try id(in: "agreements", "reference", asset.agreement), asset.synced,
            ])
        for (field, value) in Register.trackedFields(asset) where value != nil {
            try audit(at: time, actor: actor, entity: "asset", key: asset.tag, field: field, old: nil, new: value)
        }
    }

    /// The fields the audit trail tracks, in the order a history shows them.
    static func trackedFields(_ asset: Asset) -> [(String, String?)] {
        [
            ("name", asset.name), ("serial", asset.serial), ("model", asset.model), ("state", asset.state.rawValue), ("site", asset.site),
            ("person", asset.person), ("vendor", asset.vendor), ("agreement", asset.agreement),
        ]
    }

    /// The id of the row named `value` in `table`, adding it when new; nil for nil.
    func id(in table: String, _ column: String, _ value: String?) throws -> Int? {
        guard let value else { return nil }
        if let row = try db.query("SELECT id FROM \(table) WHERE \(column) = ?", [value]).first { return row.int("id") }
        try db.query("INSERT INTO \(table)(\(column)) VALUES (?)", [value])
        return db.lastInsertID
    }

    /// Changes one field of an asset (name, serial, model, state, site, person, vendor or
    /// agreement), with an audit entry holding the old and new values.
    public func updateAsset(tag: String, field: String, to value: String?, at time: Timestamp) throws(RegisterError) {
        try locked {
            guard var asset = try db.query(Register.assetSelect + " WHERE a.tag = ?", [tag]).first.map(Register.asset) else {
                throw RegisterError(path, .unknownAsset(tag: tag))
            }
            let old = Register.trackedFields(asset).first { $0.0 == field }
            guard let old else { throw RegisterError(path, .invalid(detail: "'\(field)' is not a field of an asset")) }
            guard old.1 != value else { return }
            switch field {
            case "name":
                guard let value, !value.isEmpty else { throw RegisterError(path, .invalid(detail: "an asset needs a name")) }
                asset.name = value
            case "serial": asset.serial = value
            case "model": asset.model = value
            case "state":
                guard let state = value.flatMap(AssetState.init(rawValue:)) else {
                    throw RegisterError(
                        path, .invalid(detail: "state is one of \(AssetState.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                asset.state = state
            case "site": asset.site = value
            case "person": asset.person = value
            case "vendor": asset.vendor = value
            default: asset.agreement = value
            }
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query(
                    """
                    UPDATE assets SET name = ?, serial = ?, model = ?, state = ?, site_id = ?, person_id = ?, vendor_id = ?, agreement_id = ?
                    WHERE tag = ?
                    """,
                    [
                        asset.name, asset.serial, asset.model, asset.state.rawValue, try id(in: "sites", "name", asset.site),
                        try id(in: "people", "name", asset.person), try id(in: "vendors", "name", asset.vendor),
                        try id(in: "agreements", "reference", asset.agreement), tag,
                    ])
                try audit(at: time, actor: actor, entity: "asset", key: tag, field: field, old: old.1, new: value)
            }
        }
    }

    /// Marks an asset as on the Mac (photographs of it may be queued from now on).
    public func markSynced(tag: String, at time: Timestamp) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                try db.query("UPDATE assets SET synced = 1 WHERE tag = ? AND synced = 0", [tag])
                if db.changes > 0 { try audit(at: time, actor: actor, entity: "asset", key: tag, field: "synced", old: "no", new: "yes") }
            }
        }
    }

    // MARK: - Walk-round

    /// The assets due on the walk-round, in order, each with the reason it is on the list.
    public func walkRound() throws(RegisterError) -> [WalkRoundItem] {
        try locked {
            try db.query(
                Register.assetSelect.replacingOccurrences(of: "SELECT a.tag", with: "SELECT w.reason, a.tag")
                    .replacingOccurrences(of: "FROM assets a", with: "FROM walk_round w JOIN assets a ON a.id = w.asset_id")
                    + " ORDER BY w.position"
            ).map { WalkRoundItem(asset: Register.asset($0), reason: $0.text("reason")) }
        }
    }

    /// Puts an asset on the walk-round with the reason it is due, in the register's words.
    public func addToWalkRound(tag: String, reason: String) throws(RegisterError) {
        try locked {
            guard let id = try db.query("SELECT id FROM assets WHERE tag = ?", [tag]).first?.int("id") else {
                throw RegisterError(path, .unknownAsset(tag: tag))
            }
            try db.transaction {
                let position = try db.query("SELECT coalesce(max(position), 0) + 1 AS n FROM walk_round").first?.int("n") ?? 1
                try db.query("INSERT OR REPLACE INTO walk_round(asset_id, reason, position) VALUES (?, ?, ?)", [id, reason, position])
            }
        }
    }

    // MARK: - Stamps

    /// Records a verification of the asset with `tag`, offline (VERIFY-4). Never throws: a
    /// verification that cannot be recorded comes back as a refusal the card shows; for a damaged
    /// register or a failed write, `lastFailure` keeps SQLite's words and code for the log.
    public func recordVerification(tag: String, at time: Timestamp) -> StampOutcome {
        lock.withLock { recordingVerification(tag: tag, at: time) }
    }

    /// `recordVerification`, with the register's lock held.
    private func recordingVerification(tag: String, at time: Timestamp) -> StampOutcome {
        if db.isReadOnly { return .refused(.readOnly) }
        do {
            guard let row = try db.query("SELECT id, state FROM assets WHERE tag = ?", [tag]).first else { return .refused(.unknownAsset) }
            let settings = try readSettings()
            let actor = settings.actorName
            if row.text("state") == AssetState.disposed.rawValue {
                try db.transaction {
                    try db.query(
                        "INSERT INTO stamps(asset_id, at, actor, outcome, refusal) VALUES (?, ?, ?, 'refused', ?)",
                        [row.int("id"), time.milliseconds, actor, StampRefusal.assetDisposed.rawValue])
                }
                return .refused(.assetDisposed)
            }
            if try storageUsed() >= settings.storageCeiling { return .refused(.storageFull) }
            let stamp = try db.transaction { () throws -> Stamp in
                let previous = try db.query(
                    "SELECT max(at) AS at FROM stamps WHERE asset_id = ? AND outcome = 'recorded'", [row.int("id")]
                ).first?.optionalInt("at")
                try db.query(
                    "INSERT INTO stamps(asset_id, at, actor, outcome) VALUES (?, ?, ?, 'recorded')",
                    [row.int("id"), time.milliseconds, actor])
                let id = db.lastInsertID
                try audit(
                    at: time, actor: actor, entity: "asset", key: tag, field: "verified",
                    old: previous.map { Timestamp(milliseconds: Int64($0)).iso8601 }, new: time.iso8601)
                return Stamp(id: id, tag: tag, at: time, actor: actor)
            }
            return .recorded(stamp)
        } catch let failure as SQLiteFailure {
            let refusal = StampRefusal(failure)
            if refusal == .damaged || refusal == .writeFailed { lastFailure = failure.description }
            return .refused(refusal)
        } catch {
            lastFailure = "\(error)"
            return .refused(.writeFailed)
        }
    }

    /// The recorded stamps, oldest first; of one asset when `tag` is given.
    public func stamps(tag: String? = nil) throws(RegisterError) -> [Stamp] {
        try locked {
            try db.query(
                """
                SELECT s.id, a.tag, s.at, s.actor FROM stamps s JOIN assets a ON a.id = s.asset_id
                WHERE s.outcome = 'recorded' AND (? IS NULL OR a.tag = ?) ORDER BY s.id
                """, [tag, tag]
            ).map {
                Stamp(
                    id: $0.int("id"), tag: $0.text("tag"), at: Timestamp(milliseconds: Int64($0.int("at"))), actor: $0.optionalText("actor")
                )
            }
        }
    }
}

extension StampRefusal {
    /// The refusal a failure from SQLite means: each kind its own, none taken for another.
    init(_ failure: SQLiteFailure) {
        if failure.isBusy {
            self = .locked
        } else if failure.isReadOnly {
            self = .readOnly
        } else if failure.isFull {
            self = .storageFull
        } else if failure.isCorrupt {
            self = .damaged
        } else {
            self = .writeFailed
        }
    }
}
