import Foundation
import Imaging
import Model

/// Writes frames into a new sequence folder that `FileSequenceCamera` plays back.
///
/// Each frame's PNG is written and flushed before its line is appended to the `sequence` file,
/// so a recording cut short by a crash still plays back up to its last whole frame.
public final class SequenceRecorder {
    public let folder: String
    private let description: FileHandle
    public private(set) var count = 0

    /// Creates `folder` (it must not exist yet, or be empty) and its `sequence` file.
    public init(folder: String, note: String) throws(SequenceError) {
        self.folder = folder
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            throw SequenceError("\(folder): already holds files. Record into a new folder.")
        }
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SequenceError("\(folder): cannot create it (\(error.localizedDescription)).")
        }
        let path = "\(folder)/\(FrameSequence.descriptionName)"
        guard manager.createFile(atPath: path, contents: Data("# \(note)\nend stop\n".utf8)),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw SequenceError("\(path): cannot create it. Check the folder is writable.")
        }
        handle.seekToEndOfFile()
        description = handle
    }

    deinit { try? description.close() }

    /// Adds a frame at its timestamp (kept to the microsecond, as sequence files hold it).
    public func append(_ frame: Frame) throws(SequenceError) {
        let name = String(format: "frame-%06d.png", count)
        do {
            try ImageFile.writePNG(frame, to: "\(folder)/\(name)")
        } catch {
            throw SequenceError(error.description)
        }
        let line = "frame \(formatSeconds(frame.timestamp)) \(name)\n"
        do {
            try description.write(contentsOf: Data(line.utf8))
            try description.synchronize()
        } catch {
            throw SequenceError("\(folder)/\(FrameSequence.descriptionName): cannot write (\(error.localizedDescription)).")
        }
        count += 1
    }
}
