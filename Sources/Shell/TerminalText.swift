import Companion

/// The screens as lines of text for a terminal: one drawing of each, shared by every command
/// that shows it.
public enum TerminalText {
    /// The serial flow as the person sees it: the chooser with its rows (each value, then where it
    /// was read), the confirm button once a row is chosen, or what became of the flow.
    public static func serialChooser(_ chooser: SerialChooser, keys: Bool = false) -> [String] {
        switch chooser.phase {
        case .reading:
            return ["Reading the label… (the list comes up by itself)"]
        case .typingByHand:
            return ["Nothing was read that could be a serial: it goes straight to typing it by hand."]
        case .used(let value):
            return ["Serial used: \(value)"]
        case .cancelled:
            return ["Cancelled: back to Scan."]
        case .choosing(_, let chosen):
            var lines = [chooser.title ?? "", chooser.line ?? ""]
            for (index, row) in chooser.rows.enumerated() {
                let mark = chosen == index ? "▸" : " "
                lines.append("  \(mark) " + (keys ? "[\(index + 1)] " : "") + row.value)
                lines.append("      " + row.detail)
            }
            if let use = chooser.useButton { lines.append(keys ? "  [u] \(use.title)  \(use.value)" : "  [\(use.title)]  \(use.value)") }
            lines.append("  " + chooser.toolbar.map { keys ? "[\($0 == "Cancel" ? "c" : "a")] \($0)" : "[\($0)]" }.joined(separator: "   "))
            return lines
        }
    }
}
