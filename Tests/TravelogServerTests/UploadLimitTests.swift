import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogFormats
import TravelogStore
import TravelogTestSupport
@testable import TravelogServer
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25, findings 6 and 7: what an upload may hold in memory, how many parts and what
/// archives it may have, and that its import stops when the client goes away.
///
/// The time limit only catches a hang (an import that never stops with its client): the 1,001-part
/// form and the 300,000-line upload take 3-4 minutes of wall time in a debug build while the whole
/// suite shares two cores, and a limit of 2 minutes failed a fresh clone's run (cancelled mid-request,
/// a 500) with nothing wrong but the load. Speed is the benchmarks' to measure.
@Suite("Uploads: parts in place, limits named, work stops with the client", .timeLimit(.minutes(6)))
struct UploadLimitTests {
    static func fixture(_ limits: UploadLimits = .default) async throws -> ServerFixture {
        try await ServerFixture.make(configuration: ServerConfiguration(port: 0, bcryptCost: 4, uploadLimits: limits))
    }

    static func post(_ client: some TestClientProtocol, _ body: ByteBuffer, headers: HTTPFields? = nil, query: String = "",
                     check: @escaping @Sendable (TestResponse) throws -> Void) async throws {
        try await client.execute(uri: "/api/v1/imports\(query)", method: .post,
                                 headers: headers ?? Auth.basic("ada", ServerFixture.adaPassword), body: body) { try check($0) }
    }

    static func error(_ response: TestResponse) -> String {
        ((response.body.json as? [String: Any])?["error"] as? String) ?? response.body.text
    }

