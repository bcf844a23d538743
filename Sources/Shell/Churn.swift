import Companion
import Foundation
import Model
import Register

/// The child of the crash harness: writes stamps and captures in a loop, printing each one only
/// after it has committed, until it is killed.
public enum RegisterChurn {
    /// Runs `operations` writes (or until killed), telling `say` each one once it is committed.
    public static func run(path: String, seed: UInt64, operations: Int, say: (String) -> Void) throws {
        let register = try Register(path: path)
        let tags = try register.assets().filter { $0.state != .disposed }.map(\.tag)
        guard !tags.isEmpty else { throw CrashCheckFailure("\(path): churn needs a register with assets (create --demo)") }
        var random = SeededRandom(seed: seed)
        var time = Timestamp(year: 2026, month: 1, day: 1).adding(.seconds(Int64(seed % 1_000_000) * 60))
        for i in 0..<operations {
            time = time.adding(.milliseconds(Int64.random(in: 1...5000, using: &random)))
            let tag = tags[Int.random(in: 0..<tags.count, using: &random)]
            if i % 3 == 2 {
                let size = Int.random(in: 2_000...200_000, using: &random)
                var photo = [UInt8](repeating: 0, count: size)
                for j in stride(from: 0, to: size, by: 8) { photo[j] = UInt8.random(in: 0...255, using: &random) }
                let capture = try register.keepCapture(photo, tag: tag, at: time)
                say("capture \(capture.id) \(capture.file) \(capture.sha256)")
            } else {
                switch register.recordVerification(tag: tag, at: time) {
                case .recorded(let stamp): say("stamp \(stamp.id) \(stamp.tag)")
                case .refused(let refusal): throw CrashCheckFailure("stamp refused: \(refusal.sentence)")
                }
            }
        }
    }
}

/// The child of the queue's crash harness: keeps, queues and uploads in a loop, printing each
/// step only once it is on disk, until it is killed.
public enum QueueChurn {
    /// Keeps, queues and uploads until killed, telling `say` each step once it is done.
    public static func run(path: String, macFolder: String, seed: UInt64, say: (String) -> Void) throws {
        let register = try Register(path: path)
        let receiver = FolderReceiver(folder: macFolder)
        let uploader = Uploader(register: register, receiver: receiver)
        let tags = try register.assets().map(\.tag)
        var random = SeededRandom(seed: seed)
        var time = Timestamp(year: 2026, month: 2, day: 1).adding(.seconds(Int64(seed % 100_000) * 60))
        for i in 0..<Int.max {
            time = time.adding(.seconds(3))
            let size = Int.random(in: 1_000...300_000, using: &random)
            var photo = [UInt8](repeating: 0, count: size)
            for j in stride(from: 0, to: size, by: 16) { photo[j] = UInt8.random(in: 0...255, using: &random) }
            let capture = try register.keepCapture(photo, tag: tags[Int.random(in: 0..<tags.count, using: &random)], at: time)
            say("kept \(capture.file) \(capture.sha256)")
            let reason = try register.queue(capture, at: time)
            say("queued \(capture.file) \(reason?.rawValue ?? "-")")
            if i % 7 == 6 {
                // Now and then the Mac syncs the new assets, and kept photographs are queued.
                for tag in tags { try register.markSynced(tag: tag, at: time) }
                try register.queueKept(at: time)
                say("synced")
            }
            receiver.reachable = Int.random(in: 0..<5, using: &random) != 0  // the network comes and goes
            for outcome in try uploader.drain(at: time, limit: 3) {
                say("upload \(outcome)")
            }
        }
    }
}
