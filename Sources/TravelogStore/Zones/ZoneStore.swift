import Foundation
import TravelogCore

/// A privacy zone's identifier in a store. A zone belongs to exactly one user.
public struct ZoneID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// What a privacy zone does with the fixes inside it.
public enum ZoneRule: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Fixes inside are stored, but never shown to anyone else (share links; friends later).
    case hide
    /// Fixes inside are not stored at all; they are only counted per day.
    case drop

    public var description: String { rawValue }
}

/// A place a person marks as private: its name, its area (a region's shape: circle or polygon) and its rule.
public struct ZoneDefinition: Sendable, Hashable {
    /// The name the user knows it by ("Home"); unique among the user's zones.
    public let name: String
    /// A circle or a polygon, as a region's.
    public let shape: MonitoredRegion.Shape
    public let rule: ZoneRule

    /// - Throws: ``RegionDefinitionError`` for a name or an area a region could not have either
    ///   (the same limits: 1 to 100 printable characters, the radius range regions allow).
    public init(name: String, shape: MonitoredRegion.Shape, rule: ZoneRule) throws(RegionDefinitionError) {
        // A region's checks, once: the name's and the area's.
        let region = try RegionDefinition(name: name, shape: shape)
        self.name = region.name
        self.shape = shape
        self.rule = rule
    }
}

/// A user's zone as stored.
public struct StoredZone: Sendable, Hashable {
    public var id: ZoneID
    public var userID: UserID
    public var definition: ZoneDefinition
    public var createdAt: Date

    public init(id: ZoneID, userID: UserID, definition: ZoneDefinition, createdAt: Date) {
        self.id = id
        self.userID = userID
        self.definition = definition
        self.createdAt = createdAt
    }

    /// The most zones a user may have.
    public static let maximumPerUser = 200
}

/// How many fixes drop zones kept out of the store on one UTC day.
public struct ZoneDropCount: Sendable, Hashable {
    /// The UTC day, `YYYY-MM-DD`.
    public var day: String
    public var count: Int

    public init(day: String, count: Int) {
        self.day = day
        self.count = count
    }

    /// The UTC day (`YYYY-MM-DD`) of an instant.
    public static func day(of date: Date) -> String {
        CivilDate(secondsSince1970: date.timeIntervalSince1970, utcOffsetSeconds: 0).description
    }
}

/// Privacy zones: places whose fixes are hidden from everyone else, or not stored at all. Each
/// backend passes `ZoneStoreConformanceTests`.
public protocol ZoneStore: Sendable {
    /// Keeps a new zone (the caller checked its name is free: a taken one is a database error).
    /// - Throws: `StoreError.unknownUser`.
    func addZone(_ definition: ZoneDefinition, userID: UserID, at date: Date) async throws(StoreError) -> StoredZone
    /// The user's zones, oldest first.
    func zones(userID: UserID) async throws(StoreError) -> [StoredZone]
    /// Removes the user's zone. - Returns: whether the user had it.
    func removeZone(id: ZoneID, userID: UserID) async throws(StoreError) -> Bool
    /// Adds to the counts of fixes dropped, by UTC day (`YYYY-MM-DD`).
    func recordZoneDrops(userID: UserID, countsByDay: [String: Int]) async throws(StoreError)
    /// The counts of fixes dropped, by UTC day, oldest first.
    func zoneDrops(userID: UserID) async throws(StoreError) -> [ZoneDropCount]
    /// Deletes the user's stored fixes with these keys (those a new drop zone holds; the caller
    /// re-reads the journal for the stretches). Keys of another user's devices are passed over.
    /// - Returns: how many fixes were deleted.
    func deleteLocations(_ keys: [LocationKey], userID: UserID) async throws(StoreError) -> Int
}

extension ZoneDefinition {
    /// A latitude/longitude box holding the zone (for a query of the fixes that may lie inside),
    /// or nil when the zone crosses the 180th meridian.
    public var coordinateBox: CoordinateBox? {
        let rect = switch shape {
        case .circle(let circle): circle.boundingMapRect
        case .polygon(let polygon): polygon.boundingMapRect
        }
        guard !rect.isNull, rect.minX >= 0, rect.maxX <= WebMercator.worldSizeMapPoints else { return nil }
        return CoordinateBox(south: WebMercator.latitudeDegrees(y: rect.maxY), west: WebMercator.longitudeDegrees(x: rect.minX),
                             north: WebMercator.latitudeDegrees(y: rect.minY), east: WebMercator.longitudeDegrees(x: rect.maxX))
    }
}
