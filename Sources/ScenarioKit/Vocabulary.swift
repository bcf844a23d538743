import Camera
import Companion
import Foundation
import MacLink
import Model
import Register
import Shell

// The steps QA write. Each takes the caller's file and line, so a failure points at the scenario.

/// Open Scan (intake: a tag opens its record), or the walk-round (a hit draws the card).
public func openScan(_ purpose: ScanSheet.Purpose = .intake, file: String = #filePath, line: Int = #line) -> Step {
    Step(.openScan(purpose), "open \(purpose == .walkRound ? "the walk-round" : "Scan")", file: file, line: line)
}
public func closeScan(file: String = #filePath, line: Int = #line) -> Step { Step(.closeScan, "close Scan", file: file, line: line) }
/// Let `seconds` pass on the virtual clock, the camera playing meanwhile.
public func wait(_ seconds: Double, file: String = #filePath, line: Int = #line) -> Step {
    Step(.wait(.milliseconds(Int((seconds * 1000).rounded()))), "wait \(seconds) s", file: file, line: line)
}
public func tapVerify(file: String = #filePath, line: Int = #line) -> Step { Step(.scan(.tapVerify), "tap VERIFY", file: file, line: line) }
public func tapNext(file: String = #filePath, line: Int = #line) -> Step { Step(.scan(.tapNext), "tap NEXT", file: file, line: line) }
public func tapOpenRecord(file: String = #filePath, line: Int = #line) -> Step {
    Step(.scan(.tapOpenRecord), "tap OPEN THE RECORD", file: file, line: line)
}
public func tapOpenSettings(file: String = #filePath, line: Int = #line) -> Step {
    Step(.scan(.tapOpenSettings), "tap Open Settings", file: file, line: line)
}
public func tap(_ route: Route, file: String = #filePath, line: Int = #line) -> Step {
    Step(.scan(.tapRoute(route)), "tap \(route.title)", file: file, line: line)
}
public func putOfferAway(file: String = #filePath, line: Int = #line) -> Step {
    Step(.scan(.dismissOffer), "put the offer away", file: file, line: line)
}
public func goToBackground(file: String = #filePath, line: Int = #line) -> Step {
    Step(.background, "go to the background", file: file, line: line)
}
public func returnToForeground(file: String = #filePath, line: Int = #line) -> Step {
    Step(.foreground, "come back to the foreground", file: file, line: line)
}
public func takePhotograph(of tag: String, bytes: Int = 200_000, file: String = #filePath, line: Int = #line) -> Step {
    Step(.photograph(tag: tag, bytes: bytes), "photograph \(tag)", file: file, line: line)
}
/// A photograph kept on the phone and not queued yet (the shutter fired; the queue has not taken it).
public func keepPhotograph(of tag: String, bytes: Int = 200_000, file: String = #filePath, line: Int = #line) -> Step {
    Step(.keepPhotograph(tag: tag, bytes: bytes), "photograph \(tag), kept and not queued", file: file, line: line)
}
/// The last photograph of `tag` kept without being queued goes on the queue now.
public func queuePhotograph(of tag: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.queuePhotograph(tag: tag), "queue the kept photograph of \(tag)", file: file, line: line)
}
/// The camera of the screen in front fails now (`.busy`, `.accessOff`, `.cannotScan`,
/// `.stopped(reason:)`), as the live page's fault buttons make it fail.
public func cameraFails(_ trouble: CameraTrouble, file: String = #filePath, line: Int = #line) -> Step {
    Step(.cameraFails(trouble), "the camera fails now: \(trouble.kind)", file: file, line: line)
}
/// The Mac takes the phone's next request, and its reply is lost on the way back.
public func macReplyIsLost(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macReplyLost, "the Mac's reply to the next request is lost", file: file, line: line)
}
public func pushUploads(file: String = #filePath, line: Int = #line) -> Step {
    Step(.pushUploads, "let the queue push", file: file, line: line)
}
public func macLeavesNetwork(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macReachable(false), "the Mac leaves the network", file: file, line: line)
}
public func macReturns(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macReachable(true), "the Mac is back on the network", file: file, line: line)
}
public func macAccepts(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macDecides(accept: true), "somebody at the Mac accepts", file: file, line: line)
}
public func macDeclines(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macDecides(accept: false), "somebody at the Mac declines", file: file, line: line)
}
public func openHandover(file: String = #filePath, line: Int = #line) -> Step {
    Step(.openHandover, "open Send to the Mac", file: file, line: line)
}
public func tapSendIt(file: String = #filePath, line: Int = #line) -> Step { Step(.sendHandover, "tap Send it", file: file, line: line) }
public func tapPairWithMac(file: String = #filePath, line: Int = #line) -> Step {
    Step(.handover(.tapPair), "tap Pair with the Mac", file: file, line: line)
}
public func checkAgain(file: String = #filePath, line: Int = #line) -> Step {
    Step(.handover(.tapCheckAgain), "tap Check again", file: file, line: line)
}
public func closeHandover(file: String = #filePath, line: Int = #line) -> Step {
    Step(.handover(.close), "close Send to the Mac", file: file, line: line)
}
public func restartApp(file: String = #filePath, line: Int = #line) -> Step {
    Step(.restartApp, "kill and restart the app", file: file, line: line)
}
public func openSweep(file: String = #filePath, line: Int = #line) -> Step { Step(.openSweep, "open Sweep a rack", file: file, line: line) }
public func confirmSweep(file: String = #filePath, line: Int = #line) -> Step {
    Step(.sweep(.tapConfirm), "confirm the sweep", file: file, line: line)
}
/// Cancel on the sweep: its camera stops and it closes, nothing written.
public func cancelSweep(file: String = #filePath, line: Int = #line) -> Step {
    Step(.sweep(.tapCancel), "cancel the sweep", file: file, line: line)
}
/// A route the sweep offers (after its camera failed: Add it by hand).
public func tapSweepRoute(_ route: Route, file: String = #filePath, line: Int = #line) -> Step {
    Step(.sweep(.tapRoute(route)), "tap \(route.title) on the sweep", file: file, line: line)
}
public func addByHand(tag: String, name: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.addByHand(tag: tag, name: name), "add \(tag) by hand", file: file, line: line)
}

// MARK: - Expectations

func expectation(_ text: String, file: String, line: Int, _ check: @escaping @Sendable (World) throws -> String?) -> Step {
    Step(.expect(text, check), "expect \(text)", file: file, line: line)
}

/// The scan sheet's sentence, exactly.
public func expectSentence(_ sentence: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the sentence “\(sentence)”", file: file, line: line) { world in
        guard let screen = world.scanScreen else { return "Scan is not open" }
        return screen.sentence == sentence ? nil : "the screen said “\(screen.sentence)”"
    }
}

