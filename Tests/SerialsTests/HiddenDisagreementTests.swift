import Testing

@testable import Serials

@Suite("Why a planted disagreement was not shown")
struct HiddenDisagreementTests {
    @Test("no barcode holds the barcode's value: its barcode was not read")
    func barcodeUnread() {
        let why = HiddenDisagreement(barcode: "DEA80169", printed: "DEA50169", barcodes: ["0123456"], lines: ["S/N: DEA50169"])
        #expect(why == .barcodeUnread)
        #expect(why.description == "its barcode was not read")
    }

    @Test("a barcode holding the value with a prefix is read; a print garbled beyond look-alikes is not")
    func printUnread() {
        let why = HiddenDisagreement(barcode: "ZL3U5ZYK", printed: "ZL9U5ZYK", barcodes: ["SZL3U5ZYK"], lines: ["Serial: ZLOU5ZYK"])
        #expect(why == .printUnread)
        // Look-alikes folding does not hold (E for F, A for 4, S for 9) are a print not read,
        // as the bench counts a serial not read.
        let garbled = HiddenDisagreement(barcode: "PFZ42E29", printed: "PFZ42M29", barcodes: ["PFZ42E29"], lines: ["Serial PEZAZMZS"])
        #expect(garbled == .printUnread)
    }

    @Test("a print read with a character that stands for either value's is the barcode's up to look-alikes")
    func printReadAsBarcode() {
        // S is read for 5 and for 8: the print as read cannot tell 5 (printed) from 8 (barcode).
        let why = HiddenDisagreement(barcode: "DEA80169", printed: "DEA50169", barcodes: ["DEA80169"], lines: ["S/N#: DEASO169"])
        #expect(why == .printReadAsBarcode("DEASO169"))
        #expect(why.description == "its print was read as DEASO169, the barcode's up to look-alikes")
    }

    @Test("a print read as its own value, spaces dropped, where it differs from the barcode: both were read")
    func bothRead() {
        let why = HiddenDisagreement(barcode: "DEA80169", printed: "DEA50169", barcodes: ["DEA80169"], lines: ["S/N: DEA5 0169"])
        #expect(why == .bothRead)
        // One reading that cannot tell them apart, another that can: the print was read.
        let twice = HiddenDisagreement(
            barcode: "DEA80169", printed: "DEA50169", barcodes: ["DEA80169"], lines: ["DEASO169", "DEA5O169"])
        #expect(twice == .bothRead)
    }
}
