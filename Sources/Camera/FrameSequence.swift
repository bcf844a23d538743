import Durable
import Foundation
import Imaging
import Model

/// A recorded or generated run of frames with their timing: a folder holding a `sequence` file.
///
/// The `sequence` file is plain text, one instruction a line, `#` starting a comment; file names
/// are relative to the folder (`../labels/x.png` reuses a label fixture):
///
///     fps 30                   the rate `hold` lines play at (default 30)
///     frame 0.250 a.png        one frame at 0.250 s
///     hold a.png 0.5           a.png at the rate for 0.5 s, from one frame after the last one
///     gap 1.0                  no frames for 1.0 s (the camera pointed at nothing readable)
///     end loop                 after the last frame, start again (default: end stop)
///
/// Times are seconds with up to six decimals; they never go backwards. A folder with no `sequence`
/// file that holds images (`.png`, `.jpg`, `.pnm` and the like, as a video tool exports frames)
/// plays them in name order, numbers by their value ("frame2" before "frame10"), at
/// `impliedRate` frames a second, and ends.
public struct FrameSequence: Sendable, Equatable {
    /// One frame of the sequence: its file and time.
    public struct Entry: Sendable, Equatable {
        public var file: String
        public var time: Duration
        /// The line of the `sequence` file it came from.
        public var line: Int
    }

    public enum Ending: String, Sendable {
        case stop, loop
    }

    /// The folder the sequence lives in.
    public var folder: String
    public var entries: [Entry]
    public var ending: Ending
    /// Time from the last frame to the end (or to the first frame again, looping).
    public var tail: Duration
    /// Whether the folder has no description and its images play in name order.
    public private(set) var implied = false

    /// The name of the description file in a sequence folder.
    public static let descriptionName = "sequence"
    /// The most frames one sequence may list (about an hour at 30 frames a second); a longer
    /// playback loops.
    public static let mostFrames = 120_000

