import CLeptonica
import Model

/// Leptonica prints its warnings on stderr by default; the rig reports errors itself.
private let leptonicaSilenced: Void = {
    _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
}()

/// An owned leptonica image, released when the last reference goes.
final class PixHandle {
    let pointer: UnsafeMutablePointer<PIX>

    init?(_ pointer: UnsafeMutablePointer<PIX>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit { fieldrig_pix_release(pointer) }

    var width: Int { Int(pixGetWidth(pointer)) }
    var height: Int { Int(pixGetHeight(pointer)) }
    var depth: Int { Int(pixGetDepth(pointer)) }

    static func silenceLibrary() { leptonicaSilenced }

    /// An 8-bit leptonica image holding the frame's pixels.
    ///
    /// Leptonica keeps 8-bit pixels in 32-bit words with the bytes in big-endian order, so on a
    /// little-endian machine every word is byte-swapped on the way in.
    convenience init(frame: Frame) {
        Self.silenceLibrary()
        let pix = pixCreate(Int32(frame.width), Int32(frame.height), 8)!
        let wpl = Int(pixGetWpl(pix))
        let words = pixGetData(pix)!
        frame.bytes.withUnsafeBufferPointer { src in
            let raw = UnsafeMutableRawPointer(words)
            for y in 0..<frame.height {
                let row = raw.advanced(by: y * wpl * 4)
                row.copyMemory(from: src.baseAddress! + y * frame.stride, byteCount: frame.width)
                let rowWords = row.assumingMemoryBound(to: UInt32.self)
                for i in 0..<wpl { rowWords[i] = rowWords[i].bigEndian }
            }
        }
        self.init(pix)!
    }

    /// The frame an 8-bit leptonica image holds, undoing leptonica's byte order.
    func frame() -> Frame {
        precondition(depth == 8)
        let w = width
        let h = height
        let wpl = Int(pixGetWpl(pointer))
        let words = UnsafeMutableRawPointer(pixGetData(pointer)!)
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
            var scratch = [UInt32](repeating: 0, count: wpl)
            for y in 0..<h {
                let row = words.advanced(by: y * wpl * 4).assumingMemoryBound(to: UInt32.self)
                for i in 0..<wpl { scratch[i] = row[i].bigEndian }
                scratch.withUnsafeBytes { s in
                    UnsafeMutableRawPointer(out.baseAddress! + y * w).copyMemory(from: s.baseAddress!, byteCount: w)
                }
            }
            count = w * h
        }
        return Frame(width: w, height: h, bytes: bytes)
    }
}
