import Model
import Testing

@testable import Companion

let t0 = Timestamp(year: 2026, month: 11, day: 30, hour: 9)

@Suite("History rows, and the preview drawn from them (AUDIT-2, AUDIT-3)")
struct HistoryRowTests {
    @Test("an entry with no actor is drawn unsigned, in the faint ink")
    func unsigned() {
        let row = HistoryRow(
            AuditEntry(
                id: 1, at: t0, actor: nil, entity: "asset", key: "MF-0002", field: "serial", oldValue: "7XK2M93", newValue: "7XK2M94"))
        #expect(row.actorLine == "Unsigned" && row.actorIsFaint && row.isUnsigned)
    }

    @Test("every refused stamp has its sentence for the card, in the place the confirmation would be")
    func refusals() {
        for refusal in StampRefusal.allCases { #expect(refusal.sentence.hasPrefix("Not recorded: "), "\(refusal)") }
        #expect(Set(StampRefusal.allCases.map(\.sentence)).count == StampRefusal.allCases.count)
    }

    @Test("a history row draws the actor, the right-hand stamp, the legend and the struck-through old value")
    func rendering() throws {
        let entry = AuditEntry(
            id: 1, at: t0, actor: "Sam Rivera", entity: "asset", key: "MF-0002", field: "serial", oldValue: "7XK2M93", newValue: "7XK2M94")
        let row = HistoryRow(entry)
        #expect(row.actorLine == "Sam Rivera" && !row.actorIsFaint && row.stamp == "30 Nov 2026 09:00" && row.legend == "Serial")
        #expect(row.accessibilityText == "Serial changed from 7XK2M93 to 7XK2M94, by Sam Rivera, 30 Nov 2026 09:00.")
        let drawn = row.terminal(width: 40).split(separator: "\n").map(String.init)
        #expect(drawn[0] == "Sam Rivera" + String(repeating: " ", count: 13) + "30 Nov 2026 09:00")
        #expect(drawn[0].count == 40)  // the stamp sits at the right-hand edge
        #expect(drawn[1] == "  Serial  7\u{336}X\u{336}K\u{336}2\u{336}M\u{336}9\u{336}3\u{336} → 7XK2M94")
    }

    @Test("the provisioning preview is the same row: Nobody yet and unsigned before typing, the name as it is typed")
    func preview() {
        let before = HistoryRow.preview(actorName: nil, at: t0)
        #expect(before.actorLine == "Nobody yet" && before.actorIsFaint && before.isUnsigned && before.isExample)
        #expect(before.accessibilityText.hasPrefix("Example of an audit trail entry."))
        #expect(before.accessibilityText.contains("by nobody yet, so the entry would be unsigned"))
        #expect(HistoryRow.preview(actorName: "  ", at: t0).actorLine == "Nobody yet")
        let typing = HistoryRow.preview(actorName: "Sa", at: t0)
        #expect(typing.actorLine == "Sa" && !typing.actorIsFaint && !typing.isUnsigned)
        // The preview differs from a real row of the same entry only in being an example.
        var real = HistoryRow(
            AuditEntry(
                id: 1, at: t0, actor: "Sa", entity: "asset", key: "x", field: "serial", oldValue: typing.oldValue, newValue: typing.newValue
            ))
        real.isExample = true
        real.accessibilityText = typing.accessibilityText
        #expect(real == typing)
    }
}
