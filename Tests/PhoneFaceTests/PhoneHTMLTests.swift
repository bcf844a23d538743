import Companion
import Model
import PhoneFace
import Testing

let key = Array("face-test-tag-key-0123456789".utf8)
let context = ScanContext(
    registerID: "REG-F", tagKey: key,
    walkRound: ["MF-0004": WalkRoundEntry(name: "Core switch", reason: "Quarterly check of the comms room")])
let tag = AssetTagCode(registerID: "REG-F", tag: "MF-0004").payload(key: key)

func box(_ y: Int) -> Box { Box(x: 10, y: y, width: 200, height: 40) }

@Suite("the phone as HTML")
struct PhoneHTMLTests {
    @Test("the walk-round card: the exact copy, its three buttons with the terminal's keys, the sentence above")
    func walkRoundCard() {
        var sheet = ScanSheet(purpose: .walkRound, context: context)
        for event in [
            ScanSheet.Event.opened, .cameraStarted,
            .frameRead([Reading(value: tag, source: .barcode(symbology: "QR-Code"), box: box(10))], at: .seconds(1)),
        ] {
            _ = sheet.handle(event)
        }
        let html = PhoneHTML.phone(PhoneView(scan: (.walkRound, sheet.screen)))
        #expect(html.contains("<h2>Walk-round</h2>"))
        #expect(html.contains("<p class=\"sentence\">\(Copy.ready)</p>"))
        #expect(html.contains("<div class=\"tag\">MF-0004</div><div class=\"name\">Core switch</div>"))
        #expect(html.contains("<div class=\"reason\">Quarterly check of the comms room</div>"))
        #expect(html.contains("data-key=\"v\">VERIFY</button>"))
        #expect(html.contains("data-key=\"o\">OPEN THE RECORD</button>"))
        #expect(html.contains("data-key=\"n\">NEXT</button>"))
        #expect(!html.contains("Add it by hand"))
    }

    @Test("a camera trouble: its sentence, only the routes that need no camera, Open Settings only for access off")
    func trouble() {
        var sheet = ScanSheet(purpose: .intake, context: context)
        _ = sheet.handle(.opened)
        _ = sheet.handle(.cameraFailed(.accessOff))
        let html = PhoneHTML.phone(PhoneView(scan: (.intake, sheet.screen)))
        #expect(html.contains(Copy.accessOff))
        #expect(html.contains("data-key=\"3\">Add it by hand</button>"))
        #expect(!html.contains(Copy.photographSerial))
        #expect(html.contains("data-key=\"s\">Open Settings</button>"))
    }

    @Test("whatever a label or a person typed is text, never markup")
    func hostileText() {
        var form = HandIntake()
        _ = form.handle(.type(.name, "<script>alert('x')</script>"))
        _ = form.handle(.type(.tag, "MF-\"><img src=x onerror=alert(1)>"))
        let html = PhoneHTML.phone(PhoneView(handIntake: form))
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        let marks = FrameMark.marks([Reading(value: "</svg><script>x</script>", source: .text(line: 1), box: box(5))], context: context)
        let overlay = FrameHTML.overlay(width: 640, height: 360, marks: marks)
        #expect(!overlay.contains("<script>"))
        #expect(overlay.hasPrefix("<svg") && overlay.hasSuffix("</svg>"))
    }

