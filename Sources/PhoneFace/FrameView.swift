import Companion
import Model

/// One box drawn over a camera frame: what was read there.
public struct FrameMark: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// An asset tag whose signature proved it belongs to this register.
        case proven
        case barcode
        case text
    }

    public var box: Box
    public var label: String
    public var kind: Kind

    public init(box: Box, label: String, kind: Kind) {
        self.box = box
        self.label = label
        self.kind = kind
    }

    /// The marks for a frame's readings: each barcode and printed line, proven tags named as such.
    public static func marks(_ readings: [Reading], context: ScanContext?) -> [FrameMark] {
        readings.map { reading in
            switch reading.source {
            case .barcode(let symbology):
                if let context, let tag = AssetTagCode.prove(reading.value, registerID: context.registerID, key: context.tagKey)?.tag {
                    return FrameMark(box: reading.box, label: "\(tag) (proven tag)", kind: .proven)
                }
                return FrameMark(box: reading.box, label: "\(symbology): \(reading.value)", kind: .barcode)
            case .text:
                return FrameMark(box: reading.box, label: reading.value, kind: .text)
            }
        }
    }
}

/// A camera frame with the boxes of what was read drawn over it, in the frame's own pixels.
public enum FrameHTML {
    /// `<figure>` with the image at `source` (a file path relative to the page, or a data URL)
    /// and an SVG of the marks scaled with it; `caption` under it.
    public static func frame(source: String, width: Int, height: Int, marks: [FrameMark], caption: String?) -> String {
        var m = Markup()
        m.element("figure", [("class", "frame")]) { m in
            m.element("div", [("class", "picture")]) { m in
                m.open("img", [("src", source), ("alt", caption ?? "camera frame"), ("width", "\(width)"), ("height", "\(height)")])
                m.raw(overlay(width: width, height: height, marks: marks))
            }
            if let caption { m.element("figcaption", [], caption) }
        }
        return m.html
    }

    /// The SVG of the marks alone, over a `width`x`height` frame.
    public static func overlay(width: Int, height: Int, marks: [FrameMark]) -> String {
        var m = Markup()
        m.element("svg", [("viewBox", "0 0 \(width) \(height)"), ("preserveAspectRatio", "none"), ("class", "marks")]) { m in
            let size = max(12, height / 40)
            for mark in marks {
                m.element("g", [("class", "mark \(mark.kind.rawValue)")]) { m in
                    m.element("title", [], mark.label)
                    m.open(
                        "rect",
                        [
                            ("x", "\(mark.box.x)"), ("y", "\(mark.box.y)"), ("width", "\(max(1, mark.box.width))"),
                            ("height", "\(max(1, mark.box.height))"),
                        ])
                    m.close("rect")
                    m.element(
                        "text", [("x", "\(mark.box.x)"), ("y", "\(max(size, mark.box.y - 4))"), ("font-size", "\(size)")], mark.label)
                }
            }
        }
        return m.html
    }
}
