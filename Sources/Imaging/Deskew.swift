import CLeptonica

#if canImport(Glibc)
    import Glibc
#endif

/// A frame turned upright so its printed lines run level, and the way back to the original.
///
/// Text recognition fails on a label photographed a few degrees off level (the label's slanted
/// edge against the desk is read as marks); barcodes do not need it. Boxes found in the upright
/// frame map back to the original with `originalBox(_:)`.
public struct UprightFrame: Sendable {
    /// The frame turned upright (the original itself when no skew was found).
    public let frame: Frame
    /// The clockwise angle, in degrees, the original was turned by; 0 when it was left as it was.
    public let angle: Double

    /// Finds the skew of `original` (up to 15 degrees either way, a label held as loosely as a
    /// hand holds it) and turns it upright.
    ///
    /// Leptonica measures the skew on the frame thresholded at one gray level. A label on a
    /// mid-gray desk is then a light block in a dark field, and when its few lines of print say
    /// too little for leptonica to be confident of any angle, the skew is measured again on the
    /// frame thresholded against its own background (leptonica's adaptive conversion).
    public init(_ original: Frame) {
        PixHandle.silenceLibrary()
        let pix = PixHandle(frame: original)
        var found: Float = 0
        var confidence: Float = 0
        // Full-resolution sweep is unnecessary: leptonica's defaults search at a 4x reduction.
        var turned = PixHandle(pixDeskewGeneral(pix.pointer, 0, Self.sweepRange, 0, 0, 0, &found, &confidence))
        // Leptonica leaves the image as it is (and the angle unused) below 0.1 degrees or when it
        // is not confident; only a real turn is kept.
        if turned?.pointer == pix.pointer || abs(found) < 0.1 || confidence <= 0 {
            turned = nil
            // Confidently level: nothing to turn.
            if confidence < Self.leastConfidence, let binary = PixHandle(pixConvertTo1Adaptive(pix.pointer)),
                pixFindSkewSweepAndSearch(binary.pointer, &found, &confidence, 4, 2, Self.sweepRange, 1, 0.01) == 0,
                abs(found) >= 0.1, confidence >= Self.leastConfidence
            {
                turned = PixHandle(pixRotate(pix.pointer, found * .pi / 180, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0))
            }
        }
        guard let turned, turned.width == original.width, turned.height == original.height, turned.depth == 8 else {
            frame = original
            angle = 0
            return
        }
        var upright = turned.frame()
        upright.timestamp = original.timestamp
        upright.index = original.index
        frame = upright
        angle = Double(found)
    }

    /// The largest skew looked for, in degrees either way.
    static let sweepRange: Float = 15
    /// Below this confidence leptonica's angle is a guess (leptonica's own deskew uses 3).
    static let leastConfidence: Float = 3

    /// An upright frame said to have been turned by `angle`, for tests of the mapping.
    init(testFrame: Frame, angle: Double) {
        frame = testFrame
        self.angle = angle
    }

    /// The box in the original frame covering `box` of the upright frame.
    public func originalBox(_ box: Model.Box) -> Model.Box {
        guard angle != 0 else { return box }
        let theta = angle * Double.pi / 180
        let cx = Double(frame.width) / 2
        let cy = Double(frame.height) / 2
        let corners = [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].map { point in
            // Undo a clockwise turn about the centre (y grows downwards): turn counter-clockwise.
            let dx = Double(point.0) - cx
            let dy = Double(point.1) - cy
            let x = dx * cos(theta) + dy * sin(theta) + cx
            let y = -dx * sin(theta) + dy * cos(theta) + cy
            return (x: Int(x.rounded()), y: Int(y.rounded()))
        }
        return Model.Box(enclosing: corners)!
    }
}
