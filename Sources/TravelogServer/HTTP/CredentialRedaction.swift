import Foundation

/// Takes every credential out of what a request sent before it is written anywhere: the request
/// log (at every level) and the raw text of a rejected item that the user sees on the page.
///
/// Credentials travel in query strings and form bodies as `token` (Overland, GPSLogger), `id` and
/// `deviceid` (OsmAnd and Traccar Client, whose device id is their only secret), `password` and a
/// few other names; in Traccar Client's JSON body as `device_id`. Headers (`Authorization`,
/// `Cookie`) are never logged or stored at all.
enum CredentialRedaction {
    /// Query and form parameters whose value is, or may be, a secret (compared lowercased, after
    /// percent-decoding the name).
    static let parameterNames: Set<String> = ["token", "password", "pass", "key", "secret", "id", "deviceid", "device_id"]
    /// Query parameters that are secrets in a query only: single sign-on's callback carries the
    /// provider's one-time `code` and the login's `state` (and some providers `session_state`).
    static let queryOnlyNames: Set<String> = ["code", "state", "session_state", "id_token", "access_token"]
    /// What a secret is replaced with.
    static let mark = "REDACTED"

    /// `a=1&token=abc&id=xyz` → `a=1&token=REDACTED&id=REDACTED`.
    static func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let lowered = (name.removingPercentEncoding ?? name).lowercased()
            return parameterNames.contains(lowered) || queryOnlyNames.contains(lowered) ? "\(name)=\(mark)" : String(pair)
        }.joined(separator: "&")
    }

    /// A path and its query, secrets replaced.
    static func target(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        return path + "?" + self.query(query)
    }

    /// A JSON text with the string or number value of every secret-named key replaced
    /// (`"device_id": "48241179"` → `"device_id": "REDACTED"`). Text that is not JSON passes through
    /// the same scan: a key is a quoted name followed by a colon.
    static func json(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var scalars = Substring(text)
        while let quote = scalars.firstIndex(of: "\"") {
            output += scalars[..<quote]
            let (string, rest) = quotedString(scalars[quote...])
            output += string
            scalars = rest
            let name = string.dropFirst().dropLast()
            guard parameterNames.contains(name.lowercased()) else { continue }
            let afterSpaces = scalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard afterSpaces.first == ":" else { continue }
            var value = afterSpaces.dropFirst()
            let spaces = value.prefix { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            value = value.dropFirst(spaces.count)
            output += scalars[..<afterSpaces.startIndex] + ":" + spaces
            if value.first == "\"" {
                let (_, after) = quotedString(value)
                output += "\"\(mark)\""
                scalars = after
            } else {
                let number = value.prefix { !",}] \t\r\n".contains($0) }
                output += number.isEmpty ? "" : mark
                scalars = value.dropFirst(number.count)
            }
        }
        return output + scalars
    }

    /// A JSON string at the start of `text` (which starts with `"`), escapes included, and what follows it.
    private static func quotedString(_ text: Substring) -> (Substring, Substring) {
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            index = text.index(after: index)
            if character == "\"" { break }
        }
        return (text[..<index], text[index...])
    }
}
