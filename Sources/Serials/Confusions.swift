import Model

/// Which characters OCR reads one for the other, and what that makes of two values.
extension Tokens {
    /// Pairs of characters OCR reads one for the other on printed serials: `OCRConfusion.pairs`
    /// (each letter and the digit it folds to) and the look-alikes folding cannot hold, because
    /// they are pairwise, not transitive (S is read for 5 and for 8, but 5 is not read for 8).
    /// S for 9 is print smeared sideways: on the development labels, a 9 read as S was behind
    /// four of 33 disagreements shown where none was planted (three on motion-blurred labels).
    static let confusedPairs: Set<String> = Set(OCRConfusion.pairs.map { String([$0.letter, $0.digit]) }).union([
        "S8", "S9", "OD", "OQ", "Q9", "IL", "J1", "IJ", "A4", "T7", "B3", "E3", "J3", "EF",
    ])

    static func confused(_ a: Character, _ b: Character) -> Bool {
        a == b || pair(a, b, in: confusedPairs)
    }

    /// Whether `a` and `b` are as long and, place by place, each character is the other's or its
    /// look-alike (`confused`): one could be OCR's reading of the other, with nothing added or lost.
    static func confused(_ a: some Collection<Character>, _ b: some Collection<Character>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { confused($0, $1) }
    }

    /// Look-alikes OCR makes that a real difference is as likely to be: E for F (a bar lost or
    /// added). A labelled print that differs from a barcode only by confusions, one of them among
    /// these, is not taken for the barcode's value misread: the two are shown disagreeing, the
    /// barcode first. On the development labels, as many planted F/E disagreements were hidden
    /// as prints were read E for F. The other look-alikes stay confusions: taking S for 9 or I, J
    /// and 1 out too showed no planted disagreement more there and six to eight more where none
    /// was planted; 3 for B, E or J and 9 for Q changed nothing there, and the rendered labels
    /// that first showed them were misreadings.
    static let weakPairs: Set<String> = ["EF"]

    /// Other look-alikes OCR made on the development labels, where a printed serial was read
    /// with one or two characters wrong (each pair three times or more; 9 for O, 0 or 3 for 8
    /// the most): too often a real difference to make a print agree with a barcode, they are
    /// OCR's only beside a difference no look-alike explains, and there they are mended, so the
    /// print shown disagreeing says what it disagrees by ("YZ4N5QD" beside YZ4M8QD: YZ4M5QD).
    static let misreadPairs: Set<String> = [
        "9O", "08", "38", "3S", "06", "MN", "JU", "6E", "6O", "IT", "7J", "56", "CO", "27", "09", "CG", "AM", "5B", "1T",
        "VY", "35", "KX", "0C", "17", "9I", "68", "5J", "MW",
    ]

    /// Which way OCR makes its look-alikes: each pair is a printed character, then the one OCR
    /// read for it, where OCR did so ten times or more on the development labels' printed serials
    /// and the other way round at most a third as often (a 5 read as S 154 times, an S as 5 24
    /// times; an S read as 8 106 times, an 8 as S 28; a J read as I 46 times, never the reverse).
    static let readFor: Set<String> = [
        "0O", "5S", "S8", "JI", "1I", "9S", "FE", "QO", "9O", "8B", "Q0", "4A", "06", "83", "Z2", "08", "J3", "MN", "G6",
    ]

    /// Whether `printed` and `read`, two readings of one print, differ only where OCR reads the
    /// character of `printed` as the one of `read` (`readFor`), at one or two places: then
    /// `printed` is the likelier of the two ("Q35Q10D" beside "Q35010D", "S2HRJM0R011285A" beside
    /// "S2HRIM0R011285A").
    static func printedAs(_ printed: String, readAs read: String) -> Bool {
        guard printed.count == read.count else { return false }
        let diffs = zip(printed, read).filter { $0 != $1 }
        return !diffs.isEmpty && diffs.count <= 2 && diffs.allSatisfy { readsFor($0, $1) }
    }

    /// Whether OCR reads a printed `printed` as `read` far more often than the other way round (`readFor`).
    static func readsFor(_ printed: Character, _ read: Character) -> Bool {
        readFor.contains(String([printed, read]))
    }

    /// Whether `a` and `b` are among `misreadPairs`.
    static func misread(_ a: Character, _ b: Character) -> Bool {
        pair(a, b, in: misreadPairs)
    }

