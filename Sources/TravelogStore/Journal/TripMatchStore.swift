import Foundation

/// A journal trip matched to the roads (issue 29 item 3), as the background matching stored it: the
/// trip's length on the roads, the streets in order and the matched line, or why it was not matched.
/// Trips are not stored (the journal derives them from its visits), so a match is filed under a
/// `key` that digests everything the match depends on: the device, the trip's times, mode and fixes,
/// and the road graphs it was matched on. A trip an edit changed, or one read after an extract was
/// added or removed, has another key and is matched anew; `start`, `end` and `deviceID` let a new
/// match replace the stale ones of the same device it overlaps.
public struct TripMatchRecord: Sendable, Equatable {
    public var key: String
    public var userID: UserID
    public var deviceID: DeviceID
    public var start: Date
    public var end: Date
    /// Metres along the matched roads; `nil` when the trip was not matched.
    public var matchedDistanceMeters: Double?
    /// The street names in order, consecutive duplicates folded.
    public var roads: [String]
    /// The matched line, one polyline per piece, each point `[longitude, latitude]`.
    public var line: [[[Double]]]
    /// Why the trip was not matched (outside the extracts, no road near its fixes); `nil` when it was.
    public var unmatchedReason: String?

    public init(key: String, userID: UserID, deviceID: DeviceID, start: Date, end: Date, matchedDistanceMeters: Double?,
                roads: [String], line: [[[Double]]], unmatchedReason: String?) {
        self.key = key
        self.userID = userID
        self.deviceID = deviceID
        self.start = start
        self.end = end
        self.matchedDistanceMeters = matchedDistanceMeters
        self.roads = roads
        self.line = line
        self.unmatchedReason = unmatchedReason
    }

    /// The line as stored: JSON `[[[lon, lat], …], …]`.
    public var lineJSON: String {
        String(decoding: (try? JSONEncoder().encode(line)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The roads as stored: a JSON array of strings.
    public var roadsJSON: String {
        String(decoding: (try? JSONEncoder().encode(roads)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Reads the stored JSON columns back (an unreadable column reads as empty).
    public static func decoded(roadsJSON: String, lineJSON: String) -> (roads: [String], line: [[[Double]]]) {
        let roads = (try? JSONDecoder().decode([String].self, from: Data(roadsJSON.utf8))) ?? []
        let line = (try? JSONDecoder().decode([[[Double]]].self, from: Data(lineJSON.utf8))) ?? []
        return (roads, line)
    }
}

/// The journal trips' road matches (SQLite `trip_matches`, migration 020; PostgreSQL 019). They go
/// with the user. Not part of `TravelogStore`: callers ask `store as? any TripMatchStore`.
public protocol TripMatchStore: Sendable {
    /// The stored matches among `keys`, by key.
    func tripMatches(keys: [String]) async throws(StoreError) -> [String: TripMatchRecord]
    /// Stores a match, in one statement with removing the device's matches whose time overlaps it
    /// (those of the trip before an edit, or on other road graphs).
    func storeTripMatch(_ record: TripMatchRecord) async throws(StoreError)
}