/// The routes offered, exactly, in order.
public func expectRoutes(_ titles: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the routes \(titles)", file: file, line: line) { world in
        guard let screen = world.scanScreen else { return "Scan is not open" }
        return screen.routeTitles == titles ? nil : "the routes were \(screen.routeTitles)"
    }
}

/// The buttons on the sheet, exactly.
public func expectButtons(_ titles: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the buttons \(titles)", file: file, line: line) { world in
        guard let screen = world.scanScreen else { return "Scan is not open" }
        return screen.buttons == titles ? nil : "the buttons were \(screen.buttons)"
    }
}

/// The walk-round card for this tag, with the machine's name and the reason, and its actions.
public func expectCard(tag: String, name: String, reason: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the card for \(tag)", file: file, line: line) { world in
        guard case .hit(let card)? = world.scanScreen?.card else { return "no walk-round card was up" }
        guard card.tag == tag, card.name == name, card.reason == reason else {
            return "the card was \(card.tag) “\(card.name)”, “\(card.reason)”"
        }
        return card.actions == ["VERIFY", "OPEN THE RECORD", "NEXT"] ? nil : "the card's actions were \(card.actions)"
    }
}

/// The line where the card confirms, or refuses, the verification.
public func expectConfirmation(_ text: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the card to say “\(text)”", file: file, line: line) { world in
        guard case .hit(let card)? = world.scanScreen?.card else { return "no walk-round card was up" }
        return card.confirmation == text ? nil : "the card said “\(card.confirmation ?? "nothing")”"
    }
}

