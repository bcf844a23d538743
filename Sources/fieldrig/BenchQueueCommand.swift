import Companion
import Foundation
import Model
import Register
import Shell

/// `fieldrig bench queue`: uploads per second, and the time to compute the summary.
enum BenchQueueCommand: Command {
    static let name = ["bench", "queue"]
    static let summary = "uploads per second of 2 MB photographs, and the summary's time with 10,000 captures"
    static let about = """
        Usage: fieldrig bench queue [--uploads N] [--captures N]

        Queues N 2 MB photographs and pushes them one at a time to a receiving end, each written
        and flushed there and confirmed by size and digest; then keeps 10,000 small photographs
        (half of them queued) and times computing the summary the queue and More screens show
        (register queries and the photo folder's listing), as the median of 20.
        """

    enum Option: CommandOption {
        case uploads, captures

        var spec: OptionSpec {
            switch self {
            case .uploads: .integer("--uploads", "N", 1...100_000, default: 40, "photographs to upload (default 40)")
            case .captures:
                .integer("--captures", "N", 1...1_000_000, default: 10_000, "captures on the phone for the summary (default 10000)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let uploads = options.integer(.uploads)
        let captureCount = options.integer(.captures)
        let folder = NSTemporaryDirectory() + "fieldrig-bench-queue-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let t = Timestamp(year: 2026, month: 11, day: 30)
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: t)
        try register.setStorageCeiling(1 << 40, at: t)
        try register.pair(
            Pairing(macName: "Studio Mac", address: "127.0.0.1:7443", fingerprint: String(repeating: "ab", count: 32), pairedAt: t))
        var photo = [UInt8](repeating: 0, count: 2_000_000)
        for i in 0..<uploads {
            photo[i] &+= 1
            try register.queue(try register.keepCapture(photo, tag: "MF-0001", at: t), at: t)
        }
        let uploader = Uploader(register: register, receiver: FolderReceiver(folder: "\(folder)/mac"))
        var start = ContinuousClock.now
        let outcomes = try uploader.drain(at: t)
        let uploadTime = ContinuousClock.now - start
        guard outcomes.count == uploads else { throw CommandFailure("only \(outcomes.count) of \(uploads) uploaded") }
        emit(
            String(
                format: "uploads: %.1f a second (%d of 2 MB in %.2f s, to a folder receiving end on this machine)",
                Double(uploads) / seconds(uploadTime), uploads, seconds(uploadTime)))

        for i in 0..<captureCount {
            let capture = try register.keepCapture(
                [UInt8(i & 0xFF), UInt8(i >> 8), 1], tag: "MF-0002", at: t.adding(.milliseconds(Int64(i))))
            if i % 2 == 0 { try register.queue(capture, at: t) }
        }
        var samples: [Duration] = []
        var summary: QueueSummary? = nil
        for _ in 0..<20 {
            start = ContinuousClock.now
            summary = try QueueSummary.of(register, macReachable: true)
            samples.append(ContinuousClock.now - start)
        }
        emit(
            "summary with \(captureCount + uploads) captures: \(ms(percentiles(samples).median)) median, \(ms(percentiles(samples).p90)) p90 (a frame is 16 ms): \(summary!.lines.joined(separator: "; "))"
        )
        return ExitCode.success
    }
}
