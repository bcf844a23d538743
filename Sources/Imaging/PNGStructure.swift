/// The chunk structure of a PNG file: every chunk whole, every CRC right, and an IEND at the end.
enum PNGStructure {
    static func isIntact(_ data: [UInt8]) -> Bool {
        var offset = 8  // the signature, already checked
        while offset + 12 <= data.count {
            let length = Int(be32(data, offset))
            let typeStart = offset + 4
            let crcStart = typeStart + 4 + length
            guard length <= 0x7FFF_FFFF, crcStart + 4 <= data.count else { return false }
            guard crc32(data[typeStart..<crcStart]) == be32(data, crcStart) else { return false }
            if data[typeStart..<typeStart + 4].elementsEqual("IEND".utf8) { return true }
            offset = crcStart + 4
        }
        return false
    }

    private static func be32(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }

    /// CRC-32 (ISO 3309, as PNG specifies) with the reflected polynomial 0xEDB88320.
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