    /// A form of binary files.
    static func form(_ files: [(name: String, bytes: [UInt8])]) -> (HTTPFields, ByteBuffer) {
        var body: [UInt8] = []
        for file in files {
            body += Array("--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--b0undary--\r\n".utf8)
        var headers = Auth.basic("ada", ServerFixture.adaPassword)
        headers[.contentType] = "multipart/form-data; boundary=b0undary"
        return (headers, ByteBuffer(bytes: body))
    }

    static func archiveBody(_ path: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The request as the server reads it: its body spooled as it arrives.
    static func spooled(_ bytes: [UInt8]) async throws -> SpooledBody {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/api/v1/imports")
        head.headerFields[.contentLength] = String(bytes.count)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: bytes)))
        return try await SpooledBody(request, limitBytes: 1 << 30)
    }

    @Test("800 parts of nearly 1 MB: the request holds no copy of any part, each is read in place from the spooled body")
    func manyLargeParts() async throws {
        // The attack of finding 6 (800 parts ≤ 1 MB each), at 800 parts of 48 KB: the same count,
        // a test-sized total (37.5 MB). Before, every part up to 1 MB was copied into memory.
        let partBytes = 48 << 10
        let parts = (0..<800).map { index in (name: "p\(index).csv", text: String(repeating: Character(UnicodeScalar(65 + index % 26)!), count: partBytes)) }
        let (headers, buffer) = UploadRouteTests.multipart(parts)
        let body = try await Self.spooled(Array(buffer.readableBytesView))
        let form = try UploadForm(body: body, contentType: try #require(headers[.contentType]), maximumParts: 1_000)
        #expect(form.files.count == 800)
        // What the request holds in memory: the body's own buffer (it went to its file) and nothing per part.
        #expect(body.memoryByteCount <= SpooledBody.memoryLimitBytes)
        #expect(body.memoryByteCount == 0, "a body of \(body.byteCount) bytes is in its file")
        for (file, part) in zip(form.files, parts) {
            #expect(file.name == part.name)
            #expect(file.byteRange.count == partBytes)
            var source = body.byteSource(in: file.byteRange)
            #expect(try source.readBytes(upTo: partBytes + 1) == Array(part.text.utf8))
        }
    }

    @Test("more parts than the limit are a 413 naming it; at the default, the 1,001st part")
    func tooManyParts() async throws {
        let small = try await Self.fixture(UploadLimits(maximumParts: 10))
        try await small.test { client in
            let (headers, body) = UploadRouteTests.multipart((0..<11).map { (name: "\($0).csv", text: UploadRouteTests.csv) })
            try await Self.post(client, body, headers: headers) { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response).contains("more than 10 parts"), "\(Self.error(response))")
            }
            let (fewer, allowed) = UploadRouteTests.multipart((0..<10).map { (name: "\($0).csv", text: UploadRouteTests.csv) })
            try await Self.post(client, allowed, headers: fewer) { response in #expect(response.status == .ok, "\(response.body.text)") }
        }
        let standard = try await Self.fixture()
        try await standard.test { client in
            let (headers, body) = UploadRouteTests.multipart((0..<1_001).map { (name: "\($0).csv", text: "t") })
            try await Self.post(client, body, headers: headers) { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response).contains("more than 1000 parts"), "\(Self.error(response))")
            }
        }
        #expect(try await small.storedCount(small.ada) == 3)
        #expect(try await standard.storedCount(standard.ada) == 0)
    }

    @Test("an archive with more entries than the limit is a 413 naming it, raw or as a form's file")
    func tooManyEntries() async throws {
        let fixture = try await Self.fixture(UploadLimits(archive: ZipArchiveLimits(maximumEntries: 50)))
        let path = try ZipTestArchive.makeEmptyEntries(count: 51)
        try await fixture.test { client in
            try await Self.post(client, try Self.archiveBody(path), query: "?filename=takeout.zip") { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response) == "takeout.zip: 51 entries, more than the limit of 50", "\(Self.error(response))")
            }
            let (headers, body) = Self.form([("a.csv", Array(UploadRouteTests.csv.utf8)),
                                             ("takeout.zip", [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))])
            try await Self.post(client, body, headers: headers) { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response) == "takeout.zip: 51 entries, more than the limit of 50", "\(Self.error(response))")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0, "nothing of the upload is stored")
    }

    @Test("16 entries on one deflated stream are a 400; a ratio bomb is a 413 naming the ratio")
    func bombs() async throws {
        let fixture = try await Self.fixture()
        let overlapping = try ZipTestArchive.makeOverlapping(copies: 16, bytes: Array(UploadRouteTests.csv.utf8))
        let bomb = try ZipTestArchive.make([.init(name: "Records.json", bytes: [UInt8](repeating: 0x20, count: 10 << 20))])
        try await fixture.test { client in
            try await Self.post(client, try Self.archiveBody(overlapping), query: "?filename=overlap.zip") { response in
                #expect(response.status == .badRequest)
                #expect(Self.error(response).contains("overlaps the data of entry"), "\(Self.error(response))")
            }
            try await Self.post(client, try Self.archiveBody(bomb), query: "?filename=bomb.zip") { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response).contains("more than the limit of 200 times"), "\(Self.error(response))")
            }
        }
    }

    @Test("an archive inflating past the total limit is a 413 naming it")
    func inflatedTotal() async throws {
        let fixture = try await Self.fixture(UploadLimits(archive: ZipArchiveLimits(maximumInflatedBytes: 100_000)))
        let path = try ZipTestArchive.make([.init(name: "a.csv", bytes: Array(String(repeating: UploadRouteTests.csv, count: 1_000).utf8))])
        try await fixture.test { client in
            try await Self.post(client, try Self.archiveBody(path), query: "?filename=big.zip") { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.error(response).contains("more than the limit of 100000 bytes"), "\(Self.error(response))")
            }
        }
    }

    /// How many locations ada has, counted from the day boxes (not by reading them all).
    static func locationCount(_ fixture: ServerFixture) async throws -> Int {
        try await fixture.app.store.deviceSummaries(userID: fixture.ada.id).reduce(0) { $0 + $1.locationCount }
    }

    /// Opens a connection to 127.0.0.1:`port` and sends `bytes` whole (blocking).
    static func connectAndSend(port: Int, _ bytes: [UInt8]) -> Int32 {
        guard let descriptor = loopbackConnection(port: port) else { return -1 }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { break }
            sent += count
        }
        return descriptor
    }

    @Test("an upload whose client leaves during the import stops: the import is discarded, not finished")
    func clientGoesAway() async throws {
        let fixture = try await Self.fixture()
        let start = 1_704_067_200  // 2024-01-01T00:00:00Z
        var csv = "time,latitude,longitude\n"
        for index in 0..<300_000 {
            csv += "\(start + index),\(48 + Double(index % 1000) * 1e-4),11.5\n"
        }
        let body = Array(csv.utf8)
        let head = "POST /api/v1/imports?filename=long.csv HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
            + "Authorization: \(Auth.basic("ada", ServerFixture.adaPassword)[.authorization]!)\r\nContent-Length: \(body.count)\r\n\r\n"
        let watchdog = Watchdog("an upload whose client left", seconds: 110) { "" }
        defer { watchdog.finish() }
        try await fixture.test(.live) { client in
            let port = try #require(client.port)
            let descriptor = await Task.detached { Self.connectAndSend(port: port, Array(head.utf8) + body) }.value
            #expect(descriptor >= 0)
            // The import has begun once a batch is stored; then the client goes.
            while try await Self.locationCount(fixture) == 0 { try await Task.sleep(for: .milliseconds(10)) }
            close(descriptor)
            // Until the import ends one way (discarded: nothing stored) or the other (finished).
            while try await Self.locationCount(fixture) > 0, try await fixture.app.store.imports(userID: fixture.ada.id).isEmpty {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(try await fixture.app.store.imports(userID: fixture.ada.id).isEmpty, "the import was finished for nobody")
        #expect(try await Self.locationCount(fixture) == 0)
    }
}
