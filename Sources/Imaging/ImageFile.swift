import CLeptonica
import Durable
import Model

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

    /// The most pixels an image may have: 40 million (a 4K frame has 8.3 million). Checked from
    /// the header before anything is decoded.
    public static let mostPixels = 40_000_000
    /// The largest image file read: 64 MiB.
    public static let largestFile = 64 << 20

    /// Loads the image at `path` as a gray frame; colour is converted to luminance. The first
    /// bytes are checked before the rest is read: a file that is not an image is not read whole.
    public static func load(_ path: String) throws(ImageError) -> Frame {
        let head = try readFile(path, prefix: 64)
        if head.isEmpty { throw ImageError(path: path, .empty) }
        guard Format(magic: Array(head.prefix(8))) != nil else { throw ImageError(path: path, .notAnImage) }
        let data = try readFile(path)
        return try decode(data, path: path)
    }

    /// The width and height an image's header declares, where it is quick to find (PNG's IHDR,
    /// a JPEG's frame header, a PNM's first line); nil when it is not.
    static func declaredSize(_ data: [UInt8], _ format: Format) -> (width: Int, height: Int)? {
        func be(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= data.count else { return nil }
            return data[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
        }
        switch format {
        case .png:
            guard let w = be(16, 4), let h = be(20, 4) else { return nil }
            return (w, h)
        case .jpeg:
            var i = 2
            while i + 9 < data.count {
                guard data[i] == 0xFF else { return nil }
                let marker = data[i + 1]
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xFF {
                    i += marker == 0xFF ? 1 : 2
                    continue
                }
                guard let length = be(i + 2, 2) else { return nil }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard let h = be(i + 5, 2), let w = be(i + 7, 2) else { return nil }
                    return (w, h)
                }
                i += 2 + length
            }
            return nil
        case .pnm:
            let text = String(decoding: data.prefix(64), as: UTF8.self)
            let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(3)
            guard words.count == 3, let w = Int(words[words.startIndex + 1]), let h = Int(words[words.startIndex + 2]) else { return nil }
            return (w, h)
        }
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
        // A small file can declare a huge picture: refuse it before the decoder allocates for it.
        if let size = declaredSize(data, format), size.width > 0, size.height > 0,
            case (let pixels, let overflow) = size.width.multipliedReportingOverflow(by: size.height), overflow || pixels > mostPixels
        {
            throw ImageError(path: path, .tooManyPixels(width: size.width, height: size.height))
        }
        let decoded = QuietStderr.run { data.withUnsafeBufferPointer { PixHandle(pixReadMem($0.baseAddress, $0.count)) } }
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

    /// The JPEG bytes of `frame` at `quality` (1...100), scaled down to at most `maxWidth` pixels
    /// wide: for pictures people look at (the live page, trace filmstrips), not for reading.
    public static func jpegData(_ frame: Frame, quality: Int = 75, maxWidth: Int? = nil) -> [UInt8]? {
        var pix = PixHandle(frame: frame)
        if let maxWidth, frame.width > maxWidth, let scaled = PixHandle(pixScaleToSize(pix.pointer, Int32(maxWidth), 0)) {
            pix = scaled
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        guard pixWriteMemJpeg(&out, &size, pix.pointer, Int32(max(1, min(100, quality))), 0) == 0, let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
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
    public static func readFile(_ path: String, prefix: Int? = nil) throws(ImageError) -> [UInt8] {
        do throws(FileError) {
            return try DurableFile.read(path, prefix: prefix, limit: largestFile)
        } catch {
            switch error.kind {
            case .missing: throw ImageError(path: path, .missing)
            case .isDirectory: throw ImageError(path: path, .isDirectory)
            case .notRegularFile: throw ImageError(path: path, .notRegularFile)
            case .unreadable(let code), .unwritable(let code): throw ImageError(path: path, .unreadable(errno: code))
            case .tooLarge(let limit): throw ImageError(path: path, .tooLarge(limit: limit))
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

extension ImageFile {
    /// The luma of one Motion-JPEG frame from a webcam, or nil when it is damaged: cut short
    /// (no end marker), undecodable, or decoded with warnings (libjpeg invents what it lost).
    /// Frames without Huffman tables, as many UVC cameras send them, decode with the standard
    /// tables.
    public static func decodeMotionJPEG(_ data: UnsafeRawBufferPointer) -> Frame? {
        PixHandle.silenceLibrary()
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        // Some cameras pad a frame after its end marker: look for it near the end.
        let tail = data.suffix(64)
        guard zip(tail, tail.dropFirst()).contains(where: { $0 == (0xFF, 0xD9) }) else { return nil }
        var warnings: Int32 = 0
        let pix = PixHandle(
            pixReadMemJpeg(
                data.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count, 0, 1, &warnings, Int32(L_JPEG_READ_LUMINANCE)))
        guard let pix, warnings == 0 else { return nil }
        guard pix.depth == 8 else { return toGray(pix)?.frame() }
        return pix.frame()
    }
}

extension Frame {
    /// The same picture `factor` times as large (bilinear, through leptonica): small print
    /// enlarged for OCR, which reads text below about 20 pixels a line poorly.
    public func scaled(by factor: Double) -> Frame {
        let pix = PixHandle(frame: self)
        guard let scaled = PixHandle(pixScale(pix.pointer, Float(factor), Float(factor))), scaled.depth == 8 else { return self }
        return atThisFrame(scaled)
    }

    /// `pix`, a picture made of this frame, as a frame with this frame's time and index.
    private func atThisFrame(_ pix: PixHandle) -> Frame {
        var frame = pix.frame()
        frame.timestamp = timestamp
        frame.index = index
        return frame
    }
}

extension Frame {
    /// The picture with its edges drawn out (leptonica's unsharp masking): each pixel moved away
    /// from the mean of the square `2 * halfwidth + 1` wide round it by `amount` times their
    /// difference. Thin grey strokes stand out from the paper; flat paper stays as it is.
    public func unsharpMasked(halfwidth: Int, amount: Double) -> Frame {
        let pix = PixHandle(frame: self)
        guard let sharp = PixHandle(pixUnsharpMaskingGray(pix.pointer, Int32(halfwidth), Float(amount))), sharp.depth == 8 else {
            return self
        }
        return atThisFrame(sharp)
    }
}
