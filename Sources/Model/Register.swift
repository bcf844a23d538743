// The register's vocabulary as plain values: what the SQLite register stores and the screens
// show, with no storage in sight.

/// Where an asset stands in its life.
public enum AssetState: String, Sendable, CaseIterable, Codable {
    case inService = "in service"
    case inStorage = "in storage"
    case inRepair = "in repair"
    case disposed
}

/// A machine in the register.
public struct Asset: Sendable, Hashable {
    public var tag: String
    public var name: String
    public var serial: String?
    public var model: String?
    public var state: AssetState
    public var site: String?
    public var person: String?
    public var vendor: String?
    public var agreement: String?
    /// Whether the Mac has this asset yet (a photograph of an unsynced asset waits to be queued).
    public var synced: Bool

    public init(
        tag: String, name: String, serial: String? = nil, model: String? = nil, state: AssetState = .inService, site: String? = nil,
        person: String? = nil, vendor: String? = nil, agreement: String? = nil, synced: Bool = true
    ) {
        self.tag = tag
        self.name = name
        self.serial = serial
        self.model = model
        self.state = state
        self.site = site
        self.person = person
        self.vendor = vendor
        self.agreement = agreement
        self.synced = synced
    }
}

/// An asset due on the walk-round, with the reason it is on the list in the register's words.
public struct WalkRoundItem: Sendable, Hashable {
    public var asset: Asset
    public var reason: String

    public init(asset: Asset, reason: String) {
        self.asset = asset
        self.reason = reason
    }
}

/// A verification recorded in the register.
public struct Stamp: Sendable, Hashable {
    public var id: Int
    public var tag: String
    public var at: Timestamp
    /// Nil when nobody's name was set: the stamp is unsigned.
    public var actor: String?

    public init(id: Int, tag: String, at: Timestamp, actor: String?) {
        self.id = id
        self.tag = tag
        self.at = at
        self.actor = actor
    }
}

/// Why a verification was not recorded. A value the walk-round card shows in the place the
/// confirmation would appear (VERIFY-4), never an exception lost in a log.
public enum StampRefusal: String, Sendable, Hashable, CaseIterable {
    case unknownAsset = "unknown asset"
    case assetDisposed = "asset disposed"
    case storageFull = "storage full"
    case readOnly = "read-only"
    case locked
    /// The register's file is damaged (SQLite found it corrupt).
    case damaged
    /// Any other failure to write: an I/O error, or one not classified.
    case writeFailed = "write failed"
}

/// What became of a verification: recorded, or refused with why.
public enum StampOutcome: Sendable, Hashable {
    case recorded(Stamp)
    case refused(StampRefusal)
}

/// One change in the audit trail: who, when, which field of what, from what to what.
public struct AuditEntry: Sendable, Hashable {
    public var id: Int
    public var at: Timestamp
    /// Nil for an unsigned entry (no actor's name was set).
    public var actor: String?
    /// What was changed: "asset", "stamp", "capture", "settings", ...
    public var entity: String
    /// Which one: an asset's tag, a capture's file.
    public var key: String
    /// The tracked field, e.g. "serial", "state", "verified".
    public var field: String
    public var oldValue: String?
    public var newValue: String?

    public init(
        id: Int, at: Timestamp, actor: String? = nil, entity: String, key: String, field: String, oldValue: String? = nil,
        newValue: String? = nil
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.entity = entity
        self.key = key
        self.field = field
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

/// The register's own settings.
public struct RegisterSettings: Sendable, Hashable {
    /// The name written into the audit trail; nil until provisioning sets it.
    public var actorName: String?
    /// This register's id, part of every asset tag's proof.
    public var registerID: String
    /// The key asset tags are proven with (HMAC-SHA-256).
    public var tagKey: [UInt8]
    /// The most bytes the register and its photographs may take on the phone.
    public var storageCeiling: Int

    public init(actorName: String? = nil, registerID: String, tagKey: [UInt8], storageCeiling: Int) {
        self.actorName = actorName
        self.registerID = registerID
        self.tagKey = tagKey
        self.storageCeiling = storageCeiling
    }
}

/// How many of each thing the register holds.
public struct RegisterCounts: Sendable, Hashable {
    public var assets: Int
    public var walkRound: Int
    public var stamps: Int
    public var refusedStamps: Int
    public var captures: Int
    public var queueRows: Int
    public var auditEntries: Int

    public init(assets: Int, walkRound: Int, stamps: Int, refusedStamps: Int, captures: Int, queueRows: Int, auditEntries: Int) {
        self.assets = assets
        self.walkRound = walkRound
        self.stamps = stamps
        self.refusedStamps = refusedStamps
        self.captures = captures
        self.queueRows = queueRows
        self.auditEntries = auditEntries
    }
}

/// Why a photograph is kept on the phone and not queued to send (QUEUE-2's third count).
/// The raw values are the codes the register stores; the words a person reads are the
/// companion's (`KeptReason.sentence`), so changing them changes no stored data.
public enum KeptReason: String, Sendable, Hashable, CaseIterable {
    case assetNotSynced = "asset-not-synced"
    case noQueue = "no-queue"
    case storageCeiling = "storage-ceiling"
    case foundOnPhone = "found-on-phone"
}

/// A photograph kept on the phone, and where it stands.
public struct Capture: Sendable, Hashable {
    public var id: Int
    /// The file's name inside the register's photo folder.
    public var file: String
    /// The asset it shows; nil for a photograph found on the phone with no record.
    public var tag: String?
    public var bytes: Int
    public var sha256: String
    public var takenAt: Timestamp
    public var actor: String?
    /// Why it is not queued; nil when it is queued, or not yet decided.
    public var keptReason: KeptReason?

    public init(
        id: Int, file: String, tag: String? = nil, bytes: Int, sha256: String, takenAt: Timestamp, actor: String? = nil,
        keptReason: KeptReason? = nil
    ) {
        self.id = id
        self.file = file
        self.tag = tag
        self.bytes = bytes
        self.sha256 = sha256
        self.takenAt = takenAt
        self.actor = actor
        self.keptReason = keptReason
    }
}

/// A row of the upload queue, and where it stands.
public struct QueueRow: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case goingUp = "going up"
        case needsDecision = "needs decision"
        case done
    }

