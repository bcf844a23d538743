import Foundation
import Testing

@Suite("fieldrig live and tag make")
struct LiveCommandTests {
    @Test("the live shell shows the sentence, the routes and the walk-round card, and a fault's sentence")
    func live() throws {
        let run = try fieldrig(
            "live", "--camera", "Devices/sequences/walk-round", "--walk-round", "--virtual", "--seconds", "3", "--fault", "busy@2.0")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "Point at an asset tag, or a pairing code on your Mac when it is running.\n  [1] Photograph a serial instead   [2] Sweep a rack instead   [3] Add it by hand"
            ))
        #expect(run.stdout.contains("  ┌ MF-0004  Core switch\n  │ Quarterly check of the comms room"))
        #expect(run.stdout.contains("2.000000 camera: busy"))
        #expect(
            run.stdout.contains(
                "The camera is busy. Another app is using it. Close it and come back, or add it by hand.\n  ┌ MF-0004  Core switch\n  │ Quarterly check of the comms room\n  │ [v] VERIFY   [o] OPEN THE RECORD   [n] NEXT\n  · camera: "
            ))
        // On the virtual clock the reader never falls behind: every frame is read.
        #expect(run.stdout.hasSuffix(" frames read, 0 skipped unread\n"))
    }

    @Test("live says once a second the frames delivered, read for barcodes and for text, and the text budget's use")
    func readingRates() throws {
        let run = try fieldrig("live", "--camera", "Devices/sequences/dell-latitude-hold", "--virtual", "--seconds", "2")
        #expect(run.status == 0)
        // The label settles within the first second: every frame read for barcodes, six for text.
        #expect(
            run.stdout.contains(
                "  · reading: 30 frames/s delivered, 30 read for barcodes, 6 for text (text budget: 6 of 6 passes in this window)\n"))
        let two = try fieldrig(
            "live", "--camera", "Devices/sequences/dell-latitude-hold", "--virtual", "--seconds", "2", "--text-budget", "2")
        #expect(two.stdout.contains("30 read for barcodes, 2 for text (text budget: 2 of 2 passes in this window)\n"))
    }

    @Test("tag make prints a payload the scan sheet proves, and draws it as a QR that reads back")
    func tagMake() throws {
        let png = NSTemporaryDirectory() + "fieldrig-tag-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        let key = "6d616e69666573742d64656d6f2d7461672d6b65792d30303031"
        let run = try fieldrig("tag", "make", "MF-0004", "--register-id", "REG-4F2A", "--key", key, "--png", png)
        #expect(run.status == 0)
        #expect(run.stdout == "MFST-T1/REG-4F2A/MF-0004/QpAlGEzrzM6vgRjCJv7L_q1-1zNdX6BrKKZZ1Hnc7uk\n")
        let read = try fieldrig("read", "--only", "barcodes", png)
        #expect(read.stdout.contains("QR-Code    MFST-T1/REG-4F2A/MF-0004/QpAlGEzrzM6vgRjCJv7L_q1-1zNdX6BrKKZZ1Hnc7uk"))
        #expect(try fieldrig("tag", "make", "MF-0004", "--register-id", "REG-4F2A", "--key", "abc").status == 2)
    }
}

