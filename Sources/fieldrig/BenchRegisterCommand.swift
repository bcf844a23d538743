import Foundation
import Model
import Register

/// `fieldrig bench register`: stamps and captures per second on this machine.
enum BenchRegisterCommand: Command {
    static let name = ["bench", "register"]
    static let summary = "stamps per second, and captures per second with a 2 MB photograph"
    static let about = """
        Usage: fieldrig bench register [--stamps N] [--captures N]

        Records N verifications, then keeps N 2 MB photographs, in a fresh demo register in a
        temporary folder, each in its own transaction and flushed to disk as the phone would.
        """

    enum Option: CommandOption {
        case stamps, captures

        var spec: OptionSpec {
            switch self {
            case .stamps: .integer("--stamps", "N", 1...10_000_000, default: 2000, "verifications to record (default 2000)")
            case .captures: .integer("--captures", "N", 1...100_000, default: 50, "photographs to keep (default 50)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let stampCount = options.integer(.stamps)
        let captureCount = options.integer(.captures)
        let folder = NSTemporaryDirectory() + "fieldrig-bench-register-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var time = Timestamp(year: 2026, month: 1, day: 1)
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: time)
        let tags = try register.assets().filter { $0.state != .disposed }.map(\.tag)

        var start = ContinuousClock.now
        for i in 0..<stampCount {
            time = time.adding(.seconds(1))
            guard case .recorded = register.recordVerification(tag: tags[i % tags.count], at: time) else {
                throw CommandFailure("a stamp was refused")
            }
        }
        let stampTime = ContinuousClock.now - start
        emit(
            String(
                format: "stamps:   %7.0f a second  (%d in %.2f s)", Double(stampCount) / seconds(stampTime), stampCount, seconds(stampTime))
        )

        var random = SeededRandom(seed: 7)
        var photo = [UInt8](repeating: 0, count: 2_000_000)
        start = ContinuousClock.now
        for i in 0..<captureCount {
            time = time.adding(.seconds(1))
            photo[Int.random(in: 0..<photo.count, using: &random)] &+= 1  // each photograph differs
            _ = try register.keepCapture(photo, tag: tags[i % tags.count], at: time)
        }
        let captureTime = ContinuousClock.now - start
        emit(
            String(
                format: "captures: %7.1f a second  (%d of 2 MB in %.2f s, %.0f MB/s)", Double(captureCount) / seconds(captureTime),
                captureCount,
                seconds(captureTime), Double(captureCount) * 2 / seconds(captureTime)))
        return ExitCode.success
    }
}
