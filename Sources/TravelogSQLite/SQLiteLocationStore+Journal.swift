import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    static let visitColumns = """
        v.id, v.device_id, v.source, v.arrival_ms, v.departure_ms, v.latitude_e7, v.longitude_e7, v.radius_m,
        v.location_count, v.name, v.address, v.external_place_id, v.placemark_json, v.place_id, v.title, v.hidden,
        v.merged_until_ms
        """

    public func replaceVisits(deviceID: DeviceID, source: VisitSource, from: Date, to: Date?,
                              with visits: [JournalVisit]) async throws(StoreError) -> VisitChanges {
        try await write("replacing visits") { db throws(StoreError) in
            do {
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM devices WHERE id = ?"), arguments: [deviceID.rawValue]) != nil
                else { throw StoreError.unknownDevice(deviceID) }
                var sql = "SELECT \(Self.visitColumns) FROM visits v WHERE v.device_id = ? AND v.source = ? AND v.arrival_ms >= ?"
                var arguments: StatementArguments = [deviceID.rawValue, source.rawValue, StoragePrecision.milliseconds(from)]
                if let to {
                    sql += " AND v.arrival_ms < ?"
                    arguments += [StoragePrecision.milliseconds(to)]
                }
                let rows = try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY v.arrival_ms, v.id"), arguments: arguments)
                    .map(Self.storedVisit)
                let plan = VisitReplacementPlan(existing: rows, replacements: visits)
                for id in plan.deletes {
                    try db.cachedStatement(sql: "DELETE FROM visits WHERE id = ?").execute(arguments: [id.rawValue])
                }
                for (row, visit) in plan.updates {
                    try db.cachedStatement(sql: """
                        UPDATE visits SET arrival_ms = ?, departure_ms = ?, latitude_e7 = ?, longitude_e7 = ?, radius_m = ?,
                            location_count = ?, name = ?, address = ?, external_place_id = ?, placemark_json = ?
                        WHERE id = ?
                        """).execute(arguments: Self.visitValues(visit) + [row.id.rawValue])
                }
                var inserted: [StoredVisit] = []
                for visit in plan.inserts {
                    try db.cachedStatement(sql: """
                        INSERT INTO visits (arrival_ms, departure_ms, latitude_e7, longitude_e7, radius_m, location_count,
                            name, address, external_place_id, placemark_json, device_id, source)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(arguments: Self.visitValues(visit) + [visit.deviceID.rawValue, visit.source.rawValue])
                    inserted.append(StoredVisit(id: VisitID(rawValue: db.lastInsertedRowID), visit: visit))
                }
                return plan.changes(inserted: inserted)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "replacing visits", message: String(describing: error))
            }
        }
    }

    public func visits(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       includeHidden: Bool) async throws(StoreError) -> [StoredVisit] {
        try await read("reading visits") { db in
            var sql = "SELECT \(Self.visitColumns) FROM visits v JOIN devices d ON d.id = v.device_id WHERE d.user_id = ?"
            var arguments: StatementArguments = [userID.rawValue]
            // One device (the journal's own reads) as a parameter, so that the statement is prepared once.
            var cacheable = true
            if let deviceIDs, deviceIDs.count == 1, let deviceID = deviceIDs.first {
                sql += " AND v.device_id = ?"
                arguments += [deviceID.rawValue]
            } else if let deviceIDs {
                sql += " AND v.device_id IN (\(deviceIDs.map { String($0.rawValue) }.joined(separator: ",")))"
                cacheable = false
            }
            if !includeHidden { sql += " AND v.hidden = 0" }
            if let to {
                sql += " AND v.arrival_ms < ?"
                arguments += [StoragePrecision.milliseconds(to)]
            }
            if let from {
                // The expression of the index visits_device_end (migration 008), so that it is used.
                sql += " AND max(coalesce(v.departure_ms, 9223372036854775807), coalesce(v.merged_until_ms, 0)) >= ?"
                arguments += [StoragePrecision.milliseconds(from)]
            }
            sql += " ORDER BY v.arrival_ms, v.id"
            let statement = try cacheable ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            return try Row.fetchAll(statement, arguments: arguments).map(Self.storedVisit)
        }
    }

    public func visit(id: VisitID) async throws(StoreError) -> StoredVisit? {
        try await read("reading a visit") { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.visitColumns) FROM visits v WHERE v.id = ?", arguments: [id.rawValue])
                .map(Self.storedVisit)
        }
    }

    public func editVisit(id: VisitID, _ edit: VisitEdit) async throws(StoreError) -> StoredVisit {
        try await write("editing a visit") { db throws(StoreError) in
            do {
                guard var stored = try Row.fetchOne(db, sql: "SELECT \(Self.visitColumns) FROM visits v WHERE v.id = ?",
                                                    arguments: [id.rawValue]).map(Self.storedVisit)
                else { throw StoreError.unknownVisit(id) }
                if let title = edit.title { stored.title = title }
                if let hidden = edit.hidden { stored.hidden = hidden }
                if let mergedUntil = edit.mergedUntil { stored.mergedUntil = mergedUntil }
                if let placeID = edit.placeID {
                    if let placeID, try Bool.fetchOne(db, sql: "SELECT 1 FROM places WHERE id = ?", arguments: [placeID.rawValue]) == nil {
                        throw StoreError.unknownPlace(placeID)
                    }
                    stored.placeID = placeID
                }
                if let placemark = edit.placemark { stored.visit.placemark = placemark }
                try db.execute(sql: """
                    UPDATE visits SET title = ?, hidden = ?, merged_until_ms = ?, place_id = ?, placemark_json = ? WHERE id = ?
                    """, arguments: [stored.title, stored.hidden, stored.mergedUntil.map(StoragePrecision.milliseconds),
                                     stored.placeID?.rawValue, VisitPlacemark.storedJSON(stored.visit.placemark), id.rawValue])
                return stored
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "editing a visit", message: String(describing: error))
            }
        }
    }

    public func assignPlaces(_ assignments: [VisitID: PlaceID]) async throws(StoreError) {
        guard !assignments.isEmpty else { return }
        try await write("filing visits under places") { db throws(StoreError) in
            do {
                let statement = try db.cachedStatement(sql: "UPDATE visits SET place_id = ? WHERE id = ?")
                for (visitID, placeID) in assignments.sorted(by: { $0.key < $1.key }) {
                    guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM places WHERE id = ?"), arguments: [placeID.rawValue]) != nil
                    else { throw StoreError.unknownPlace(placeID) }
                    try statement.execute(arguments: [placeID.rawValue, visitID.rawValue])
                    guard db.changesCount == 1 else { throw StoreError.unknownVisit(visitID) }
                }
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "filing visits under places", message: String(describing: error))
            }
        }
    }

    public func places(userID: UserID) async throws(StoreError) -> [StoredPlace] {
        try await read("reading places") { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT id, user_id, name, latitude_e7, longitude_e7, radius_m FROM places WHERE user_id = ? ORDER BY id"),
                             arguments: [userID.rawValue]).map(Self.place)
        }
    }

    public func addPlace(userID: UserID, name: String?, center: Coordinate, radiusMeters: Double) async throws(StoreError) -> StoredPlace {
        try await write("adding a place") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            try Self.execute(db, "adding a place",
                             "INSERT INTO places (user_id, name, latitude_e7, longitude_e7, radius_m) VALUES (?, ?, ?, ?, ?)",
                             [userID.rawValue, name, StoragePrecision.e7(center.latitude), StoragePrecision.e7(center.longitude), radiusMeters])
            return StoredPlace(id: PlaceID(rawValue: db.lastInsertedRowID), userID: userID, name: name,
                               center: try Self.coordinate(latitudeE7: StoragePrecision.e7(center.latitude),
                                                           longitudeE7: StoragePrecision.e7(center.longitude)),
                               radiusMeters: radiusMeters)
        }
    }

    public func renamePlace(id: PlaceID, name: String?) async throws(StoreError) -> StoredPlace {
        try await write("renaming a place") { db throws(StoreError) in
            try Self.execute(db, "renaming a place", "UPDATE places SET name = ? WHERE id = ?", [name, id.rawValue])
            guard db.changesCount == 1,
                  let place = try? Row.fetchOne(db, sql: "SELECT id, user_id, name, latitude_e7, longitude_e7, radius_m FROM places WHERE id = ?",
                                                arguments: [id.rawValue]).map(Self.place)
            else { throw .unknownPlace(id) }
            return place
        }
    }

    static func visitValues(_ visit: JournalVisit) -> StatementArguments {
        let placemark = VisitPlacemark.storedJSON(visit.placemark)
        return [StoragePrecision.milliseconds(visit.arrival), visit.departure.map(StoragePrecision.milliseconds),
                StoragePrecision.e7(visit.center.latitude), StoragePrecision.e7(visit.center.longitude), visit.radiusMeters,
                visit.locationCount, visit.name, visit.address, visit.externalPlaceID, placemark]
    }

    static func storedVisit(_ row: Row) throws(StoreError) -> StoredVisit {
        let placemark = (row[12] as String?).flatMap { try? JSONDecoder().decode(VisitPlacemark.self, from: Data($0.utf8)) }
        let departure: Int64? = row[4], merged: Int64? = row[16], place: Int64? = row[13]
        let visit = JournalVisit(
            deviceID: DeviceID(rawValue: row[1]), source: VisitSource(rawValue: row[2]) ?? .file,
            arrival: StoragePrecision.date(milliseconds: row[3]), departure: departure.map(StoragePrecision.date(milliseconds:)),
            center: try coordinate(latitudeE7: row[5], longitudeE7: row[6]), radiusMeters: row[7], locationCount: row[8],
            name: row[9], address: row[10], externalPlaceID: row[11], placemark: placemark)
        return StoredVisit(id: VisitID(rawValue: row[0]), visit: visit, placeID: place.map(PlaceID.init(rawValue:)),
                           title: row[14], hidden: row[15], mergedUntil: merged.map(StoragePrecision.date(milliseconds:)))
    }

    static func place(_ row: Row) throws(StoreError) -> StoredPlace {
        StoredPlace(id: PlaceID(rawValue: row[0]), userID: UserID(rawValue: row[1]), name: row[2],
                    center: try coordinate(latitudeE7: row[3], longitudeE7: row[4]), radiusMeters: row[5])
    }

    static func coordinate(latitudeE7: Int64, longitudeE7: Int64) throws(StoreError) -> Coordinate {
        guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitudeE7),
                                          longitude: StoragePrecision.degrees(e7: longitudeE7)) else {
            throw .database(operation: "reading the journal", message: "stored coordinate \(latitudeE7), \(longitudeE7) is invalid")
        }
        return coordinate
    }
}
