import Imaging
import Model
import Testing

@testable import Shell

/// A frame of vertical stripes `period` pixels wide, smeared over `blur` pixels when given.
func stripes(period: Int, blur: Int = 1) -> Frame {
    let width = 64
    let height = 32
    var bytes = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let inked = (0..<blur).filter { ((x + $0) / period) % 2 == 0 }.count
            bytes[y * width + x] = UInt8(255 * inked / blur)
        }
    }
    return Frame(width: width, height: height, bytes: bytes)
}

/// A plain surface under a camera's noise: `base` and up to `spread` levels more, pixel by pixel.
func speckled(base: Int, spread: Int) -> Frame {
    var state: UInt32 = 2024
    let bytes = (0..<64 * 32).map { _ -> UInt8 in
        state = state &* 1_103_515_245 &+ 12_345
        return UInt8(base + Int(state >> 16) % spread)
    }
    return Frame(width: 64, height: 32, bytes: bytes)
}

@Suite("The text budget")
struct TextBudgetTests {
    @Test("sharpness falls with blur and not with exposure; contrast is print's, not a flat frame's")
    func quality() {
        let sharp = stripes(period: 4).quality(step: 1)
        let smeared = stripes(period: 4, blur: 3).quality(step: 1)
        #expect(sharp.contrast == 255 && sharp.sharpness == 1)
        #expect(smeared.sharpness < sharp.sharpness * 0.5)
        let dim = Frame(width: 64, height: 32, bytes: stripes(period: 4).bytes.map { $0 / 2 }).quality(step: 1)
        #expect(dim.contrast == 127 && abs(dim.sharpness - 1) < 0.01)
        #expect(Frame(width: 8, height: 8, bytes: [UInt8](repeating: 90, count: 64)).quality() == FrameQuality(contrast: 0, sharpness: 0))
    }

    @Test("print in dim light has print's contrast; a plain surface under noise does not, whatever it spans")
    func dimPrint() {
        let dim = Frame(width: 64, height: 32, bytes: stripes(period: 5).bytes.map { 90 + $0 / 6 }).quality(step: 1)
        #expect(dim.contrast == 42 && dim.noise == 0)
        #expect(dim.contrast < FrameQuality.printContrast && dim.isDimPrint && dim.hasPrintContrast)
        let surface = speckled(base: 90, spread: 50).quality(step: 1)
        #expect(surface.contrast > dim.contrast && surface.noise > 10)
        #expect(!surface.isDimPrint && !surface.hasPrintContrast)
        let bright = speckled(base: 60, spread: 120).quality(step: 1)
        #expect(bright.contrast >= FrameQuality.printContrast && bright.hasPrintContrast && !bright.isDimPrint)
    }

    @Test("passes are spaced, capped per window, and spent on frames nearly as sharp as the sharpest seen")
    func spending() {
        var spending = TextBudgetSpending(TextBudget(perWindow: 2, spacing: 3, sharpEnough: 0.8, leastContrast: 64))
        let sharp = stripes(period: 5)
        let smeared = stripes(period: 5, blur: 4)
        // Before a window opens: the first frame, then every third.
        let beforeWindow = (0..<6).map { _ in spending.wantsText(sharp, windowOpen: false) }
        #expect(beforeWindow == [true, false, false, true, false, false])
        // A smeared frame is passed over, however long since the last pass; so is a plain surface
        // under noise, too little contrast for print in ordinary light and not clean enough for
        // print in dim light. Clean print in dim light is read.
        let smearedRead = spending.wantsText(smeared, windowOpen: false)
        let surfaceRead = spending.wantsText(speckled(base: 100, spread: 40), windowOpen: false)
        #expect(!smearedRead && !surfaceRead)
        let dim = Frame(width: 64, height: 32, bytes: sharp.bytes.map { 100 + $0 / 8 })
        let dimRead = spending.wantsText(dim, windowOpen: false)
        #expect(dimRead)
        // In a window: two passes at most, spaced.
        var window = TextBudgetSpending(TextBudget(perWindow: 2, spacing: 3, sharpEnough: 0.8))
        let inWindow = (0..<12).map { _ in window.wantsText(sharp, windowOpen: true) }
        #expect(inWindow == [true, false, false, true] + [Bool](repeating: false, count: 8))
        // The window closes (the read started again): the budget is whole again, and the pass
        // on the frame that opens the next window counts against it.
        let reopened = window.wantsText(sharp, windowOpen: false)
        #expect(reopened)
        let next = (0..<6).map { _ in window.wantsText(sharp, windowOpen: true) }
        #expect(next == [false, false, true, false, false, false])
        // Every frame, with no budget.
        var every = TextBudgetSpending(.everyFrame)
        let all = (0..<5).map { _ in every.wantsText(smeared, windowOpen: true) }
        #expect(all == [true, true, true, true, true])
    }

