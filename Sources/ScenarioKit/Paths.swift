import Foundation

/// Where the project's scenario material is, found from this file's place in the tree.
public enum ScenarioPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path

    /// The Devices folder.
    public static var devices: String { "\(root)/Devices" }

    /// A rule of the specification: its id and its first line.
    public struct Rule: Sendable, Hashable {
        public var id: String
        public var text: String
    }

    /// The rules the project keeps in Scenarios/RULES, one "ID text" a line.
    public static var rules: [Rule] {
        guard let text = try? String(contentsOfFile: "\(root)/Scenarios/RULES", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return parts.count == 2 ? Rule(id: parts[0], text: parts[1]) : nil
        }
    }
}
