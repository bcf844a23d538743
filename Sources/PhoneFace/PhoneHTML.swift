import Companion
import Foundation
import Model

/// What the phone shows at one moment, screen by screen: whichever are open. The renderer draws
/// them in the order the phone stacks them (a pairing over everything, then the camera screen in
/// front, then the others), with the queue's summary at the foot, as the More tab shows it.
public struct PhoneView: Sendable {
    public var scan: (purpose: ScanSheet.Purpose, screen: ScanScreen)?
    public var chooser: SerialChooser?
    public var handIntake: HandIntake?
    public var sweep: RackSweep?
    public var queue: QueueScreen?
    public var handover: HandoverScreen?
    public var pairing: PairingScreen?
    public var preview: HistoryRow?

    public init(
        scan: (purpose: ScanSheet.Purpose, screen: ScanScreen)? = nil, chooser: SerialChooser? = nil, handIntake: HandIntake? = nil,
        sweep: RackSweep? = nil, queue: QueueScreen? = nil, handover: HandoverScreen? = nil, pairing: PairingScreen? = nil,
        preview: HistoryRow? = nil
    ) {
        self.scan = scan
        self.chooser = chooser
        self.handIntake = handIntake
        self.sweep = sweep
        self.queue = queue
        self.handover = handover
        self.pairing = pairing
        self.preview = preview
    }
}

/// The phone's screens as HTML, with the exact copy: one renderer for the live page and the
/// scenario traces. Buttons carry the key the terminal uses for the same action (`data-key`), so
/// a page with a script can send them; without one (a trace) they are only drawn.
public enum PhoneHTML {
    /// The phone, in a phone-sized frame.
    public static func phone(_ view: PhoneView) -> String {
        var m = Markup()
        m.element("div", [("class", "phone")]) { m in
            m.element("div", [("class", "notch")], "")
            m.element("div", [("class", "screens")]) { m in
                let empty = m.html.count
                if let pairing = view.pairing { Self.pairing(pairing, &m) }
                if let chooser = view.chooser { Self.chooser(chooser, &m) }
                if let sweep = view.sweep { Self.sweep(sweep, &m) }
                if let scan = view.scan { Self.scan(scan.purpose, scan.screen, &m) }
                if let handover = view.handover { Self.handover(handover, &m) }
                if let form = view.handIntake { Self.handIntake(form, &m) }
                if let preview = view.preview { Self.preview(preview, &m) }
                if m.html.count == empty { m.element("p", [("class", "empty")], "No screen open.") }
            }
            if let queue = view.queue { Self.queue(queue, &m) }
        }
        return m.html
    }

    static func screen(_ id: String, title: String, _ m: inout Markup, _ body: (inout Markup) -> Void) {
        m.element("section", [("class", "screen"), ("id", id)]) { m in
            m.element("h2", [], title)
            body(&m)
        }
    }

    static func button(_ title: String, key: String?, _ m: inout Markup, kind: String = "", enabled: Bool = true) {
        var attributes = [("type", "button"), ("class", "button \(kind)".trimmingCharacters(in: .whitespaces))]
        if let key { attributes.append(("data-key", key)) }
        if !enabled { attributes.append(("disabled", "disabled")) }
        m.element("button", attributes, title)
    }

    static let routeKeys: [Route: String] = [.photographSerial: "1", .sweepRack: "2", .addByHand: "3"]

    static func routes(_ routes: [Route], _ m: inout Markup) {
        guard !routes.isEmpty else { return }
        m.element("div", [("class", "routes")]) { m in
            for route in routes { button(route.title, key: routeKeys[route], &m, kind: "route") }
        }
    }

    static func scan(_ purpose: ScanSheet.Purpose, _ screen: ScanScreen, _ m: inout Markup) {
        Self.screen("scan", title: purpose == .walkRound ? "Walk-round" : "Scan", &m) { m in
            m.element("p", [("class", "sentence")], screen.sentence)
            routes(screen.routes, &m)
            for title in screen.buttons { button(title, key: title == Copy.openSettings ? "s" : nil, &m, kind: "remedy") }
            switch screen.card {
            case .hit(let card)?:
                m.element("div", [("class", "card hit"), ("data-tag", card.tag)]) { m in
                    m.element("div", [("class", "tag")], card.tag)
                    m.element("div", [("class", "name")], card.name)
                    m.element("div", [("class", "reason")], card.reason)
                    m.element("div", [("class", "actions")]) { m in
                        for (title, key) in zip(card.actions, ["v", "o", "n"]) {
                            button(title, key: key, &m, kind: title == Copy.verify ? "primary" : "")
                        }
                    }
                    if let confirmation = card.confirmation {
                        let refused = if case .refused = card.status { true } else { false }
                        m.element("p", [("class", refused ? "confirmation refused" : "confirmation")], confirmation)
                    }
                }
            case .offer(let offer)?:
                m.element("div", [("class", "card offer")]) { m in
                    m.element("div", [("class", "heading")], "What the camera read")
                    m.element("ul", []) { m in
                        for value in offer.values {
                            m.element("li", []) { m in
                                m.element("span", [("class", "value")], value.value)
                                m.element("span", [("class", "where")], value.whereRead.joined(separator: ", "))
                            }
                        }
                    }
                    button("Done", key: "d", &m)
                }
            case nil:
                break
            }
        }
    }