@Suite("fieldrig serial and bench serials")
struct SerialCommandTests {
    @Test("the serial in a 2-D code: AI 21 of GS1 DataMatrix, the S field of an ISO/IEC 15434 envelope")
    func twoDimensionalSerials() throws {
        let run = try fieldrig("serial", "Devices/codes/gs1-datamatrix.png", "Devices/codes/envelope-datamatrix.png")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "gs1-datamatrix.png\n  Which one is the serial?\n  Everything the camera read. Tap the serial.\n      SN4711\n"))
        #expect(
            run.stdout.contains(
                "envelope-datamatrix.png\n  Which one is the serial?\n  Everything the camera read. Tap the serial.\n      CN7XK2M93\n"))
    }

    @Test("serial --json prints one object per image with the candidates' fields")
    func json() throws {
        let run = try fieldrig("serial", "--json", "Devices/labels/disagree-swap.png", "Devices/labels/ups-ean.png")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[0]
                == #"{"file": "Devices/labels/disagree-swap.png", "candidates": [{"value": "9Q4TR63", "where": ["printed line 2"], "evidence": "text", "disagreesWith": ["9Q4TR36"]}, {"value": "9Q4TR36", "where": ["CODE-39 barcode"], "evidence": "barcode", "disagreesWith": ["9Q4TR63"]}]}"#
        )
        #expect(lines[1].contains(#""value": "AS2107123456""#) && lines[1].contains(#""evidence": "agree""#))
    }

    @Test("bench serials reports the list over the label fixtures: on the list, first, short, disagreements shown")
    func bench() throws {
        let run = try fieldrig("bench", "serials")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("26 labels: true serial on the list 100.0%, first 100.0%, mean list length 1.15\n"))
        #expect(run.stdout.contains("planted disagreements shown as one: 3 of 3"))
        #expect(run.stdout.contains("disagreements shown where none was planted: on 0 of 23 labels"))
    }

    @Test("bench serials --without turns a repair of the reader off and says so; a pass that is no repair is a usage error")
    func benchWithout() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-without-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["hp-elitebook-cut-word.png", "hp-elitebook-cut-word.expected"] {
            try FileManager.default.copyItem(atPath: "Devices/labels/\(file)", toPath: "\(folder)/\(file)")
        }
        let with = try fieldrig("bench", "serials", folder)
        #expect(with.status == 0 && with.stdout.hasPrefix("1 labels: true serial on the list 100.0%"), "\(with.stdout)")
        let without = try fieldrig("bench", "serials", "--without", "rows read whole", folder)
        #expect(without.status == 0 && without.stdout.hasPrefix("without the reader's 'rows read whole'\n"), "\(without.stdout)")
        #expect(without.stdout.contains("1 labels: true serial on the list 0.0%"), "\(without.stdout)")
        let text = try fieldrig("bench", "serials", "--without", "text", folder)
        #expect(text.status == 2 && text.stderr.contains("--without 'text': no such repair of the reader"), "\(text.stderr)")
    }

    /// `fieldrig bench serials` over a folder holding the disagree-swap label (barcode 9Q4TR36,
    /// print 9Q4TR63) with `sidecar` as what it is said to hold; the run and the folder.
    func benchSwap(_ sidecar: String) throws -> (run: Run, folder: String) {
        let folder = NSTemporaryDirectory() + "fieldrig-bench-\(getpid())-\(UUID().uuidString.prefix(6))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "Devices/labels/disagree-swap.png", toPath: "\(folder)/swap.png")
        try sidecar.write(toFile: "\(folder)/swap.expected", atomically: true, encoding: .utf8)
        return (try fieldrig("bench", "serials", folder), folder)
    }

    @Test("bench serials counts a disagreement shown on a label where none was planted, and names the label")
    func benchUnplanted() throws {
        // The label's sidecar not saying that barcode and print differ.
        let (run, folder) = try benchSwap("serial 9Q4TR63\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("no planted disagreements\ndisagreements shown where none was planted: on 1 of 1 labels"))
        #expect(run.stdout.contains("\(folder)/swap.png: a disagreement 9Q4TR63 / 9Q4TR36 was shown, none was planted"))
    }

    @Test("bench serials says why a planted disagreement was not shown: here, no barcode holds the value the sidecar plants")
    func benchHidden() throws {
        // The sidecar plants a barcode holding 9Q4TR99.
        let (run, folder) = try benchSwap("serial 9Q4TR63\ndisagree 9Q4TR99 9Q4TR63\n")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "planted disagreements shown as one: 0 of 1 (not shown: 1 barcode not read, 0 print not read, 0 print read as the barcode's, 0 both read)"
            ))
        #expect(run.stdout.contains("\(folder)/swap.png: the disagreement 9Q4TR99 / 9Q4TR63 was not shown: its barcode was not read"))
    }
}

