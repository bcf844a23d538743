import Crypto
import Durable
import Foundation

extension Register {
    /// Keeps a photograph on the phone (QUEUE-1: kept first, queued second): the file is written
    /// and flushed under its final name before the row that records it commits, so a crash
    /// leaves either no capture or a whole file with its row, or a whole file the next opening
    /// finds and counts as kept.
    public func keepCapture(_ photo: [UInt8], tag: String?, at time: Timestamp) throws(RegisterError) -> Capture {
        guard !db.isReadOnly else { throw RegisterError(path, .readOnly) }
        if let tag, try asset(tag: tag) == nil { throw RegisterError(path, .unknownAsset(tag: tag)) }
        let digest = sha256Hex(photo)
        let file = "capture-\(time.milliseconds)-\(digest.prefix(12)).\(Register.fileExtension(photo))"
        let destination = "\(photosFolder)/\(file)"
        do {
            try DurableFile.write(photo, to: destination)
        } catch {
            throw RegisterError(destination, .storage(detail: "the photograph could not be kept (\(error.description))"))
        }
        do {
            return try recordCapture(file: file, photo: photo, digest: digest, tag: tag, at: time)
        } catch {
            // Nothing records the file: the caller is told and still holds the photograph.
            unlink(destination)
            throw error
        }
    }

    private func recordCapture(file: String, photo: [UInt8], digest: String, tag: String?, at time: Timestamp) throws(RegisterError)
        -> Capture
    {
        try locked {
            let actor = try readSettings().actorName
            return try db.transaction { () throws -> Capture in
                var assetID: Int? = nil
                if let tag {
                    guard let id = try db.query("SELECT id FROM assets WHERE tag = ?", [tag]).first?.int("id") else {
                        throw RegisterError(path, .unknownAsset(tag: tag))
                    }
                    assetID = id
                }
                try db.query(
                    "INSERT INTO captures(file, asset_id, bytes, sha256, taken_at, actor) VALUES (?, ?, ?, ?, ?, ?)",
                    [file, assetID, photo.count, digest, time.milliseconds, actor])
                let id = db.lastInsertID
                try audit(
                    at: time, actor: actor, entity: tag == nil ? "capture" : "asset", key: tag ?? file, field: "photograph", old: nil,
                    new: file)
                return Capture(
                    id: id, file: file, tag: tag, bytes: photo.count, sha256: digest, takenAt: time, actor: actor, keptReason: nil)
            }
        }
    }

    static func fileExtension(_ photo: [UInt8]) -> String {
        if photo.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if photo.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        return "photo"
    }

    /// Every capture, oldest first.
    public func captures() throws(RegisterError) -> [Capture] {
        try locked { try db.query(Register.captureSelect + " ORDER BY c.id").map(Register.capture) }
    }

    static let captureSelect = """
        SELECT c.id, c.file, a.tag, c.bytes, c.sha256, c.taken_at, c.actor, c.kept_reason
        FROM captures c LEFT JOIN assets a ON a.id = c.asset_id
        """

    static func capture(_ row: SQLRow) -> Capture {
        Capture(
            id: row.int("id"), file: row.text("file"), tag: row.optionalText("tag"), bytes: row.int("bytes"), sha256: row.text("sha256"),
            takenAt: Timestamp(milliseconds: Int64(row.int("taken_at"))), actor: row.optionalText("actor"),
            keptReason: row.optionalText("kept_reason").flatMap(KeptReason.init(rawValue:)))
    }

    /// The path of a capture's photograph.
    public func photoPath(_ capture: Capture) -> String { "\(photosFolder)/\(capture.file)" }

    /// Puts the photo folder and the capture rows back in step after a crash: a half-written
    /// file is removed (it was never recorded), a whole file with no row is recorded as kept on
    /// the phone (never deleted), and a row whose file is gone is reported.
    func reconcile() throws(RegisterError) -> Reconciliation {
        var report = Reconciliation()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photosFolder)) ?? []
        let known = Set(try locked { try db.query("SELECT file FROM captures").map { $0.text("file") } })
        for name in names.sorted() {
            let path = "\(photosFolder)/\(name)"
            if name.hasSuffix(".partial") {
                if !db.isReadOnly, (try? FileManager.default.removeItem(atPath: path)) != nil { report.partialsRemoved.append(name) }
                continue
            }
            guard !known.contains(name) else { continue }
            report.orphansFound.append(name)
            guard !db.isReadOnly, let bytes = try? DurableFile.read(path) else { continue }
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.map { $0.timeIntervalSince1970 } ?? 0
            let time = Timestamp(milliseconds: Int64(modified * 1000))
            try locked {
                try db.transaction {
                    try db.query(
                        "INSERT INTO captures(file, asset_id, bytes, sha256, taken_at, actor, kept_reason) VALUES (?, NULL, ?, ?, ?, NULL, ?)",
                        [name, bytes.count, sha256Hex(bytes), time.milliseconds, KeptReason.foundOnPhone.rawValue])
                    // Nobody did this: the register found the file, so the entry is unsigned.
                    try audit(at: time, actor: nil, entity: "capture", key: name, field: "found", old: nil, new: "kept on this phone")
                }
            }
        }
        for name in known.sorted() where !FileManager.default.fileExists(atPath: "\(photosFolder)/\(name)") {
            report.missingFiles.append(name)
        }
        return report
    }
}
