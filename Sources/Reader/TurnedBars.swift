import Imaging
import Model

/// A linear code's bars as they stand on a frame, turned or sheared with the label: the corners
/// of the four-sided shape they fill, each a point of the frame.
struct TurnedBars: Sendable, Equatable {
    struct Point: Sendable, Equatable {
        var x: Double
        var y: Double
    }
    var topLeft: Point
    var topRight: Point
    var bottomRight: Point
    var bottomLeft: Point

    /// Whether the bars stand turned or sheared on the frame, by `leastTurn` or more: their sides
    /// slanting, or their top edge. A level code's box, grown across its bars, says where they
    /// are (`FrameReader.acrossBars`).
    var isTurned: Bool {
        let sides = [(topLeft, bottomLeft), (topRight, bottomRight)].map { abs(($1.x - $0.x) / max(1, $1.y - $0.y)) }
        let edge = abs((topRight.y - topLeft.y) / max(1, topRight.x - topLeft.x))
        return max(sides.max()!, edge) >= Self.leastTurn
    }

    /// How far from level bars stand, in pixels across a pixel along, to be taken as turned: two
    /// degrees.
    static let leastTurn = 0.035

    /// Its corners, each `margin` pixels further out, and the bottom ones `band` of their side's
    /// length further down it (where the code's human-readable line is printed).
    func corners(margin: Double, band: Double) -> [Point] {
        func down(_ top: Point, _ bottom: Point, by share: Double, _ dx: Double) -> Point {
            let (x, y) = (bottom.x - top.x, bottom.y - top.y)
            let length = max(1, (x * x + y * y).squareRoot())
            let extra = share * length + margin
            return Point(x: bottom.x + x / length * extra + dx, y: bottom.y + y / length * extra)
        }
        return [
            down(bottomLeft, topLeft, by: 0, -margin), down(bottomRight, topRight, by: 0, margin),
            down(topRight, bottomRight, by: band, margin), down(topLeft, bottomLeft, by: band, -margin),
        ]
    }

    /// Whether `box`'s middle lies inside the convex `corners` (in their order round the shape).
    static func holds(_ corners: [Point], _ box: Box) -> Bool {
        let (x, y) = (Double(box.x) + Double(box.width) / 2, Double(box.y) + Double(box.height) / 2)
        let sides = corners.indices.map { k -> Double in
            let (a, b) = (corners[k], corners[(k + 1) % corners.count])
            return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
        }
        return sides.allSatisfy { $0 >= 0 } || sides.allSatisfy { $0 <= 0 }
    }
}