    /// Reads the sequence in `folder`, checking every line and that every frame file exists.
    public init(folder: String) throws(SequenceError) {
        let path = "\(folder)/\(Self.descriptionName)"
        let data: [UInt8]
        do throws(FileError) {
            // A description is a few kilobytes; a megabyte is plenty.
            data = try DurableFile.read(path, limit: 1 << 20)
        } catch {
            // Missing only when it really is: unreadable, a loop of links or a FIFO say so.
            if case .missing = error.kind {} else { throw SequenceError(error.description) }
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
                throw SequenceError("\(folder): no such folder. Give a sequence folder from Devices/ or one 'fieldrig record' made.")
            }
            if !isFolder.boolValue {
                throw SequenceError("\(folder): not a folder. A sequence is a folder with a '\(Self.descriptionName)' file.")
            }
            guard let images = try Self.images(in: folder) else {
                throw SequenceError(
                    "\(path): missing, and the folder holds no images. A sequence folder has a '\(Self.descriptionName)' file listing its frames, or frame images (\(Self.imageKinds)) to play in name order."
                )
            }
            self = images
            return
        }
        try self.init(description: String(decoding: data, as: UTF8.self), folder: folder)
    }

    /// The rate a folder of images without a description plays at.
    public static let impliedRate = 30
    /// The endings of the image files a folder without a description plays.
    static let imageEndings: Set<String> = ["png", "jpg", "jpeg", "pnm", "pgm", "ppm", "pbm"]
    static var imageKinds: String { imageEndings.sorted().map { ".\($0)" }.joined(separator: ", ") }

    /// The images in `folder` as a sequence in name order, one frame each at `impliedRate`; nil
    /// when it holds none. Hidden files and what is not a regular file are left out.
    static func images(in folder: String) throws(SequenceError) -> FrameSequence? {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw SequenceError("\(folder): cannot be listed (\(error.localizedDescription)).")
        }
        let images = names.filter { name in
            var info = stat()
            let ending = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            return !name.hasPrefix(".") && name.contains(".") && imageEndings.contains(ending)
                && stat("\(folder)/\(name)", &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }.sorted(by: inNameOrder)
        guard !images.isEmpty else { return nil }
        guard images.count <= mostFrames else {
            throw SequenceError(
                "\(folder): holds \(images.count) images, more than the \(mostFrames) a sequence may play: split them into folders.")
        }
        var sequence = FrameSequence(
            folder: folder,
            entries: images.enumerated().map { Entry(file: $1, time: .microseconds($0 * 1_000_000 / impliedRate), line: 0) },
            ending: .stop, tail: .microseconds(1_000_000 / impliedRate))
        sequence.implied = true
        return sequence
    }

    /// Whether `a` comes before `b` as a person numbers frames: runs of digits compared by their
    /// value, the rest character by character; names that tie so, by their bytes.
    static func inNameOrder(_ a: String, _ b: String) -> Bool {
        func digit(_ character: Character) -> Bool { character.isASCII && character.isWholeNumber }
        func runs(_ name: String) -> [(digits: Bool, text: Substring)] {
            var result: [(digits: Bool, text: Substring)] = []
            var start = name.startIndex
            for index in name.indices where index != start && digit(name[index]) != digit(name[start]) {
                result.append((digit(name[start]), name[start..<index]))
                start = index
            }
            if start < name.endIndex { result.append((digit(name[start]), name[start...])) }
            return result
        }
        for (x, y) in zip(runs(a), runs(b)) where x.text != y.text {
            guard x.digits, y.digits else { return x.text < y.text }
            let (u, v) = (x.text.drop { $0 == "0" }, y.text.drop { $0 == "0" })
            if u.count != v.count { return u.count < v.count }
            if u != v { return u < v }
        }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Where a frame is listed, for messages: the description's line, or the folder whose images
    /// play in name order.
    public func listing(_ entry: Entry) -> String {
        implied ? "\(folder) (its images in name order)" : "\(folder)/\(Self.descriptionName):\(entry.line)"
    }

    private init(folder: String, entries: [Entry], ending: Ending, tail: Duration) {
        (self.folder, self.entries, self.ending, self.tail) = (folder, entries, ending, tail)
    }

    /// Parses a description; frame files are looked for in `folder`.
    public init(description: String, folder: String) throws(SequenceError) {
        self.folder = folder
        var entries: [Entry] = []
        var fps = 30
        var floor = Duration.zero  // no frame before this: where the last gap ended
        // Consecutive holds count frames from one anchor, so 1/fps steps never drift by rounding.
        var run: (anchor: Duration, count: Int)? = nil
        var ending = Ending.stop
        let path = "\(folder)/\(Self.descriptionName)"
        // Lines end in LF or CRLF (a file saved on another system).
        for (index, raw) in description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let text = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let keyword = words.first else { continue }
            func fail(_ why: String) -> SequenceError { SequenceError("\(path):\(number): \(why)") }
            func seconds(_ word: String) throws(SequenceError) -> Duration {
                guard let d = parseSeconds(word) else {
                    throw fail("'\(word)' is not a time in seconds from 0 to 86400, written like 0.25")
                }
                return d
            }
            func step() -> Duration { .microseconds(1_000_000 / fps) }
            switch keyword {
            case "fps":
                guard words.count == 2, let n = Int(words[1]), (1...240).contains(n) else {
                    throw fail("'fps' takes a whole number from 1 to 240")
                }
                fps = n
                run = nil
            case "frame":
                guard words.count == 3 else { throw fail("'frame' takes a time and a file: frame 0.25 a.png") }
                let time = try seconds(words[1])
                if let last = entries.last?.time, time <= last {
                    throw fail("frame at \(words[1]) s is not after the frame before it: times must go forwards")
                }
                guard time >= floor else { throw fail("frame at \(words[1]) s falls inside the gap before it: times must go forwards") }
                guard entries.count < Self.mostFrames else { throw fail("the sequence lists more than \(Self.mostFrames) frames") }
                entries.append(Entry(file: words[2], time: time, line: number))
                run = nil
            case "hold":
                guard words.count == 3 else { throw fail("'hold' takes a file and a duration: hold a.png 0.5") }
                let duration = try seconds(words[2])
                let count = Int(duration.inSeconds * Double(fps) + 0.5)
                guard count > 0 else { throw fail("a hold of \(words[2]) s at \(fps) fps holds no frame") }
                guard entries.count + count <= Self.mostFrames else {
                    throw fail("the sequence would list more than \(Self.mostFrames) frames: shorten the hold, or play it with 'end loop'")
                }
                var current = run ?? (max(floor, entries.last.map { $0.time + step() } ?? .zero), 0)
                for _ in 0..<count {
                    entries.append(
                        Entry(file: words[1], time: current.anchor + .microseconds(current.count * 1_000_000 / fps), line: number))
                    current.count += 1
                }
                run = current
            case "gap":
                guard words.count == 2 else { throw fail("'gap' takes a duration: gap 1.0") }
                floor = max(floor, entries.last.map { $0.time + step() } ?? .zero) + (try seconds(words[1]))
                guard floor <= longestTime else { throw fail("the sequence would last more than a day") }
                run = nil
            case "end":
                guard words.count == 2, let e = Ending(rawValue: words[1]) else { throw fail("'end' takes 'stop' or 'loop'") }
                ending = e
            default:
                throw fail("unknown instruction '\(keyword)' (fps, frame, hold, gap or end)")
            }
        }
        guard !entries.isEmpty else { throw SequenceError("\(path): lists no frames. Add 'frame' or 'hold' lines.") }
        try Self.checkFrameFiles(entries, in: folder, listedIn: path)
        self.entries = entries
        self.ending = ending
        // One frame's time after the last frame, or to the end of a gap that closes the sequence.
        tail = max(.microseconds(1_000_000 / fps), floor - entries.last!.time)
    }

    /// Refuses a sequence whose frame files (each checked once) are missing, unreachable or not
    /// regular files, naming the line of the description at `path` that lists the first such file.
    static func checkFrameFiles(_ entries: [Entry], in folder: String, listedIn path: String) throws(SequenceError) {
        var checked = Set<String>()
        for entry in entries where checked.insert(entry.file).inserted {
            let file = Self.resolve(entry.file, in: folder)
            var info = stat()
            if stat(file, &info) != 0 {
                let code = errno
                if code == ENOENT || code == ENOTDIR {
                    throw SequenceError("\(path):\(entry.line): frame file \(file) is missing. Restore it or remove the line.")
                }
                throw SequenceError("\(path):\(entry.line): frame file \(file) cannot be reached (\(errnoDescription(code))).")
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw SequenceError("\(path):\(entry.line): frame file \(file) is not a regular file. Give an image file.")
            }
        }
    }

    /// The path of a frame file named in the sequence.
    public static func resolve(_ file: String, in folder: String) -> String {
        file.hasPrefix("/") ? file : "\(folder)/\(file)"
    }

    /// How long one pass of the sequence lasts.
    public var length: Duration { entries.last!.time + tail }
}

/// A sequence that cannot be played; the message names the file (and line) and what to do.
public struct SequenceError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The longest time a sequence or a fault may name: one day.
public let longestTime = Duration.seconds(86_400)

/// "0.25" as a duration, exact to the microsecond, from zero to `longestTime`; nil for anything
/// else: only ASCII digits (other scripts' digits, fractions like "½" and exponents are not
/// times here), at most six decimals.
public func parseSeconds(_ text: String) -> Duration? {
    func digits(_ part: Substring) -> Bool { !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } }
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count <= 2, digits(parts[0]), parts[0].utf8.count <= 6, let whole = Int(parts[0]) else { return nil }
    var micros = 0
    if parts.count == 2 {
        let fraction = parts[1]
        guard digits(fraction), fraction.utf8.count <= 6, let value = Int(fraction.padding(toLength: 6, withPad: "0", startingAt: 0)) else {
            return nil
        }
        micros = value
    }
    let time = Duration.seconds(whole) + .microseconds(micros)
    return time <= longestTime ? time : nil
}
