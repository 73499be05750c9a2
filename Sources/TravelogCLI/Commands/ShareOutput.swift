import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// How `travelog share` prints links: a line each for people, the API's fields for scripts.
enum ShareOutput {
    /// `3  active  day 2025-06-15T00:00:00Z → 2025-06-16T00:00:00Z  "Hike"  expires …  password  2 views`
    static func line(_ share: StoredShare, now: Date) -> String {
        let record = share.record
        var parts = ["\(share.id)", ShareJSON(share, now: now).status,
                     "\(record.kind) \(ISO8601TimeFormatter.string(record.from)) → \(ISO8601TimeFormatter.string(record.to))"]
        if let title = record.title { parts.append("\"\(TerminalText.escaped(title))\"") }
        parts.append(record.expiresAt.map { "expires \(ISO8601TimeFormatter.string($0))" } ?? "never expires")
        if record.passwordHash != nil { parts.append("password") }
        if record.hideVisits { parts.append("visits hidden") }
        if record.includePhotos { parts.append("photos") }
        parts.append(share.views == 1 ? "1 view" : "\(share.views) views")
        return parts.joined(separator: "  ")
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
