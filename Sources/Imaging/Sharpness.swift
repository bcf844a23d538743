import Model
/// What a frame is worth reading for print, measured cheaply on a grid of its pixels.
public struct FrameQuality: Sendable, Equatable {
    /// The spread of its grey levels, from the 2nd to the 98th percentile: print on a label
    /// spans most of the range; a desk, a wall or a camera's noise does not.
    public var contrast: Int
    /// Its strongest edges (the 99th percentile of the step between neighbouring pixels) over
    /// its contrast: a blur, by motion or focus, spreads each edge over several pixels and
    /// lowers it; a change of exposure, which scales both, does not. 0 for a flat frame.
    public var sharpness: Double
    /// The median step between neighbouring pixels: a camera's noise and a surface's grain; near
    /// 0 on a clean frame, where most neighbours are alike.
    public var noise: Int

    public init(contrast: Int, sharpness: Double, noise: Int = 0) {
        self.contrast = contrast
        self.sharpness = sharpness
        self.noise = noise
    }

    /// The least contrast of a frame with print on it in ordinary light: a label in view, faint
    /// grey ink on it too, spans over 100 levels of a webcam's frame; a desk or a wall alone,
    /// under its noise, under 30.
    public static let printContrast = 64
    /// The least contrast of print in a dim or veiled frame (`isDimPrint`): a label in a third of
    /// the light, or behind a haze, spans 40 levels and more.
    public static let dimPrintContrast = 24
    /// How many times its noise (plus one level) a dim frame's contrast must be to be print: a
    /// label's print is 13 times and more in a dim frame, 18 times and more in ordinary light; a
    /// desk or a wall alone, its span being its noise's, 7 times at most.
    public static let cleanPrintRatio = 10

    /// Whether the frame has print's contrast: `printContrast`, or print in dim light.
    public var hasPrintContrast: Bool { contrast >= Self.printContrast || isDimPrint }

    /// Whether the frame has print's contrast as dim or veiled light leaves it: at least
    /// `dimPrintContrast` levels and `cleanPrintRatio` times its noise (what a frame under
    /// `printContrast` needs). Dimming a frame takes its contrast and its noise down alike; a
    /// plain surface's span is its noise's.
    public var isDimPrint: Bool { contrast >= Self.dimPrintContrast && contrast >= Self.cleanPrintRatio * (noise + 1) }
}

extension Frame {
    /// The frame's quality, measured on every `step`th pixel of every `step`th row.
    public func quality(step: Int = 4) -> FrameQuality {
        guard width > 1, height > 1 else { return FrameQuality(contrast: 0, sharpness: 0) }
        var levels = [Int](repeating: 0, count: 256)
        var steps = [Int](repeating: 0, count: 256)
        var count = 0
        bytes.withUnsafeBufferPointer { pixels in
            for y in Swift.stride(from: 0, to: height - 1, by: step) {
                let row = y * stride
                for x in Swift.stride(from: 0, to: width - 1, by: step) {
                    let value = Int(pixels[row + x])
                    let right = abs(Int(pixels[row + x + 1]) - value)
                    let below = abs(Int(pixels[row + stride + x]) - value)
                    levels[value] += 1
                    steps[max(right, below)] += 1
                    count += 1
                }
            }
        }
        func percentile(_ histogram: [Int], _ share: Double) -> Int {
            let wanted = Int((Double(count) * share).rounded(.up))
            var seen = 0
            for (value, n) in histogram.enumerated() {
                seen += n
                if seen >= wanted { return value }
            }
            return histogram.count - 1
        }
        let contrast = percentile(levels, 0.98) - percentile(levels, 0.02)
        let edge = percentile(steps, 0.99)
        return FrameQuality(
            contrast: contrast, sharpness: contrast > 0 ? Double(edge) / Double(contrast) : 0, noise: percentile(steps, 0.5))
    }
}
