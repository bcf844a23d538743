import CLeptonica
import Model

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
    public init(_ original: Frame) {
        self.init(original, skewMeasuredOn: original)
    }

    /// Turns `page` upright by the skew measured on `measured`, the same frame as the camera saw
    /// it. A page made for text recognition has its decoded barcodes painted over, and on a tilted
    /// label the paint's box, level, cuts the code's bars level above and below it: edges as long
    /// as lines of print, and level, which leptonica then finds the frame's lines to be.
    public init(_ page: Frame, skewMeasuredOn measured: Frame) {
        guard let found = Self.skew(of: measured), let upright = Self.turned(page, by: found) else {
            frame = page
            angle = 0
            return
        }
        frame = upright
        angle = Double(found)
    }

    /// `page` turned clockwise by `degrees` about its centre, the corners it uncovers white; nil
    /// if leptonica cannot turn it.
    static func turned(_ page: Frame, by degrees: Float) -> Frame? {
        let pix = PixHandle(frame: page)
        let rotated = withExtendedLifetime(pix) {
            PixHandle(pixRotate(pix.pointer, degrees * .pi / 180, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0))
        }
        guard let turned = rotated, turned.width == page.width, turned.height == page.height, turned.depth == 8 else { return nil }
        var frame = turned.frame()
        frame.timestamp = page.timestamp
        frame.index = page.index
        return frame
    }

    /// The clockwise skew of `frame`'s print, in degrees; nil for a frame level to a tenth of a
    /// degree, or one whose skew leptonica is not confident of.
    ///
    /// Leptonica measures the skew on the frame thresholded at one gray level (130, its default).
    /// A label on a mid-gray desk is then a light block in a dark field, and when its few lines
    /// of print say too little for leptonica to be confident of any angle, the skew is measured
    /// again on the frame thresholded against its own background (leptonica's adaptive conversion).
    static func skew(of frame: Frame) -> Float? {
        PixHandle.silenceLibrary()
        let pix = PixHandle(frame: frame)
        var found: Float = 0
        var confidence: Float = 0
        // Swept at a quarter of the frame's size, then searched at half (leptonica's defaults).
        func measure(_ binary: PixHandle?) -> Bool {
            guard let binary else { return false }
            return withExtendedLifetime(binary) {
                pixFindSkewSweepAndSearch(binary.pointer, &found, &confidence, 4, 2, sweepRange, 1, 0.01) == 0
            }
        }
        return withExtendedLifetime(pix) {
            if measure(PixHandle(pixConvertTo1(pix.pointer, 130))), confidence >= leastConfidence { return abs(found) >= 0.1 ? found : nil }
            guard measure(PixHandle(pixConvertTo1Adaptive(pix.pointer))), abs(found) >= 0.1, confidence >= leastConfidence else {
                return nil
            }
            return found
        }
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
