import Foundation
import TravelogStore

/// A database for moves, as rows of every table: linked as the stores link them, with NULLs, texts
/// that COPY must escape (tab, newline, backslash, quotes, non-ASCII), reals that print with
/// exponents, booleans, and a location before 1970 (its day rounds down).
enum StoreMoveFixture {
    static let rows: [String: [StoreRow]] = [
        "users": [
            [1, "ada", 1_000, "$2b$12$hash", .integer(1), .integer(0)],
            [2, "bob \"tab\t, newline\n, back\\slash\" ünïcödé 🚲", 2_000, nil, .integer(0), .integer(1)],
        ],
        "devices": [
            [1, 1, "phone", 1_000, "overland", "d1", "write", nil, nil, nil], [1, 2, "watch", 1_001, nil, nil, "read", nil, nil, nil],
            [2, 3, "car", 1_002, "owntracks-mqtt", "d3", "write", "an OwnTracks secret, 'quoted'\t", "Bob's car 🚗", "iVBORw0KGgo="],
        ],
        "sessions": [[1, "a1", 5_000, nil], [2, "B2", 6_000, 5_500], [1, "a10", 7_000, 6_999]],
        "imports": [
            [1, 1, 1, "day.gpx", "abc", "gpx", 1_000, 300, 2, 1, "finished", nil],
            [1, 2, 2, "x\ty.csv", nil, "csv", 1_100, 0, 0, 0, "running", 1_200],
        ],
        "places": [[1, 1, "Home", 525_200_000, 134_050_000, 50.5], [1, 2, nil, -338_688_000, 1_512_093_000, 1e-7]],
        "visits": [
            [1, 1, 1, "detected", 1_000, 2_000, 525_200_000, 134_050_000, 30.25, 12, "Café", "Street 1\nBerlin", nil,
             #"{"a":[1,"\\"]}"#, 1, "Breakfast", .integer(1), 3_000],
            [1, 2, 1, "described", 4_000, nil, 525_200_000, 134_050_000, 1.7976931348623157e308, 1, nil, nil, "ext", nil, nil,
             nil, .integer(0), nil],
        ],
        "notification_channels": [[1, 1, "webhook", "https://example.org/hook", "s3cret"], [2, 2, "ntfy", "https://ntfy.sh/t", nil]],
        "notification_deliveries": [
            [1, 1, 1, "enter:1:1500", "{}", "pending", 0, 5_000, nil, 1_000],
            [2, 2, 2, "exit:2", #"{"t":"x"}"#, "delivered", 1, nil, "200 OK", 2_000],
        ],
        "rejected_items": [
            [1, 1, 1, "/owntracks", "latitude 91", #"{"lat":91}"#, 10, 1_000, "f1"],
            [2, 2, nil, "/overland", "no time", "\\N", 2, 1_100, "f2"],
        ],
        "regions": [
            [1, 1, "Home", "circle", 525_200_000, 134_050_000, 100.0, nil, .integer(1), .integer(0), "E2C56DB5", 1, 2, 1_000, 1_000],
            [1, 2, "Park", "polygon", nil, nil, nil, "[[[13.4,52.5],[13.5,52.5],[13.5,52.6],[13.4,52.5]]]", .integer(0),
             .integer(1), nil, nil, nil, 1_000, 2_000],
        ],
        "region_transitions": [
            [1, 1, 1, 1, "enter", 1_500, 525_200_000, 134_050_000, 5.5, "detected"],
            [1, 2, 2, 2, "exit", 1_600, nil, nil, nil, "reported"],
        ],
        "region_checkpoints": [[1, 1, 1_600, "fp"], [1, 2, nil, nil]],
        "region_states": [[1, 1, 1, "inside", nil], [1, 1, 2, "outside", 1_550], [1, 2, 2, "unknown", nil]],
        "device_states": [
            [1, 1, nil, 21_600, .integer(1), 5_000, 4_990, 525_200_000, 134_050_000, 6.5, 54.0, .integer(1), "Overland/2024.05 \"beta\"\t",
             #"{"connection":"wifi","regions":["home"],"trackerID":"ph","wifiName":"Koti"}"#],
            [1, 2, 3_000, nil, .integer(0), nil, nil, nil, nil, nil, nil, nil, nil, nil],
        ],
        "photos": [
            [1, 1, 1, "aa11", "/photos/a 'quoted'.jpg", .integer(0), "image/jpeg", 4_000_000, 4000, 3000, 6, "Canon", "EOS R",
             "2024-05-07T09:33:04.046", 1_715_067_184_046, "OffsetTimeOriginal", 525_200_000, 134_050_000, 12.5, 271.25, 3.5, "own-gps",
             nil, 1_700_000_000_000],
            [2, 2, nil, "bb22", "/srv/originals/2/bb22.heic", .integer(1), "image/heic", 900, nil, nil, nil, nil, nil, nil, nil, nil,
             nil, nil, nil, nil, nil, "unplaced", "the photo has no capture time", 1_700_000_000_001],
        ],
        "shares": [
            [1, 1, "5ha1", "day", 1_714_608_000_000, 1_714_694_400_000, "A walk 'quoted'\t", nil, .integer(0), 1_700_000_000_000,
             1_800_000_000_000, nil, 3, 1_700_000_100_000, .integer(1)],
            [2, 2, "5ha2", "live", 1_700_000_000_000, 1_700_086_400_000, nil, "$2b$12$hash", .integer(1), 1_700_000_000_000,
             nil, 1_700_000_500_000, 0, nil, .integer(0)],
        ],
        "two_factor": [[1, "JBSWY3DPEHPK3PXP", .integer(1), 1_700_000_000_000, 56_666_666], [2, "GEZDGNBVGY3TQOJQ", .integer(0), 1_700_000_000_001, nil]],
        "two_factor_recovery_codes": [[1, "c0de1"], [1, "c0de2"], [2, "C0DE1"]],
        "retention_settings": [[1, 365, "keep", 1_700_000_000_000], [2, nil, "delete", 1_700_000_000_001]],
        "retention_runs": [[1, 1_700_000_100_000, 1_668_464_100_000, 42, 0]],
        "locations": locations,
        // On the phone's first fix (a POI and a tag) and the car's first (a waypoint's name).
        "location_labels": [
            [1, 1, 1_717_221_600_000, 525_200_000, 134_050_000, "poi", "Kaisla \"bar\"\t"],
            [1, 1, 1_717_221_600_000, 525_200_000, 134_050_000, "tag", "beer"],
            [2, 3, 1_717_300_000_000, 525_200_000, 134_050_000, "waypoint", "Parking ünïcödé"],
        ],
    ]

    /// 300 fixes of the phone (the first 200 from import 1), 5 of the watch (one in 1969), 120 of the car.
    static let locations: [StoreRow] = {
        var rows: [StoreRow] = []
        for (user, device, count, start) in [(1, 1, 300, 1_717_221_600_000), (1, 2, 5, -3_600_000), (2, 3, 120, 1_717_300_000_000)] {
            for index in 0..<count {
                let importID: StoreValue = device == 1 && index < 200 ? 1 : nil
                rows.append([.integer(Int64(user)), .integer(Int64(device)), .integer(Int64(start + index * 60_000)),
                             .integer(Int64(525_200_000 + index * 37)), .integer(Int64(134_050_000 - index * 11)),
                             index % 7 == 0 ? nil : .real(34.5 + Double(index) / 10), 8.0, 0.1, .real(Double(index) / 3), -1.0, 271.5,
                             -1.0, index % 2 == 0 ? 7_200 : nil, device == 1 ? "import" : "owntracks", importID])
            }
        }
        return rows
    }()

    /// Fills an empty store with the fixture.
    static func fill(_ store: any StoreTableAccess) async throws {
        for table in StoreTable.all { try await store.append(rows[table.name] ?? [], to: table) }
        try await store.finishMove()
    }

    /// Every row of every table, in key order, by table name.
    static func dump(_ store: any StoreTableAccess) async throws -> [String: [StoreRow]] {
        var dump: [String: [StoreRow]] = [:]
        let devices = try await all(StoreTable.devices, nil, in: store)
            .map { row -> StoreTableDevice in
                guard case .integer(let user) = row[0], case .integer(let device) = row[1] else { fatalError("a device without ids") }
                return StoreTableDevice(userID: user, deviceID: device)
            }
        for table in StoreTable.all {
            var rows: [StoreRow] = []
            for device in table.perDevice ? devices.map(Optional.some) : [nil] { rows += try await all(table, device, in: store) }
            dump[table.name] = rows
        }
        return dump
    }

    private static func all(_ table: StoreTable, _ device: StoreTableDevice?, in store: any StoreTableAccess) async throws -> [StoreRow] {
        var rows: [StoreRow] = []
        while true {
            let batch = try await store.rows(of: table, device: device, after: rows.last.map(table.key(of:)), limit: 97)
            rows += batch
            if batch.count < 97 { return rows }
        }
    }
}

extension StoreValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
}
