import Foundation
import Model

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

    /// Where the form stands: being filled in (with the register's refusal of the last save, if
    /// any, shown under it), being saved, or closed.
    public enum State: Sendable, Hashable {
        case editing(problem: String?)
        case saving
        case closed
    }

    public private(set) var values: [Field: String] = [:]
    public private(set) var state: State = .editing(problem: nil)

    /// The register's refusal of the last save, shown under the form.
    public var problem: String? { if case .editing(let problem) = state { problem } else { nil } }
    public var saving: Bool { state == .saving }
    public var closed: Bool { state == .closed }

    public init() {}

    public static let title = "Add it by hand"
    public static let saveTitle = "SAVE"

    /// Save is possible once there is a tag and a name.
    public var canSave: Bool {
        guard case .editing = state else { return false }
        return !(values[.tag] ?? "").isEmpty && !(values[.name] ?? "").isEmpty
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        guard !closed else { return [] }
        switch event {
        case .type(let field, let text):
            guard case .editing = state else { return [] }
            values[field] = text.trimmingCharacters(in: .whitespaces)
            state = .editing(problem: nil)
            return []
        case .save:
            guard canSave, let tag = values[.tag], let name = values[.name] else { return [] }
            state = .saving
            let asset = Asset(
                tag: tag, name: name, serial: values[.serial].flatMap { $0.isEmpty ? nil : $0 },
                model: values[.model].flatMap { $0.isEmpty ? nil : $0 }, synced: false)
            return [.addAsset(asset)]
        case .saved:
            guard saving else { return [] }
            state = .closed
            return [.close]
        case .refused(let why):
            guard saving else { return [] }
            state = .editing(problem: why)
            return []
        case .cancel:
            state = .closed
            return [.close]
        }
    }
}
