import Foundation
import MacLink
import Model
import Register
import Shell

/// `fieldrig bench handover`: offering a 10,000-asset register, and photographs over the pinned channel.
enum BenchHandoverCommand: Command {
    static let name = ["bench", "handover"]
    static let summary = "time to offer a 10,000-asset register over pinned TLS, and uploads per second over it"
    static let about = """
        Usage: fieldrig bench handover [--assets N] [--uploads N]

        Runs the simulated Mac behind a TLS listener on loopback in this process and, as the
        phone, pinned to its certificate: offers a register of N assets (bundle, send, the Mac's
        answer), then has the Mac accept it (writing N assets into its own register), then pushes
        2 MB photographs through the upload queue over the same channel.
        """

    enum Option: CommandOption {
        case assets, uploads

        var spec: OptionSpec {
            switch self {
            case .assets: .integer("--assets", "N", 1...1_000_000, default: 10_000, "assets in the register (default 10000)")
            case .uploads: .integer("--uploads", "N", 1...10_000, default: 20, "photographs to push (default 20)")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let count = options.integer(.assets)
        let uploads = options.integer(.uploads)
        let folder = NSTemporaryDirectory() + "fieldrig-bench-handover-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let t = Timestamp(year: 2026, month: 11, day: 30)
        var seed = RegisterSeed.demo
        seed.walkRound = []
        seed.assets = (0..<count).map { i in
            Asset(
                tag: String(format: "MF-%06d", i), name: "Machine \(i)", serial: String(format: "SN%08d", i), model: "Model \(i % 40)",
                site: "Site \(i % 25)", person: "Person \(i % 300)", vendor: "Vendor \(i % 30)", agreement: "AG-\(i % 50)")
        }
        let phone = try Register(path: "\(folder)/phone.sqlite")
        try phone.apply(seed, at: t)
        let macRegister = try Register(path: "\(folder)/mac.sqlite")
        let identity = try Identity.generate(name: "Studio Mac")
        let phoneIdentity = try Identity.generate(name: "iPhone")
        try macRegister.pinPhone(PairedPhone(fingerprint: phoneIdentity.fingerprint, name: "iPhone", pairedAt: t))
        let mac = SimulatedMac(
            name: "Studio Mac", fingerprint: identity.fingerprint, register: macRegister, photosFolder: "\(folder)/mac-photos",
            answer: .byHand)
        let server = try TLSServer(identity: identity, host: "127.0.0.1", port: 0)
        server.serve { mac.handle($0, from: $1, at: t) }
        defer { server.stop() }
        let client = PinnedClient(address: "127.0.0.1:\(server.port)", pin: identity.fingerprint, identity: phoneIdentity)

        var start = ContinuousClock.now
        let bundle = try phone.bundle().encoded()
        let bundleTime = ContinuousClock.now - start
        start = ContinuousClock.now
        let answer = try client.request(.offer(transfer: "bench"), bundle)
        let offerTime = ContinuousClock.now - start
        guard case .offer(_, true, _) = answer.reply else { throw CommandFailure("the Mac did not take the offer: \(answer.reply)") }
        start = ContinuousClock.now
        mac.accept("bench", at: t)
        let acceptTime = ContinuousClock.now - start
        guard try macRegister.counts().assets == count else {
            throw CommandFailure("the Mac did not write every asset")
        }
        emit(
            String(
                format: "offer of %d assets (%.1f MB bundle): build %@, send and the Mac's answer %@ (pinned TLS, loopback)", count,
                Double(bundle.count) / 1e6, ms(bundleTime), ms(offerTime)))
        emit("the Mac accepting it (writing \(count) assets and their audit entries): \(ms(acceptTime))")

        try phone.setStorageCeiling(1 << 40, at: t)
        try phone.pair(
            Pairing(macName: "Studio Mac", address: "127.0.0.1:\(server.port)", fingerprint: identity.fingerprint, pairedAt: t))
        var photo = [UInt8](repeating: 0, count: 2_000_000)
        for i in 0..<uploads {
            photo[i] &+= 1
            try phone.queue(try phone.keepCapture(photo, tag: "MF-000001", at: t), at: t)
        }
        let uploader = Uploader(register: phone, receiver: LinkPhotoReceiver(connection: client))
        start = ContinuousClock.now
        let outcomes = try uploader.drain(at: t)
        let uploadTime = ContinuousClock.now - start
        guard outcomes.allSatisfy({ if case .sent = $0 { true } else { false } }), outcomes.count == uploads else {
            throw CommandFailure("uploads failed: \(outcomes)")
        }
        emit(
            String(
                format: "uploads over pinned TLS: %.1f photographs of 2 MB a second (%d in %.2f s)", Double(uploads) / seconds(uploadTime),
                uploads, seconds(uploadTime)))
        return ExitCode.success
    }
}
