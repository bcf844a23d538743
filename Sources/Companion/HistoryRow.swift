import Model
/// One row of an asset's history, as every screen and the terminal draw it: the actor line, the
/// right-hand stamp, the tracked field's legend, and the old value struck through beside the new.
///
/// The provisioning screen's "In the audit trail" preview is drawn from this same type by
/// `HistoryRow.preview(actorName:)`, so the two cannot drift apart (AUDIT-3).
public struct HistoryRow: Sendable, Hashable {
    /// The actor's name, "Unsigned" for an entry with no name, or "Nobody yet" in a preview.
    public var actorLine: String
    /// Drawn in the faint ink: an unsigned entry, or a preview before a name is typed.
    public var actorIsFaint: Bool
    /// The right-hand stamp: "30 Nov 2026 09:14".
    public var stamp: String
    /// The tracked field, as a legend: "Serial".
    public var legend: String
    /// The value before the change, drawn struck through; nil when the field was empty.
    public var oldValue: String?
    public var newValue: String?
    /// Whether the entry carries no name.
    public var isUnsigned: Bool
    /// A preview of an entry that does not exist yet.
    public var isExample: Bool
    /// What VoiceOver reads for the whole row, as one element.
    public var accessibilityText: String

    /// The row for an entry of the audit trail.
    public init(_ entry: AuditEntry) {
        self.init(
            actor: entry.actor, placeholder: "Unsigned", stamp: entry.at.stamp, field: entry.field, old: entry.oldValue,
            new: entry.newValue,
            isExample: false)
    }

    /// The provisioning preview (AUDIT-2): the entry as it will be drawn once the name is in.
    /// Before a name is typed the actor line reads "Nobody yet", faint, and the entry is unsigned.
    public static func preview(actorName: String?, at time: Timestamp) -> HistoryRow {
        let name = normalisedActorName(actorName)
        return HistoryRow(
            actor: name, placeholder: "Nobody yet", stamp: time.stamp, field: "serial", old: "C02XK1ZJJGH4", new: "C02XK1ZJJGH5",
            isExample: true)
    }

    private init(actor: String?, placeholder: String, stamp: String, field: String, old: String?, new: String?, isExample: Bool) {
        actorLine = actor ?? placeholder
        actorIsFaint = actor == nil
        self.stamp = stamp
        legend = HistoryRow.legend(field)
        oldValue = old
        newValue = new
        isUnsigned = actor == nil
        self.isExample = isExample
        let who = actor ?? (isExample ? "nobody yet, so the entry would be unsigned" : "unsigned")
        let change =
            switch (old, new) {
            case (nil, let new?): "\(legend) set to \(new)"
            case (let old?, nil): "\(legend) \(old) removed"
            case (let old?, let new?): "\(legend) changed from \(old) to \(new)"
            case (nil, nil): legend
            }
        accessibilityText = (isExample ? "Example of an audit trail entry. " : "") + "\(change), by \(who), \(stamp)."
    }

    /// "serial" → "Serial".
    static func legend(_ field: String) -> String {
        field.prefix(1).uppercased() + field.dropFirst()
    }

    /// The row drawn for a terminal, `width` columns wide: the actor line with the stamp at the
    /// right, then the legend with the old value struck through (combining long stroke) and the new.
    public func terminal(width: Int = 72) -> String {
        let gap = max(2, width - actorLine.count - stamp.count)
        let first = actorLine + String(repeating: " ", count: gap) + stamp
        let struck = oldValue.map { $0.map { "\($0)\u{0336}" }.joined() }
        let change = [struck, newValue].compactMap { $0 }.joined(separator: " → ")
        var second = "  \(legend)" + (change.isEmpty ? "" : "  \(change)")
        if isExample { second += "   (example)" }
        return first + "\n" + second
    }
}
