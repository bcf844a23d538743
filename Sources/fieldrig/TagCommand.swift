import Companion
import Crypto
import Durable
import Foundation
import Imaging
import MacLink
import Register

/// `fieldrig tag make`: an asset tag's QR payload, and its picture.
enum TagCommand: Command {
    static let name = ["tag", "make"]
    static let summary = "print an asset tag's proven QR payload, and draw it as a PNG"
    static let about = """
        Usage: fieldrig tag make TAG... (--register PATH | --register-id ID --key HEX) [--png OUT] [--frame OUT]
               fieldrig tag make --pairing NAME --address HOST:PORT --identity PEM [--png OUT] [--frame OUT]
               fieldrig tag make --payload TEXT [--png OUT] [--frame OUT]

        Prints, one a line, the QR payload of each asset TAG, carrying its proof: an HMAC-SHA-256
        over the register id and the tag, keyed by the register's tag key. The scan sheet fires on
        such a code the instant it decodes; a code made with another key or register is not ours
        and settles like any other.
        """
    static let notes = """
        Exit codes: 0 done, 1 the register or a file could not be read or written, 2 wrong usage.
        """

    enum Option: CommandOption {
        case register, registerId, key, pairing, payload, png, frame, address, identity

        var spec: OptionSpec {
            switch self {
            case .register: .value("--register", "PATH", "take the register id and tag key from this register")
            case .registerId: .value("--register-id", "ID", "the register id (with --key)")
            case .key: .value("--key", "HEX", "the tag key, as hex (at least 16 bytes)")
            case .pairing:
                .value(
                    "--pairing", "NAME",
                    "instead of asset tags, a Mac's pairing code: its name, --address and\ncertificate, signed by the certificate's own key (PAIR-1); --identity\nis the Mac's key and certificate (`fieldrig mac --state DIR` keeps it\nin DIR/identity.pem)"
                )
            case .payload: .value("--payload", "TEXT", "draw TEXT as it is, proven or not (a foreign or altered code, for tests)")
            case .png: .value("--png", "OUT", "write the QR code alone, for printing (one TAG only)")
            case .frame: .value("--frame", "OUT", "write a 1280x720 camera frame with the tags in a row on a desk")
            case .address: .value("--address", "HOST:PORT", "with --pairing: where the Mac listens")
            case .identity: .value("--identity", "PEM", "with --pairing: the Mac's key and certificate")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        if let payload = options.value(.payload) {
            guard options.positional.isEmpty, options.value(.pairing) == nil else { throw UsageError("--payload TEXT takes no TAG") }
            try draw([payload], png: options.value(.png), frame: options.value(.frame))
            return ExitCode.success
        }
        if let name = options.value(.pairing) {
            guard options.positional.isEmpty, let address = options.value(.address), let pem = options.value(.identity) else {
                throw UsageError("--pairing NAME needs --address HOST:PORT and --identity PEM, and no TAG")
            }
            let identity = try Identity.load(pem: String(decoding: try DurableFile.read(pem), as: UTF8.self))
            let payload = try identity.pairingCode(name: name, address: address).payload
            emit(payload)
            try draw([payload], png: options.value(.png), frame: options.value(.frame))
            return ExitCode.success
        }
        let tags = options.positional
        guard !tags.isEmpty else { throw UsageError("name at least one TAG") }
        let registerID: String
        let key: [UInt8]
        if let path = options.value(.register) {
            guard options.value(.registerId) == nil, options.value(.key) == nil else {
                throw UsageError("give --register, or --register-id and --key, not both")
            }
            let register = try Register(path: path, readOnly: true)
            let settings = try register.settings()
            guard !settings.tagKey.isEmpty else {
                throw CommandFailure("\(path): the register has no tag key yet (create it with --demo, or seed it)")
            }
            (registerID, key) = (settings.registerID, settings.tagKey)
        } else {
            guard let id = options.value(.registerId), let hex = options.value(.key) else {
                throw UsageError("give --register PATH, or --register-id ID and --key HEX")
            }
            guard let bytes = hexBytes(strict: hex), bytes.count >= 16 else { throw UsageError("--key takes at least 16 bytes as hex") }
            (registerID, key) = (id, bytes)
        }
        let payloads = tags.map { AssetTagCode(registerID: registerID, tag: $0).payload(key: key) }
        for payload in payloads { emit(payload) }
        try draw(payloads, png: options.value(.png), frame: options.value(.frame))
        return ExitCode.success
    }

    /// Writes the QR code alone (one payload only) and/or a desk frame with every payload.
    static func draw(_ payloads: [String], png: String?, frame: String?) throws {
        if let png {
            guard payloads.count == 1 else { throw UsageError("--png draws one tag: name exactly one TAG") }
            guard let code = QRCodeImage.frame(payloads[0]) else {
                throw CommandFailure("'\(payloads[0].prefix(40))…' is too long for a QR code (\(payloads[0].utf8.count) bytes)")
            }
            try ImageFile.writePNG(code, to: png)
        }
        if let frame {
            guard let desk = QRCodeImage.deskFrame(payloads) else {
                throw CommandFailure("the codes do not fit side by side on a 1280x720 frame: draw fewer, or shorter ones")
            }
            try ImageFile.writePNG(desk, to: frame)
        }
    }

}
