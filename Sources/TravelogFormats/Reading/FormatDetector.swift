import Foundation

/// Recognises a file's format from its first bytes, not its name.
///
/// Looks past a byte-order mark (UTF-8 or UTF-16) and leading white space, then at the first
/// element of XML, the first keys of JSON, or the shape of the first lines of text.
public enum FormatDetector {
    /// What the first bytes of a file say it is.
    public enum Detection: Hashable, Sendable {
        case format(FileFormat)
        /// Valid data that is not location history (Google's Timeline Edits, settings files).
        case notLocationHistory(String)
        /// Nothing recognisable.
        case unknown
    }

    /// How many bytes from the start are enough to decide.
    public static let prefixLength = 64 * 1024

    /// Detects the format of a file from its first bytes (up to `prefixLength`).
    public static func detect(prefix bytes: [UInt8]) -> Detection {
        let text = decodedPrefix(bytes)
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first else { return .unknown }
        switch first {
        case "<": return detectXML(trimmed)
        case "{", "[": return detectJSON(trimmed)
        default: return detectText(trimmed)
        }
    }

    /// The prefix as text: UTF-16 transcoded, a BOM removed, invalid bytes replaced.
    static func decodedPrefix(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            var units: [UInt16] = []
            var index = 2
            while index + 1 < bytes.count {
                let (low, high) = littleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(decoding: body, as: UTF8.self)
    }

    static func detectXML(_ text: Substring) -> Detection {
        // The root element is the first tag that is not a declaration, comment or DOCTYPE.
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            let tag = rest[rest.index(after: open)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") {
                guard let close = tag.firstIndex(of: ">") else { return .unknown }
                rest = tag[tag.index(after: close)...]
                continue
            }
            let name = tag.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let local = name.split(separator: ":").last.map(String.init)?.lowercased() ?? ""
            switch local {
            case "gpx": return .format(.gpx)
            case "kml": return .format(.kml)
            default: return .unknown
            }
        }
        return .unknown
    }

    static func detectJSON(_ text: Substring) -> Detection {
        let keys = firstKeys(text)
        func has(_ key: String) -> Bool { keys.contains(key) }
        if let gpsd = detectGPSD(text, keys: keys) { return gpsd }
        if text.first == "[" {
            if has("startTime") && (has("visit") || has("activity") || has("timelinePath") || has("endTime")) {
                return .format(.googleTimelineIOS)
            }
            if has("_type") { return .format(.owntracks) }
            if has("type") && text.contains("\"Feature\"") { return .format(.geojson) }
            return .unknown
        }
        if has("timelineObjects") { return .format(.googleSemantic) }
        if has("semanticSegments") || has("rawSignals") || has("userLocationProfile") { return .format(.googleTimeline) }
        if has("timelineEdits") { return .notLocationHistory("Google Timeline Edits (edits of the timeline, not locations)") }
        if has("deviceSettings") || has("gaiaId") { return .notLocationHistory("Google location settings (no locations)") }
        if has("locations") {
            if has("latitudeE7") || has("timestampMs") { return .format(.googleRecords) }
            if has("geometry") || has("Feature") || text.contains("\"Feature\"") { return .format(.geojson) }
            if text.range(of: #""locations"\s*:\s*\[\s*\]"#, options: .regularExpression) != nil {
                return .format(.googleRecords)
            }
        }
        if has("type") && (text.contains("\"FeatureCollection\"") || text.contains("\"Feature\"")
                           || text.contains("\"LineString\"") || text.contains("\"Point\"")) {
            return .format(.geojson)
        }
        if has("_type") { return .format(.owntracks) }
        return .unknown
    }

    /// The keys (quoted strings followed by a colon) in the prefix, in order of appearance. A string
    /// is read to its closing quote past any escape, so an escaped quote or backslash in a value
    /// does not make the rest of the text look like keys; keys with escapes are left out.
    static func firstKeys(_ text: Substring) -> Set<String> {
        var keys = Set<String>()
        var index = text.startIndex
        while let quote = text[index...].firstIndex(of: "\"") {
            let start = text.index(after: quote)
            var end = start
            var escaped = false, hasEscape = false
            while end < text.endIndex {
                if escaped {
                    escaped = false
                } else if text[end] == "\\" {
                    escaped = true
                    hasEscape = true
                } else if text[end] == "\"" {
                    break
                }
                end = text.index(after: end)
            }
            guard end < text.endIndex else { break }
            var after = text.index(after: end)
            while after < text.endIndex, text[after].isWhitespace { after = text.index(after: after) }
            if !hasEscape, after < text.endIndex, text[after] == ":" {
                keys.insert(String(text[start..<end]))
            }
            index = text.index(after: end)
        }
        return keys
    }

    static func detectText(_ text: Substring) -> Detection {
        let lines = text.split(whereSeparator: \.isNewline).prefix(50)
        // NMEA captures (gpsd's among them) may open with '#' comment lines.
        let sentences = lines.filter { !$0.hasPrefix("#") }
        if let sentence = sentences.first, sentence.hasPrefix("$") || sentence.hasPrefix("!") { return .format(.nmea) }
        if let sentence = sentences.first, sentence.hasPrefix("{"),
           let gpsd = detectGPSD(text[sentence.startIndex...], keys: firstKeys(text[sentence.startIndex...])) {
            return gpsd
        }
        guard let first = lines.first else { return .unknown }
        if first.hasPrefix("Geolife trajectory") { return .format(.geolife) }
        // OwnTracks Recorder: an ISO time, a tab or spaces, a topic, then a JSON object.
        if first.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\s+\S+\s+\{"#, options: .regularExpression) != nil {
            return .format(.owntracks)
        }
        let header = first.lowercased()
        let columns = header.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\t" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        let hasLatitude = columns.contains { $0.hasPrefix("lat") }
        let hasLongitude = columns.contains { $0.hasPrefix("lon") || $0.hasPrefix("lng") }
        if hasLatitude && hasLongitude { return .format(.csv) }
        if columns.contains("geom") || columns.contains("geometry") { return .format(.csv) }
        return .unknown
    }

    /// gpsd's output (`gpspipe`): reports with a `class` member. A capture with TPV reports is
    /// read as gpsd JSON; one with NMEA sentences and no TPV (`gpspipe -r`, where only gpsd's
    /// greeting is JSON) as NMEA; `nil` when the text is not gpsd's.
    static func detectGPSD(_ text: Substring, keys: Set<String>) -> Detection? {
        guard keys.contains("class") else { return nil }
        let classes = ["VERSION", "DEVICES", "WATCH", "TPV", "SKY", "ATT", "GST", "DEVICE", "PPS", "TOFF"]
        let compact = text.replacingOccurrences(of: " ", with: "")
        guard classes.contains(where: { compact.contains("\"class\":\"\($0)\"") }) else { return nil }
        if compact.contains("\"class\":\"TPV\"") { return .format(.gpsd) }
        let hasNMEA = text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("$") || $0.hasPrefix("!") }
        return .format(hasNMEA ? .nmea : .gpsd)
    }
}
