import Foundation

/// What a label fixture is known to hold: the `NAME.expected` file beside `NAME.png` in `Devices/labels/`.
///
/// One fact a line, `#` starts a comment:
/// `barcode SYMBOLOGY VALUE`, `text LINE`, `serial VALUE`, `disagree BARCODE PRINTED`, `effect NAME`,
/// and `misread LINE => READ` for a printed line that tesseract is known to misread beyond the
/// OCR confusions (kept so the limit is visible and any change in it is noticed). A rendered
/// corpus also names each label's `style NAME` (its maker's) and `layout NAME`.
public struct LabelSidecar: Sendable, Equatable {
    public struct Barcode: Sendable, Hashable {
        public var symbology: String
        public var value: String
    }

    public var barcodes: [Barcode] = []
    public var texts: [String] = []
    public var serial: String?
    public var disagreements: [(barcode: String, printed: String)] = []
    public var effects: [String] = []
    /// Printed lines tesseract is known to misread, and how it reads them.
    public var misreadings: [String: String] = [:]
    /// The vendor style and the layout family of a rendered label, where the corpus says.
    public var style: String?
    public var layout: String?

    public init() {}

    /// Parses a sidecar; `name` labels the errors.
    public init(parsing text: String, name: String) throws(SidecarError) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let rest = parts.count > 1 ? parts[1] : ""
            func fail(_ why: String) -> SidecarError { SidecarError(message: "\(name):\(number + 1): \(why)") }
            switch parts[0] {
            case "barcode":
                let fields = rest.split(separator: " ", maxSplits: 1).map(String.init)
                guard fields.count == 2 else { throw fail("'barcode' needs a symbology and a value") }
                barcodes.append(Barcode(symbology: fields[0], value: fields[1]))
            case "text":
                guard !rest.isEmpty else { throw fail("'text' needs the printed line") }
                texts.append(rest)
            case "serial":
                guard !rest.isEmpty, !rest.contains(" ") else { throw fail("'serial' needs one value") }
                serial = rest
            case "disagree":
                let fields = rest.split(separator: " ").map(String.init)
                guard fields.count == 2 else { throw fail("'disagree' needs the barcode's value and the printed one") }
                disagreements.append((fields[0], fields[1]))
            case "misread":
                let fields = rest.components(separatedBy: " => ")
                guard fields.count == 2, texts.contains(fields[0]) else {
                    throw fail("'misread' needs 'LINE => READ', with LINE one of the text lines above it")
                }
                misreadings[fields[0]] = fields[1]
            case "effect":
                effects.append(rest)
            case "style", "layout":
                guard !rest.isEmpty, !rest.contains(" ") else { throw fail("'\(parts[0])' needs one name") }
                if parts[0] == "style" { style = rest } else { layout = rest }
            default:
                throw fail("unknown fact '\(parts[0])' (barcode, text, serial, disagree, misread, effect, style or layout)")
            }
        }
    }

    public static func == (a: LabelSidecar, b: LabelSidecar) -> Bool {
        a.barcodes == b.barcodes && a.texts == b.texts && a.serial == b.serial && a.effects == b.effects && a.misreadings == b.misreadings
            && a.style == b.style && a.layout == b.layout
            && a.disagreements.map { [$0.barcode, $0.printed] } == b.disagreements.map { [$0.barcode, $0.printed] }
    }
}

/// A sidecar line that does not parse; the message names the file and line.
public struct SidecarError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
