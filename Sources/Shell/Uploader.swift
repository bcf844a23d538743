import Crypto
import Durable
import Foundation
import Register

/// Why the receiving end could not take a photograph.
public enum ReceiveFailure: Error, Sendable, Hashable {
    /// Not reachable now: the queue pauses and loses nothing.
    case unreachable
    /// It refused this file.
    case refused(String)
}

/// The Mac's end of the upload queue: takes a photograph and says what it received.
public protocol PhotoReceiver: AnyObject {
    /// Stores `bytes` as `name`; returns the size and SHA-256 of what it now holds.
    func receive(name: String, bytes: [UInt8]) throws(ReceiveFailure) -> (bytes: Int, sha256: String)
    /// The largest photograph it takes.
    var maximumBytes: Int { get }
}

/// A receiving end that keeps photographs in a folder, written so a crash leaves a whole file or none.
public final class FolderReceiver: PhotoReceiver {
    public let folder: String
    public var reachable = true
    public var maximumBytes: Int

    public init(folder: String, maximumBytes: Int = 50_000_000) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    public func receive(name: String, bytes: [UInt8]) throws(ReceiveFailure) -> (bytes: Int, sha256: String) {
        guard reachable else { throw .unreachable }
        guard bytes.count <= maximumBytes else { throw .refused("too large") }
        do {
            try DurableFile.write(bytes, to: "\(folder)/\(name)")
        } catch {
            throw .refused(error.description)
        }
        let held = (try? DurableFile.read("\(folder)/\(name)")) ?? []
        return (held.count, sha256Hex(held))
    }
}

/// Pushes photographs to the paired Mac one at a time (QUEUE-5): the phone pushes, and nothing
/// else moves a file. A row is done only when the Mac confirms the whole file.
public final class Uploader {
    public let register: Register
    public let receiver: any PhotoReceiver

    public enum Outcome: Sendable, Hashable {
        case sent(String)
        /// The Mac is not reachable: nothing moves, nothing is lost.
        case paused
        case stopped(String, QueueProblem)
        case retrying(String)
        case idle
    }

    public init(register: Register, receiver: any PhotoReceiver) {
        self.register = register
        self.receiver = receiver
    }

    /// Pushes the next row going up.
    public func pushNext(at time: Timestamp) throws(RegisterError) -> Outcome {
        guard let row = try register.nextUpload() else { return .idle }
        guard let bytes = try? DurableFile.read("\(register.photosFolder)/\(row.capture.file)") else {
            try register.stopUpload(row, problem: .fileGone, at: time)
            return .stopped(row.capture.file, .fileGone)
        }
        guard bytes.count <= receiver.maximumBytes else {
            try register.stopUpload(row, problem: .tooLarge, at: time)
            return .stopped(row.capture.file, .tooLarge)
        }
        let received: (bytes: Int, sha256: String)
        do throws(ReceiveFailure) {
            received = try receiver.receive(name: row.capture.file, bytes: bytes)
        } catch {
            if error == .unreachable { return .paused }
            try register.stopUpload(row, problem: .macRefused, at: time)
            return .stopped(row.capture.file, .macRefused)
        }
        switch try register.confirmUpload(row, receivedBytes: received.bytes, receivedSHA256: received.sha256, at: time) {
        case .done: return .sent(row.capture.file)
        case .goingUp: return .retrying(row.capture.file)
        case .needsDecision: return .stopped(row.capture.file, .receivedDifferently)
        }
    }

    /// Pushes until the queue is empty, paused, or `limit` pushes were made.
    @discardableResult
    public func drain(at time: Timestamp, limit: Int = 10_000) throws(RegisterError) -> [Outcome] {
        var outcomes: [Outcome] = []
        for _ in 0..<limit {
            let outcome = try pushNext(at: time)
            if outcome == .idle { break }
            outcomes.append(outcome)
            if outcome == .paused { break }
        }
        return outcomes
    }
}
