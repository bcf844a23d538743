/// The register's schema, as numbered migrations. Migration N brings a file from version N-1 to
/// N (SQLite's user_version); a file newer than the last one here is refused, never downgraded.
enum Schema {
    static let migrations: [String] = [
        // 1: the register, its walk-round, stamps, captures and queue, audit, pairing, transfers.
        """
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE sites (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE vendors (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE agreements (
            id INTEGER PRIMARY KEY, reference TEXT NOT NULL UNIQUE,
            vendor_id INTEGER REFERENCES vendors(id));
        CREATE TABLE assets (
            id INTEGER PRIMARY KEY,
            tag TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            serial TEXT,
            model TEXT,
            state TEXT NOT NULL CHECK (state IN ('in service', 'in storage', 'in repair', 'disposed')),
            site_id INTEGER REFERENCES sites(id),
            person_id INTEGER REFERENCES people(id),
            vendor_id INTEGER REFERENCES vendors(id),
            agreement_id INTEGER REFERENCES agreements(id),
            synced INTEGER NOT NULL DEFAULT 1);
        CREATE TABLE walk_round (
            asset_id INTEGER PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            position INTEGER NOT NULL);
        CREATE TABLE stamps (
            id INTEGER PRIMARY KEY,
            asset_id INTEGER NOT NULL REFERENCES assets(id),
            at INTEGER NOT NULL,
            actor TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('recorded', 'refused')),
            refusal TEXT);
        CREATE INDEX stamps_by_asset ON stamps(asset_id, at);
        CREATE TABLE captures (
            id INTEGER PRIMARY KEY,
            file TEXT NOT NULL UNIQUE,
            asset_id INTEGER REFERENCES assets(id),
            bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            taken_at INTEGER NOT NULL,
            actor TEXT,
            kept_reason TEXT);
        CREATE TABLE upload_queue (
            id INTEGER PRIMARY KEY,
            capture_id INTEGER NOT NULL UNIQUE REFERENCES captures(id) ON DELETE CASCADE,
            state TEXT NOT NULL CHECK (state IN ('going up', 'needs decision', 'done')),
            problem TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            updated_at INTEGER NOT NULL);
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            actor TEXT,
            entity TEXT NOT NULL,
            key TEXT NOT NULL,
            field TEXT NOT NULL,
            old_value TEXT,
            new_value TEXT);
        CREATE INDEX audit_by_key ON audit(entity, key, id);
        CREATE TABLE pairing (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            mac_name TEXT NOT NULL,
            address TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            paired_at INTEGER NOT NULL);
        CREATE TABLE transfers (
            id TEXT PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('waiting', 'no longer waiting')),
            offered_at INTEGER NOT NULL,
            asset_count INTEGER NOT NULL,
            summary TEXT NOT NULL);
        """,
        // 2: pairing is mutual (PAIR-3): the phones a Mac has pinned, by certificate fingerprint.
        """
        CREATE TABLE paired_phones (
            fingerprint TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            paired_at INTEGER NOT NULL);
        """,
        // 3: stored reasons are codes, not the sentences a person reads (those are the companion's).
        """
        UPDATE captures SET kept_reason = CASE kept_reason
            WHEN 'asset not synced yet' THEN 'asset-not-synced'
            WHEN 'no queue when the shutter fired' THEN 'no-queue'
            WHEN 'the storage ceiling refused the file' THEN 'storage-ceiling'
            WHEN 'found on the phone with no record' THEN 'found-on-phone'
            ELSE kept_reason END
        WHERE kept_reason IS NOT NULL;
        UPDATE upload_queue SET problem = CASE problem
            WHEN 'the Mac refused it' THEN 'mac-refused'
            WHEN 'the file is gone from this iPhone' THEN 'file-gone'
            WHEN 'it is too large to send' THEN 'too-large'
            WHEN 'the Mac received a different file' THEN 'received-differently'
            ELSE problem END
        WHERE problem IS NOT NULL;
        """,
        // 4: whether the Mac acknowledged a stored offer (an id kept but never received is not "with" it).
        """
        ALTER TABLE transfers ADD COLUMN acknowledged INTEGER NOT NULL DEFAULT 1;
        """,
        // 5: the last offer that carried an asset the Mac did not hold: once that offer is no
        // longer waiting, photographs of the asset go up on the queue (HANDOVER-3).
        """
        ALTER TABLE assets ADD COLUMN offered_in TEXT;
        """,
    ]
}