/// The card confirms a recorded verification ("Verified at HH:MM."), whatever the time.
public func expectVerified(file: String = #filePath, line: Int = #line) -> Step {
    expectation("the card to confirm the verification", file: file, line: line) { world in
        guard case .hit(let card)? = world.scanScreen?.card else { return "no walk-round card was up" }
        return card.confirmation?.hasPrefix("Verified at ") == true ? nil : "the card said “\(card.confirmation ?? "nothing")”"
    }
}

public func expectNoCard(file: String = #filePath, line: Int = #line) -> Step {
    expectation("no card", file: file, line: line) { world in world.scanScreen?.card == nil ? nil : "a card was up" }
}

/// A settled offer holding these values (and maybe more).
public func expectOffer(containing values: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("an offer of \(values)", file: file, line: line) { world in
        guard case .offer(let offer)? = world.scanScreen?.card else { return "no offer was up" }
        let missing = values.filter { v in !offer.values.contains { $0.value == v } }
        return missing.isEmpty ? nil : "the offer lacked \(missing); it held \(offer.values.map(\.value))"
    }
}

/// What the sheet opened, in order: "record MF-0004", "Add it by hand", "Settings", "pairing with ...".
public func expectOpened(_ summaries: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("opened \(summaries)", file: file, line: line) { world in
        let opened = world.scan?.opened.map(\.summary) ?? []
        return opened == summaries ? nil : "opened \(opened)"
    }
}

/// The queue's summary lines, exactly ("All sent", or the counts).
public func expectSummary(_ lines: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the summary \(lines)", file: file, line: line) { world in
        world.summary.lines == lines ? nil : "the summary said \(world.summary.lines)"
    }
}

public func expectExplanation(_ text: String?, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the queue's explanation “\(text ?? "none")”", file: file, line: line) { world in
        world.summary.explanation == text ? nil : "the explanation was “\(world.summary.explanation ?? "none")”"
    }
}

/// The tags with a recorded verification, in any order.
public func expectStamps(_ tags: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("stamps for \(tags)", file: file, line: line) { world in
        let stamped = try world.register.stamps().map(\.tag).sorted()
        return stamped == tags.sorted() ? nil : "the register holds stamps for \(stamped)"
    }
}

/// How many assets the Mac's own register holds.
public func expectMacHolds(assets count: Int, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the Mac to hold \(count) assets", file: file, line: line) { world in
        let held = try world.mac?.register.counts().assets ?? 0
        return held == count ? nil : "the Mac holds \(held)"
    }
}

/// How many photographs the Mac holds.
public func expectMacHolds(photographs count: Int, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the Mac to hold \(count) photographs", file: file, line: line) { world in
        guard let folder = world.mac?.photosFolder else { return count == 0 ? nil : "there is no Mac" }
        let held = try FileManager.default.contentsOfDirectory(atPath: folder).count
        return held == count ? nil : "the Mac holds \(held)"
    }
}

/// The handover screen's status heading and lines; nil heading: no offer yet.
public func expectHandover(heading: String?, lines: [String]? = nil, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the handover to say “\(heading ?? "nothing yet")”", file: file, line: line) { world in
        guard let handover = world.handover else { return "Send to the Mac is not open" }
        let status = handover.screen.status
        if world.handoverHeading != heading { return "it said “\(world.handoverHeading ?? "nothing yet")”" }
        if let lines, status?.lines.filter({ !$0.isEmpty }) != lines { return "its lines were \(status?.lines ?? [])" }
        return nil
    }
}

/// The line under Send it, and whether the button works.
public func expectSendIt(detail: String, enabled: Bool, file: String = #filePath, line: Int = #line) -> Step {
    expectation("Send it: “\(detail)”, \(enabled ? "enabled" : "disabled")", file: file, line: line) { world in
        guard let screen = world.handover?.screen else { return "Send to the Mac is not open" }
        return screen.sendDetail == detail && screen.sendEnabled == enabled
            ? nil : "it said “\(screen.sendDetail)”, \(screen.sendEnabled ? "enabled" : "disabled")"
    }
}

