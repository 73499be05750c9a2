import Foundation
import Testing
import TravelogCore
import TravelogStore

@Suite("ZoneStore conformance")
struct ZoneStoreConformanceTests {
    static let day = Date(timeIntervalSince1970: 1_750_000_000)

    static func circle(_ name: String, rule: ZoneRule = .hide) throws -> ZoneDefinition {
        try ZoneDefinition(name: name, shape: .circle(Circle(center: Coordinate(latitude: 52.52, longitude: 13.405), radiusMeters: 150)),
                           rule: rule)
    }

    static func square(_ name: String) throws -> ZoneDefinition {
        let ring = try [(52.50, 13.40), (52.50, 13.41), (52.51, 13.41), (52.51, 13.40)].map {
            try Coordinate(latitude: $0.0, longitude: $0.1)
        }
        return try ZoneDefinition(name: name, shape: .polygon(Polygon(exteriorRing: ring)), rule: .drop)
    }

    @Test("zones keep their shape, rule and time, per user, oldest first; removing is the owner's only", arguments: StoreFactory.all)
    func keepsZones(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let home = try await store.addZone(Self.circle("Home 'quoted' ; --"), userID: ada.id, at: Self.day.addingTimeInterval(0.0004))
        let park = try await store.addZone(Self.square("Park"), userID: ada.id, at: Self.day.addingTimeInterval(1))
        #expect(home.id != park.id)
        #expect(home.definition == (try Self.circle("Home 'quoted' ; --")) && home.createdAt == Self.day)
        #expect(park.definition == (try Self.square("Park")) && park.definition.rule == .drop)
        #expect(try await store.zones(userID: ada.id) == [home, park])
        #expect(try await store.zones(userID: bob.id).isEmpty)
        #expect(try await store.removeZone(id: home.id, userID: bob.id) == false)
        #expect(try await store.removeZone(id: ZoneID(rawValue: 999_999), userID: ada.id) == false)
        #expect(try await store.removeZone(id: home.id, userID: ada.id))
        #expect(try await store.zones(userID: ada.id) == [park])
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.addZone(Self.circle("Nowhere"), userID: UserID(rawValue: 999_999), at: Self.day)
        }
    }

    @Test("dropped fixes add up per user and day; they go with the user, as the zones do", arguments: StoreFactory.all)
    func countsDrops(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        try await store.recordZoneDrops(userID: ada.id, countsByDay: ["2025-06-15": 3, "2025-06-14": 1])
        try await store.recordZoneDrops(userID: ada.id, countsByDay: ["2025-06-15": 2])
        try await store.recordZoneDrops(userID: bob.id, countsByDay: ["2025-06-15": 7])
        #expect(try await store.zoneDrops(userID: ada.id) == [ZoneDropCount(day: "2025-06-14", count: 1),
                                                               ZoneDropCount(day: "2025-06-15", count: 5)])
        _ = try await store.addZone(Self.circle("Home"), userID: bob.id, at: Self.day)
        try await store.deleteUser(id: bob.id)
        #expect(try await store.zoneDrops(userID: bob.id).isEmpty)
        #expect(try await store.zones(userID: bob.id).isEmpty)
        #expect(ZoneDropCount.day(of: Self.day) == "2025-06-15")
    }

    @Test("the filter: a fix inside a circle or a polygon, its boundary included; hide counts both rules, drop its own")
    func filters() throws {
        let zones = [StoredZone(id: ZoneID(rawValue: 1), userID: UserID(rawValue: 1), definition: try Self.circle("Home"), createdAt: Self.day),
                     StoredZone(id: ZoneID(rawValue: 2), userID: UserID(rawValue: 1), definition: try Self.square("Park"), createdAt: Self.day)]
        let hiding = ZoneFilter.hiding(zones), dropping = ZoneFilter.dropping(zones)
        let home = try Coordinate(latitude: 52.52, longitude: 13.405)
        let nearHome = home.destination(bearingDegrees: 90, distanceMeters: 149)
        let pastHome = home.destination(bearingDegrees: 90, distanceMeters: 151)
        let park = try Coordinate(latitude: 52.505, longitude: 13.405)
        #expect(hiding.contains(home) && hiding.contains(nearHome) && !hiding.contains(pastHome))
        #expect(hiding.contains(park) && dropping.contains(park) && !dropping.contains(home))
        #expect(!hiding.contains(try Coordinate(latitude: -33.9, longitude: 151.2)))
        #expect(ZoneFilter.hiding([]).isEmpty && !hiding.isEmpty)
    }
}
