import CQRencode
import Model

/// QR codes drawn as gray frames: asset tags and pairing codes, for fixtures and for printing.
public enum QRCodeImage {
    /// The payload as a QR code (error correction M), each module `scale` pixels, with the
    /// four-module quiet zone the standard asks for. Nil when the payload is too long for a QR code.
    public static func frame(_ payload: String, scale: Int = 8) -> Frame? {
        guard let code = QRcode_encodeString(payload, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        let quiet = 4
        let side = (modules + 2 * quiet) * scale
        var bytes = [UInt8](repeating: 255, count: side * side)
        for my in 0..<modules {
            for mx in 0..<modules where code.pointee.data[my * modules + mx] & 1 == 1 {
                for dy in 0..<scale {
                    let row = ((my + quiet) * scale + dy) * side + (mx + quiet) * scale
                    for dx in 0..<scale { bytes[row + dx] = 0 }
                }
            }
        }
        return Frame(width: side, height: side, bytes: bytes)
    }

    /// `code` placed on a plain background of `width`x`height` at (`x`, `y`): a tag in a camera's view.
    public static func place(_ code: Frame, width: Int, height: Int, x: Int, y: Int, background: UInt8 = 0x5A) -> Frame {
        var bytes = [UInt8](repeating: background, count: width * height)
        for row in 0..<code.height where y + row >= 0 && y + row < height {
            for column in 0..<code.width where x + column >= 0 && x + column < width {
                bytes[(y + row) * width + x + column] = code[column, row]
            }
        }
        return Frame(width: width, height: height, bytes: bytes)
    }
}

extension QRCodeImage {
    /// The codes side by side, centred on a 1280x720 desk, at the largest scale (up to 6 pixels a
    /// module for one code, 4 for several) at which they all fit; nil when they do not fit at all.
    public static func deskFrame(_ payloads: [String]) -> Frame? {
        let gap = 24
        var codes: [Frame] = []
        for scale in stride(from: payloads.count == 1 ? 6 : 4, through: 2, by: -1) {
            codes = payloads.compactMap { QRCodeImage.frame($0, scale: scale) }
            guard codes.count == payloads.count else { return nil }
            let width = codes.reduce(0) { $0 + $1.width } + gap * (codes.count - 1)
            if width <= 1280, codes.allSatisfy({ $0.height <= 720 }) { break }
            codes = []
        }
        guard !codes.isEmpty else { return nil }
        var frame = Frame(width: 1280, height: 720, bytes: [UInt8](repeating: 0x5A, count: 1280 * 720))
        let total = codes.reduce(0) { $0 + $1.width } + gap * (codes.count - 1)
        var x = max(0, (1280 - total) / 2)
        for code in codes {
            frame = overlay(code, on: frame, x: x, y: (720 - code.height) / 2)
            x += code.width + gap
        }
        return frame
    }

    static func overlay(_ code: Frame, on frame: Frame, x: Int, y: Int) -> Frame {
        var bytes = frame.bytes
        for row in 0..<code.height where y + row < frame.height {
            for column in 0..<code.width where x + column < frame.width {
                bytes[(y + row) * frame.width + x + column] = code[column, row]
            }
        }
        return Frame(width: frame.width, height: frame.height, bytes: bytes)
    }
}
