import Model
import Serials

/// One distinct value the camera read while settling, and every place it was read.
public struct OfferedValue: Sendable, Hashable {
    public var value: String
    /// Which barcodes and printed lines it was read on, in the order first seen.
    public var places: [Provenance.Place]
    /// Where it was read, for the person: "CODE-128 barcode", "printed line 2".
    public var whereRead: [String] { places.map(\.words) }
    /// Whether a barcode carried it (exact), as well as or instead of print (a hint).
    public var fromBarcode: Bool
    public var fromText: Bool
}

/// One printed line followed across the frames of a window: where it lies on the label (`held`:
/// the hand moves the label between frames), and how often each character was read at each
/// position (by readings of one length: a line OCR read with a character more or less is another
/// track).
public struct PrintedTrack: Sendable, Hashable {
    public private(set) var box: Box
    /// Where the line lies on the label as the window first held it: its latest box less how
    /// far the hand had moved the label by that frame (`Settling`'s `shift`).
    public private(set) var held: Box
    /// How the line slopes on the label, as its latest reading's words showed it.
    public private(set) var slope: Double?
    /// Its rough slope, from words closer together (`Reading.roughSlope`).
    public private(set) var roughSlope: Double?
    /// Its words OCR read a character of twice, in any frame, each read once (`Reading.readOnce`).
    public private(set) var readOnce: [String: String] = [:]
    /// How many moves nothing read showed the window had seen when the line was last read
    /// (`Settling`'s `unshownMoves`).
    public private(set) var moves = 0
    public let place: Provenance.Place
    /// How many frames read the line.
    public var frames: Int { wholes.count }
    private var votes: [[Character: Int]]
    /// Each frame's reading of the line, whole, in the order read, with which of the window's
    /// frames read it (counted from 0).
    private var wholes: [Whole] = []

    private struct Whole: Sendable, Hashable {
        let frame: Int
        let value: String
    }

    init(_ reading: Reading, frame: Int, shift: Shift, moves: Int) {
        box = reading.box
        held = shift.undone(on: reading.box)
        let chars = Array(reading.value)
        place = Provenance.Place(reading.source)
        votes = chars.map { [$0: 0] }
        add(reading, frame: frame, shift: shift, moves: moves)
    }

    /// How many characters the line has.
    public var length: Int { votes.count }

    /// Whether `reading`, read on a frame the hand had moved the label `shift` by, is this line
    /// read again: as long, and where the line is on the label.
    func follows(_ reading: Reading, shift: Shift) -> Bool {
        reading.value.count == length && lies(over: shift.undone(on: reading.box))
    }

    /// Whether `other` (a box on the label as held, `held`) lies where this line is: on its row,
    /// over at least half the shorter.
    func lies(over other: Box) -> Bool {
        let vertical = abs(held.middle.y - other.middle.y) * 2 <= max(held.height, other.height)
        let overlap = min(held.maxX, other.maxX) - max(held.x, other.x)
        return vertical && overlap * 2 >= min(held.width, other.width)
    }

    /// Whether this line was read, whole and as `value` is, on some frame.
    func wasRead(as value: String) -> Bool { wholes.contains { $0.value == value } }

    /// On how many frames this line was read holding `value`.
    func frames(holding value: String) -> Int { wholes.filter { $0.value.contains(value) }.count }

    /// Whether `other` was read on at least twice as many frames as this line, and on two at least.
    func isOutnumbered(by other: PrintedTrack) -> Bool {
        other.frames >= 2 && other.frames >= 2 * frames
    }

    /// Whether `other` is the same line read in another length on at least twice as many frames
    /// (and on two at least): this reading is the odd one out, a character lost or gained, or a
    /// piece of the line read on a frame that showed only part of it. Not where `other` is a
    /// field's keywords alone that this line opens with and goes on from (`goesOn(from:)`).
    func isOutvoted(by other: PrintedTrack) -> Bool {
        other.length != length && isOutnumbered(by: other) && lies(over: other.held) && readsLike(other) && !goesOn(from: other)
    }

