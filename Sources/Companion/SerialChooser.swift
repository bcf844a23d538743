import Model
import Serials

/// "Photograph a serial instead" (SERIAL-1..8): the read settles by itself, the chooser comes up on
/// its own, the person taps the serial, and only USE THIS SERIAL applies it.
public struct SerialChooser: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        /// The camera is reading; values settle over the window (no box to tap: SERIAL-4).
        /// `settling` holds what was collected so far; `since` is when the first frame came, for
        /// telling "nothing read at all".
        case reading(settling: Settling?, since: Duration?)
        /// The chooser is up, with its rows; `chosen` is the row tapped, if any.
        case choosing(rows: [SerialCandidate], chosen: Int?)
        /// Nothing was read at all: straight through to typing it by hand (SERIAL-8).
        case typingByHand
        /// The person confirmed this value; it is applied (SERIAL-1, SERIAL-6).
        case used(String)
        /// Cancelled: the scanner is re-armed (SERIAL-7).
        case cancelled
    }

    public enum Event: Sendable, Hashable {
        case opened
        case cameraStarted
        case cameraFailed(CameraTrouble)
        case frameRead([Reading], at: Duration)
        case clock(Duration)
        case tapRow(Int)
        case tapUse
        case tapScanAgain
        case tapCancel
        case wentToBackground
        case returnedToForeground
    }

    public enum Effect: Sendable, Hashable {
        case startCamera(CameraSetup)
        case stopCamera
        /// Apply the confirmed serial to the field it fills.
        case useSerial(String)
        case openTypingByHand
        /// Back to the scan sheet, its scanner re-armed.
        case rearmScanner
        case log(String)
    }

    /// One row of the chooser: the value large, where it was read underneath. No scores.
    public struct Row: Sendable, Hashable {
        public var value: String
        public var detail: String
    }

    public private(set) var phase: Phase = .reading(settling: nil, since: nil)
    public private(set) var camera: ScanSheet.CameraState = .starting
    public let window: Duration

    /// Whether the camera is reading (the chooser is not up yet).
    public var isReading: Bool { if case .reading = phase { true } else { false } }
    /// What was collected so far, while reading.
    public var settling: Settling? { if case .reading(let settling, _) = phase { settling } else { nil } }

    /// With frames coming and nothing read for this long, it goes straight to typing by hand.
    public var nothingReadAfter: Duration { window * 3 }

    public init(window: Duration = ScanContext.defaultSettleWindow) { self.window = window }

    /// The chooser's title and line, when it is up.
    public var title: String? { if case .choosing = phase { Copy.chooserTitle } else { nil } }
    public var line: String? { if case .choosing = phase { Copy.chooserLine } else { nil } }

    /// The candidates the chooser lists, in order; none until it is up.
    public var candidates: [SerialCandidate] {
        guard case .choosing(let candidates, _) = phase else { return [] }
        return candidates
    }

    /// The rows, as the person sees them.
    public var rows: [Row] {
        candidates.map { candidate in
            var detail = candidate.whereRead.joined(separator: " and ")
            if candidate.evidence == .agree { detail += ": they agree" }
            if !candidate.disagreesWith.isEmpty { detail += ": disagrees with \(candidate.disagreesWith.joined(separator: ", "))" }
            return Row(value: candidate.value, detail: detail)
        }
    }

    /// The confirm button: "USE THIS SERIAL" with the chosen value under it; nil until a row is tapped.
    public var useButton: (title: String, value: String)? {
        guard case .choosing(let candidates, let chosen?) = phase else { return nil }
        return (Copy.useThisSerial, candidates[chosen].value)
    }

    /// The toolbar's buttons while the chooser is up: Scan again only while the camera can take
    /// another look (SCAN-7: no alternative that depends on what failed).
    public var toolbar: [String] { offersScanAgain ? [Copy.scanAgain, Copy.cancel] : [Copy.cancel] }

    /// Whether Scan again is offered: the chooser up, its camera not failed.
    public var offersScanAgain: Bool {
        guard case .choosing = phase else { return false }
        if case .trouble = camera { return false }
        return true
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .opened:
            phase = .reading(settling: nil, since: nil)
            camera = .starting
            return [.startCamera(.label)]
        case .cameraStarted:
            camera = .ready
            return []
        case .cameraFailed(let trouble):
            camera = .trouble(trouble)
            let log: [Effect] = if case .stopped(let reason) = trouble { [.log("serial camera stopped: \(reason)")] } else { [] }
            // A camera that failed will read nothing: no screen waits on it. Nothing was read, so
            // it goes straight through to typing the serial by hand (SERIAL-8); a chooser already
            // up stays, since its rows need no camera.
            guard isReading else { return log }
            phase = .typingByHand
            return log + [.stopCamera, .openTypingByHand]
        case .frameRead(let readings, let now):
            guard case .reading(var settling, let since) = phase, camera == .ready else { return [] }
            if settling != nil ? !readings.isEmpty : Self.opensWindow(readings) {
                var collecting = settling ?? Settling(startedAt: now, voting: true)
                collecting.add(readings)
                settling = collecting
            }
            phase = .reading(settling: settling, since: since ?? now)
            return settle(now)
        case .clock(let now):
            return isReading ? settle(now) : []
        case .tapRow(let index):
            guard case .choosing(let candidates, _) = phase, candidates.indices.contains(index) else { return [] }
            phase = .choosing(rows: candidates, chosen: index)
            return []
        case .tapUse:
            guard let use = useButton else { return [] }
            phase = .used(use.value)
            return [.stopCamera, .useSerial(use.value)]
        case .tapScanAgain:
            guard offersScanAgain else { return [] }
            phase = .reading(settling: nil, since: nil)
            return []
        case .wentToBackground:
            // Off screen the camera is not ours; what was collected is dropped, as on Scan.
            guard isReading else { return [] }
            phase = .reading(settling: nil, since: nil)
            camera = .starting
            return [.stopCamera]
        case .returnedToForeground:
            guard isReading else { return [] }
            camera = .starting
            return [.startCamera(.label)]
        case .tapCancel:
            guard phase != .cancelled else { return [] }
            phase = .cancelled
            return [.stopCamera, .rearmScanner]
        }
    }

    /// Whether a frame's readings open the settling window: a barcode, or print the extractor
    /// offers a value from. Print it offers nothing from (a label coming into view read as
    /// scraps, a desk's grain) does not start the window's clock, so the window holds the frames
    /// of the label in view rather than of its arrival.
    static func opensWindow(_ readings: [Reading]) -> Bool {
        readings.contains { $0.source.isBarcode } || !SerialExtractor.candidates(from: readings).isEmpty
    }

    /// The value most frames put first, each frame read alone, on two frames at least and more than
    /// any other, goes first (readings of one print alike up to look-alikes counted together:
    /// `framesFirstByPrint`; of two prints read in print alone on as many frames, the one read
    /// more confidently: `leadingPrint`; a value no frame read whole, its start and its end read
    /// on frames that each showed part of the line, on their frames: `withPiecesJoined`): the window's
    /// joined lines (boxes the hand moved between frames) can rank another first, or lose it (a
    /// frame that showed part of the label read last), and then it is listed as its first frame
    /// listed it, where every value it disagrees with is listed (`listLost`). Over a value it
    /// disagrees with too (both stay listed, each saying so: SERIAL-3) where frames that read both
    /// led with it and none with the other (`Settling.ledDisagreement`: a frame that read the code
    /// and not the line has no say, and one that missed the line's caption the window read saw
    /// less than one that led with the window's first); a value the window lost is otherwise
    /// listed second, after the one it disagrees with.
    /// Not over one it is with a character read twice taken out (`tookOutReadTwice`), nor over one
    /// with a character more: which of those leads is the extractor's to say, unless the one
    /// with a character more has one read twice inside the line, put first on half as many frames
    /// at most (`readDoubledOnFewerFrames`). Over itself with a character lost otherwise (a frame
    /// that saw part of the line, a data identifier's S taken off a code), it goes, unless that S
    /// was taken off where a serial's keyword names the rest (`dataIdentifierTakenOffByKeyword`).
    /// A value listed lower that disagrees with it, where frames that read both led with that
    /// value and none with the frames' value, goes first in its stead: the window put a value
    /// neither disputes first (a piece of a line), and the frames' count is of frames that read
    /// one of the two only.
    static func putFramesFirstValueFirst(_ candidates: inout [SerialCandidate], _ collected: Settling) {
        let (counts, firsts) = withPiecesJoined(collected.firstOnFrames, collected.firstCandidates)
        let (ranked, votes) = framesFirstByPrint(counts, listed: candidates.map(\.value))
        guard let best = leadingPrint(ranked, votes, firsts, collected.firstConfidence) else { return }
        if let top = candidates.first, Self.oneCharacterApart(best, top.value),
            best.count < top.value.count && !Self.readDoubledOnFewerFrames(best, top.value, votes)
                || Self.tookOutReadTwice(best, giving: top.value, collected)
                || Self.dataIdentifierTakenOffByKeyword(best, giving: top.value, collected)
        {
            return
        }
        let lost = candidates.contains { $0.value == best } ? nil : firsts[best]
        if let top = candidates.first, top.disagreesWith.contains(best) || lost?.disagreesWith.contains(top.value) == true,
            collected.ledDisagreement[best, default: 0] == 0 || collected.ledDisagreement[top.value, default: 0] > 0
        {
            if let lost { listLost(lost, &candidates, at: 1) }
            return
        }
        if collected.ledDisagreement[best, default: 0] == 0,
            let other = candidates.first(where: { $0.disagreesWith.contains(best) && collected.ledDisagreement[$0.value, default: 0] > 0 })
        {
            putFirst(other.value, lost: nil, &candidates)
            return
        }
        putFirst(best, lost: lost, &candidates)
    }

    /// The frames' value that leads (`ranked` and `votes` as `framesFirstByPrint` gives them): the
    /// first, where its print was put first on two frames at least and on more than any other.
    /// Of prints put first on as many frames, each reading of them read in print alone (`firsts`),
    /// the one tesseract read more confidently over its frames (`confidence`:
    /// `Settling.firstConfidence`), as its reading ranked first; none where two are read as
    /// confidently, or a code is among them.
    static func leadingPrint(
        _ ranked: [String], _ votes: [String: Int], _ firsts: [String: SerialCandidate], _ confidence: [String: Double]
    ) -> String? {
        guard let top = ranked.first, let count = votes[top], count >= 2 else { return nil }
        let tied = ranked.filter { votes[$0] == count }
        let prints = Dictionary(grouping: tied, by: OCRConfusion.fold)
        guard prints.count > 1 else { return top }
        guard tied.allSatisfy({ firsts[$0]?.evidence == .text }) else { return nil }
        let read = prints.mapValues { values in values.reduce(0) { $0 + confidence[$1, default: 0] } }.sorted { $0.value > $1.value }
        guard read[0].value > read[1].value else { return nil }
        return tied.first { OCRConfusion.fold($0) == read[0].key }
    }

    /// A value frames read alone led with over a value it disagrees with on two frames at least
    /// (`Settling.ledDisagreement`), which the window lost, is listed over the first value it
    /// disagrees with, where that one led on no frame (`listLost`): frames that read the code and
    /// the print both led with the print, and the window's vote of the print's line lost it
    /// (read in two lengths on as many frames). Both are shown, each naming the other (SERIAL-3).
    /// Not where the print's own line was read as that value on as many frames
    /// (`Settling.lineReadAsCode`): the window read the line as the code, and did not lose it.
    static func listLostDisagreement(_ candidates: inout [SerialCandidate], _ collected: Settling) {
        let led = collected.ledDisagreement.filter { $0.value >= 2 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        for (value, _) in led {
            guard !candidates.contains(where: { $0.value == value }), let lost = collected.firstCandidates[value],
                let over = candidates.firstIndex(where: { lost.disagreesWith.contains($0.value) }),
                collected.ledDisagreement[candidates[over].value, default: 0] == 0,
                !collected.lineReadAsCode(value, code: candidates[over].value)
            else { continue }
            listLost(lost, &candidates, at: over)
        }
    }

    /// `value` first: moved up where it is listed, else `lost` (as a frame listed it) listed
    /// first (`listLost`).
    static func putFirst(_ value: String, lost: SerialCandidate?, _ candidates: inout [SerialCandidate]) {
        if let listed = candidates.firstIndex(where: { $0.value == value }) {
            candidates.insert(candidates.remove(at: listed), at: 0)
        } else if let lost {
            listLost(lost, &candidates, at: 0)
        }
    }

    /// The window's first value with a character lost at its start or end, where a frame read
    /// alone put the value with that character first as often at least: the value with it goes
    /// first (a frame that showed part of the line, a character at the edge of what was seen,
    /// read it short). Not a value with an S or a 5 before it (a data identifier's S, or a
    /// keyword's, read on), nor one the window made shorter by taking out a character read twice
    /// (`tookOutReadTwice`). Where more frames put one of them first, `putFramesFirstValueFirst`
    /// has said which leads; the last of the window's orderings, after a value read whole has
    /// gone over its pieces (`putWholeBeforeFragments`).
    static func putEdgeCharacterBack(_ candidates: inout [SerialCandidate], _ collected: Settling) {
        guard let top = candidates.first, isPlainPrint(top) else { return }
        let counts = collected.firstOnFrames
        let short = OCRConfusion.fold(top.value)
        let longer = framesFirstOrder(counts).first { value in
            let long = OCRConfusion.fold(value)
            return long.count == short.count + 1 && (long.hasPrefix(short) || long.hasSuffix(short) && !long.hasPrefix("5"))
                && counts[value, default: 0] >= counts[top.value, default: 0]
                && collected.firstCandidates[value].map(isPlainPrint) == true
                && !tookOutReadTwice(value, giving: top.value, collected)
        }
        guard let longer else { return }
        putFirst(longer, lost: collected.firstCandidates[longer], &candidates)
    }

    /// `lost`, a value the frames put first and the window lost, listed at `index`, where every
    /// value it disagrees with is listed: each of those then says it disagrees with `lost` too.
    static func listLost(_ lost: SerialCandidate, _ candidates: inout [SerialCandidate], at index: Int) {
        guard lost.disagreesWith.allSatisfy({ other in candidates.contains { $0.value == other } }) else { return }
        for k in candidates.indices
        where lost.disagreesWith.contains(candidates[k].value) && !candidates[k].disagreesWith.contains(lost.value) {
            candidates[k].disagreesWith.append(lost.value)
        }
        candidates.insert(lost, at: min(index, candidates.count))
    }

    /// Each value a frame read whole in print (alone, or alike in a code: `isAgreed`) takes the
    /// place of the first piece of it the window read as a value of its own, and its pieces are
    /// no rows of their own: a value is a piece of another when the other is two characters
    /// longer or more and holds it, up to OCR's look-alikes and one character more (a frame that
    /// showed part of the line, under a thumb, glare or the edge of the view, reads a piece,
    /// misread the more for being at the edge of what was seen). Read whole is the first
    /// candidate of a frame read alone (`firstOnFrames`): a longer value the extractor never put
    /// first on any frame (a piece with junk read on, out of the maker's format) neither goes
    /// above nor takes a piece off the list. Pieces are print only: a barcode is exact, and
    /// values that disagree are the extractor's to order.
    static func putWholeBeforeFragments(_ candidates: inout [SerialCandidate], firstOnFrames: [String: Int]) {
        func readWhole(_ candidate: SerialCandidate) -> Bool {
            (isPlainPrint(candidate) || isAgreed(candidate)) && firstOnFrames[candidate.value, default: 0] > 0
        }
        var i = 0
        while i < candidates.count {
            let piece = candidates[i]
            if isPlainPrint(piece),
                let whole = candidates[(i + 1)...].firstIndex(where: { readWhole($0) && Self.isPiece(piece.value, of: $0.value) })
            {
                candidates.insert(candidates.remove(at: whole), at: i)
            }
            i += 1
        }
        let wholes = candidates.filter(readWhole)
        candidates.removeAll { piece in isPlainPrint(piece) && wholes.contains { Self.isPiece(piece.value, of: $0.value) } }
    }

    /// Each printed value a frame read alone put first, which the window lost while it listed a
    /// piece of it (`isPiece`), is listed above the first such piece, as its first frame listed
    /// it: the window's lines were joined with a frame that showed part of the line. Values put
    /// first on more frames go first; a value that disagrees with another is not listed so.
    static func listLostWholes(_ candidates: inout [SerialCandidate], _ collected: Settling) {
        for whole in framesFirstValues(collected) where isPlainPrint(whole) {
            guard !candidates.contains(where: { $0.value == whole.value }) else { continue }
            if let piece = candidates.firstIndex(where: { isPlainPrint($0) && isPiece($0.value, of: whole.value) }) {
                candidates.insert(whole, at: piece)
            }
        }
    }

    /// The first candidate of each frame read alone, as the first frame to put it first listed
    /// it, in the order `framesFirstOrder` gives.
    static func framesFirstValues(_ collected: Settling) -> [SerialCandidate] {
        framesFirstOrder(collected.firstOnFrames).compactMap { collected.firstCandidates[$0] }
    }

    /// The frames' votes (`counts`) and the candidates they put first (`firsts`), with each value
    /// no frame read whole that two of them are pieces of (`joined`): frames that each showed
    /// part of the line (a thumb, glare or the edge of the view over the rest) read its start
    /// and its end. The whole stands for every frame that put one of its pieces first (the two,
    /// and any `isPiece` of it), as read on both pieces' lines. Not where one value put first
    /// holds both pieces already: the line was read whole.
    static func withPiecesJoined(
        _ counts: [String: Int], _ firsts: [String: SerialCandidate]
    ) -> (counts: [String: Int], firsts: [String: SerialCandidate]) {
        var (joinedCounts, joinedFirsts) = (counts, firsts)
        let pieces = counts.keys.sorted().filter { firsts[$0].map(isPlainPrint) == true }
        for start in pieces {
            for end in pieces where end != start {
                guard let whole = joined(start, end), joinedCounts[whole] == nil,
                    !counts.keys.contains(where: { holds($0, start) && holds($0, end) })
                else { continue }
                let parts = counts.filter { $0.key == start || $0.key == end || isPiece($0.key, of: whole) }
                joinedCounts[whole] = parts.values.reduce(0, +)
                var places: [Provenance] = []
                places.appendNew([start, end].compactMap { firsts[$0] }.flatMap(\.provenance).map { $0.remade(.piecesJoined) })
                joinedFirsts[whole] = SerialCandidate(value: whole, provenance: places, evidence: .text, disagreesWith: [])
            }
        }
        return (joinedCounts, joinedFirsts)
    }

    /// `start` run on into `end`, where the end of one is the start of the other over six
    /// characters or more (look-alikes folded) and the whole is longer than either: "VM02KW85260"
    /// and "2KW852604" are "VM02KW852604". Nil otherwise, or where the whole would be longer
    /// than a serial's 24 characters.
    static func joined(_ start: String, _ end: String) -> String? {
        let (head, tail) = (Array(OCRConfusion.fold(start)), Array(OCRConfusion.fold(end)))
        let longest = min(head.count, tail.count) - 1
        guard longest >= 6 else { return nil }
        for overlap in stride(from: longest, through: 6, by: -1) where Array(head.suffix(overlap)) == Array(tail.prefix(overlap)) {
            let whole = start + end.dropFirst(overlap)
            return whole.count <= 24 ? whole : nil
        }
        return nil
    }

    /// Whether `value` holds `piece` as a run of its characters, up to look-alikes and one
    /// character more.
    static func holds(_ value: String, _ piece: String) -> Bool {
        let (long, short) = (Array(OCRConfusion.fold(value)), Array(OCRConfusion.fold(piece)))
        guard short.count <= long.count else { return false }
        return (0...(long.count - short.count)).contains { start in zip(short, long[start...]).count { $0 != $1 } <= 1 }
    }

    /// Values put first on frames (`counts`: on how many), the value put first on most frames
    /// first; of two put first as often, the one OCR reads the other for (5 read as S: S05 before
    /// S0S), else in the order of their characters.
    static func framesFirstOrder(_ counts: [String: Int]) -> [String] {
        func likelier(_ a: String, _ b: String) -> Bool {
            a.count == b.count && a != b && zip(a, b).allSatisfy { $0 == $1 || SerialExtractor.oftenReadAs($0, $1) }
        }
        return counts.sorted { x, y in
            guard x.value == y.value else { return x.value > y.value }
            if likelier(x.key, y.key) != likelier(y.key, x.key) { return likelier(x.key, y.key) }
            return x.key < y.key
        }.map(\.key)
    }

    /// The frames' votes (`counts`) by print: each value with the frames that put it or another
    /// reading of the same print first (alike up to look-alikes: "PFIF7FYK" and "PF1F7FYK"), and
    /// the values, the print most frames put first first. Of its readings, the one more frames
    /// put first leads; of two put first as often, the one the window `listed` first (its vote,
    /// character by character, over every frame's lines), then as `framesFirstOrder` has them.
    static func framesFirstByPrint(_ counts: [String: Int], listed: [String]) -> (ranked: [String], votes: [String: Int]) {
        let prints = Dictionary(grouping: counts, by: { OCRConfusion.fold($0.key) }).mapValues { $0.map(\.value).reduce(0, +) }
        let votes = Dictionary(uniqueKeysWithValues: counts.keys.map { ($0, prints[OCRConfusion.fold($0)] ?? 0) })
        func key(_ value: String, _ offset: Int) -> (Int, Int, Int, Int) {
            (-votes[value]!, -counts[value]!, listed.firstIndex(of: value) ?? Int.max, offset)
        }
        let ranked = framesFirstOrder(counts).enumerated().sorted { key($0.element, $0.offset) < key($1.element, $1.offset) }
        return (ranked.map(\.element), votes)
    }

    /// Whether `candidate` was read in print alone and disagrees with nothing.
    static func isPlainPrint(_ candidate: SerialCandidate) -> Bool { candidate.evidence == .text && candidate.disagreesWith.isEmpty }

    /// Whether `candidate` is a code and print read alike, disagreeing with nothing.
    static func isAgreed(_ candidate: SerialCandidate) -> Bool { candidate.evidence == .agree && candidate.disagreesWith.isEmpty }

    /// Whether `piece` is a piece of `whole`: `whole` two characters longer or more, holding
    /// `piece` as a run of its characters up to look-alikes and one character more; four
    /// characters at least.
    static func isPiece(_ piece: String, of whole: String) -> Bool {
        piece.count >= 4 && whole.count >= piece.count + 2 && holds(whole, piece)
    }

    /// Whether the window made `shorter` of `value` by taking out a character OCR read twice from
    /// the same ink (`Reading.readOnce`; look-alikes folded), rather than losing a character a
    /// frame did not see.
    static func tookOutReadTwice(_ value: String, giving shorter: String, _ collected: Settling) -> Bool {
        collected.readings.contains { reading in
            reading.readOnce.contains { word, once in
                OCRConfusion.fold(word).replacing(OCRConfusion.fold(value), with: OCRConfusion.fold(shorter)) == OCRConfusion.fold(once)
            }
        }
    }

    /// Whether the window took an S data identifier off the code `value`, giving `rest`, where a
    /// serial's keyword names the rest on a line it read: frames that put the code first read
    /// the print without its keyword, and saw less than the window.
    static func dataIdentifierTakenOffByKeyword(_ value: String, giving rest: String, _ collected: Settling) -> Bool {
        value == "S" + rest && SerialExtractor.keywordNames(rest, in: collected.readings)
    }

    /// Whether `long` is `short` with one of its characters read twice inside the line (two
    /// look-alikes side by side where `short` has one), and frames read alone put `short` first
    /// on twice as many frames at least: OCR read one character's ink as two on a few frames. A
    /// character more at either end is not this: a frame that saw part of the line loses one
    /// there.
    static func readDoubledOnFewerFrames(_ short: String, _ long: String, _ votes: [String: Int]) -> Bool {
        let (s, l) = (Array(OCRConfusion.fold(short)), Array(OCRConfusion.fold(long)))
        guard l.count == s.count + 1, l.count >= 5, votes[short, default: 0] >= 2 * votes[long, default: 0] else { return false }
        return (2..<(l.count - 1)).contains { k in l[k] == l[k - 1] && Array(l[..<k] + l[(k + 1)...]) == s }
    }

    /// Whether one value is the other with one character more.
    static func oneCharacterApart(_ a: String, _ b: String) -> Bool {
        abs(a.count - b.count) == 1 && OCRConfusion.editDistance(Array(a), Array(b)) == 1
    }

    private mutating func settle(_ now: Duration) -> [Effect] {
        guard case .reading(let settling, let since) = phase else { return [] }
        if settling == nil, let since, now - since >= nothingReadAfter {
            phase = .typingByHand
            return [.stopCamera, .openTypingByHand]
        }
        guard let collected = settling, collected.isSettled(at: now, window: window) else { return [] }
        // Barcodes as they were decoded (exact); printed lines as the window voted them,
        // character by character, with where they are on the label, and the latest frame's
        // second looks at them.
        var candidates = SerialExtractor.candidates(collected.readings)
        Self.putFramesFirstValueFirst(&candidates, collected)
        Self.listLostDisagreement(&candidates, collected)
        Self.listLostWholes(&candidates, collected)
        Self.putWholeBeforeFragments(&candidates, firstOnFrames: collected.firstOnFrames)
        Self.putEdgeCharacterBack(&candidates, collected)
        // Lines of frames the hand moved, joined, can pair every value with another field's
        // keyword: where the window offers nothing, what its frames offered read alone is offered.
        if candidates.isEmpty { candidates = Self.framesFirstValues(collected) }
        if candidates.isEmpty {
            phase = .typingByHand
            return [.stopCamera, .openTypingByHand]
        }
        // One candidate still goes through the chooser: confirming is the cheap half-second.
        phase = .choosing(rows: candidates, chosen: nil)
        return []
    }
}
