import Companion
import Foundation
import Reader
import Serials
import Shell

/// `bench live DIR --stills STILLS`: the label each sequence holds up, as a still image, read as
/// `bench serials` reads one, so that one run sets the live path against the still image of the
/// same label.
struct StillsOfSequences {
    /// Each sequence's still image, by the sequence's folder.
    let paths: [String: String]
    /// The chooser's rows for each sequence's still, by the sequence's folder, once `read`.
    private(set) var rows: [String: [String]] = [:]

    /// The still image `folder/NAME.png` of each sequence folder NAME (its label as
    /// `Devices/serial-corpus/generate --keep-labels` rendered it, in the half the sequences were
    /// made from); a sequence without one is named before anything is played.
    init(_ sequences: [LiveSequence], folder: String) throws {
        let paths = sequences.map { ($0.folder, "\(folder)/\(URL(fileURLWithPath: $0.folder).lastPathComponent).png") }
        if let missing = paths.first(where: { !FileManager.default.fileExists(atPath: $0.1) }) {
            throw CommandFailure(
                "\(missing.1): no still image of that sequence's label. Give --stills the folder of the half the sequences "
                    + "were rendered from (OUT/dev or OUT/test of Devices/serial-corpus/generate OUT --keep-labels).")
        }
        self.paths = Dictionary(uniqueKeysWithValues: paths)
    }

    /// Reads every still, `jobs` at once, as `bench serials` does: the chooser's rows for each.
    mutating func read(jobs: Int) throws {
        var read: [String: [String]] = [:]
        var failed: String?
        try BatchRead.readAll(paths.values.sorted(), passes: .all, jobs: jobs) { path, outcome in
            switch outcome {
            case .success(let still): read[path] = SerialDriver.still(still.readings).candidates.map(\.value)
            case .failure(let error): failed = failed ?? "\(error)"
            }
        }
        if let failed { throw CommandFailure(failed) }
        rows = paths.mapValues { read[$0] ?? [] }
    }

    /// Whether the chooser's first row for `play`'s label as a still is its true serial.
    func first(_ play: LivePlay) -> Bool { rows[play.sequence.folder]?.first == play.truth }
}

extension LiveReport {
    /// The first row live against the first row as a still, over the same labels: how many
    /// each got, and where one got it and the other did not.
    func printAgainst(_ stills: StillsOfSequences) {
        let n = plays.count
        let (live, still) = (plays.filter(\.first).count, plays.filter(stills.first).count)
        let verdict = live >= still ? "not below them" : "\(still - live) below them"
        emit(
            "the same labels as still images (bench serials): first \(still) of \(n) (\(percent(still, of: n))); "
                + "live \(live) (\(percent(live, of: n))): \(verdict)")
        let lost = plays.filter { stills.first($0) && !$0.first }.count
        let gained = plays.filter { !stills.first($0) && $0.first }.count
        emit("  first as a still and not live: \(lost); first live and not as a still: \(gained)")
    }
}
