import Model

/// What a barcode's data says the serial could be.
enum Barcodes {
    static func serialValues(_ data: String, symbology: String) -> [String] {
        if ["EAN-13", "EAN-8", "UPC-A", "UPC-E", "ISBN-10", "ISBN-13"].contains(symbology) { return [] }
        if data.hasPrefix("MFST-") { return [] }
        if let gs1 = gs1Serial(data) { return gs1.isEmpty ? [] : [gs1] }
        if let elements = DataIdentifiers.parse(data) {
            // An envelope says what each value is: only a serial's data identifier names a serial.
            return elements.filter { DataIdentifiers.serials.contains($0.identifier) }.map(\.value)
        }
        if data.hasPrefix("1S"), data.count > 3, data.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            let rest = String(data.dropFirst(2))
            // Lenovo, on its labels' Code 128 and QR alike: 1S + the 10-character machine type
            // and model + the 8-character serial.
            if rest.count == 18 { return [String(rest.suffix(8))] }
            return Tokens.looksLikeSerial(rest) ? [rest] : []
        }
        if symbology == "QR-Code" { return qrSerials(data) }
        if data.hasPrefix("1P") || data.hasPrefix("30P") { return [] }  // MH10.8.2 part numbers
        if data.hasPrefix("S"), data.count > 6 {
            // An S data identifier, or a serial that starts with S: both are offered where the
            // rest has a vendor's serial format and the whole has none. Where that format is
            // decisive (rarely fitted by chance), the S is the identifier: the rest first;
            // otherwise the exact value first. A print that names the value without the S
            // settles it either way (the extractor).
            let rest = String(data.dropFirst())
            let restFits = Grammar.known.filter { $0.isSpecific && $0.holds(rest) }
            let fitsWhole = Grammar.known.contains { $0.isSpecific && $0.holds(data) }
            if !restFits.isEmpty && !fitsWhole { return restFits.contains(where: \.isDecisive) ? [rest, data] : [data, rest] }
            // In no vendor's format either way, the S may still be the identifier ANSI MH10.8.2
            // gives a serial (an asset label's commonest): the rest is offered after the exact
            // value, where it is shaped like a serial itself.
            if !fitsWhole, !plainValue(data).isEmpty, Tokens.looksLikeSerial(rest) { return [data, rest] }
        }
        return plainValue(data)
    }

    /// The GS1 serial (AI 21) of GS1 element strings; "" for GS1 data without one; nil for data
    /// that is not GS1. Split by the GS1 table of AI lengths (`GS1.parse`); data that opens as GS1
    /// does (AI 01 and a valid GTIN, or a GS1 symbology identifier) but carries an AI the table
    /// does not know is still split, each unknown value ending at a separator.
    static func gs1Serial(_ data: String) -> String? {
        if let elements = GS1.parse(data) { return elements.first { $0.ai == "21" }?.value ?? "" }
        var rest = Substring(data)
        if rest.hasPrefix("]C1") || rest.hasPrefix("]Q3") {
            rest = rest.dropFirst(3)
        } else {
            guard rest.hasPrefix("01"), rest.count >= 16, NotSerial.isGTIN(String(rest.dropFirst(2).prefix(14))) else { return nil }
        }
        let fixed: [String: Int] = ["00": 18, "01": 14, "02": 14, "11": 6, "12": 6, "13": 6, "15": 6, "16": 6, "17": 6, "20": 2]
        while !rest.isEmpty {
            while rest.first == "\u{1D}" { rest = rest.dropFirst() }
            let ai = String(rest.prefix(2))
            rest = rest.dropFirst(2)
            if let length = fixed[ai] {
                rest = rest.dropFirst(length)
                continue
            }
            // Variable length (and three- or four-digit AIs, whose value ends the same way): up to
            // the group separator, or the end.
            let end = rest.firstIndex(of: "\u{1D}") ?? rest.endIndex
            let value = String(rest[..<end])
            if ai == "21" { return value }
            rest = rest[end...]
        }
        return ""
    }

    /// Serials in a QR code: a labelled field in its text, or a serial parameter of a URL.
    static func qrSerials(_ data: String) -> [String] {
        if data.lowercased().hasPrefix("http") {
            // GS1 Digital Link: https://id.gs1.org/01/<GTIN>/21/<serial>.
            let path = data.split(separator: "?", maxSplits: 1)[0].split(separator: "/").map(String.init)
            if let gtin = path.firstIndex(of: "01"), gtin + 1 < path.count, NotSerial.isGTIN(path[gtin + 1]),
                let ai = path.indices.first(where: { $0 > gtin + 1 && path[$0] == "21" }), ai + 1 < path.count,
                let serial = percentDecoded(path[ai + 1]), !serial.isEmpty
            {
                return [serial]
            }
            guard let query = data.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
            for pair in query.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, ["sn", "serial", "s"].contains(kv[0].lowercased()), Tokens.looksLikeSerial(String(kv[1])) {
                    return [String(kv[1])]
                }
            }
            return []
        }
        if data.hasPrefix("{") { return jsonSerials(data) }
        let lines = data.split(whereSeparator: { "\n;|".contains($0) }).map(String.init)
        let serials = lines.flatMap { Keywords.fields(in: $0) }.filter { $0.kind == .serial }.compactMap { Tokens.serialToken($0.value) }
        if !serials.isEmpty { return serials }
        return lines.count == 1 ? plainValue(data) : []
    }

    /// A barcode's data with no structure, as it is, where it could be a serial. A barcode is
    /// exact: a value of letters only (a Dell tag or a Seagate serial can be) is still one.
    static func plainValue(_ data: String) -> [String] {
        Tokens.looksLikeSerial(data) || (data.count >= 6 && data.count <= 20 && data.allSatisfy { $0.isASCII && $0.isLetter }) ? [data] : []
    }

    /// `text` with its %XX escapes decoded; nil where one is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The string values of a JSON object's serial keys ("sn", "serial", "serialNumber",
    /// "serial_no", ...), in order: a QR code's data as some makers write it.
    static func jsonSerials(_ data: String) -> [String] {
        // The quoted strings in order; a key is a string followed by a colon.
        var strings: [(text: String, isKey: Bool)] = []
        var chars = Substring(data)
        while let open = chars.firstIndex(of: "\"") {
            var text = ""
            var i = chars.index(after: open)
            while i < chars.endIndex, chars[i] != "\"" {
                if chars[i] == "\\" { i = chars.index(after: i) }
                if i < chars.endIndex { text.append(chars[i]) }
                i = i < chars.endIndex ? chars.index(after: i) : i
            }
            guard i < chars.endIndex else { break }
            chars = chars[chars.index(after: i)...]
            let isKey = chars.drop(while: \.isWhitespace).first == ":"
            strings.append((text, isKey))
        }
        let keys: Set<String> = ["SN", "SERIAL", "SERIALNO", "SERIALNUMBER", "SERIALNUM", "SERVICETAG"]
        return zip(strings, strings.dropFirst()).compactMap { key, value in
            guard key.isKey, !value.isKey, keys.contains(key.text.uppercased().filter { $0.isLetter }) else { return nil }
            return Tokens.looksLikeSerial(value.text) ? value.text : nil
        }
    }
}