    /// Whether this line opens with `other`, a field's keywords alone ("S/N#"), and goes on (look-
    /// alikes folded): the frames that read `other` read the keyword and not its value beside it.
    func goesOn(from other: PrintedTrack) -> Bool {
        let (mine, theirs) = (OCRConfusion.fold(value), OCRConfusion.fold(other.value))
        return mine.count > theirs.count && mine.hasPrefix(theirs) && SerialExtractor.isKeywordsAlone(other.value)
    }

    /// Whether `other`, read on at least twice as many frames (and on two at least), holds this
    /// line as a piece (`SerialChooser.isPiece`), wherever on the frame either lies: a frame that
    /// showed part of the label (entering the view, under a thumb) read part of the line, where
    /// the hand held it then.
    func isPiece(of other: PrintedTrack) -> Bool {
        isOutnumbered(by: other) && SerialChooser.isPiece(value, of: other.value)
    }

    /// Whether `other` reads as the same text: apart, up to look-alikes, by no more than their
    /// lengths differ and two characters (two lines close on the label, read in boxes that
    /// overlap, are not the same line), each of four characters at least (a scrap of one to
    /// three, OCR's reading of noise or of a glyph's edge, is that far from any line it lies on).
    func readsLike(_ other: PrintedTrack) -> Bool {
        let (mine, theirs) = (Array(OCRConfusion.fold(value)), Array(OCRConfusion.fold(other.value)))
        guard min(mine.count, theirs.count) >= 4 else { return false }
        return OCRConfusion.editDistance(mine, theirs) <= abs(mine.count - theirs.count) + 2
    }

    mutating func add(_ reading: Reading, frame: Int, shift: Shift, moves: Int) {
        self.moves = moves
        let chars = Array(reading.value)
        for (k, ch) in chars.enumerated() { votes[k][ch, default: 0] += 1 }
        box = reading.box
        held = shift.undone(on: reading.box)
        slope = reading.slope
        roughSlope = reading.roughSlope
        readOnce.merge(reading.readOnce) { first, _ in first }
        wholes.append(Whole(frame: frame, value: reading.value))
    }

    /// The line as the frames read it (`value`), where places its frames are tied at (as many
    /// read one character there as another) are read also by pieces of it among `others`:
    /// shorter lines lying over it, a frame that saw part of the line (glare or a thumb over the
    /// rest) or read it in pieces. Each frame that read a piece and not the line is one more vote
    /// at the tied places the piece covers, where it lies in the line (`placing`).
    func value(breakingTiesWith others: [PrintedTrack]) -> String {
        let tied = Set(tiedPlaces.keys)
        guard !tied.isEmpty else { return value }
        var track = self
        for piece in others {
            guard let offset = placing(piece, tied: tied) else { continue }
            for whole in piece.wholes where !wholes.contains(where: { $0.frame == whole.frame }) {
                for (i, ch) in whole.value.enumerated() where tied.contains(offset + i) { track.votes[offset + i][ch, default: 0] += 1 }
            }
        }
        return track.value
    }

    /// Where `piece` lies in this line, when it is a piece of it: the one place where it reads
    /// what the line's frames agree on (look-alikes as the same) at three places at least and
    /// at every place it covers but the tied ones, and at each tied place one of the characters
    /// tied there (at one at least). A piece that fits two places, or none, has no say.
    private func placing(_ piece: PrintedTrack, tied: Set<Int>) -> Int? {
        guard piece.length >= 4, piece.length < length, lies(over: piece.held) else { return nil }
        let chars = Array(piece.value)
        let fits = (0...(length - piece.length)).filter { offset in
            var (agreed, broken) = (0, 0)
            for (i, ch) in chars.enumerated() {
                let top = mostRead(at: offset + i)
                if tied.contains(offset + i) {
                    guard top.contains(ch) else { return false }
                    broken += 1
                } else {
                    guard top.contains(where: { SerialExtractor.lookAlike($0, ch) }) else { return false }
                    agreed += 1
                }
            }
            return agreed >= 3 && broken >= 1
        }
        return fits.count == 1 ? fits.first : nil
    }

