import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore: LabelStore {
    @discardableResult
    public func addLabels(_ labels: [StoredLabel]) async throws(StoreError) -> Int {
        guard !labels.isEmpty else { return 0 }
        let keys = labels.map(\.key)
        let devices = keys.map(\.deviceID.rawValue), times = keys.map(\.timestampMilliseconds)
        let latitudes = keys.map(\.latitudeE7), longitudes = keys.map(\.longitudeE7)
        let kinds = labels.map(\.label.kind.rawValue), texts = labels.map(\.label.text)
        // The user of each row comes from its device (a device of no user is no row, and said so).
        let found = try await rows("keeping labels", """
            WITH given AS (
                SELECT DISTINCT ON (device_id, timestamp_ms, latitude_e7, longitude_e7, kind) *
                FROM unnest(\(devices)::bigint[], \(times)::bigint[], \(latitudes)::bigint[], \(longitudes)::bigint[],
                            \(kinds)::text[], \(texts)::text[]) WITH ORDINALITY
                    AS g(device_id, timestamp_ms, latitude_e7, longitude_e7, kind, text, position)
                ORDER BY device_id, timestamp_ms, latitude_e7, longitude_e7, kind, position DESC
            ), kept AS (
                INSERT INTO location_labels (user_id, device_id, timestamp_ms, latitude_e7, longitude_e7, kind, text)
                SELECT d.user_id, g.device_id, g.timestamp_ms, g.latitude_e7, g.longitude_e7, g.kind, g.text
                FROM given g JOIN devices d ON d.id = g.device_id
                ON CONFLICT (device_id, timestamp_ms, latitude_e7, longitude_e7, kind)
                DO UPDATE SET text = EXCLUDED.text WHERE location_labels.text <> EXCLUDED.text
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM kept),
                   (SELECT min(g.device_id) FROM given g WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = g.device_id))
            """)
        let (changed, unknown) = try Self.decode(found.first, as: (Int64, Int64?).self, "keeping labels")
        if let unknown { throw .unknownDevice(DeviceID(rawValue: unknown)) }
        return Int(changed)
    }

    public func labels(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       limit: Int) async throws(StoreError) -> [StoredLabel] {
        if let deviceIDs, deviceIDs.isEmpty { return [] }
        let devices = deviceIDs.map { $0.map(\.rawValue).sorted() }
        let fromMs = from.map(StoragePrecision.milliseconds), toMs = to.map(StoragePrecision.milliseconds)
        var result: [StoredLabel] = []
        for row in try await rows("reading labels", """
            SELECT b.device_id, b.timestamp_ms, b.latitude_e7, b.longitude_e7, b.kind, b.text
            FROM location_labels b
            WHERE b.user_id = \(userID.rawValue)
              AND (\(devices)::bigint[] IS NULL OR b.device_id = ANY(\(devices)::bigint[]))
              AND (\(fromMs)::bigint IS NULL OR b.timestamp_ms >= \(fromMs)::bigint)
              AND (\(toMs)::bigint IS NULL OR b.timestamp_ms < \(toMs)::bigint)
              AND EXISTS (SELECT 1 FROM locations l WHERE l.user_id = b.user_id AND l.device_id = b.device_id
                          AND l.timestamp_ms = b.timestamp_ms AND l.latitude_e7 = b.latitude_e7 AND l.longitude_e7 = b.longitude_e7)
            ORDER BY b.timestamp_ms, b.device_id, b.kind COLLATE "C"
            LIMIT \(Int64(max(0, limit)))
            """) {
            let (device, time, latitude, longitude, kind, text) = try Self.decode(
                row, as: (Int64, Int64, Int64, Int64, String, String).self, "reading labels")
            if let label = StoredLabel(deviceID: DeviceID(rawValue: device), timestampMilliseconds: time, latitudeE7: latitude,
                                       longitudeE7: longitude, kind: kind, text: text) {
                result.append(label)
            }
        }
        return result
    }
}
