import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// An export whose client went away stops at its next batch (issue 25: work stops with the client).
@Suite("Export cancellation")
struct HistoryExporterCancellationTests {
    @Test("a cancelled export throws at the next batch and writes no further batch; an export left alone writes everything")
    func cancelled() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let batch = (0..<25_000).map { index in
            StoredLocation(deviceID: phone.id, location: Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.4 + Double(index) * 1e-6)!,
                                                                  timestamp: start.addingTimeInterval(Double(index))), source: .overland)
        }
        _ = try await store.insert(batch)
        let devices = try await store.devices(userID: phone.userID)
        let whole = MemoryByteSink()
        let written = try await HistoryExporter(store: store).export(userID: phone.userID, devices: devices, from: nil, to: nil,
                                                                     to: try #require(FileFormat.csv.makeWriter(sink: whole)))
        #expect(written == 25_000)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let sink = MemoryByteSink()
            return try await HistoryExporter(store: store).export(userID: phone.userID, devices: devices, from: nil, to: nil,
                                                                  to: try #require(FileFormat.csv.makeWriter(sink: sink)))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