    @Test("a proven tag is marked as proven; another code and printed lines as what they are")
    func marks() {
        let readings = [
            Reading(value: tag, source: .barcode(symbology: "QR-Code"), box: box(10)),
            Reading(value: "7XK2M93", source: .barcode(symbology: "CODE-39"), box: box(60)),
            Reading(value: "S/N 7XK2M93", source: .text(line: 1), box: box(110)),
        ]
        let marks = FrameMark.marks(readings, context: context)
        #expect(marks.map(\.kind) == [.proven, .barcode, .text])
        #expect(marks[0].label == "MF-0004 (proven tag)")
        #expect(marks[1].label == "CODE-39: 7XK2M93")
        let forged = AssetTagCode(registerID: "REG-F", tag: "MF-0004").payload(key: Array("some-other-key-0123456789".utf8))
        #expect(
            FrameMark.marks([Reading(value: forged, source: .barcode(symbology: "QR-Code"), box: box(10))], context: context)[0].kind
                == .barcode)
        let svg = FrameHTML.overlay(width: 1280, height: 720, marks: marks)
        #expect(svg.contains("viewBox=\"0 0 1280 720\""))
        #expect(
            svg.contains("<g class=\"mark proven\"><title>MF-0004 (proven tag)</title><rect x=\"10\" y=\"10\" width=\"200\" height=\"40\">")
        )
    }

    @Test("the handover, the sweep and the queue, in their own words")
    func otherScreens() {
        let handover = HandoverScreen(connection: .notPaired, assetCount: 12)
        var sweep = RackSweep(context: context)
        _ = sweep.handle(.opened)
        _ = sweep.handle(.cameraStarted)
        _ = sweep.handle(.frameRead([Reading(value: tag, source: .barcode(symbology: "QR-Code"), box: box(10))], at: .seconds(1)))
        let queue = QueueScreen(
            summary: QueueSummary(counts: QueueCounts(goingUp: 2, needDecision: 0, kept: 0), stall: .noMacPaired), rows: [])
        let html = PhoneHTML.phone(PhoneView(sweep: sweep, queue: queue, handover: handover))
        #expect(html.contains("The register: 12 assets, and the sites, people, vendors and agreements around them."))
        #expect(html.contains("Pair with the Mac</button>"))
        #expect(html.contains("disabled=\"disabled\">Send it</button><p class=\"detail\">Pair with the Mac first.</p>"))
        #expect(html.contains(RackSweep.readySentence))
        #expect(html.contains("MF-0004  (due)"))
        #expect(html.contains(">VERIFY THESE 1</button>"))
        #expect(html.contains("<div class=\"summary\">2 still going up</div>"))
        #expect(html.contains("Nothing can go up until this iPhone is paired with your Mac."))
    }

    @Test("a trace page marks the failing step with what was expected, what was seen and where it is written")
    func tracePage() {
        let steps = [
            TraceStep(
                clock: .milliseconds(500), location: "Scenarios/A.swift:10", text: "wait 0.5 s", phone: "<div class=\"phone\"></div>",
                frames: [
                    TraceFrame(image: "../frames/a.jpg", width: 1280, height: 720, at: .milliseconds(300), marks: [])
                ], framesDelivered: 15, world: ["Queue: All sent"]),
            TraceStep(
                clock: .milliseconds(500), location: "Scenarios/A.swift:11", text: "expect the sentence “Ready”", phone: "", frames: [],
                framesDelivered: 0, world: [], failure: (expected: "expect the sentence “Ready”", seen: "the sentence was “Busy”")),
        ]
        let trace = ScenarioTrace(
            name: "a <b>", rules: ["SCAN-6"], location: "Scenarios/A.swift:5", failure: "it failed", duration: .milliseconds(12),
            steps: steps)
        let page = TracePages.scenario(trace)
        #expect(page.contains("<title>FAIL: a &lt;b&gt;</title>"))
        #expect(page.contains("<li class=\"step failed\" id=\"step-2\">"))
        #expect(page.contains("<dt>Seen</dt><dd>the sentence was “Busy”</dd><dt>Written at</dt><dd>Scenarios/A.swift:11</dd>"))
        #expect(page.contains("The camera delivered 15 frames; 1 shown"))
        #expect(page.contains("src=\"../frames/a.jpg\""))
        #expect(page.contains("0.500 s"))
        let index = TracePages.index(
            [
                TraceIndexEntry(
                    name: "a <b>", rules: ["SCAN-6"], location: "Scenarios/A.swift:5", passed: false, duration: .milliseconds(12),
                    page: "scenarios/001-a-b.html"),
                TraceIndexEntry(
                    name: "ok", rules: ["SCAN-7"], location: "Scenarios/A.swift:20", passed: true, duration: .milliseconds(3), page: nil),
            ], title: "Scenarios")
        #expect(index.contains("1 passed, 1 failed"))
        #expect(index.contains("<a href=\"scenarios/001-a-b.html\">a &lt;b&gt;</a>"))
        #expect(!index.contains("<script"))
    }
}