    /// The line as the frames read it: each position's most frequent character
    /// (`characterVote`). Where two positions or more are tied between characters that are not
    /// look-alikes (two frames read different print there, not one print two ways), their
    /// characters are taken together from one frame's reading, not each from another frame: the
    /// reading that shares the most characters with the vote (of as many, the latest).
    public var value: String {
        let voted = Array(characterVote)
        let tied = votes.indices.filter { k in
            let top = mostRead(at: k)
            return top.contains { a in top.contains { !SerialExtractor.lookAlike(a, $0) } }
        }
        guard tied.count >= 2 else { return String(voted) }
        func shared(_ whole: [Character]) -> Int { zip(whole, voted).filter { $0 == $1 }.count }
        let readings = wholes.map { Array($0.value) }
        let most = readings.map(shared).max() ?? 0
        guard let chosen = readings.last(where: { shared($0) == most }) else { return String(voted) }
        return String(voted.indices.map { tied.contains($0) ? chosen[$0] : voted[$0] })
    }

    /// Each position's most frequent character. Characters read there equally often are settled
    /// by the one the others could be misreadings of: read 9, S and Q once each, it is 9 (OCR
    /// reads a 9 as S and as Q, but an S not as Q); then by the one OCR reads as the other (0
    /// read as O, 5 as S: `SerialExtractor.oftenReadAs`); still tied, the latest frame's.
    private var characterVote: String {
        let latest = Array(wholes.last?.value ?? "")
        return String(
            votes.indices.map { k in
                let tied = mostRead(at: k)
                guard tied.count > 1 else { return tied.first ?? latest[k] }
                func explains(_ ch: Character) -> Int {
                    votes[k].filter { SerialExtractor.lookAlike(ch, $0.key) }.values.reduce(0, +)
                }
                let most = tied.map(explains).max() ?? 0
                let settled = tied.filter { explains($0) == most }
                // Of two look-alikes, the one OCR reads as the other far more often than the
                // other way round: read 0 and O once each, it is 0.
                let printed = settled.filter { ch in settled.allSatisfy { $0 == ch || SerialExtractor.oftenReadAs(ch, $0) } }
                if printed.count == 1, let ch = printed.first { return ch }
                return settled.contains(latest[k]) ? latest[k] : settled.min() ?? latest[k]
            })
    }

    /// `line`, this line as voted, with the places its frames cannot settle read as a code of
    /// the window reads them: where one of `codes` (barcodes, read exactly) lies in the line at
    /// one place only, reading as the line at every place it covers but those, and at six at
    /// least. A place is unsettled where no two of its frames read it alike (three frames or
    /// more, each reading another character there, none another's look-alike), or where as many
    /// frames read the code's character there as read the one voted. Print misread another way
    /// on some frames is no disagreement with a code the line otherwise reads.
    func filled(_ line: String, from codes: [String]) -> String {
        // A frame is one vote at every place: as many characters as frames is one each.
        let unsettled = Set(
            votes.indices.filter { k in
                let read = Array(votes[k].keys)
                return frames >= 3 && read.count == frames
                    && read.allSatisfy { a in read.allSatisfy { a == $0 || !SerialExtractor.lookAlike(a, $0) } }
            })
        let tied = tiedPlaces
        guard !(unsettled.isEmpty && tied.isEmpty), line.count == length else { return line }
        let chars = Array(line)
        var fills: Set<[Character]> = []
        for code in Set(codes) where code.count <= length {
            let coded = Array(code)
            for offset in 0...(length - coded.count) {
                let span = offset..<(offset + coded.count)
                let open = span.filter { k in
                    unsettled.contains(k)
                        || chars[k] != coded[k - offset] && tied[k]?.contains(coded[k - offset]) == true
                }
                guard !open.isEmpty, coded.count - open.count >= 6,
                    span.allSatisfy({ open.contains($0) || chars[$0] == coded[$0 - offset] })
                else { continue }
                var filled = chars
                for k in open { filled[k] = coded[k - offset] }
                fills.insert(filled)
            }
        }
        guard fills.count == 1, let only = fills.first else { return line }
        return String(only)
    }

