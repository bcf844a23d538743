extension Array where Element: Equatable {
    /// Appends each of `items` that is not here yet, in their order: a place, a value, listed once.
    public mutating func appendNew(_ items: some Sequence<Element>) {
        for item in items where !contains(item) { append(item) }
    }
}
