import Durable
import Foundation
import Model

/// A register's starting contents, as Swift values (for tests and scenarios): built in one call.
public struct RegisterSeed: Sendable {
    public var registerID: String
    /// The tag key, as hex.
    public var tagKey: String
    public var actorName: String?
    public var storageCeiling: Int
    public var assets: [Asset]
    /// Tags due on the walk-round, in order, with the reason each is on the list.
    public var walkRound: [(tag: String, reason: String)]
    /// Agreements and their vendors (assets may also name agreements; these add the vendor).
    public var agreements: [(reference: String, vendor: String)]

    public init(
        registerID: String, tagKey: String, actorName: String? = nil, storageCeiling: Int = Register.defaultStorageCeiling,
        assets: [Asset] = [],
        walkRound: [(tag: String, reason: String)] = [], agreements: [(reference: String, vendor: String)] = []
    ) {
        self.registerID = registerID
        self.tagKey = tagKey
        self.actorName = actorName
        self.storageCeiling = storageCeiling
        self.assets = assets
        self.walkRound = walkRound
        self.agreements = agreements
    }

    /// A small office's register: a dozen machines across two sites, four on the walk-round.
    public static let demo = RegisterSeed(
        registerID: "REG-4F2A", tagKey: "6d616e69666573742d64656d6f2d7461672d6b65792d30303031", actorName: "Sam Rivera",
        assets: [
            Asset(
                tag: "MF-0001", name: "Reception iMac", serial: "C02XK1ZJJGH5", model: "iMac 24-inch", site: "Leeds office",
                person: "Ada Okafor", vendor: "Apple", agreement: "AC-2291"),
            Asset(
                tag: "MF-0002", name: "Finance laptop", serial: "7XK2M93", model: "Latitude 5420", site: "Leeds office", person: "Tom Reid",
                vendor: "Dell"),
            Asset(
                tag: "MF-0003", name: "Design laptop", serial: "5CG1234XYZ", model: "EliteBook 840 G8", site: "Leeds office",
                person: "Mia Chen", vendor: "HP"),
            Asset(
                tag: "MF-0004", name: "Core switch", serial: "FOC2245X0AB", model: "Catalyst 2960-X", site: "Leeds comms room",
                vendor: "Cisco", agreement: "SN-88120"),
            Asset(
                tag: "MF-0005", name: "Branch router", serial: "FDO2318M1QZ", model: "ISR 4331", site: "York office", vendor: "Cisco",
                agreement: "SN-88120"),
            Asset(
                tag: "MF-0006", name: "Comms UPS", serial: "AS2107123456", model: "Smart-UPS 1500", site: "Leeds comms room", vendor: "APC"),
            Asset(
                tag: "MF-0007", name: "File server", serial: "JD7QK73", model: "PowerEdge R740", site: "Leeds comms room", vendor: "Dell",
                agreement: "PS-1170"),
            Asset(
                tag: "MF-0008", name: "Old print server", serial: "4HBQZ83", model: "OptiPlex 7090", state: .disposed, site: "Leeds office",
                vendor: "Dell"),
            Asset(
                tag: "MF-0009", name: "Meeting room iPad", serial: "DMPF3K9LQ1GC", model: "iPad Air", site: "York office", vendor: "Apple"),
            Asset(tag: "MF-0010", name: "Office NAS", serial: "2040PDN123456", model: "DS920+", site: "York office", vendor: "Synology"),
            Asset(
                tag: "MF-0011", name: "Studio projector", serial: "X4RK1200345", model: "EB-992F", state: .inStorage, site: "Leeds office",
                vendor: "Epson"),
            Asset(
                tag: "MF-0012", name: "New starter laptop", model: "ThinkPad X1 Carbon", site: "York office", person: "Lee Park",
                vendor: "Lenovo", synced: false),
        ],
        walkRound: [
            ("MF-0004", "Quarterly check of the comms room"), ("MF-0006", "Battery due for replacement in December"),
            ("MF-0002", "Not seen since the office move"), ("MF-0008", "Listed for collection by the recycler"),
        ],
        agreements: [("AC-2291", "Apple"), ("SN-88120", "Cisco"), ("PS-1170", "Dell")])
}

extension Register {
    /// Fills an empty register from `seed`, all in one transaction, signed by the seed's actor.
    public func apply(_ seed: RegisterSeed, at time: Timestamp) throws(RegisterError) {
        try locked {
            guard try db.query("SELECT count(*) AS n FROM assets").first?.int("n") == 0 else {
                throw RegisterError(path, .invalid(detail: "a seed fills an empty register; this one already holds assets"))
            }
            guard let key = hexBytes(strict: seed.tagKey), key.count >= 16 else {
                throw RegisterError(path, .invalid(detail: "the tag key must be at least 16 bytes, as hex"))
            }
            try db.transaction {
                try setSetting("register_id", seed.registerID)
                try setSetting("tag_key", seed.tagKey)
                try setSetting("actor_name", seed.actorName ?? "")
                try setSetting("storage_ceiling", String(seed.storageCeiling))
                for agreement in seed.agreements {
                    let vendor = try id(in: "vendors", "name", agreement.vendor)
                    try db.query("INSERT OR IGNORE INTO agreements(reference, vendor_id) VALUES (?, ?)", [agreement.reference, vendor])
                }
                for asset in seed.assets { try insertAsset(asset, actor: seed.actorName, at: time) }
                for (position, item) in seed.walkRound.enumerated() {
                    guard let id = try db.query("SELECT id FROM assets WHERE tag = ?", [item.tag]).first?.int("id") else {
                        throw RegisterError(path, .unknownAsset(tag: item.tag))
                    }
                    try db.query("INSERT INTO walk_round(asset_id, reason, position) VALUES (?, ?, ?)", [id, item.reason, position + 1])
                }
            }
        }
    }
}

extension Register {
    /// Makes a new register at `path`, seeded, all or nothing: it is built beside the path and
    /// renamed into place only once complete, so a full disk or a crash leaves no half-made file
    /// in the way of a retry.
    public static func create(at path: String, seed: RegisterSeed?, at time: Timestamp) throws(RegisterError) {
        let building = path + ".creating"
        func clean() {
            for suffix in ["", "-wal", "-shm", "-journal", "-lock"] { unlink(building + suffix) }
            try? FileManager.default.removeItem(atPath: building + "-photos")
        }
        clean()
        do throws(RegisterError) {
            // Closed at the end of this block: the file is whole and checkpointed before the rename.
            do {
                let register = try Register(path: building)
                if let seed { try register.apply(seed, at: time) }
                try register.checkpoint()
            }
            guard rename(building, path) == 0 else {
                throw RegisterError(path, .storage(detail: "cannot put the new register in place (\(errnoDescription(errno)))"))
            }
            clean()
            // Its photo folder, beside it.
            _ = try Register(path: path)
        } catch {
            clean()
            // Named by the path the person gave, not the one it was being built at.
            throw RegisterError(path, error.kind)
        }
    }
}
