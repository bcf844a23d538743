import Model
/// Why a barcode/print disagreement planted on a label was not shown as one, from what was read:
/// `fieldrig bench serials` says it beside the miss, so a disagreement lost to reading (the
/// print misread, the barcode not decoded) is told from one the extractor lost.
public enum HiddenDisagreement: Equatable, Sendable, CustomStringConvertible {
    /// No barcode holds the barcode's value.
    case barcodeUnread
    /// No printed line holds the printed value, even with OCR confusions folded (as the bench
    /// counts a serial read).
    case printUnread
    /// The print as read (the value given) is the barcode's too, up to look-alikes: a
    /// character OCR read may stand for either value's ("DEASO169", S for the 5 printed or for
    /// the barcode's 8), so the reading cannot tell the two apart.
    case printReadAsBarcode(String)
    /// Both were read, and the print as read is not the barcode's: the extractor lost it.
    case bothRead

    /// Classifies the planted disagreement of `barcode` (the barcode's value) and `printed`
    /// (the printed value), given the values of the barcodes read and the printed lines read.
    public init(barcode: String, printed: String, barcodes: [String], lines: [String]) {
        guard barcodes.contains(where: { $0.contains(barcode) }) else {
            self = .barcodeUnread
            return
        }
        let wanted = OCRConfusion.fold(printed)
        let other = Array(barcode.uppercased())
        var reads: [[Character]] = []
        for line in lines {
            let chars = Array(line.uppercased().filter { !$0.isWhitespace })
            guard chars.count >= wanted.count else { continue }
            for start in 0...(chars.count - wanted.count) {
                let window = Array(chars[start..<(start + wanted.count)])
                if OCRConfusion.fold(String(window)) == wanted { reads.append(window) }
            }
        }
        guard let first = reads.first else {
            self = .printUnread
            return
        }
        self = reads.allSatisfy { Tokens.confused($0, other) } ? .printReadAsBarcode(String(first)) : .bothRead
    }

    public var description: String {
        switch self {
        case .barcodeUnread: "its barcode was not read"
        case .printUnread: "its print was not read"
        case .printReadAsBarcode(let read): "its print was read as \(read), the barcode's up to look-alikes"
        case .bothRead: "both were read"
        }
    }
}

extension HiddenDisagreement {
    /// The four causes, for counting: the first three are reading's, the last the extractor's.
    public enum Kind: String, CaseIterable, Sendable {
        case barcodeUnread = "barcode not read"
        case printUnread = "print not read"
        case printReadAsBarcode = "print read as the barcode's"
        case bothRead = "both read"
    }

    public var kind: Kind {
        switch self {
        case .barcodeUnread: .barcodeUnread
        case .printUnread: .printUnread
        case .printReadAsBarcode: .printReadAsBarcode
        case .bothRead: .bothRead
        }
    }
}