    /// The places its frames are tied at (as many read one character there as another), each
    /// with the characters tied there.
    private var tiedPlaces: [Int: [Character]] {
        Dictionary(
            uniqueKeysWithValues: votes.indices.compactMap { k in
                let top = mostRead(at: k)
                return top.count > 1 ? (k, top) : nil
            })
    }

    /// The characters read at position `k` on the most frames (more than one where tied).
    private func mostRead(at k: Int) -> [Character] {
        let best = votes[k].values.max() ?? 0
        return votes[k].filter { $0.value == best }.map(\.key)
    }
}

/// How far the hand has moved the label in a frame from where the settling window first held
/// it, in pixels right and down (`Settling`).
public struct Shift: Sendable, Hashable {
    public var dx: Int
    public var dy: Int
    public static let none = Shift(dx: 0, dy: 0)

    /// Where `box`, read on a frame the label was moved this far in, lies on the label as held.
    func undone(on box: Box) -> Box { box.moved(-dx, -dy) }
}

/// Values collected over the settling window (SCAN-3): every distinct value seen, from barcodes
/// and print, across frames, with where each was read.
public struct Settling: Sendable, Hashable {
    /// When the first value was seen, on the session's clock.
    public let startedAt: Duration
    public private(set) var values: [OfferedValue] = []
    /// Each printed line across the window, voted character by character: one answer from many
    /// frames rather than whichever frame OCR read best or worst. Kept when `voting`.
    public private(set) var printed: [PrintedTrack] = []
    /// Whether printed lines are voted (the serial chooser); the scan sheet's offer shows every
    /// value read and needs no vote.
    public let voting: Bool
    /// The latest frame's readings as read, when `voting`, each printed one with the track it
    /// follows, and whether it was the frame's first reading of that line (its vote).
    private var latest: [Seen] = []
    /// For each value, on how many frames read for text it was the first candidate of that frame
    /// read alone, when `voting`: what the frames say without their lines joined across frames.
    /// A frame that read nothing but its label's title or a maker's name and model puts no value
    /// first: a model read on more frames does not outvote a serial read on fewer.
    public private(set) var firstOnFrames: [String: Int] = [:]
    /// Each of those values as the first frame to put it first listed it.
    public private(set) var firstCandidates: [String: SerialCandidate] = [:]
    /// For each value of `firstOnFrames`, how confidently tesseract read it, summed over those
    /// frames (`printConfidence`): of two prints put first on as many frames, which leads.
    public private(set) var firstConfidence: [String: Double] = [:]
    /// For each value, on how many frames read for text it was the first candidate of that frame
    /// read alone while disagreeing with another value that frame read: which of two values that
    /// disagree leads where a frame saw both (a frame that read only one of them has no say).
    public private(set) var ledDisagreement: [String: Int] = [:]
    /// Whether a frame read for text has put a value read in print first (alone or agreeing with
    /// a barcode), when `voting`: until one does, the window's print is read as nothing.
    public private(set) var printOffered = false
    /// Frames added while `voting`, counted to tell a line's frames from its pieces'.
    private var framesAdded = 0
    /// How far the hand had moved the label in the latest frame, and where each barcode the
    /// window read lies on the label as held: a line is followed where it lies on the label, not
    /// in the frame, so a label moved between two frames read for text is still one label.
    public private(set) var shift = Shift.none
    private var codesHeld: [String: Box] = [:]
    /// Frames that read print, or a code first held, and no anchor (`shift(of:)`) after the
    /// window had read something: the hand may have moved the label (one coming into view, its
    /// code not yet decoded), and lines read before lie where the label was then.
    public private(set) var unshownMoves = 0

    private struct Seen: Sendable, Hashable {
        var reading: Reading
        var track: Int?
        var vote: Bool
    }

    public init(startedAt: Duration, voting: Bool = false) {
        self.startedAt = startedAt
        self.voting = voting
    }

