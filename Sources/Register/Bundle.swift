import Foundation
import Model

/// The register as it is handed to a Mac (HANDOVER-2, HANDOVER-5): the assets and the sites,
/// people, vendors and agreements around them, in a versioned format, without photographs.
public struct RegisterBundle: Codable, Sendable, Equatable {
    public static let format = "manifest-register-bundle"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var registerID: String
    public var assets: [BundledAsset]
    public var sites: [String]
    public var people: [String]
    public var vendors: [String]
    public var agreements: [String]

    public struct BundledAsset: Codable, Sendable, Equatable {
        public var tag, name: String
        public var serial, model: String?
        public var state: String
        public var site, person, vendor, agreement: String?

        public init(
            tag: String, name: String, serial: String?, model: String?, state: String, site: String?, person: String?, vendor: String?,
            agreement: String?
        ) {
            (self.tag, self.name, self.serial, self.model, self.state) = (tag, name, serial, model, state)
            (self.site, self.person, self.vendor, self.agreement) = (site, person, vendor, agreement)
        }
    }

    public init(
        format: String, version: Int, registerID: String, assets: [BundledAsset], sites: [String], people: [String], vendors: [String],
        agreements: [String]
    ) {
        (self.format, self.version, self.registerID, self.assets) = (format, version, registerID, assets)
        (self.sites, self.people, self.vendors, self.agreements) = (sites, people, vendors, agreements)
    }

    /// "12 assets, 4 sites, 5 people, 10 vendors and 3 agreements".
    public var summary: String {
        func n(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        return "\(n(assets.count, "asset", "assets")), \(n(sites.count, "site", "sites")), \(n(people.count, "person", "people")), "
            + "\(n(vendors.count, "vendor", "vendors")) and \(n(agreements.count, "agreement", "agreements"))"
    }

    /// The bundle as bytes, and back; a bundle of another format or a newer version is refused.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(self)) ?? Data())
    }

    public static func decode(_ bytes: [UInt8]) -> RegisterBundle? {
        guard let bundle = try? JSONDecoder().decode(RegisterBundle.self, from: Data(bytes)), bundle.format == format,
            bundle.version <= currentVersion
        else { return nil }
        return bundle
    }
}

extension Register {
    /// The register as a bundle for the Mac. Reading only: nothing on the phone changes.
    public func bundle() throws(RegisterError) -> RegisterBundle {
        let assets = try assets()
        return try locked {
            RegisterBundle(
                format: RegisterBundle.format, version: RegisterBundle.currentVersion, registerID: try readSettings().registerID,
                assets: assets.map {
                    .init(
                        tag: $0.tag, name: $0.name, serial: $0.serial, model: $0.model, state: $0.state.rawValue, site: $0.site,
                        person: $0.person, vendor: $0.vendor, agreement: $0.agreement)
                },
                sites: try db.strings("SELECT name FROM sites ORDER BY name"),
                people: try db.strings("SELECT name FROM people ORDER BY name"),
                vendors: try db.strings("SELECT name FROM vendors ORDER BY name"),
                agreements: try db.strings("SELECT reference FROM agreements ORDER BY reference"))
        }
    }

    /// Writes a bundle the Mac's person accepted into this (the Mac's) register.
    public func take(_ bundle: RegisterBundle, at time: Timestamp) throws(RegisterError) {
        try locked {
            let actor = try readSettings().actorName
            try db.transaction {
                for asset in bundle.assets where try db.query("SELECT 1 AS one FROM assets WHERE tag = ?", [asset.tag]).isEmpty {
                    try insertAsset(
                        Asset(
                            tag: asset.tag, name: asset.name, serial: asset.serial, model: asset.model,
                            state: AssetState(rawValue: asset.state) ?? .inService, site: asset.site, person: asset.person,
                            vendor: asset.vendor, agreement: asset.agreement),
                        actor: actor, at: time)
                }
            }
        }
    }

    // MARK: - Transfers (HANDOVER-7)

    /// The stored offer, if any: its id and whether it is still waiting.
    public func currentTransfer() throws(RegisterError) -> Transfer? {
        try locked {
            try db.query("SELECT * FROM transfers ORDER BY offered_at DESC, rowid DESC LIMIT 1").first.map {
                Transfer(
                    id: $0.text("id"), waiting: $0.text("state") == "waiting",
                    offeredAt: Timestamp(milliseconds: Int64($0.int("offered_at"))), assetCount: $0.int("asset_count"),
                    summary: $0.text("summary"), acknowledged: $0.int("acknowledged") != 0)
            }
        }
    }

    /// Stores an offer's id before it is sent, so backing out or a restart resumes it.
    public func storeTransfer(_ transfer: Transfer) throws(RegisterError) {
        try locked {
            try db.transaction {
                try db.query(
                    "INSERT OR IGNORE INTO transfers(id, state, offered_at, asset_count, summary, acknowledged) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        transfer.id, transfer.waiting ? "waiting" : "no longer waiting", transfer.offeredAt.milliseconds,
                        transfer.assetCount, transfer.summary, transfer.acknowledged ? 1 : 0,
                    ])
                // The offer carries every asset: those the Mac did not hold are offered in it.
                if db.changes > 0 { try db.query("UPDATE assets SET offered_in = ? WHERE synced = 0", [transfer.id]) }
            }
        }
    }

    /// Records that the Mac answered that it holds the offer.
    public func acknowledgeTransfer(id: String) throws(RegisterError) {
        try locked { try db.query("UPDATE transfers SET acknowledged = 1 WHERE id = ?", [id]) }
    }

    /// Records that the Mac answered that it does not hold the offer.
    public func unacknowledgeTransfer(id: String) throws(RegisterError) {
        try locked { try db.query("UPDATE transfers SET acknowledged = 0 WHERE id = ?", [id]) }
    }

    /// Records that the offer is no longer waiting. Nothing else changes: the phone cannot tell
    /// accepted from declined or expired, and its register stays as it was (HANDOVER-8); the
    /// photographs of the assets it carried may now be queued (`queueKept`), and the Mac takes
    /// them.
    public func resolveTransfer(id: String) throws(RegisterError) {
        try locked { try db.query("UPDATE transfers SET state = 'no longer waiting' WHERE id = ?", [id]) }
    }
}