/// Whatever a scenario wants to check, in its own words.
public func expect(
    _ text: String, file: String = #filePath, line: Int = #line, _ check: @escaping @Sendable (World) throws -> String?
) -> Step {
    expectation(text, file: file, line: line, check)
}

// MARK: - Photographing a serial, and provisioning

/// Photograph a serial instead: the chooser's camera, reading a label.
public func openPhotographSerial(file: String = #filePath, line: Int = #line) -> Step {
    Step(.openSerial, "open Photograph a serial", file: file, line: line)
}
public func tapRow(_ index: Int, file: String = #filePath, line: Int = #line) -> Step {
    Step(.serial(.tapRow(index)), "tap row \(index + 1)", file: file, line: line)
}
public func tapUseThisSerial(file: String = #filePath, line: Int = #line) -> Step {
    Step(.serial(.tapUse), "tap USE THIS SERIAL", file: file, line: line)
}
public func tapScanAgain(file: String = #filePath, line: Int = #line) -> Step {
    Step(.serial(.tapScanAgain), "tap Scan again", file: file, line: line)
}
public func tapCancel(file: String = #filePath, line: Int = #line) -> Step {
    Step(.serial(.tapCancel), "tap Cancel", file: file, line: line)
}
public func typeActorName(_ name: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.typeName(name), "type the name “\(name)”", file: file, line: line)
}
public func saveActorName(file: String = #filePath, line: Int = #line) -> Step { Step(.saveName, "save the name", file: file, line: line) }

/// The chooser up, titled and lined as specified, with these values in order (and no more).
public func expectChooser(_ values: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the chooser with \(values)", file: file, line: line) { world in
        guard let chooser = world.serial, case .choosing = chooser.phase else { return "the chooser is not up" }
        guard chooser.title == "Which one is the serial?", chooser.line == "Everything the camera read. Tap the serial." else {
            return "its title or line were wrong"
        }
        let shown = chooser.rows.map(\.value)
        return shown == values ? nil : "it showed \(shown)"
    }
}

/// A row of the chooser saying where it was read (and agreement or disagreement).
public func expectRowDetail(_ index: Int, _ detail: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("row \(index + 1) to read “\(detail)”", file: file, line: line) { world in
        let rows = world.serial?.rows ?? []
        guard rows.indices.contains(index) else { return "there is no row \(index + 1)" }
        return rows[index].detail == detail ? nil : "it read “\(rows[index].detail)”"
    }
}

/// The confirm button carrying this value, or none.
public func expectUseButton(_ value: String?, file: String = #filePath, line: Int = #line) -> Step {
    expectation("USE THIS SERIAL with \(value ?? "nothing")", file: file, line: line) { world in
        let button = world.serial?.useButton
        return button?.value == value && (value == nil || button?.title == "USE THIS SERIAL")
            ? nil : "the button carried \(button?.value ?? "nothing")"
    }
}

/// The serial applied, once the person confirmed it.
public func expectSerialUsed(_ value: String?, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the serial \(value ?? "not") applied", file: file, line: line) { world in
        world.usedSerial == value ? nil : "the serial applied was \(world.usedSerial ?? "none")"
    }
}

/// The flow's phase: "reading", "typing by hand", "cancelled".
public func expectSerialPhase(_ phase: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the serial flow \(phase)", file: file, line: line) { world in
        let now: String
        switch world.serial?.phase {
        case .reading?: now = "reading"
        case .choosing?: now = "choosing"
        case .typingByHand?: now = "typing by hand"
        case .used?: now = "used"
        case .cancelled?: now = "cancelled"
        case nil: now = "closed"
        }
        return now == phase ? nil : "it was \(now)"
    }
}

