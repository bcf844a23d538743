import CLeptonica
import Model

/// A box to draw over a frame, with a caption and a colour.
public struct Mark: Sendable {
    public enum Colour: Sendable {
        case green, blue, red, orange

        var rgb: (UInt8, UInt8, UInt8) {
            switch self {
            case .green: return (0, 170, 60)
            case .blue: return (30, 90, 230)
            case .red: return (220, 30, 30)
            case .orange: return (240, 140, 0)
            }
        }
    }

    public var box: Model.Box
    public var caption: String
    public var colour: Colour

    public init(box: Model.Box, caption: String, colour: Colour) {
        self.box = box
        self.caption = caption
        self.colour = colour
    }
}

extension ImageFile {
    /// Writes `frame` as a colour PNG with each mark drawn as a box and its caption above it.
    public static func writeAnnotated(_ frame: Frame, marks: [Mark], to path: String) throws(ImageError) {
        PixHandle.silenceLibrary()
        let gray = PixHandle(frame: frame)
        guard let colour = PixHandle(pixConvert8To32(gray.pointer)) else {
            throw ImageError(path: path, .cannotWrite(reason: "could not make a colour copy"))
        }
        // Leptonica's built-in bitmap font; a nil folder means the fonts compiled into the library.
        let font = bmfCreate(nil, 6)
        defer { if let font { fieldrig_bmf_release(font) } }
        for mark in marks {
            let (r, g, b) = mark.colour.rgb
            if let box = boxCreate(Int32(mark.box.x), Int32(mark.box.y), Int32(mark.box.width), Int32(mark.box.height)) {
                pixRenderBoxArb(colour.pointer, box, 3, r, g, b)
                fieldrig_box_release(box)
            }
            guard let font else { continue }
            let value = UInt32(r) << 24 | UInt32(g) << 16 | UInt32(b) << 8
            let baseline = mark.box.y > 22 ? mark.box.y - 6 : mark.box.maxY + 18
            var width: Int32 = 0
            var overflow: Int32 = 0
            // The bitmap font has ASCII only; anything else is drawn as '?'.
            let caption = String(mark.caption.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? Character($0) : "?" })
            pixSetTextline(colour.pointer, font, caption, value, Int32(max(0, mark.box.x)), Int32(baseline), &width, &overflow)
        }
        try writePNG(colour, to: path)
    }
}
