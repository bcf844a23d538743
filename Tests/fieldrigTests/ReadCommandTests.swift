import Foundation
import Testing

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// What a run of the built `fieldrig` printed and how it exited.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the `fieldrig` built beside this test bundle, in the project's root.
func fieldrig(_ arguments: String..., environment: [String: String]? = nil) throws -> Run {
    try fieldrig(arguments, environment: environment)
}

/// `fieldrig` with the arguments in an array.
func fieldrig(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
    let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let process = Process()
    process.executableURL = folder.appendingPathComponent("fieldrig")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting, so a long output cannot fill a pipe and stall the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

@Suite("fieldrig read")
struct ReadCommandTests {
    @Test("reads a label for a person: one block naming the file, each reading with where it was read")
    func person() throws {
        let run = try fieldrig("read", "Devices/labels/dell-latitude.png")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Devices/labels/dell-latitude.png  (1280x720)")
        #expect(lines.contains { $0.contains("barcode CODE-39") && $0.contains("7XK2M93") && $0.contains(" at 260,27") })
        #expect(lines.contains { $0.contains("text    line 2") && $0.contains("Service Tag (S/N): 7XK2M93") })
    }

    @Test("a symbology's name is shown whole, however long, and the values stay in one column")
    func longSymbologyName() throws {
        // A rendered label with a DataMatrix and printed lines.
        let run = try fieldrig("read", "Devices/codes/edge-datamatrix.png", "Devices/codes/databar-expanded.png")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  barcode DATAMATRIX  CND15664RD ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  barcode DataBar-Exp  (01)09501101530003(21)ABC123 ") }, "\(lines)")
        // In the DataMatrix's block, every value starts in the column after the longest name
        // ("  barcode " and "  text    " take 10, "DATAMATRIX" 10, then two spaces).
        let block = lines.drop { !$0.hasPrefix("Devices/codes/edge-datamatrix.png") }.dropFirst().prefix { $0.hasPrefix("  ") }
        #expect(block.count > 1 && block.contains { $0.hasPrefix("  text    line ") })
        for line in block {
            #expect(line.dropFirst(20).prefix(2) == "  " && line.dropFirst(22).first != " ", "\(line)")
        }
    }

    @Test("bad files get one line each naming them; the good files around them are still read; exit 1")
    func badFilesAmongGood() throws {
        let bad = [
            "Devices/images/empty.png", "Devices/images/notes.png", "Devices/images/corrupt.png",
            "Devices/images/truncated.jpg", "Devices/images/missing.png", "Devices/images",
        ]
        let run = try fieldrig(
            "read", "Devices/labels/hp-elitebook.png", bad[0], bad[1], bad[2], bad[3], bad[4], bad[5], "Devices/labels/qr-asset.png")
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == bad.count)
        for (line, path) in zip(errors, bad) {
            #expect(line.hasPrefix("fieldrig: \(path): "), "\(line)")
        }
        #expect(run.stdout.contains("Devices/labels/hp-elitebook.png  (1280x720)"))
        #expect(run.stdout.contains("Devices/labels/qr-asset.png  (1280x720)"))
        #expect(run.stdout.contains("https://assets.example.com/t/EX-000417"))
    }

    @Test("--json prints one object per image per line with the fields scripts rely on")
    func json() throws {
        let run = try fieldrig("read", "--json", "Devices/labels/ups-ean.png", "Devices/images/empty.png")
        #expect(run.status == 1)
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects[0]["file"] as? String == "Devices/labels/ups-ean.png")
        let readings = try #require(objects[0]["readings"] as? [[String: Any]])
        let ean = try #require(readings.first { $0["symbology"] as? String == "EAN-13" })
        #expect(ean["value"] as? String == "4006381333931")
        #expect(ean["source"] as? String == "barcode")
        #expect((ean["where"] as? String)?.hasPrefix("EAN-13 barcode at ") == true)
        let line = try #require(readings.first { $0["source"] as? String == "text" })
        #expect(line["line"] as? Int == 1)
        #expect(line["value"] as? String == "APC Smart-UPS 1500")
        #expect(line["where"] is String)
        #expect(objects[1]["file"] as? String == "Devices/images/empty.png")
        #expect((objects[1]["error"] as? String)?.contains("the file is empty") == true)
    }

    @Test("--annotate writes the frame with the readings drawn on it")
    func annotate() throws {
        let out = NSTemporaryDirectory() + "fieldrig-annotated-\(getpid()).png"
        defer { unlink(out) }
        let run = try fieldrig("read", "--annotate", out, "Devices/labels/cisco-switch.png")
        #expect(run.status == 0)
        let check = try fieldrig("read", "--only", "barcodes", out)
        #expect(check.stdout.contains("(1280x720)"))
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("--only barcodes reads no text")
    func onlyBarcodes() throws {
        let run = try fieldrig("read", "--only", "barcodes", "Devices/labels/hp-elitebook.png")
        #expect(run.status == 0)
        #expect(run.stdout.contains("5CG1234XYZ") && !run.stdout.contains("text "))
    }

    @Test(
        "wrong usage exits 2 with a message pointing at the help",
        arguments: [
            ["read"], ["read", "--bogus", "x.png"], ["read", "--only", "colour", "x.png"], ["read", "--jobs", "0", "x.png"],
            ["read", "--annotate", "o.png", "a.png", "b.png"], ["read", "--annotate"], ["frobnicate"],
        ])
    func usage(arguments: [String]) throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("--help"))
    }

    @Test(
        "every command has --help, exiting 0",
        arguments: [
            ["read"], ["bench", "read"], ["bench", "cameras"], ["bench", "register"], ["bench", "web"], ["bench", "serials"], ["cameras"],
            ["record"], ["register"], ["crash", "register"], ["live"], ["scenarios"], [],
        ])
    func help(command: [String]) throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent("fieldrig")
        process.arguments = command + ["--help"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("Usage: fieldrig"))
    }

    @Test("started without OMP_THREAD_LIMIT, the tool still reads (it re-executes itself with the limit)")
    func threadLimit() throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "OMP_THREAD_LIMIT")
        let run = try fieldrig("read", "--json", "Devices/labels/nas-blur.png", environment: environment)
        #expect(run.status == 0)
        #expect(run.stdout.contains("2040PDN123456"))
    }
}