@Suite("fieldrig scenarios, rules and explore")
struct ScenarioCommandTests {
    @Test("two shards cut by time and merged give the report an unsharded run gives: the same scenarios, in order, with the same results")
    func shardsMerged() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-cli-shards-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try fieldrig("scenarios", "--rule", "SCAN-7", "--report", "\(folder)/all").status == 0)
        for shard in ["1/2", "2/2"] {
            let out = "\(folder)/\(shard.prefix(1))"
            let run = try fieldrig("scenarios", "--rule", "SCAN-7", "--shard", shard, "--durations", "\(folder)/all", "--report", out)
            #expect(run.status == 0)
        }
        #expect(try fieldrig("report", "merge", "\(folder)/1", "\(folder)/2", "--out", "\(folder)/merged").status == 0)
        func outcomes(_ report: String) throws -> [String] {
            try String(contentsOfFile: "\(folder)/\(report)/results.jsonl", encoding: .utf8).split(separator: "\n").map { line in
                let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                return "\(record["name"] ?? "?") \(record["failure"] ?? "passed")"
            }
        }
        let unsharded = try outcomes("all")
        #expect(unsharded.count > 20)
        #expect(try outcomes("merged") == unsharded)
        let shares = try ["1", "2"].map { try outcomes($0).count }
        #expect(shares.reduce(0, +) == unsharded.count && shares.allSatisfy { $0 > 0 })
    }

    @Test("--report writes a folder report merge reads; --last-failed runs only what failed there; --durations goes with --shard")
    func reports() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-cli-report-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try fieldrig("scenarios", "--filter", "at start, on Scan", "--report", "\(folder)/one")
        #expect(run.status == 0)
        let plan = try String(contentsOfFile: "\(folder)/one/plan", encoding: .utf8).split(separator: "\n")
        #expect(plan.first == "all" && plan.count == 5)
        let results = try String(contentsOfFile: "\(folder)/one/results.jsonl", encoding: .utf8)
        #expect(results.split(separator: "\n").count == 4)
        let rerun = try fieldrig("scenarios", "--last-failed", "\(folder)/one")
        #expect(rerun.status == 0 && rerun.stdout.contains("nothing failed in \(folder)/one: nothing to run"))
        // The same report with one scenario marked failed: only that one runs again.
        let failed = results.replacingOccurrences(
            of: #""name":"busy at start, on Scan""#, with: #""failure":"it broke","name":"busy at start, on Scan""#)
        try failed.write(toFile: "\(folder)/one/results.jsonl", atomically: true, encoding: .utf8)
        let listed = try fieldrig("scenarios", "--last-failed", "\(folder)/one", "--list")
        #expect(listed.stdout.split(separator: "\n").map { $0.split(separator: "  ")[1] } == ["busy at start, on Scan"])
        #expect(try fieldrig("scenarios", "--durations", "\(folder)/one").status == 2)
        let merged = try fieldrig("report", "merge", "\(folder)/one", "--out", "\(folder)/all")
        #expect(merged.status == 1 && merged.stdout.contains("3 passed, 1 failed (1 shards merged into \(folder)/all)"))
    }

    @Test("rules: every rule covered; --json with the names the issue asks for")
    func rules() throws {
        let run = try fieldrig("rules")
        #expect(run.status == 0 && run.stdout.contains("51 of 51 rules covered"))
        let json = try fieldrig("rules", "--json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.count == 51)
        let scan7 = try #require(rules.first { $0["id"] as? String == "SCAN-7" })
        #expect((scan7["scenarios"] as? [String])?.isEmpty == false)
    }

    @Test("scenarios --rule runs only those, a shard splits them, --junit writes a report")
    func select() throws {
        let junit = NSTemporaryDirectory() + "fieldrig-junit-\(getpid()).xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let listed = try fieldrig("scenarios", "--list", "--rule", "SCAN-9").stdout.split(separator: "\n")
        #expect(listed.count >= 2 && listed.allSatisfy { $0.contains("SCAN-9") })
        let run = try fieldrig("scenarios", "--rule", "SCAN-9", "--junit", junit)
        #expect(run.status == 0)
        #expect(run.stdout.contains("\(listed.count) passed, 0 failed"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"fieldrig scenarios\" tests=\"\(listed.count)\" failures=\"0\""))
        let all = try fieldrig("scenarios", "--list").stdout.split(separator: "\n").count
        let first = try fieldrig("scenarios", "--list", "--shard", "1/2").stdout.split(separator: "\n").count
        let second = try fieldrig("scenarios", "--list", "--shard", "2/2").stdout.split(separator: "\n").count
        #expect(first + second == all && abs(first - second) <= 1)
        #expect(try fieldrig("scenarios", "--shard", "3/2").status == 2)
    }

    @Test("explore plays random runs, twice each with --repeat 2; the tool links no broken companion")
    func explore() throws {
        let run = try fieldrig("explore", "--seed", "1", "--steps", "20", "--runs", "5", "--repeat", "2")
        #expect(run.status == 0)
        #expect(run.stdout.contains("5 runs of 20 steps (seed 1): every invariant held after every step"))
        let removed = try fieldrig("explore", "--broken-companion")
        #expect(removed.status == 2)
        #expect(removed.stderr.contains("--broken-companion was removed"))
    }
}

