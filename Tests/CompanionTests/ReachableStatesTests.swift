import Model
import Testing

@testable import Companion

/// Every event the sheet can receive, with a finite set of readings and times, so that the states
/// it can reach can be enumerated to the end.
let alphabet: [ScanSheet.Event] = {
    var events: [ScanSheet.Event] = [
        .opened, .cameraStarted, .cameraRecovered, .tapOpenSettings, .tapVerify, .tapOpenRecord, .tapNext, .dismissOffer,
        .wentToBackground, .returnedToForeground,
    ]
    events += CameraTrouble.allCases.map {
        .cameraFailed($0 == .stopped(reason: "the camera stopped") ? .stopped(reason: "errno 19 in VIDIOC_DQBUF") : $0)
    }
    events += Route.allCases.map { .tapRoute($0) }
    for at in [Duration.zero, .seconds(1)] {
        events += [
            .frameRead([barcode(goodTag)], at: at), .frameRead([barcode(forgedTag)], at: at),
            .frameRead([barcode(pairing.payload)], at: at),
            .frameRead([printed("S/N: 7XK2M93", line: 1)], at: at), .frameRead([], at: at),
        ]
    }
    events += [Duration.milliseconds(500), .seconds(1), .seconds(2)].map { .clock($0) }
    let stamp = Stamp(id: 1, tag: "MF-0004", at: Timestamp(year: 2026, month: 11, day: 30), actor: nil)
    events += [.stampResult(.recorded(stamp))] + StampRefusal.allCases.map { .stampResult(.refused($0)) }
    return events
}()

/// Every state reachable from a new sheet of `purpose`, by breadth-first search to the end.
func reachable(_ purpose: ScanSheet.Purpose) -> Set<ScanSheet> {
    var seen: Set<ScanSheet> = [ScanSheet(purpose: purpose, context: context)]
    var frontier = Array(seen)
    while let state = frontier.popLast() {
        for event in alphabet {
            var next = state
            _ = next.handle(event)
            if seen.insert(next).inserted { frontier.append(next) }
        }
    }
    return seen
}

@Suite("Scan sheet: every reachable state")
struct ReachableStatesTests {
    @Test(
        "in every reachable state, the sentence, routes and buttons follow the rules (SCAN-5..8, SCAN-10)",
        arguments: [ScanSheet.Purpose.intake, .walkRound])
    func everyState(purpose: ScanSheet.Purpose) {
        let states = reachable(purpose)
        #expect(states.count > 50, "the search should reach many states, reached \(states.count)")
        var kinds = Set<String>()
        for state in states {
            let screen = state.screen
            let cardUp = screen.card != nil
            switch state.camera {
            case .starting:
                kinds.insert("starting")
                #expect(screen.sentence == sentences["starting"])
            case .ready:
                kinds.insert("ready")
                #expect(screen.sentence == sentences["ready"])
            case .trouble(let trouble):
                kinds.insert(trouble.kind)
                #expect(screen.sentence == sentences[trouble.kind])
            }
            if case .trouble(let trouble) = state.camera {
                // SCAN-7: nothing that needs the camera, and Add it by hand unless a card is up.
                #expect(screen.routeTitles == (cardUp ? [] : ["Add it by hand"]), "\(state)")
                #expect(screen.buttons == (trouble == .accessOff ? ["Open Settings"] : []))
            } else {
                #expect(screen.routeTitles == (cardUp ? [] : allRoutes))
                #expect(screen.buttons.isEmpty)
            }
            #expect(!screen.sentence.contains("errno"))
            // Every event from every state keeps the rules: the next state is in the set and checked too.
            for event in alphabet {
                var next = state
                let effects = next.handle(event)
                #expect(states.contains(next))
                // Nothing the camera reads is written without a person's tap (INTAKE-3).
                if case .frameRead = event { #expect(!effects.contains { if case .recordStamp = $0 { true } else { false } }) }
                if case .clock = event { #expect(effects.isEmpty) }
            }
        }
        #expect(kinds == Set(sentences.keys), "every sheet state is reached")
    }
}