    /// Adds a frame's readings. A line is one vote a frame: the reader's first reading of it.
    /// Its other readings in the frame (the reader's second looks: the print sharpened, a code
    /// at other sizes) are not frames of their own; they are kept beside the vote as read.
    public mutating func add(_ readings: [Reading]) {
        if voting { latest = [] }
        if voting, readings.contains(where: { !$0.source.isBarcode }),
            let first = SerialExtractor.candidates(from: readings, titles: false).first
        {
            firstOnFrames[first.value, default: 0] += 1
            firstConfidence[first.value, default: 0] += Self.printConfidence(of: first.value, in: readings)
            if firstCandidates[first.value] == nil { firstCandidates[first.value] = first }
            if !first.disagreesWith.isEmpty { ledDisagreement[first.value, default: 0] += 1 }
            printOffered = printOffered || first.evidence != .barcode
        }
        defer { if voting { framesAdded += 1 } }
        if voting { hold(readings) }
        for reading in readings where voting {
            guard !reading.source.isBarcode else {
                latest.append(Seen(reading: reading, track: nil, vote: false))
                continue
            }
            if let track = printed.firstIndex(where: { $0.follows(reading, shift: shift) }) ?? anchoredLine(reading, in: readings) {
                let voted = latest.contains { $0.track == track }
                if !voted { printed[track].add(reading, frame: framesAdded, shift: shift, moves: unshownMoves) }
                latest.append(Seen(reading: reading, track: track, vote: !voted))
            } else {
                printed.append(PrintedTrack(reading, frame: framesAdded, shift: shift, moves: unshownMoves))
                latest.append(Seen(reading: reading, track: printed.count - 1, vote: true))
            }
        }
        for reading in readings {
            let place = Provenance.Place(reading.source)
            if let index = values.firstIndex(where: { $0.value == reading.value }) {
                if !values[index].places.contains(place) { values[index].places.append(place) }
                values[index].fromBarcode = values[index].fromBarcode || reading.source.isBarcode
                values[index].fromText = values[index].fromText || !reading.source.isBarcode
            } else {
                values.append(
                    OfferedValue(
                        value: reading.value, places: [place], fromBarcode: reading.source.isBarcode, fromText: !reading.source.isBarcode
                    ))
            }
        }
    }

    /// How confidently a frame's print gave `value`: the highest confidence tesseract gave a word
    /// of its printed lines that holds the value whole (letters and digits alike, case aside); 0
    /// where no word does (a value in a barcode only: a barcode has no words; or made of two).
    static func printConfidence(of value: String, in readings: [Reading]) -> Double {
        func body(_ text: String) -> String { String(text.uppercased().filter { $0.isLetter || $0.isNumber }) }
        let wanted = body(value)
        guard !wanted.isEmpty else { return 0 }
        return readings.flatMap(\.words).filter { body($0.text).contains(wanted) }.map(\.confidence).max() ?? 0
    }

    /// The frame's `shift` (where the last frame held the label, when nothing read shows a move:
    /// one more `unshownMoves` where the frame read print or a code first held), and where its
    /// barcodes lie on the label as held (those their boxes bound).
    private mutating func hold(_ readings: [Reading]) {
        let moved = shift(of: readings)
        let placing = readings.contains { !$0.source.isBarcode || $0.box.boundsACode && codesHeld[$0.value] == nil }
        if moved == nil, placing, !printed.isEmpty || !codesHeld.isEmpty { unshownMoves += 1 }
        shift = moved ?? shift
        for code in readings where code.source.isBarcode && code.box.boundsACode { codesHeld[code.value] = shift.undone(on: code.box) }
    }

    /// How far the label was moved in the frame of `readings`: by the median of how far its
    /// anchors moved from where they lie as held. An anchor is read once in the frame and was
    /// read before: a barcode its box bounds (`Box.boundsACode`: not a point or a line at one end
    /// of its bars), or a line of four characters at least read exactly as one of the window's
    /// lines (one only) was read on a frame. Nil without one.
    private func shift(of readings: [Reading]) -> Shift? {
        let moves = readings.compactMap { reading -> (dx: Int, dy: Int)? in
            guard let held = heldAnchor(reading, in: readings) else { return nil }
            return (reading.box.middle.x - held.middle.x, reading.box.middle.y - held.middle.y)
        }
        guard !moves.isEmpty else { return nil }
        func median(_ values: [Int]) -> Int { values.sorted()[(values.count - 1) / 2] }
        return Shift(dx: median(moves.map(\.dx)), dy: median(moves.map(\.dy)))
    }