    @Test("the second looks go with each text pass before a window opens, then with a sharper one, as many as the budget says")
    func secondLooks() {
        var spending = TextBudgetSpending(TextBudget(perWindow: 6, spacing: 1, sharpEnough: 0, secondLooksPerWindow: 2))
        let (soft, sharp, sharper) = (stripes(period: 5, blur: 3), stripes(period: 5, blur: 2), stripes(period: 5))
        var looks: [Bool] = []
        for frame in [soft, soft, sharp, sharper, sharper] {
            let read = spending.wantsText(frame, windowOpen: true)
            #expect(read)
            looks.append(spending.passTakesSecondLooks)
        }
        #expect(looks == [true, false, true, false, false])
        // The window closes: the next one's first pass has them again, however soft, and so
        // does each pass until a window opens (its print offered nothing yet).
        let reopened = spending.wantsText(soft, windowOpen: false)
        #expect(reopened && spending.passTakesSecondLooks)
        let stillClosed = spending.wantsText(soft, windowOpen: false)
        #expect(stillClosed && spending.passTakesSecondLooks)
        let opened = spending.wantsText(soft, windowOpen: true)
        #expect(opened && !spending.passTakesSecondLooks)
        // With no limit, every pass has them.
        var every = TextBudgetSpending(.everyFrame)
        let all = (0..<3).map { _ in every.wantsText(soft, windowOpen: true) && every.passTakesSecondLooks }
        #expect(all == [true, true, true])
        #expect(TextBudget.standard.secondLooksPerWindow == 1)
    }

    @Test("while no pass of the window has read a value in print, each of its passes takes the second looks too")
    func secondLooksWhilePrintOffersNothing() {
        var spending = TextBudgetSpending(TextBudget(perWindow: 6, spacing: 1, sharpEnough: 0, secondLooksPerWindow: 1))
        let soft = stripes(period: 5, blur: 3)
        var looks: [Bool] = []
        // A window opened on a barcode: its first pass has them, and the next two, their print
        // offering nothing; once a pass offers a value, the rest read the page alone.
        for offered in [false, false, false, true, true] {
            let read = spending.wantsText(soft, windowOpen: true, printOffered: offered)
            #expect(read)
            looks.append(spending.passTakesSecondLooks)
        }
        #expect(looks == [true, true, true, false, false])
        // Before a window opens each pass has them anyway, offered or not.
        var closed = TextBudgetSpending(TextBudget(perWindow: 6, spacing: 1, sharpEnough: 0, secondLooksPerWindow: 1))
        let before = closed.wantsText(soft, windowOpen: false, printOffered: true)
        #expect(before && closed.passTakesSecondLooks)
    }

    @Test("a sharper scene that left the view stops counting: the sharpest is the last half second's")
    func sharpestIsRecent() {
        var spending = TextBudgetSpending(TextBudget(perWindow: 100, spacing: 1, sharpEnough: 0.8, leastContrast: 64))
        let sharp = stripes(period: 5)
        let smeared = stripes(period: 5, blur: 4)
        let first = spending.wantsText(sharp, windowOpen: false)
        #expect(first)
        // Smeared frames are passed over while the sharp one is among the last 15 frames seen.
        let after = (1...TextBudget.remembered).map { _ in spending.wantsText(smeared, windowOpen: false) }
        #expect(after.dropLast() == [Bool](repeating: false, count: TextBudget.remembered - 1))
        #expect(after.last == true)
    }
}
