extension Duration {
    /// In seconds, as a floating-point number (for rates and ratios, never for stored times).
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// Whole milliseconds, rounded towards zero.
    public var inMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }

    /// Whole nanoseconds, rounded towards zero.
    public var inNanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }

    /// Whole microseconds, rounded towards zero.
    public var inMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}

/// A session clock reading as a person reads it, seconds with milliseconds: "12.500 s".
public func clockText(_ d: Duration) -> String {
    let ms = d.inMilliseconds
    return "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst()) s"
}

/// A duration as seconds with six decimals, as sequence files and logs write it: "1.250000".
public func formatSeconds(_ d: Duration) -> String {
    let micros = d.inMicroseconds
    let fraction = String(abs(micros % 1_000_000))
    return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
}

/// A duration as milliseconds with one decimal, for benchmarks: "12.3 ms".
public func formatMilliseconds(_ d: Duration) -> String {
    let tenths = Int64((d.inSeconds * 10_000).rounded())
    return "\(tenths / 10).\(abs(tenths % 10)) ms"
}

/// The median and 90th percentile of `samples` (nearest rank).
public func percentiles(_ samples: [Duration]) -> (median: Duration, p90: Duration) {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return (.zero, .zero) }
    func rank(_ p: Double) -> Duration { sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
    return (rank(0.5), rank(0.9))
}