extension BarcodeSymbol {
    /// The code's bars as they stand (`TurnedBars`): on the row through the box's middle, the
    /// first bar and the last; then, from that row, an eighth of the code (`endFollowed` pixels
    /// at least) at each end followed up and down its bars (`barsFollowed`), each end to its own
    /// top and bottom row. A hand turns a label and its codes with it, or holds it leaning away:
    /// zbar boxes such a code on some of the rows it crosses, level, and a level box that holds
    /// its bars takes in the print beside them. Nil for a 2-D code, one standing on end, one
    /// whose middle row shows no bars, or one whose ends cannot be followed over four rows.
    func turnedBars(in frame: Frame) -> TurnedBars? {
        guard !Self.twoDimensional.contains(symbology), box.width >= Box.codeAtLeast, box.width > box.height,
            frame.part(box) == box
        else { return nil }
        let middle = box.y + box.height / 2
        // zbar's box may stop short of the last bar: the row is looked at a little past it.
        let (from, to) = (max(0, box.x - Self.pastTheBox), min(frame.width, box.maxX + Self.pastTheBox))
        guard let row = Self.darkAndLight(in: frame, row: middle, from: from, to: to), let first = row.firstIndex(of: true),
            let last = row.lastIndex(of: true), last - first >= Box.codeAtLeast
        else { return nil }
        let (left, right) = (from + first, from + last + 1)
        let end = min(max(Self.endFollowed, (right - left) / 8), (right - left) / 2)
        let leftEnd = barsFollowed(in: frame, from: left, to: left + end, row: middle)
        let rightEnd = barsFollowed(in: frame, from: right - end, to: right, row: middle)
        guard leftEnd.bottom - leftEnd.top >= 4, rightEnd.bottom - rightEnd.top >= 4 else { return nil }
        // Each end's rows stop where a share of its pixels along (`stopsAcross`) has left the
        // bars: on a sloping edge, at a point of the window that side of its middle. Each edge is
        // found from its two ends, and each corner put where it meets the code's end.
        let (l, r, w) = (Double(left), Double(right), Double(end))
        func edge(_ atLeft: Int, _ atRight: Int, top: Bool) -> (left: Double, right: Double) {
            let slope = Double(atRight - atLeft) / (r - l - w)
            let share = top == (slope > 0) ? 1 - Self.stopsAcross : Self.stopsAcross
            return (Double(atLeft) - slope * w * share, Double(atRight) + slope * w * (1 - share))
        }
        let (tops, bottoms) = (edge(leftEnd.top, rightEnd.top, top: true), edge(leftEnd.bottom, rightEnd.bottom, top: false))
        func corner(_ x: Double, _ y: Double, along end: (top: Int, bottom: Int, topShift: Int, bottomShift: Int)) -> TurnedBars.Point {
            let slant = Double(end.bottomShift - end.topShift) / Double(end.bottom - end.top)
            return TurnedBars.Point(x: x + slant * (y - Double(middle)), y: y)
        }
        return TurnedBars(
            topLeft: corner(l, tops.left, along: leftEnd), topRight: corner(r, tops.right, along: rightEnd),
            bottomRight: corner(r, bottoms.right, along: rightEnd), bottomLeft: corner(l, bottoms.left, along: leftEnd))
    }

    /// The fewest pixels along the code each end is followed on.
    static let endFollowed = 48

    /// The share of an end's pixels along the code that leave its bars, on its last row: a row
    /// matches the middle one on four pixels in five (`barsMatch`), and paper matches bars on
    /// about half.
    static let stopsAcross = 0.4

    /// How far past zbar's box a code's first and last bars are looked for: less than a quiet
    /// zone (ten of the narrowest bars) at a webcam's smallest print.
    static let pastTheBox = 8

    /// The rows of the code's bars from `row` up and down, each read from `start` to `end` where
    /// the bars have moved along it (a pixel a row at most, as a turned code's bars do): each row
    /// whose dark and light match `row`'s on `barsMatch` of its pixels (`matching`) is theirs,
    /// until two running do not. With how far the bars had moved on the top row and on the
    /// bottom one.
    func barsFollowed(in frame: Frame, from start: Int, to end: Int, row middle: Int) -> (
        top: Int, bottom: Int, topShift: Int, bottomShift: Int
    ) {
        guard let reference = Self.darkAndLight(in: frame, row: middle, from: start, to: end) else { return (middle, middle, 0, 0) }
        func lastRow(_ step: Int) -> (row: Int, shift: Int) {
            var (y, shift, last, misses) = (middle + step, 0, (row: middle, shift: 0), 0)
            while y >= 0, y < frame.height, abs(y - middle) <= box.width, misses < 2 {
                let best = (shift - 1...shift + 1).map { moved in
                    let inside = start + moved >= 0 && end + moved <= frame.width
                    let read = inside ? Self.darkAndLight(in: frame, row: y, from: start + moved, to: end + moved) ?? [] : []
                    return (shift: moved, match: Self.matching(reference, read))
                }.max { $0.match < $1.match }!
                if best.match >= Self.barsMatch { (last, shift, misses) = ((y, best.shift), best.shift, 0) } else { misses += 1 }
                y += step
            }
            return last
        }
        let (top, bottom) = (lastRow(-1), lastRow(1))
        return (top.row, bottom.row, top.shift, bottom.shift)
    }

    /// The share of `reference`'s pixels `row` matches, over the pixels both hold; 0 for none.
    static func matching(_ reference: [Bool], _ row: [Bool]) -> Double {
        let count = min(reference.count, row.count)
        return count == 0 ? 0 : Double((0..<count).filter { reference[$0] == row[$0] }.count) / Double(count)
    }
}
