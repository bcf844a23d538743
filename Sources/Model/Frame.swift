/// A gray 8-bit picture from a camera or a file, with when and where in its sequence it was taken.
///
/// Pixels are stored row after row, `stride` bytes apart (`stride >= width`); byte `x` of row `y`
/// is `bytes[y * stride + x]`. `timestamp` is time on the clock that delivered the frame (virtual in
/// scenarios, the camera's in the live shell), measured from the start of its sequence.
public struct Frame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let bytes: [UInt8]
    public var timestamp: Duration
    public var index: Int

    /// A frame over `bytes`; traps only on a programming error (a buffer too small for its size).
    public init(width: Int, height: Int, stride: Int? = nil, bytes: [UInt8], timestamp: Duration = .zero, index: Int = 0) {
        let stride = stride ?? width
        precondition(width > 0 && height > 0 && stride >= width, "frame size \(width)x\(height) stride \(stride)")
        precondition(bytes.count >= stride * (height - 1) + width, "frame buffer too small for \(width)x\(height)")
        self.width = width
        self.height = height
        self.stride = stride
        self.bytes = bytes
        self.timestamp = timestamp
        self.index = index
    }

    /// The whole picture, as a box.
    public var whole: Box { Box(x: 0, y: 0, width: width, height: height) }

    /// The part of `box` inside the frame; nil where none of it is.
    public func part(_ box: Box) -> Box? {
        let x0 = max(0, box.x)
        let y0 = max(0, box.y)
        let x1 = min(width, box.maxX)
        let y1 = min(height, box.maxY)
        return x0 < x1 && y0 < y1 ? Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        bytes[y * stride + x]
    }

    /// The same picture with rows packed tightly (`stride == width`).
    public func packed() -> Frame {
        stride == width ? self : cropped(to: whole)
    }

    /// The part of the picture inside `area` (which lies inside it: see `part`) as a picture of
    /// its own, rows packed tightly.
    public func cropped(to area: Box) -> Frame {
        var out = [UInt8](repeating: 0, count: area.width * area.height)
        for y in 0..<area.height {
            let from = (area.y + y) * stride + area.x
            out.replaceSubrange(y * area.width..<(y + 1) * area.width, with: bytes[from..<from + area.width])
        }
        return Frame(width: area.width, height: area.height, bytes: out, timestamp: timestamp, index: index)
    }
}

/// A rectangle in frame coordinates: `x`, `y` are the top-left corner.
public struct Box: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The fewest pixels a decoded code's box spans each way where it bounds the code, not a
    /// point or a line across it (zbar locates some Code 128 at the end of one scan line).
    public static let codeAtLeast = 16

    /// Whether this box, a decoded code's, bounds the code rather than a point or a line across
    /// it: `codeAtLeast` pixels each way at least, and at most `codeLongest` times as long as high
    /// (zxing-cpp boxes a code on a tilted frame along the row it decoded, 988 by 19 pixels).
    public var boundsACode: Bool {
        let (short, long) = (min(width, height), max(width, height))
        return short >= Self.codeAtLeast && long <= Self.codeLongest * short
    }

    /// How many times as long as high a box that bounds a code is at most: of the 4,999 codes
    /// boxed 16 pixels or more each way on the rendered development labels, 4,790 were at most
    /// eight times as long as high, and the rest spread out to 57 times.
    public static let codeLongest = 8

    /// The smallest box holding every point; nil for no points.
    public init?(enclosing points: [(x: Int, y: Int)]) {
        guard let first = points.first else { return nil }
        var minX = first.x
        var maxX = first.x
        var minY = first.y
        var maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { max(0, width) * max(0, height) }

    /// The smallest box holding both.
    public func union(_ other: Box) -> Box {
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return Box(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The smallest box holding all of `boxes`; nil where there are none.
    public static func enclosing(_ boxes: some Sequence<Box>) -> Box? {
        boxes.reduce(nil) { $0?.union($1) ?? $1 }
    }

    /// The area both boxes cover.
    public func intersectionArea(_ other: Box) -> Int {
        let w = min(maxX, other.maxX) - max(x, other.x)
        let h = min(maxY, other.maxY) - max(y, other.y)
        return w > 0 && h > 0 ? w * h : 0
    }

    /// This box grown by `margin` on every side.
    public func insetBy(_ margin: Int) -> Box {
        Box(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }

    /// This box moved `dx` pixels right and `dy` down.
    public func moved(_ dx: Int, _ dy: Int) -> Box { Box(x: x + dx, y: y + dy, width: width, height: height) }

    /// Its middle point.
    public var middle: (x: Int, y: Int) { (x + width / 2, y + height / 2) }

    /// "x,y wxh", for a person reading a terminal.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}
