import Companion
import Foundation
import Shell

/// The transcript's side of the world: what the person sees, in one line a step.
extension World {
    /// One line of what the person sees now, for the transcript.
    public var seen: String {
        var parts: [String] = []
        if let screen = scanScreen {
            if pairingSheetInPlace { parts.append("pairing sheet over Send to the Mac") }
            parts.append("“\(screen.sentence)”")
            parts.append("routes: " + (screen.routeTitles.isEmpty ? "-" : screen.routeTitles.joined(separator: ", ")))
            if !screen.buttons.isEmpty { parts.append("buttons: " + screen.buttons.joined(separator: ", ")) }
            switch screen.card {
            case .hit(let card)?: parts.append("card: \(card.tag) \(card.name)" + (card.confirmation.map { ", “\($0)”" } ?? ""))
            case .offer(let offer)?: parts.append("offer: " + offer.values.map(\.value).joined(separator: " · "))
            case nil: break
            }
        }
        if let serial {
            switch serial.phase {
            case .choosing:
                parts.append(
                    "chooser: " + serial.rows.map(\.value).joined(separator: " · ")
                        + (serial.useButton.map { " [USE THIS SERIAL \($0.value)]" } ?? ""))
            case .used(let value): parts.append("serial used: \(value)")
            case .typingByHand:
                parts.append(
                    "typing the serial by hand" + { if case .trouble(let t) = serial.camera { ", camera \(t.kind)" } else { "" } }())
            case .reading:
                if case .trouble(let trouble) = serial.camera {
                    parts.append("reading a serial, camera \(trouble.kind)")
                } else {
                    parts.append("reading a serial")
                }
            case .cancelled: parts.append("serial cancelled")
            }
        }
        if let sweep { parts.append("sweep: “\(sweep.sweep.sentence)” seen \(sweep.sweep.seen.map(\.tag).joined(separator: ","))") }
        if let handover, let status = handover.screen.status { parts.append("handover: \(status.heading)") }
        if let pairing {
            parts.append(
                "pairing: " + (pairing.screen.number.map { "\($0) " } ?? "") + pairing.screen.lines.joined(separator: " ") + " ["
                    + pairing.screen.buttons.joined(separator: ", ") + "]")
        }
        parts.append("queue: " + summary.lines.joined(separator: "; "))
        return parts.joined(separator: " | ")
    }
}
