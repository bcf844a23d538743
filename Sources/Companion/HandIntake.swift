import Foundation

/// "Add it by hand" (INTAKE-1): a form that needs no lens, offered in every camera state.
/// What the person types is written only when they save it (INTAKE-3).
public struct HandIntake: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case tag, name, serial, model
    }

    public enum Event: Sendable, Hashable {
        case type(Field, String)
        case save
        case cancel
        /// The register's answer to a save.
        case saved
        case refused(String)
    }

    public enum Effect: Sendable, Hashable {
        case addAsset(Asset)
        case close
    }

    public private(set) var values: [Field: String] = [:]
    /// The register's refusal of the last save, shown under the form.
    public private(set) var problem: String? = nil
    public private(set) var saving = false
    public private(set) var closed = false

    public init() {}

    public static let title = "Add it by hand"
    public static let saveTitle = "SAVE"

    /// Save is possible once there is a tag and a name.
    public var canSave: Bool {
        !saving && !closed && !(values[.tag] ?? "").isEmpty && !(values[.name] ?? "").isEmpty
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        guard !closed else { return [] }
        switch event {
        case .type(let field, let text):
            values[field] = text.trimmingCharacters(in: .whitespaces)
            problem = nil
            return []
        case .save:
            guard canSave else { return [] }
            saving = true
            let asset = Asset(
                tag: values[.tag]!, name: values[.name]!, serial: values[.serial].flatMap { $0.isEmpty ? nil : $0 },
                model: values[.model].flatMap { $0.isEmpty ? nil : $0 }, synced: false)
            return [.addAsset(asset)]
        case .saved:
            guard saving else { return [] }
            saving = false
            closed = true
            return [.close]
        case .refused(let why):
            guard saving else { return [] }
            saving = false
            problem = why
            return []
        case .cancel:
            closed = true
            return [.close]
        }
    }
}