    /// Where `reading` lies on the label as held, when it is an anchor of its frame (`shift(of:)`).
    private func heldAnchor(_ reading: Reading, in readings: [Reading]) -> Box? {
        guard reading.source.isBarcode else { return anchoredLine(reading, in: readings).map { printed[$0].held } }
        return reading.box.boundsACode && Self.isReadOnce(reading, in: readings) ? codesHeld[reading.value] : nil
    }

    /// Whether no other of its frame's `readings` reads what `reading` reads.
    private static func isReadOnce(_ reading: Reading, in readings: [Reading]) -> Bool {
        readings.filter { $0.value == reading.value }.count == 1
    }

    /// The line `reading` (printed, read once in its frame's `readings`) is an anchor of: the one
    /// line of the window read exactly as it, of four characters at least. Where the frame's
    /// shift does not put it over that line (the line was last read before a move no anchor
    /// showed, as a label coming into view), it is that line still, read where it now lies.
    private func anchoredLine(_ reading: Reading, in readings: [Reading]) -> Int? {
        guard reading.value.count >= 4, Self.isReadOnce(reading, in: readings) else { return nil }
        let lines = printed.indices.filter { printed[$0].wasRead(as: reading.value) }
        return lines.count == 1 ? lines.first : nil
    }

    /// What the window read, for the serial extractor: the latest frame as it was read, each
    /// printed line's vote replaced by the window's answer for that line (places its frames are
    /// tied at read also by its pieces: `value(breakingTiesWith:)`; places no two frames read
    /// alike as a code reads them: `filled`), its second looks as they were; then what earlier
    /// frames read and the latest did not (barcodes exact, lines as voted). A line read in a
    /// length the window outvoted (`isOutvoted`), or a piece of a line read whole on more frames
    /// (`isPiece`), is left out, with its second looks. One still picture read twice is what it
    /// read.
    public var readings: [SerialReading] {
        let codes = values.filter(\.fromBarcode).map(\.value)
        func voted(_ track: PrintedTrack) -> SerialReading {
            var reading = SerialReading(
                value: track.filled(track.value(breakingTiesWith: printed), from: codes), symbology: nil, at: track.place,
                box: track.box, slope: track.slope,
                roughSlope: track.roughSlope,
                readOnce: track.readOnce)
            reading.unplaced = track.moves < unshownMoves
            return reading
        }
        let outvoted = Set(printed.indices.filter { k in printed.contains { printed[k].isOutvoted(by: $0) || printed[k].isPiece(of: $0) } })
        var out = latest.filter { !outvoted.contains($0.track ?? -1) }.map { item in
            item.vote ? voted(printed[item.track!]) : SerialReading(item.reading)
        }
        let latestCodes = latest.filter { $0.reading.source.isBarcode }.map { ($0.reading.value, Provenance.Place($0.reading.source)) }
        for value in values {
            for place in value.places where !latestCodes.contains(where: { $0 == (value.value, place) }) {
                guard case .barcode(let symbology) = place else { continue }
                out.append(SerialReading(value: value.value, symbology: symbology, at: place))
            }
        }
        let seen = Set(latest.compactMap(\.track))
        for (k, track) in printed.enumerated() where !seen.contains(k) && !outvoted.contains(k) { out.append(voted(track)) }
        return out
    }

    /// Whether a printed line read holding `value` on some frame was read holding `code` on as
    /// many frames at least: the line's frames are split between the two, and the code settles
    /// it (`PrintedTrack.filled`).
    func lineReadAsCode(_ value: String, code: String) -> Bool {
        printed.contains { track in
            let holding = track.frames(holding: value)
            return holding > 0 && track.frames(holding: code) >= holding
        }
    }

    /// Whether the window has run its course at `now`. A single frame never settles early: the
    /// window always runs, because one frame showing one barcode proves only that one barcode was
    /// legible in that frame.
    public func isSettled(at now: Duration, window: Duration) -> Bool {
        now - startedAt >= window
    }
}