@Suite("fieldrig bench live")
struct BenchLiveTests {
    @Test("plays a sequence through the chooser: its first row, settling from the label in view, frames read for text")
    func sample() throws {
        let run = try fieldrig("bench", "live", "Devices/live", "--jobs", "1")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("1 sequences: chooser's first row the true serial on 1 (100.0%), on the list 1 (100.0%)"))
        // In view at 0.2 s, the chooser up one settling window later.
        #expect(run.stdout.contains("settled within 1.5 s of the label first in view: 1 of 1 (100.0%); median 1000.0 ms"))
        // The budget: 36 frames delivered, 6 read for text; every frame, with --every-frame.
        #expect(run.stdout.contains("frames: 36 delivered, 6 read for text (16.7%), 30 for barcodes only"))
        let every = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--every-frame")
        #expect(every.stdout.contains("read for text (100.0%), 0 for barcodes only"))
        #expect(run.stdout.contains("proven tag's first frame to its card: "))
        #expect(!run.stdout.contains("Each pass of the reader"))
    }

    @Test("with --pass-costs, each pass of the reader over the frames delivered: barcodes on every one, text on the budget's")
    func passCosts() throws {
        let run = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--pass-costs")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Each pass of the reader, over the 36 frames delivered"))
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let barcodes = try #require(rows.first { $0.first == "barcodes" })
        let text = try #require(rows.first { $0.first == "text" })
        // 36 frames, every one read for barcodes; 6 of them (17%) for text, each read once.
        #expect(barcodes[1] == "100%" && text[1] == "17%", "\(run.stdout)")
    }

    @Test("with --stills, each sequence's label as a still image, against the first row live; a missing still is named before playing")
    func stills() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-stills-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let missing = try fieldrig("bench", "live", "Devices/live", "--stills", folder)
        #expect(missing.status == 1 && missing.stderr.contains("\(folder)/dell-latitude-held.png: no still image of that sequence's label"))
        #expect(!missing.stdout.contains("sequences:"))
        // The label the sequence holds up, as a still: read right, as it is live.
        try FileManager.default.copyItem(atPath: "Devices/labels/dell-latitude.png", toPath: folder + "/dell-latitude-held.png")
        let same = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--stills", folder)
        #expect(same.status == 0)
        #expect(
            same.stdout.contains("the same labels as still images (bench serials): first 1 of 1 (100.0%); live 1 (100.0%): not below them"))
        #expect(same.stdout.contains("first as a still and not live: 0; first live and not as a still: 0"))
        // Another label in its place: its still does not give the sequence's serial first.
        try FileManager.default.removeItem(atPath: folder + "/dell-latitude-held.png")
        try FileManager.default.copyItem(atPath: "Devices/labels/hp-elitebook.png", toPath: folder + "/dell-latitude-held.png")
        let other = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--stills", folder)
        #expect(other.stdout.contains("first 0 of 1 (0.0%); live 1 (100.0%): not below them"))
        #expect(other.stdout.contains("first as a still and not live: 0; first live and not as a still: 1"))
        // A still that is no image: named, with what it takes.
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder + "/dell-latitude-held.png"))
        let corrupt = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--stills", folder)
        #expect(corrupt.status == 1 && corrupt.stderr.contains("\(folder)/dell-latitude-held.png: not an image this tool reads"))
    }

    @Test("--barcode-scan: frames no larger than 1280x720 read as by default when scanned whole; a size that is none is a usage error")
    func barcodeScan() throws {
        let standard = try fieldrig("bench", "live", "Devices/live", "--jobs", "1")
        let whole = try fieldrig("bench", "live", "Devices/live", "--jobs", "1", "--barcode-scan", "whole")
        #expect(whole.status == 0)
        let lines = { (run: Run) in run.stdout.split(separator: "\n").prefix(4) }
        #expect(lines(whole) == lines(standard))
        for bad in ["12x", "1280x", "8x8", "1280 x 720", "big"] {
            let run = try fieldrig("bench", "live", "Devices/live", "--barcode-scan", bad)
            #expect(run.status == 2 && run.stderr.contains("--barcode-scan takes WxH"), "\(bad)")
        }
    }

    @Test("a truth that says how its sequence was rendered (light, size, frame size) plays as one that does not")
    func renderingFacts() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-live-facts-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/dell-latitude-held", withIntermediateDirectories: true)
        let devices = FileManager.default.currentDirectoryPath + "/Devices/"
        let sequence = try String(contentsOfFile: "Devices/live/dell-latitude-held/sequence", encoding: .utf8)
        try sequence.replacingOccurrences(of: "../../", with: devices)
            .write(toFile: folder + "/dell-latitude-held/sequence", atomically: true, encoding: .utf8)
        let truth = folder + "/dell-latitude-held/truth"
        try FileManager.default.copyItem(atPath: "Devices/live/dell-latitude-held/truth", toPath: truth)
        let facts = try String(contentsOfFile: truth, encoding: .utf8)
            .replacingOccurrences(of: "profile steady\n", with: "profile steady\nlight 0.5\nsize 0.5\nresolution 1920x1080\n")
        try facts.write(toFile: truth, atomically: true, encoding: .utf8)
        let standard = try fieldrig("bench", "live", "Devices/live", "--jobs", "1")
        let told = try fieldrig("bench", "live", folder, "--jobs", "1")
        #expect(told.status == 0 && facts.contains("resolution 1920x1080"))
        #expect(told.stdout.split(separator: "\n").prefix(4) == standard.stdout.split(separator: "\n").prefix(4))
    }

    @Test("a folder with no sequence, or a truth that does not say its serial, is named with what to do")
    func badInput() throws {
        let empty = try fieldrig("bench", "live", "Devices/labels")
        #expect(empty.status == 1 && empty.stderr.contains("Devices/labels: no sequence folder with a 'truth' sidecar"))
        let folder = NSTemporaryDirectory() + "fieldrig-live-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/one", withIntermediateDirectories: true)
        try "profile steady\nstyle dell\n".write(toFile: folder + "/one/truth", atomically: true, encoding: .utf8)
        let noSerial = try fieldrig("bench", "live", folder)
        #expect(noSerial.status == 1 && noSerial.stderr.contains("\(folder)/one/truth: needs a 'serial' line and 'inview SECONDS'"))
        #expect(try fieldrig("bench", "live", folder, "--sharp", "2").status == 2)
    }
}
