import Companion
import Crypto
import Foundation
import Register

/// What a crash check found wrong, in words for the person reading the harness's output.
public struct CrashCheckFailure: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The register after a writer was killed: everything the writer reported is there, whole, and
/// the file is sound. The writer prints "stamp ID TAG" and "capture ID FILE SHA256" only after
/// each has committed.
public struct RegisterCrashCheck: Sendable {
    public private(set) var stamps: Set<Int> = []
    public private(set) var captures: [Int: (file: String, sha: String)] = [:]
    /// Photographs found written but not yet recorded, kept as "found on the phone".
    public private(set) var orphans = 0

    public init() {}

    /// Takes in what the writer reported before it died.
    public mutating func absorb(_ lines: [String]) {
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            if parts.first == "stamp", parts.count == 3, let id = Int(parts[1]) { stamps.insert(id) }
            if parts.first == "capture", parts.count == 4, let id = Int(parts[1]) { captures[id] = (parts[2], parts[3]) }
        }
    }

    /// Checks the register, just opened after a kill.
    public mutating func check(_ register: Register) throws {
        let integrity = try register.integrityCheck()
        guard integrity == "ok" else { throw CrashCheckFailure("integrity_check says \(integrity)") }
        let present = Set(try register.stamps().map(\.id))
        guard stamps.isSubset(of: present) else {
            throw CrashCheckFailure("reported stamps \(stamps.subtracting(present).sorted()) are missing")
        }
        let rows = try register.captures()
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        for (id, expected) in captures.sorted(by: { $0.key < $1.key }) {
            guard let row = byID[id], row.file == expected.file, row.sha256 == expected.sha else {
                throw CrashCheckFailure("reported capture \(id) is missing")
            }
        }
        for row in rows {
            guard let bytes = FileManager.default.contents(atPath: register.photoPath(row)) else {
                throw CrashCheckFailure("capture \(row.id) points at a missing file \(row.file)")
            }
            guard sha256Hex(Array(bytes)) == row.sha256 else {
                throw CrashCheckFailure("capture \(row.id)'s photograph does not match its digest")
            }
        }
        guard register.reconciliation.missingFiles.isEmpty else {
            throw CrashCheckFailure("rows point at missing files \(register.reconciliation.missingFiles)")
        }
        orphans += register.reconciliation.orphansFound.count
    }
}

/// The queue after a process that keeps, queues and uploads was killed, checked against the
/// truth: what the Mac's folder really holds. The process prints "kept FILE SHA256" once a
/// photograph is kept.
public struct QueueCrashCheck: Sendable {
    /// The folder standing for the Mac.
    public let macFolder: String
    public private(set) var kept: [String: String] = [:]
    /// How often the summary said "All sent" (and was checked to be true).
    public private(set) var allSentSeen = 0

    public init(macFolder: String) { self.macFolder = macFolder }

    public mutating func absorb(_ lines: [String]) {
        for line in lines where line.hasPrefix("kept ") {
            let parts = line.split(separator: " ")
            if parts.count == 3 { kept[String(parts[1])] = String(parts[2]) }
        }
    }

    /// Checks the register, reopened after a kill; `summary` is how the phone computes what it says
    /// (the real one unless a test stands a broken one in).
    public mutating func check(
        _ register: Register, summary: (Register) throws -> QueueSummary = { try QueueSummary.of($0, macReachable: true) }
    ) throws {
        let said = try summary(register)
        let rows = try register.queueRows()
        let captures = try register.captures()
        let phoneFiles = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: register.photosFolder))?.filter { !$0.hasSuffix(".partial") } ?? [])
        func onMac(_ file: String, _ digest: String) -> Bool {
            guard let data = FileManager.default.contents(atPath: "\(macFolder)/\(file)") else { return false }
            return sha256Hex(Array(data)) == digest
        }
        // No photograph the process kept is lost: it is still on the phone.
        for (file, _) in kept.sorted(by: { $0.key < $1.key }) where !phoneFiles.contains(file) {
            throw CrashCheckFailure("the kept photograph \(file) is gone from the phone")
        }
        // Done means the Mac holds the whole file.
        for row in rows where row.state == .done && !onMac(row.capture.file, row.capture.sha256) {
            throw CrashCheckFailure("\(row.capture.file) is marked sent but the Mac does not hold it whole")
        }
        // Every photograph on the phone is counted exactly once: done, or in one of the three counts.
        let done = rows.filter { $0.state == .done }.count
        let counted = said.counts.goingUp + said.counts.needDecision + said.counts.kept + done
        guard counted == phoneFiles.count else {
            throw CrashCheckFailure("\(phoneFiles.count) photographs on the phone but \(counted) counted (\(said.counts), \(done) done)")
        }
        // "All sent" only when every photograph is on the Mac, whole.
        if said.counts.allSent {
            allSentSeen += 1
            let byFile = Dictionary(uniqueKeysWithValues: captures.map { ($0.file, $0.sha256) })
            for file in phoneFiles.sorted() where !onMac(file, byFile[file] ?? "") {
                throw CrashCheckFailure("the summary says All sent while \(file) is not on the Mac")
            }
        }
    }
}