/// The provisioning preview's actor line, faint or not.
public func expectPreview(actor: String, faint: Bool, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the preview's actor line “\(actor)”", file: file, line: line) { world in
        guard let preview = world.preview else { return "provisioning is not open" }
        return preview.actorLine == actor && preview.actorIsFaint == faint && preview.isExample
            ? nil : "it read “\(preview.actorLine)”\(preview.actorIsFaint ? " (faint)" : "")"
    }
}

/// The latest audit entry's actor (nil: unsigned).
public func expectLastEntrySignedBy(_ actor: String?, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the last audit entry signed by \(actor ?? "nobody")", file: file, line: line) { world in
        let last = try world.register.auditTrail().last
        return last?.actor == actor ? nil : "it was signed by \(last?.actor ?? "nobody")"
    }
}

/// Something else answers at the paired Mac's address, with another certificate.
public func anImpostorAnswersForTheMac(file: String = #filePath, line: Int = #line) -> Step {
    Step(.impostor, "an impostor answers for the Mac", file: file, line: line)
}

/// The handover screen's problem line contains this.
public func expectHandoverProblem(containing text: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the handover to report “\(text)”", file: file, line: line) { world in
        let problem = world.handover?.screen.problem ?? ""
        return problem.contains(text) ? nil : "it reported “\(problem)”"
    }
}

/// How many offers the Mac has received.
public func expectMacOffers(_ count: Int, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the Mac to hold \(count) offers", file: file, line: line) { world in
        world.mac?.offerCount == count ? nil : "it holds \(world.mac?.offerCount ?? 0)"
    }
}

/// The chooser's toolbar, exactly: Scan again and Cancel, or Cancel alone once its camera failed.
public func expectChooserToolbar(_ buttons: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the chooser's toolbar \(buttons)", file: file, line: line) { world in
        guard let chooser = world.serial else { return "the chooser is not open" }
        return chooser.toolbar == buttons ? nil : "the toolbar was \(chooser.toolbar)"
    }
}

/// Whether the sweep is still open (false once it was cancelled, done, or left by a route).
public func expectSweepOpen(_ open: Bool, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the sweep \(open ? "open" : "closed")", file: file, line: line) { world in
        let isOpen = world.sweep.map { !$0.closed } ?? false
        return isOpen == open ? nil : "the sweep was \(isOpen ? "open" : "closed")"
    }
}

/// The handover's problem line, whole.
public func expectHandoverProblem(_ text: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the handover to report exactly “\(text)”", file: file, line: line) { world in
        let problem = world.handover?.screen.problem
        return problem == text ? nil : "it reported “\(problem ?? "nothing")”"
    }
}

/// The sweep's list of tags, in the order seen.
public func expectSweepSeen(_ tags: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the sweep to list \(tags)", file: file, line: line) { world in
        let seen = world.sweep?.sweep.seen.map(\.tag) ?? []
        return seen == tags ? nil : "it listed \(seen)"
    }
}

/// The sweep's sentence and routes.
public func expectSweepScreen(sentence: String, routes: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the sweep to say “\(sentence)”", file: file, line: line) { world in
        guard let sweep = world.sweep?.sweep else { return "the sweep is not open" }
        return sweep.sentence == sentence && sweep.routes.map(\.title) == routes
            ? nil : "it said “\(sweep.sentence)” with \(sweep.routes.map(\.title))"
    }
}

// MARK: - Pairing with the Mac (PAIR-1..3)

