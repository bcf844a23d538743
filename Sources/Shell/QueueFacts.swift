import Companion
import Model
import Register

extension QueueFacts {
    /// The facts now: the counts from the register and its photo folder, the pairing, and what
    /// the shell knows of the connection.
    public static func gather(_ register: Register, macReachable: Bool, impostorAtMacAddress: Bool = false) throws(RegisterError)
        -> QueueFacts
    {
        QueueFacts(
            counts: try register.queueCounts(), pairedMac: try register.pairing()?.macName, macReachable: macReachable,
            storageCeilingRefused: try register.ceilingRefusesNow(), assetNotSynced: try register.keptForUnsyncedAsset(),
            impostorAtMacAddress: impostorAtMacAddress)
    }
}

extension QueueSummary {
    /// The summary of a register now, with what the shell knows of the connection.
    public static func of(_ register: Register, macReachable: Bool, impostorAtMacAddress: Bool = false) throws(RegisterError)
        -> QueueSummary
    {
        QueueSummary(try QueueFacts.gather(register, macReachable: macReachable, impostorAtMacAddress: impostorAtMacAddress))
    }
}