    /// `confused`, leaving out `weakPairs`.
    static func confusedStrongly(_ a: Character, _ b: Character) -> Bool {
        confused(a, b) && !pair(a, b, in: weakPairs)
    }

    /// Whether `a` and `b`, in either order, are one of `pairs`.
    static func pair(_ a: Character, _ b: Character, in pairs: Set<String>) -> Bool {
        pairs.contains(String([a, b])) || pairs.contains(String([b, a]))
    }

    /// Whether OCR reading `exact` (a barcode's value) could have printed `read`: the same
    /// characters up to confusions, with at most one stray character besides: one read twice
    /// beside its look-alike ("G8WQS5L" for "G8WQ5L"), or, in a value of eight characters or
    /// more, any one (noise read as a letter: "ZR6ESLMPK" for "ZR6SLMPK"); in one of twelve or
    /// more, two ("SG2Z2EHAOY510783M" for "SG2EHA0Y510783M"). A stray character is never a
    /// difference: a planted or real disagreement is a character changed, not one added. Nor is
    /// a letter read in lower case, one or two of them: serials are printed in capitals, and
    /// tesseract reads a capital it cannot make out, at the start of a code's line, as a small
    /// letter ("nW5109081198" of RW5109081198, "onF4K5A9" of ZAF4K5A9), which says nothing of
    /// what was printed there; a reading with more is not of the value ("Eveeszgosss2").
    static func readAs(_ read: String, _ exact: String, alike: (Character, Character) -> Bool = { confused($0, $1) }) -> Bool {
        let a = Array(read.uppercased())
        let b = Array(exact.uppercased())
        guard a != b, b.count >= 5, a.count >= b.count, a.count - b.count <= (b.count >= 12 ? 2 : 1) else { return false }
        func stray(_ i: Int) -> Bool { b.count >= 8 || besideAlike(a, i) }
        let small = Array(read).map(\.isLowercase)
        let anything = small.count == a.count && small.filter { $0 }.count <= 2 ? small : []
        // a[i...] against b[j...], with `left` stray characters still to find.
        func matches(_ i: Int, _ j: Int, _ left: Int) -> Bool {
            if i == a.count { return j == b.count && left == 0 }
            if j < b.count, alike(a[i], b[j]) || !anything.isEmpty && anything[i], matches(i + 1, j + 1, left) { return true }
            return left > 0 && stray(i) && matches(i + 1, j, left - 1)
        }
        return matches(0, 0, a.count - b.count)
    }

    /// Whether `read` is part of `exact` as OCR cut it short (glare, a shadow, the label's edge)
    /// or split it ("CND 92800M5"): its start or its end, up to confusions, and at least half of
    /// it; or, six characters or more, what is left of it where OCR lost characters within it
    /// (a spot of glare: "WN3435856" of WN3435830056): its first and last characters, and the
    /// rest in order.
    static func partOf(_ read: String, _ exact: String) -> Bool {
        let a = Array(read.uppercased())
        let b = Array(exact.uppercased())
        guard a.count >= 4, a.count < b.count, 2 * a.count >= b.count else { return false }
        if zip(a, b).allSatisfy({ confused($0, $1) }) || zip(a.reversed(), b.reversed()).allSatisfy({ confused($0, $1) }) {
            return true
        }
        guard a.count >= 6, let first = a.first, let last = a.last, confused(first, b[0]), confused(last, b[b.count - 1]) else {
            return false
        }
        // In order: each character at the first place left that it could have been read from.
        var j = 0
        for ch in a {
            while j < b.count && !confused(ch, b[j]) { j += 1 }
            guard j < b.count else { return false }
            j += 1
        }
        return true
    }

    /// `printed` with a character OCR read twice (beside itself or its look-alike) taken out,
    /// where it is then the same field as `exact`, one character shorter: the first such.
    static func printedOnce(_ printed: String, sameFieldAs exact: String) -> String? {
        guard printed.count == exact.count + 1 else { return nil }
        return oneTakenOut(printed).first { sameField($0, exact) }
    }

    /// Whether two values look like the same field: the same length, differing in at most two places.
    static func sameField(_ a: String, _ b: String) -> Bool {
        let x = Array(OCRConfusion.fold(a))
        let y = Array(OCRConfusion.fold(b))
        guard x.count == y.count, x.count >= 5 else { return false }
        let differences = zip(x, y).filter { $0 != $1 }.count
        return differences > 0 && differences <= 2
    }
}
