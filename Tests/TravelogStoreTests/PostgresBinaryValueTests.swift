import Foundation
import PostgresNIO
import Testing
@testable import TravelogPostgres
import TravelogStore

/// The binary values the PostgreSQL store sends (`PostgresArrayColumn`, a batch's columns as
/// arrays) and reads (`PostgresBinaryCells`), checked against the server itself.
@Suite("PostgreSQL binary arrays and cells")
struct PostgresBinaryValueTests {
    @Test("array parameters arrive element by element: NULLs, every double's bits, texts, booleans, empty arrays",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func arrays() async throws {
        let url = try #require(PostgresTestServer.url)
        var integers = PostgresArrayColumn(.int8, capacity: 3)
        for value: Int64? in [Int64.min, nil, Int64.max] { integers.append(value) }
        var narrow = PostgresArrayColumn(.int4, capacity: 2)
        for value: Int32? in [-1_800_000_000, nil] { narrow.append(value) }
        var reals = PostgresArrayColumn(.float8, capacity: 6)
        for value: Double? in [-0.0, .infinity, -.infinity, 1e-310, 0.1, nil] { reals.append(value) }
        var texts = PostgresArrayColumn(.text, capacity: 3)
        for value: String? in ["tab\there", nil, "Zürich 東京"] { texts.append(value) }
        var flags = PostgresArrayColumn(.bool, capacity: 3)
        for value: Bool? in [true, false, nil] { flags.append(value) }
        let empty = PostgresArrayColumn(.int8, capacity: 0)
        var bindings = PostgresBindings()
        for column in [integers, narrow, reals, texts, flags, empty] { bindings.append(column) }
        // Each element as text, so the check does not read them back through the code under test.
        let rows = try await Self.texts(url, PostgresQuery(unsafeSQL: """
            SELECT t FROM (
                SELECT 1, array_to_string(ARRAY(SELECT coalesce(v::text, 'NULL') FROM unnest($1::bigint[]) v), '|')
                UNION ALL SELECT 2, array_to_string(ARRAY(SELECT coalesce(v::text, 'NULL') FROM unnest($2::integer[]) v), '|')
                UNION ALL SELECT 3, array_to_string(ARRAY(SELECT coalesce(float8send(v)::text, 'NULL')
                                                          FROM unnest($3::float8[]) v), '|')
                UNION ALL SELECT 4, array_to_string(ARRAY(SELECT coalesce(v, 'NULL') FROM unnest($4::text[]) v), '|')
                UNION ALL SELECT 5, array_to_string(ARRAY(SELECT coalesce(v::text, 'NULL') FROM unnest($5::boolean[]) v), '|')
                UNION ALL SELECT 6, cardinality($6::bigint[])::text
            ) AS checked (n, t) ORDER BY n
            """, binds: bindings))
        let bits = [-0.0, .infinity, -.infinity, 1e-310, 0.1].map { "\\x" + String(format: "%016llx", $0.bitPattern) }
        #expect(rows == [
            "-9223372036854775808|NULL|9223372036854775807",
            "-1800000000|NULL",
            (bits + ["NULL"]).joined(separator: "|"),
            "tab\there|NULL|Zürich 東京",
            "true|false|NULL",
            "0",
        ])
    }

    @Test("cells are read by their type; a NULL where a value is required or another type is an error",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func cells() async throws {
        let url = try #require(PostgresTestServer.url)
        let row = try #require(try await Self.rows(url, """
            SELECT 7::bigint, (-5)::integer, 'NaN'::float8, NULL::float8, 'ü'::text, true, 3::smallint
            """).first)
        var cells = PostgresBinaryCells(row, operation: "testing")
        #expect(try cells.int64() == 7)
        #expect(try cells.int32() == -5)
        #expect(try cells.double().isNaN)
        #expect(try cells.optionalDouble() == nil)
        #expect(try cells.string() == "ü")
        #expect(try cells.storeValue(.boolean) == .integer(1))
        #expect(try cells.storeValue(.integer) == .integer(3))
        #expect(throws: StoreError.self) { try cells.int64() }

        var wrong = PostgresBinaryCells(row, operation: "testing")
        #expect(throws: StoreError.self) { try wrong.int32() }
        var null = PostgresBinaryCells(row, operation: "testing")
        _ = try null.int64()
        _ = try null.int32()
        _ = try null.double()
        #expect(throws: StoreError.self) { try null.double() }
    }

    @Test("arrays are read whole by their element type; NULL is empty; a NULL element, two dimensions or another type is an error",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func arrayCells() async throws {
        let url = try #require(PostgresTestServer.url)
        let row = try #require(try await Self.rows(url, """
            SELECT ARRAY[-9223372036854775808, 0, 9223372036854775807]::bigint[], ARRAY[-1800000000, 7]::integer[],
                ARRAY['-0', 'Infinity', 1e-310, 0.1]::float8[], NULL::bigint[], '{}'::integer[],
                ARRAY[1, NULL]::bigint[], ARRAY[[1, 2], [3, 4]]::bigint[], ARRAY[1]::integer[]
            """).first)
        var cells = PostgresBinaryCells(row, operation: "testing")
        #expect(try cells.int64Array() == [Int64.min, 0, Int64.max])
        #expect(try cells.int32Array() == [-1_800_000_000, 7])
        #expect(try cells.doubleArray().map(\.bitPattern) == [-0.0, .infinity, 1e-310, 0.1].map(\.bitPattern))
        #expect(try cells.int64Array() == [])
        #expect(try cells.int32Array() == [])
        #expect(throws: StoreError.self) { try cells.int64Array() }
        #expect(throws: StoreError.self) { try cells.int64Array() }
        #expect(throws: StoreError.self) { try cells.int64Array() }
    }

    static func rows(_ url: PostgresConnectionURL, _ sql: String) async throws -> [PostgresRow] {
        let client = PostgresClient(configuration: url.clientConfiguration())
        return try await withThrowingTaskGroup(of: [PostgresRow]?.self) { group in
            group.addTask { await client.run(); return nil }
            defer { group.cancelAll() }
            return try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
        }
    }

    static func texts(_ url: PostgresConnectionURL, _ query: PostgresQuery) async throws -> [String] {
        let client = PostgresClient(configuration: url.clientConfiguration())
        return try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask { await client.run(); return nil }
            defer { group.cancelAll() }
            var result: [String] = []
            for try await text in try await client.query(query).decode(String.self) { result.append(text) }
            return result
        }
    }
}
