import CLeptonica
import Durable

#if canImport(Glibc)
    import Glibc
#endif

/// Reading image files (PNG, JPEG, PNM) into gray frames, and writing frames back out as PNG.
public enum ImageFile {
    /// The formats the rig reads, recognised by their first bytes.
    enum Format: String {
        case png = "PNG"
        case jpeg = "JPEG"
        case pnm = "PNM"

        init?(magic bytes: [UInt8]) {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                self = .jpeg
            } else if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]),
                [0x20, 0x0A, 0x0D, 0x09].contains(bytes[2])
            {
                self = .pnm
            } else {
                return nil
            }
        }
    }

    /// Loads the image at `path` as a gray frame; colour is converted to luminance.
    public static func load(_ path: String) throws(ImageError) -> Frame {
        let data = try readFile(path)
        return try decode(data, path: path)
    }

    /// Decodes image bytes (PNG, JPEG or PNM) to a gray frame; `path` names them in errors.
    public static func decode(_ data: [UInt8], path: String) throws(ImageError) -> Frame {
        PixHandle.silenceLibrary()
        if data.isEmpty { throw ImageError(path: path, .empty) }
        guard let format = Format(magic: Array(data.prefix(8))) else { throw ImageError(path: path, .notAnImage) }
        // A JPEG cut short still decodes (libjpeg pads it with gray), so its end marker is checked
        // here: a frame half of which is invented must not be read as if it were the label.
        if format == .jpeg, !data.suffix(32).windows2.contains(where: { $0 == (0xFF, 0xD9) }) {
            throw ImageError(path: path, .corrupt(format: format.rawValue))
        }
        // libpng reports damage on stderr before it fails; checking the chunk structure and CRCs
        // first turns nearly every damaged PNG into our own one-line error instead.
        if format == .png, !PNGStructure.isIntact(data) {
            throw ImageError(path: path, .corrupt(format: format.rawValue))
        }
        let decoded = data.withUnsafeBufferPointer { PixHandle(pixReadMem($0.baseAddress, $0.count)) }
        guard let pix = decoded else { throw ImageError(path: path, .corrupt(format: format.rawValue)) }
        guard let gray = toGray(pix) else { throw ImageError(path: path, .unsupportedDepth(pix.depth)) }
        return gray.frame()
    }

    /// Writes `frame` to `path` as a PNG; the file is flushed before this returns.
    public static func writePNG(_ frame: Frame, to path: String) throws(ImageError) {
        try writePNG(PixHandle(frame: frame), to: path)
    }

    /// The PNG bytes of `frame`.
    public static func pngData(_ frame: Frame) -> [UInt8] {
        encodePNG(PixHandle(frame: frame))!
    }

    static func writePNG(_ pix: PixHandle, to path: String) throws(ImageError) {
        guard let bytes = encodePNG(pix) else { throw ImageError(path: path, .cannotWrite(reason: "PNG encoding failed")) }
        try writeFile(bytes, to: path)
    }

    static func encodePNG(_ pix: PixHandle) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        guard pixWriteMem(&out, &size, pix.pointer, Int32(IFF_PNG)) == 0, let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// An 8-bit gray copy of any leptonica image; nil for depths leptonica cannot convert.
    static func toGray(_ pix: PixHandle) -> PixHandle? {
        switch pix.depth {
        case 8 where pixGetColormap(pix.pointer) == nil:
            return pix
        case 32:
            return PixHandle(pixConvertRGBToLuminance(pix.pointer))
        case 1, 2, 4, 8, 16:
            return PixHandle(pixConvertTo8(pix.pointer, 0))
        default:
            return nil
        }
    }

    /// The whole file at `path`, with an error naming it when it is missing, a folder, or unreadable.
    public static func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        do throws(FileError) {
            return try DurableFile.read(path)
        } catch {
            switch error.kind {
            case .missing: throw ImageError(path: path, .missing)
            case .isDirectory: throw ImageError(path: path, .isDirectory)
            case .notRegularFile: throw ImageError(path: path, .notRegularFile)
            case .unreadable(let code), .unwritable(let code): throw ImageError(path: path, .unreadable(errno: code))
            }
        }
    }

    /// Writes `bytes` to `path` so a crash leaves either the old file or the whole new one.
    public static func writeFile(_ bytes: [UInt8], to path: String) throws(ImageError) {
        do throws(FileError) {
            try DurableFile.write(bytes, to: path)
        } catch {
            if case .unwritable(let code) = error.kind { throw ImageError(path: path, .cannotWrite(reason: errnoDescription(code))) }
            throw ImageError(path: path, .cannotWrite(reason: error.description))
        }
    }
}

extension Collection where Element == UInt8 {
    /// Each pair of neighbouring bytes.
    fileprivate var windows2: [(UInt8, UInt8)] {
        Array(zip(self, dropFirst()))
    }
}