    public var id: Int
    public var capture: Capture
    public var state: State
    /// Why it stopped, for a row that needs a decision: the Mac refused it, the file is gone, ...
    public var problem: QueueProblem?
    /// Whether its photograph is missing from the phone (a row going up without it cannot go).
    public var fileMissing: Bool = false
    public var attempts: Int

    public init(id: Int, capture: Capture, state: State, problem: QueueProblem? = nil, attempts: Int, fileMissing: Bool = false) {
        self.id = id
        self.capture = capture
        self.state = state
        self.problem = problem
        self.attempts = attempts
        self.fileMissing = fileMissing
    }
}

/// Why a queue row stopped and needs the person to decide.
/// The raw values are the codes the register stores; the words are `QueueProblem.sentence`.
public enum QueueProblem: String, Sendable, Hashable, CaseIterable {
    case macRefused = "mac-refused"
    case fileGone = "file-gone"
    case tooLarge = "too-large"
    case receivedDifferently = "received-differently"
}

/// The three counts "All sent" rests on (QUEUE-2), taken from the register and the files on disk.
public struct QueueCounts: Sendable, Hashable {
    /// Rows the queue is working.
    public var goingUp: Int
    /// Rows stopped, waiting for the person.
    public var needDecision: Int
    /// Photographs on the phone that never reached the queue.
    public var kept: Int

    public init(goingUp: Int, needDecision: Int, kept: Int) {
        self.goingUp = goingUp
        self.needDecision = needDecision
        self.kept = kept
    }

    public var allSent: Bool { goingUp == 0 && needDecision == 0 && kept == 0 }
}

/// An offer of the register to the Mac, as the phone stores it.
public struct Transfer: Sendable, Hashable {
    public var id: String
    public var waiting: Bool
    public var offeredAt: Timestamp
    public var assetCount: Int
    public var summary: String
    /// Whether the Mac answered that it holds the offer. An id stored but never acknowledged was
    /// never received: the screen must not say the register is with the Mac (HANDOVER-6).
    public var acknowledged: Bool

    public init(id: String, waiting: Bool, offeredAt: Timestamp, assetCount: Int, summary: String, acknowledged: Bool = true) {
        self.id = id
        self.waiting = waiting
        self.offeredAt = offeredAt
        self.assetCount = assetCount
        self.summary = summary
        self.acknowledged = acknowledged
    }
}

/// A phone pinned by a Mac: its certificate's fingerprint and the name it gave.
public struct PairedPhone: Sendable, Hashable {
    public var fingerprint: String
    public var name: String
    public var pairedAt: Timestamp

    public init(fingerprint: String, name: String, pairedAt: Timestamp) {
        self.fingerprint = fingerprint
        self.name = name
        self.pairedAt = pairedAt
    }
}

public struct Pairing: Sendable, Hashable {
    public var macName: String
    /// Where it listens: host:port.
    public var address: String
    /// The SHA-256 fingerprint of its certificate, as hex: the pin.
    public var fingerprint: String
    public var pairedAt: Timestamp

    public init(macName: String, address: String, fingerprint: String, pairedAt: Timestamp) {
        self.macName = macName
        self.address = address
        self.fingerprint = fingerprint
        self.pairedAt = pairedAt
    }
}

/// What the queue's summary rests on (QUEUE-2, QUEUE-3), as a shell gathers it from the register,
/// the photo folder and the connection.
public struct QueueFacts: Sendable, Hashable {
    public var counts: QueueCounts
    /// The paired Mac's name; nil when none is paired.
    public var pairedMac: String?
    public var macReachable: Bool
    /// Whether the storage ceiling refuses a kept photograph now (not merely once).
    public var storageCeilingRefused: Bool
    /// Whether a photograph is kept because the register has not reached the Mac with its asset.
    public var assetNotSynced: Bool
    /// Whether something answers at the paired Mac's address with another certificate.
    public var impostorAtMacAddress: Bool

    public init(
        counts: QueueCounts, pairedMac: String?, macReachable: Bool, storageCeilingRefused: Bool, assetNotSynced: Bool = false,
        impostorAtMacAddress: Bool = false
    ) {
        self.counts = counts
        self.pairedMac = pairedMac
        self.macReachable = macReachable
        self.storageCeilingRefused = storageCeilingRefused
        self.assetNotSynced = assetNotSynced
        self.impostorAtMacAddress = impostorAtMacAddress
    }
}

/// The actor's name as it is stored and drawn: white space and line breaks (a pasted name often
/// ends in one) trimmed at both ends; nil when nothing is left. The provisioning preview and the
/// register both use this one function, so the two cannot disagree (AUDIT-3).
public func normalisedActorName(_ typed: String?) -> String? {
    guard let typed else { return nil }
    let trimmed = typed.unicodeScalars.drop(while: \.properties.isWhitespace).reversed().drop(while: \.properties.isWhitespace)
        .reversed()
    let name = String(String.UnicodeScalarView(trimmed))
    return name.isEmpty ? nil : name
}
