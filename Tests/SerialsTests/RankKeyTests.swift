import Testing

@testable import Serials

@Suite("Why a row is above another")
struct RankKeyTests {
    func key(_ tier: RankKey.Tier, _ shown: RankKey.Shown = .print, order: Int = 0, _ variant: RankKey.Variant = .asRead) -> RankKey {
        RankKey(tier: tier, shown: shown, order: order, variant: variant)
    }

    @Test("the tier decides first, then how the row is shown, the order read, and which reading of the print it is")
    func fieldsInOrder() {
        #expect(key(.proven, .hint, order: 9) < key(.named))
        #expect(key(.printed, .print, order: 9) < key(.printed, .barcodeAlone, order: 0))
        #expect(key(.printed, .barcodeAlone) < key(.printed, .hint))
        #expect(key(.agreeing, order: 1, .anotherReading(5)) < key(.agreeing, order: 2, .zeroForO))
        #expect(key(.printed, .print, .zeroForO) < key(.printed, .print, .asRead))
        #expect(key(.printed, .print, .second(7)) < key(.printed, .print, .anotherReading(0)))
        #expect(key(.printed, .print, .second(1)) < key(.printed, .print, .second(2)))
        #expect(RankKey.Tier.allCases.map(\.rawValue) == Array(-1...5))
    }
}
