import Foundation
import Logging
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    public func replaceVisits(deviceID: DeviceID, source: VisitSource, from: Date, to: Date?,
                              with visits: [JournalVisit]) async throws(StoreError) -> VisitChanges {
        let fromMs = StoragePrecision.milliseconds(from), toMs = to.map(StoragePrecision.milliseconds)
        return try await transaction("replacing visits") { connection in
            let owner = try await connection.run("SELECT user_id FROM devices WHERE id = \(deviceID.rawValue)", logger: logger)
                .collect().first
            guard let owner else { throw StoreError.unknownDevice(deviceID) }
            let userID = try owner.decode(Int64.self)
            // The device's rows of the stretch, locked: one re-processing of a device at a time.
            let rows = try await connection.run("""
                SELECT \(unescaped: PostgresJournalRows.visitColumns) FROM visits
                WHERE user_id = \(userID) AND device_id = \(deviceID.rawValue) AND source = \(source.rawValue)
                    AND arrival_ms >= \(fromMs) AND (\(toMs == nil) OR arrival_ms < \(toMs ?? 0))
                ORDER BY arrival_ms, id FOR UPDATE
                """, logger: logger).collect().map(PostgresJournalRows.storedVisit)
            let plan = VisitReplacementPlan(existing: rows, replacements: visits)
            if !plan.deletes.isEmpty {
                try await connection.run("DELETE FROM visits WHERE user_id = \(userID) AND id = ANY(\(plan.deletes.map(\.rawValue)))",
                                         logger: logger)
            }
            for (row, visit) in plan.updates {
                try await connection.run("""
                    UPDATE visits SET arrival_ms = \(StoragePrecision.milliseconds(visit.arrival)),
                        departure_ms = \(visit.departure.map(StoragePrecision.milliseconds)),
                        latitude_e7 = \(Int32(clamping: StoragePrecision.e7(visit.center.latitude))),
                        longitude_e7 = \(Int32(clamping: StoragePrecision.e7(visit.center.longitude))),
                        radius_m = \(visit.radiusMeters), location_count = \(Int64(visit.locationCount)), name = \(visit.name),
                        address = \(visit.address), external_place_id = \(visit.externalPlaceID),
                        placemark_json = \(PostgresJournalRows.placemarkJSON(visit))
                    WHERE user_id = \(userID) AND id = \(row.id.rawValue)
                    """, logger: logger)
            }
            var inserted: [StoredVisit] = []
            for visit in plan.inserts {
                let id = try await connection.run("""
                    INSERT INTO visits (user_id, device_id, source, arrival_ms, departure_ms, latitude_e7, longitude_e7, radius_m,
                        location_count, name, address, external_place_id, placemark_json)
                    VALUES (\(userID), \(visit.deviceID.rawValue), \(visit.source.rawValue),
                        \(StoragePrecision.milliseconds(visit.arrival)), \(visit.departure.map(StoragePrecision.milliseconds)),
                        \(Int32(clamping: StoragePrecision.e7(visit.center.latitude))),
                        \(Int32(clamping: StoragePrecision.e7(visit.center.longitude))), \(visit.radiusMeters),
                        \(Int64(visit.locationCount)), \(visit.name), \(visit.address), \(visit.externalPlaceID),
                        \(PostgresJournalRows.placemarkJSON(visit)))
                    RETURNING id
                    """, logger: logger).collect().first?.decode(Int64.self)
                guard let id else { throw StoreError.database(operation: "replacing visits", message: "no id returned") }
                inserted.append(StoredVisit(id: VisitID(rawValue: id), visit: visit))
            }
            return plan.changes(inserted: inserted)
        }
    }

    public func visits(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       includeHidden: Bool) async throws(StoreError) -> [StoredVisit] {
        let devices = deviceIDs.map { $0.map(\.rawValue).sorted() }
        let fromMs = from.map(StoragePrecision.milliseconds), toMs = to.map(StoragePrecision.milliseconds)
        // Visits that overlap [from, to): a merged visit lasts until the end of its merge.
        return try await rows("reading visits", """
            SELECT \(unescaped: PostgresJournalRows.visitColumns) FROM visits
            WHERE user_id = \(userID.rawValue)
                AND (\(devices == nil) OR device_id = ANY(\(devices ?? [])))
                AND (\(includeHidden) OR NOT hidden)
                AND (\(toMs == nil) OR arrival_ms < \(toMs ?? 0))
                AND (\(fromMs == nil) OR departure_ms IS NULL OR greatest(departure_ms, coalesce(merged_until_ms, 0)) >= \(fromMs ?? 0))
            ORDER BY arrival_ms, id
            """).map(PostgresJournalRows.storedVisit)
    }

    public func visit(id: VisitID) async throws(StoreError) -> StoredVisit? {
        try await rows("reading a visit", "SELECT \(unescaped: PostgresJournalRows.visitColumns) FROM visits WHERE id = \(id.rawValue)")
            .first.map(PostgresJournalRows.storedVisit)
    }

    public func editVisit(id: VisitID, _ edit: VisitEdit) async throws(StoreError) -> StoredVisit {
        try await transaction("editing a visit") { connection in
            let found = try await connection.run("""
                SELECT \(unescaped: PostgresJournalRows.visitColumns), user_id FROM visits WHERE id = \(id.rawValue) FOR UPDATE
                """, logger: logger).collect().first
            guard let found else { throw StoreError.unknownVisit(id) }
            var stored = try PostgresJournalRows.storedVisit(found)
            let userID = try Self.decode(found, column: 17, as: Int64.self, "editing a visit")
            if let title = edit.title { stored.title = title }
            if let hidden = edit.hidden { stored.hidden = hidden }
            if let mergedUntil = edit.mergedUntil { stored.mergedUntil = mergedUntil }
            if let placeID = edit.placeID {
                if let placeID, try await !Self.placeExists(placeID, userID: userID, on: connection, logger: logger) {
                    throw StoreError.unknownPlace(placeID)
                }
                stored.placeID = placeID
            }
            if let placemark = edit.placemark { stored.visit.placemark = placemark }
            try await connection.run("""
                UPDATE visits SET title = \(stored.title), hidden = \(stored.hidden),
                    merged_until_ms = \(stored.mergedUntil.map(StoragePrecision.milliseconds)), place_id = \(stored.placeID?.rawValue),
                    placemark_json = \(VisitPlacemark.storedJSON(stored.visit.placemark))
                WHERE user_id = \(userID) AND id = \(id.rawValue)
                """, logger: logger)
            return stored
        }
    }

    public func assignPlaces(_ assignments: [VisitID: PlaceID]) async throws(StoreError) {
        guard !assignments.isEmpty else { return }
        try await transaction("filing visits under places") { connection in
            for (visitID, placeID) in assignments.sorted(by: { $0.key < $1.key }) {
                // A visit is filed under a place of its own user only.
                let owner = try await connection.run("SELECT user_id FROM visits WHERE id = \(visitID.rawValue)", logger: logger)
                    .collect().first
                guard let owner else { throw StoreError.unknownVisit(visitID) }
                let userID = try owner.decode(Int64.self)
                guard try await Self.placeExists(placeID, userID: userID, on: connection, logger: logger) else {
                    throw StoreError.unknownPlace(placeID)
                }
                try await connection.run("""
                    UPDATE visits SET place_id = \(placeID.rawValue) WHERE user_id = \(userID) AND id = \(visitID.rawValue)
                    """, logger: logger)
            }
        }
    }

    public func places(userID: UserID) async throws(StoreError) -> [StoredPlace] {
        try await rows("reading places", """
            SELECT \(unescaped: PostgresJournalRows.placeColumns) FROM places WHERE user_id = \(userID.rawValue) ORDER BY id
            """).map(PostgresJournalRows.place)
    }

    public func addPlace(userID: UserID, name: String?, center: Coordinate, radiusMeters: Double) async throws(StoreError) -> StoredPlace {
        let added = try await rows("adding a place", """
            INSERT INTO places (user_id, name, latitude_e7, longitude_e7, radius_m)
            SELECT id, \(name), \(Int32(clamping: StoragePrecision.e7(center.latitude))),
                \(Int32(clamping: StoragePrecision.e7(center.longitude))), \(radiusMeters)
            FROM users WHERE id = \(userID.rawValue)
            RETURNING \(unescaped: PostgresJournalRows.placeColumns)
            """)
        guard let row = added.first else { throw .unknownUser(userID) }
        return try PostgresJournalRows.place(row)
    }

    public func renamePlace(id: PlaceID, name: String?) async throws(StoreError) -> StoredPlace {
        let renamed = try await rows("renaming a place", """
            UPDATE places SET name = \(name) WHERE id = \(id.rawValue) RETURNING \(unescaped: PostgresJournalRows.placeColumns)
            """)
        guard let row = renamed.first else { throw .unknownPlace(id) }
        return try PostgresJournalRows.place(row)
    }

    /// Whether the user has the place.
    static func placeExists(_ id: PlaceID, userID: Int64, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await !connection.run("SELECT 1 FROM places WHERE user_id = \(userID) AND id = \(id.rawValue)", logger: logger)
            .collect().isEmpty
    }
}
