/// Text made safe to put between tags or inside a quoted attribute.
public func escapeHTML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for c in text {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(c)
        }
    }
    return out
}

/// A small builder for HTML fragments: every text it is given is escaped, so a value read off a
/// label (an attacker's barcode) can never become markup.
struct Markup {
    private(set) var html = ""

    mutating func open(_ tag: String, _ attributes: [(String, String)] = []) {
        html += "<\(tag)" + attributes.map { " \($0.0)=\"\(escapeHTML($0.1))\"" }.joined() + ">"
    }

    mutating func close(_ tag: String) { html += "</\(tag)>" }

    /// `<tag attributes>text</tag>`.
    mutating func element(_ tag: String, _ attributes: [(String, String)] = [], _ text: String) {
        open(tag, attributes)
        html += escapeHTML(text)
        close(tag)
    }

    mutating func element(_ tag: String, _ attributes: [(String, String)] = [], _ inner: (inout Markup) -> Void) {
        open(tag, attributes)
        inner(&self)
        close(tag)
    }

    /// Markup made elsewhere, already safe.
    mutating func raw(_ fragment: String) { html += fragment }
}