    static func chooser(_ chooser: SerialChooser, _ m: inout Markup) {
        Self.screen("serial", title: "Photograph a serial", &m) { m in
            switch chooser.phase {
            case .reading:
                if case .trouble(let trouble) = chooser.camera {
                    m.element("p", [("class", "sentence")], trouble.sentence)
                } else {
                    m.element("p", [("class", "sentence")], "Reading the label…")
                }
            case .typingByHand:
                m.element("p", [("class", "sentence")], "Nothing was read that could be a serial: type it by hand.")
            case .used(let value):
                m.element("p", [("class", "sentence")], "Serial used: \(value)")
            case .cancelled:
                m.element("p", [("class", "sentence")], "Cancelled: back to Scan.")
            case .choosing(_, let chosen):
                m.element("h3", [], chooser.title ?? "")
                m.element("p", [("class", "line")], chooser.line ?? "")
                m.element("ol", [("class", "rows")]) { m in
                    for (index, row) in chooser.rows.enumerated() {
                        m.element("li", [("class", chosen == index ? "row chosen" : "row"), ("data-key", "\(index + 1)")]) { m in
                            m.element("span", [("class", "value")], row.value)
                            m.element("span", [("class", "where")], row.detail)
                        }
                    }
                }
                if let use = chooser.useButton {
                    m.element("div", [("class", "use")]) { m in
                        button(use.title, key: "u", &m, kind: "primary")
                        m.element("span", [("class", "value")], use.value)
                    }
                }
            }
            m.element("div", [("class", "toolbar")]) { m in
                for title in chooser.toolbar { button(title, key: title == Copy.cancel ? "c" : "a", &m) }
            }
        }
    }

    static func sweep(_ sweep: RackSweep, _ m: inout Markup) {
        Self.screen("sweep", title: "Sweep a rack", &m) { m in
            m.element("p", [("class", "sentence")], sweep.sentence)
            routes(sweep.routes, &m)
            m.element("ul", [("class", "seen")]) { m in
                for tag in sweep.seen {
                    m.element("li", [("class", tag.onWalkRound ? "due" : "")], tag.tag + (tag.onWalkRound ? "  (due)" : ""))
                }
            }
            if let recorded = sweep.recordedCount {
                m.element("p", [("class", "confirmation")], "\(recorded) recorded.")
                for refused in sweep.refused { m.element("p", [("class", "confirmation refused")], refused.line) }
                button("Done", key: nil, &m)
            } else if !sweep.seen.isEmpty {
                button(RackSweep.confirmTitle(sweep.seen.count), key: nil, &m, kind: "primary")
            }
        }
    }

    static func handover(_ screen: HandoverScreen, _ m: inout Markup) {
        Self.screen("handover", title: "Send to the Mac", &m) { m in
            if let status = screen.status {
                m.element("h3", [], status.heading)
                for line in status.lines { m.element("p", [], line) }
                if screen.checkAgainOffered { button("Check again", key: nil, &m) }
            } else {
                m.element("ul", [("class", "account")]) { m in for line in screen.account { m.element("li", [], line) } }
            }
            if let pair = screen.pairRow {
                m.element("div", [("class", "pair")]) { m in
                    button(pair.title, key: nil, &m)
                    m.element("p", [("class", "detail")], pair.detail)
                }
            }
            button("Send it", key: nil, &m, kind: "primary", enabled: screen.sendEnabled)
            m.element("p", [("class", "detail")], screen.sendDetail)
            if let problem = screen.problem { m.element("p", [("class", "confirmation refused")], problem) }
        }
    }

    static func handIntake(_ form: HandIntake, _ m: inout Markup) {
        Self.screen("hand-intake", title: Copy.addByHand, &m) { m in
            m.element("dl", []) { m in
                for field in HandIntake.Field.allCases {
                    m.element("dt", [], field.rawValue.capitalized)
                    m.element("dd", [], form.values[field] ?? "")
                }
            }
            if let problem = form.problem { m.element("p", [("class", "confirmation refused")], problem) }
            button("Save", key: nil, &m, kind: "primary", enabled: form.canSave)
        }
    }

    static func pairing(_ screen: PairingScreen, _ m: inout Markup) {
        Self.screen("pairing", title: screen.title, &m) { m in
            if let number = screen.number { m.element("p", [("class", "number")], number) }
            for line in screen.lines { m.element("p", [], line) }
            m.element("div", [("class", "toolbar")]) { m in for title in screen.buttons { button(title, key: nil, &m) } }
        }
    }

    static func preview(_ row: HistoryRow, _ m: inout Markup) {
        Self.screen("provisioning", title: "Your name on the record", &m) { m in
            m.element("div", [("class", row.isExample ? "history example" : "history")]) { m in
                m.element("div", [("class", row.actorIsFaint ? "actor faint" : "actor")], row.actorLine)
                m.element("div", [("class", "stamp")], row.stamp)
                m.element("div", [("class", "legend")], row.legend)
            }
        }
    }

    static func queue(_ queue: QueueScreen, _ m: inout Markup) {
        m.element("footer", [("class", "queue")]) { m in
            m.element("div", [("class", "heading")], "Photographs")
            for line in queue.header { m.element("div", [("class", "summary")], line) }
            if !queue.rows.isEmpty {
                m.element("ul", [("class", "queue-rows")]) { m in
                    for row in queue.rows {
                        m.element("li", []) { m in
                            m.element("span", [("class", "file")], row.file)
                            m.element("span", [("class", "state")], row.state + (row.problem.map { ": \($0)" } ?? ""))
                            for choice in row.choices { button(choice, key: nil, &m) }
                        }
                    }
                }
            }
        }
    }
}
