/// A moment, as milliseconds since 1970-01-01 UTC. The register never reads a clock: every write
/// is given its time (the scenario's virtual clock, or the live shell's real one).
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// A civil date and time in UTC.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        milliseconds = (Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }

    /// This moment plus a duration.
    public func adding(_ duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(milliseconds: milliseconds + seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    private var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let totalSeconds = Int(milliseconds.floorDiv(1000))
        let days = totalSeconds.floorDiv(86_400)
        let secondOfDay = totalSeconds - days * 86_400
        let (y, m, d) = Timestamp.civilFromDays(days)
        return (y, m, d, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60, Int(milliseconds - Int64(totalSeconds) * 1000))
    }

    /// "2026-11-30T09:14:05.000Z".
    public var iso8601: String {
        let c = civil
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second)).\(pad(c.millisecond, 3))Z"
    }

    /// "30 Nov 2026 09:14", as a history row's right-hand stamp shows it.
    public var stamp: String {
        let c = civil
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(c.day) \(months[c.month - 1]) \(c.year) \(pad(c.hour)):\(pad(c.minute))"
    }

    public var description: String { iso8601 }

    /// Parses the form `iso8601` writes (the milliseconds and the Z may be left off).
    public init?(iso8601 text: String) {
        let digits = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0) }
        guard digits.count >= 6, digits.allSatisfy({ $0 != nil }) else { return nil }
        let v = digits.map { $0! }
        guard (1...12).contains(v[1]), (1...31).contains(v[2]), v[3] < 24, v[4] < 60, v[5] < 61 else { return nil }
        self.init(year: v[0], month: v[1], day: v[2], hour: v[3], minute: v[4], second: v[5])
        if v.count > 6 { milliseconds += Int64(v[6]) }
    }

    // Howard Hinnant's days-from-civil algorithms, for the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDiv(400)
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = z.floorDiv(146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private func pad(_ n: Int, _ width: Int = 2) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension BinaryInteger {
    /// Division rounding towards negative infinity.
    fileprivate func floorDiv(_ d: Self) -> Self {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
