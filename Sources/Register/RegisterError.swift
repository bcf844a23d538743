/// Why the register could not be opened or written. The message names the file and what to do.
public struct RegisterError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for callers that act on it (a locked register retried, a damaged one restored).
    public enum Kind: Equatable, Sendable {
        case notARegister
        case corrupt(detail: String)
        case newerSchema(found: Int, known: Int)
        case locked(waitedMilliseconds: Int)
        case readOnly
        case cannotOpen(detail: String)
        /// Another process has the register open for writing.
        case inUse
        case storage(detail: String)
        case unknownAsset(tag: String)
        case invalid(detail: String)
    }

    /// The register file (or the photo) the error is about.
    public let path: String
    public let kind: Kind

    init(_ path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .notARegister:
            return
                "\(path): not a register (not an SQLite database). It was left as it is; name a register file, or a new path to create one."
        case .corrupt(let detail):
            return "\(path): the register is damaged (\(detail)). It was left as it is; restore it from a copy."
        case .newerSchema(let found, let known):
            return
                "\(path): written by a newer fieldrig (schema \(found); this one knows up to \(known)). It was left as it is; use a newer fieldrig."
        case .locked(let waited):
            return "\(path): locked by another program; waited \(waited) ms. Close the other program and try again."
        case .readOnly:
            return
                "\(path): the register cannot be written here (it, or its folder, is read-only: a read-only disk, or permissions). It can still be looked at; copy it somewhere writable to change it."
        case .cannotOpen(let detail):
            return "\(path): cannot open the register (\(detail)). Check the path and its folder."
        case .inUse:
            return
                "\(path): another process is using this register (a register is used by one process at a time). Close it there, or wait for it to finish."
        case .storage(let detail):
            return "\(path): \(detail)"
        case .unknownAsset(let tag):
            return "\(path): no asset with the tag \(tag) in the register."
        case .invalid(let detail):
            return "\(path): \(detail)"
        }
    }

    /// True for an error that means another program holds the register.
    public var isLocked: Bool { if case .locked = kind { true } else { false } }
}