/// On the phone's pairing screen: the numbers match.
public func tapNumbersMatch(file: String = #filePath, line: Int = #line) -> Step {
    Step(.pairing(.tapMatch), "tap They match", file: file, line: line)
}
/// On the phone's pairing screen: the numbers differ.
public func tapNumbersDiffer(file: String = #filePath, line: Int = #line) -> Step {
    Step(.pairing(.tapNoMatch), "tap They don’t match", file: file, line: line)
}
/// Cancel on the phone's pairing screen, before it finished: the Mac is told, and nothing is pinned.
public func tapCancelPairing(file: String = #filePath, line: Int = #line) -> Step {
    Step(.pairing(.tapClose), "tap Cancel (pairing)", file: file, line: line)
}
/// On the phone's pairing screen, while the Mac's person has not answered yet.
public func tapPairingCheckAgain(file: String = #filePath, line: Int = #line) -> Step {
    Step(.pairing(.tapCheckAgain), "tap Check again (pairing)", file: file, line: line)
}
/// The person at the Mac compares the number and says it matches the phone's.
public func macConfirmsNumber(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macAnswersPairing(matches: true), "somebody at the Mac confirms the number", file: file, line: line)
}
/// The person at the Mac says the numbers differ.
public func macRejectsNumber(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macAnswersPairing(matches: false), "somebody at the Mac says the numbers differ", file: file, line: line)
}
/// Somebody between the phone and the Mac relays the pairing with a certificate of their own.
public func somebodyRelaysPairing(file: String = #filePath, line: Int = #line) -> Step {
    Step(.relayPairing, "somebody relays the pairing with their own certificate", file: file, line: line)
}
/// The impostor at the Mac's address goes away; the real Mac answers again.
public func theImpostorLeaves(file: String = #filePath, line: Int = #line) -> Step {
    Step(.impostorLeaves, "the impostor leaves", file: file, line: line)
}
/// The Mac forgets this phone (unpaired at the Mac).
public func macForgetsThisPhone(file: String = #filePath, line: Int = #line) -> Step {
    Step(.macForgetsPhone, "the Mac forgets this iPhone", file: file, line: line)
}
/// A device the Mac never paired with offers it a register and a photograph.
public func aStrangerSendsToTheMac(file: String = #filePath, line: Int = #line) -> Step {
    Step(.strangerSends, "a device the Mac never paired with sends it an offer and a photograph", file: file, line: line)
}

/// The phone's pairing screen: its lines and buttons, exactly.
public func expectPairing(lines: [String], buttons: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the pairing screen to say \(lines)", file: file, line: line) { world in
        guard let screen = world.pairing?.screen else { return "pairing is not open" }
        if screen.lines != lines { return "it said \(screen.lines)" }
        return screen.buttons == buttons ? nil : "its buttons were \(screen.buttons)"
    }
}

/// The pairing screen's title, exactly ("Pair with Studio Mac").
public func expectPairingTitle(_ title: String, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the pairing screen titled “\(title)”", file: file, line: line) { world in
        guard let screen = world.pairing?.screen else { return "pairing is not open" }
        return screen.title == title ? nil : "it was titled “\(screen.title)”"
    }
}

/// Whether the scan sheet in front was opened in place by Send to the Mac's Pair row, over it.
public func expectPairingSheetInPlace(file: String = #filePath, line: Int = #line) -> Step {
    expectation("the pairing sheet open in place over Send to the Mac", file: file, line: line) { world in
        guard world.scan != nil, world.pairingSheetInPlace else { return "no pairing sheet was opened in place" }
        return world.handover == nil ? "Send to the Mac is not open beneath it" : nil
    }
}

/// Both screens show a six-digit comparison number, and it is the same one (PAIR-2).
public func expectSameNumberOnBothScreens(file: String = #filePath, line: Int = #line) -> Step {
    expectation("the same six-digit number on the phone and the Mac", file: file, line: line) { world in
        guard let phone = world.pairing?.screen.number else { return "the phone shows no number" }
        guard let mac = world.mac?.pendingPairings.first?.number else { return "the Mac shows no number" }
        guard phone.filter(\.isNumber).count == 6 else { return "the phone shows “\(phone)”" }
        return phone == mac ? nil : "the phone shows \(phone), the Mac \(mac)"
    }
}

/// The phone and the Mac show different numbers.
public func expectDifferentNumbers(file: String = #filePath, line: Int = #line) -> Step {
    expectation("different numbers on the phone and the Mac", file: file, line: line) { world in
        guard let phone = world.pairing?.screen.number else { return "the phone shows no number" }
        guard let mac = world.mac?.pendingPairings.first?.number else { return "the Mac shows no number" }
        return phone != mac ? nil : "both show \(phone)"
    }
}

