import Model
/// A frame reduced to black and white at one gray level.
extension Frame {
    /// The gray level that best parts the frame's pixels into a dark class and a light one
    /// (Otsu's method: the level where the two classes' means lie furthest apart, each weighed
    /// by its share of the pixels). Pixels at or below it are dark.
    public var partingLevel: UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        histogram.withUnsafeMutableBufferPointer { counts in
            bytes.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * stride
                    for x in 0..<width { counts[Int(row[x])] &+= 1 }
                }
            }
        }
        let total = Double(width * height)
        let sum = histogram.indices.reduce(0.0) { $0 + Double($1 * histogram[$1]) }
        var (darkCount, darkSum) = (0.0, 0.0)
        var (best, bestSpread) = (0, -1.0)
        for level in 0..<255 {
            darkCount += Double(histogram[level])
            darkSum += Double(level * histogram[level])
            let lightCount = total - darkCount
            guard darkCount > 0, lightCount > 0 else { continue }
            let difference = darkSum / darkCount - (sum - darkSum) / lightCount
            let spread = darkCount * lightCount * difference * difference
            if spread > bestSpread { (best, bestSpread) = (level, spread) }
        }
        return UInt8(best)
    }

    /// The frame in black (0) and white (255) only, parted at `partingLevel`, rows packed.
    public func twoLevel() -> Frame {
        let level = partingLevel
        let out = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            bytes.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * stride
                    let to = out.baseAddress! + y * width
                    for x in 0..<width { to[x] = row[x] <= level ? 0 : 255 }
                }
            }
            count = width * height
        }
        return Frame(width: width, height: height, bytes: out, timestamp: timestamp, index: index)
    }
}
