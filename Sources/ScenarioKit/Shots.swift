import Camera
import Foundation
import Model

/// What the camera sees, composed in Swift instead of recorded for each combination: stills held
/// for a time, stretches of nothing readable, and recorded sequences played in line. A relative
/// path is looked for beside the scenario file that wrote the shot (a scenario bringing its own
/// frames), then under Devices/ (`tags/mf-0004.png`, `labels/dell-latitude.png`).
public struct Shot: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case still(path: String, seconds: Double)
        case nothing(seconds: Double)
        case recorded(name: String)
    }

    let kind: Kind
    /// The folder of the file the shot was written in.
    let base: String

    /// `image` held in front of the camera for `seconds`, at 30 frames a second.
    public static func hold(_ image: String, for seconds: Double, file: String = #filePath) -> Shot {
        Shot(kind: .still(path: image, seconds: seconds), base: (file as NSString).deletingLastPathComponent)
    }

    /// No frames for `seconds`: the camera pointed at nothing it delivers.
    public static func nothing(for seconds: Double) -> Shot {
        Shot(kind: .nothing(seconds: seconds), base: "")
    }

    /// A recorded sequence (a folder under Devices/sequences, or beside the scenario file), in line.
    public static func recorded(_ sequence: String, file: String = #filePath) -> Shot {
        Shot(kind: .recorded(name: sequence), base: (file as NSString).deletingLastPathComponent)
    }
}

/// Writes shots as a sequence folder the file camera plays.
enum ShotSequence {
    static let fps = 30

    /// The sequence folder for `shots`, written under `folder`; a frame that cannot be found is
    /// named with where it was looked for.
    static func write(_ shots: [Shot], devices given: String, to folder: String) throws -> String {
        let devices = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
        guard !shots.isEmpty else { throw ScenarioError("the camera was composed of no shots: give at least one") }
        var lines = ["# Composed by a scenario's shots.", "fps \(fps)"]
        var offset = Duration.zero
        let frame = Duration.microseconds(1_000_000 / Int64(fps))
        for shot in shots {
            switch shot.kind {
            case .still(let path, let seconds):
                let file = try locate(path, base: shot.base, devices: devices)
                let count = max(1, Int((seconds * Double(fps)).rounded()))
                for index in 0..<count { lines.append("frame \(formatSeconds(offset + frame * index)) \(file)") }
                offset += frame * count
            case .nothing(let seconds):
                offset += .microseconds(Int64((seconds * 1_000_000).rounded()))
            case .recorded(let name):
                let sequence = try recorded(name, base: shot.base, devices: devices)
                for entry in sequence.entries {
                    lines.append("frame \(formatSeconds(offset + entry.time)) \(FrameSequence.resolve(entry.file, in: sequence.folder))")
                }
                offset += sequence.length
            }
        }
        if lines.count == 2 { throw ScenarioError("the camera's shots hold no frame: give a still or a recorded sequence") }
        if let last = lines.last?.split(separator: " ").dropFirst().first.flatMap({ parseSeconds(String($0)) }), offset > last + frame {
            lines.append("gap \(formatSeconds(offset - last - frame))")
        }
        let camera = "\(folder)/composed-camera"
        try FileManager.default.createDirectory(atPath: camera, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: "\(camera)/\(FrameSequence.descriptionName)", atomically: true, encoding: .utf8)
        return camera
    }

    private static func locate(_ path: String, base: String, devices: String) throws -> String {
        let candidates = path.hasPrefix("/") ? [path] : ["\(base)/\(path)", "\(devices)/\(path)"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw ScenarioError("no frame '\(path)': looked for \(candidates.joined(separator: " and "))")
        }
        guard !found.contains(where: \.isWhitespace) else { throw ScenarioError("the frame '\(found)' has a space in its path: rename it") }
        return found
    }

    private static func recorded(_ name: String, base: String, devices: String) throws -> FrameSequence {
        let candidates = name.hasPrefix("/") ? [name] : ["\(base)/\(name)", "\(devices)/sequences/\(name)"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: "\($0)/\(FrameSequence.descriptionName)") })
        else {
            throw ScenarioError("no recorded sequence '\(name)': looked for \(candidates.joined(separator: " and "))")
        }
        do { return try FrameSequence(folder: found) } catch { throw ScenarioError(error.description) }
    }
}