/// Who has pinned whom: the phone the Mac, the Mac the phone.
public func expectPinned(phone: Bool, mac: Bool, file: String = #filePath, line: Int = #line) -> Step {
    expectation(
        "the phone \(phone ? "pinned" : "not pinned") to the Mac, the Mac \(mac ? "pinned" : "not pinned") to the phone", file: file,
        line: line
    ) {
        world in
        if world.phonePinnedMac != phone { return "the phone \(world.phonePinnedMac ? "has" : "has not") pinned the Mac" }
        return world.macPinnedPhone == mac ? nil : "the Mac \(world.macPinnedPhone ? "has" : "has not") pinned the phone"
    }
}

// MARK: - More of what the world does, and what a person does with the queue

/// Takes a value now, to compare at a later step with `expectRemembered` or `world.remembered`.
public func remember(_ name: String, file: String = #filePath, line: Int = #line, _ value: @escaping @Sendable (World) -> String) -> Step {
    Step(.remember(name, value), "remember \(name)", file: file, line: line)
}

/// The value remembered under `name` is (or is not) what it is now.
public func expectRemembered(
    _ name: String, unchanged: Bool = true, file: String = #filePath, line: Int = #line, _ now: @escaping @Sendable (World) -> String
) -> Step {
    expectation("\(name) \(unchanged ? "unchanged" : "changed")", file: file, line: line) { world in
        guard let before = world.remembered[name] else { return "nothing was remembered as \(name)" }
        let current = now(world)
        return (before == current) == unchanged ? nil : "it was “\(before)” and is “\(current)”"
    }
}

/// The latest photograph of `tag` vanishes from the phone's folder (a cleaner, a bad disk).
public func photographFileDisappears(of tag: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.photographFileDisappears(tag: tag), "the photograph of \(tag) disappears from the phone", file: file, line: line)
}

/// On the queue screen: Try again on the photograph of `tag`.
public func retryUpload(of tag: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.decideUpload(tag: tag, retry: true), "tap Try again on \(tag)'s photograph", file: file, line: line)
}

/// On the queue screen: Remove…, confirmed, on the photograph of `tag`.
public func removeUpload(of tag: String, file: String = #filePath, line: Int = #line) -> Step {
    Step(.decideUpload(tag: tag, retry: false), "remove \(tag)'s photograph from the queue", file: file, line: line)
}

/// The queue pushes, and the network drops after `uploads` photographs have gone up.
public func networkDropsDuringPush(after uploads: Int, file: String = #filePath, line: Int = #line) -> Step {
    Step(.networkDrops(afterUploads: uploads), "push, and the network drops after \(uploads)", file: file, line: line)
}

/// The queue screen's rows: each file's state and choices, as the person reads them.
public func expectQueueRows(_ rows: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the queue rows \(rows)", file: file, line: line) { world in
        let screen = try world.queueScreen()
        let drawn = screen.rows.map { "\($0.state)" + ($0.choices.isEmpty ? "" : " [\($0.choices.joined(separator: ", "))]") }
        return drawn == rows ? nil : "they read \(drawn)"
    }
}

/// The hand intake form's refusal, as it shows it under the form.
public func expectHandIntakeProblem(_ text: String?, file: String = #filePath, line: Int = #line) -> Step {
    expectation("the hand intake to say “\(text ?? "nothing")”", file: file, line: line) { world in
        world.handIntake?.problem == text ? nil : "it said “\(world.handIntake?.problem ?? "nothing")”"
    }
}

/// The sweep's refused stamps, one line each, as the sweep lists them.
public func expectSweepRefusals(_ lines: [String], file: String = #filePath, line: Int = #line) -> Step {
    expectation("the sweep to list refusals \(lines)", file: file, line: line) { world in
        let shown = world.sweepRefused.map(\.line)
        return shown == lines ? nil : "it listed \(shown)"
    }
}

/// Done on the sweep's list of refusals.
public func tapSweepDone(file: String = #filePath, line: Int = #line) -> Step {
    Step(.sweep(.tapDone), "tap Done on the sweep", file: file, line: line)
}
