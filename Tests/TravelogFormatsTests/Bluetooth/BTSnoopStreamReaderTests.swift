import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

@Suite("btsnoop read as it arrives: the stream reader agrees with the whole-file reader")
struct BTSnoopStreamReaderTests {
    @Test("btmon's capture: the monitor datalink, 422 records from 1000 s after 1970, every iBeacon of the scan")
    func realCapture() throws {
        let capture = try BTSnoopCapture(contentsOf: BeaconScanCapture.url)
        #expect(capture.datalink == .monitor)
        #expect(capture.records.count == 422)
        #expect(capture.records.first?.timestamp == BeaconScanCapture.start)
        let sightings = try capture.beaconSightings()
        // Minor 1 and 2 every second, minor 3 for 20 + 30 s, the other UUID for 10 s.
        #expect(sightings.count == 90 + 90 + 50 + 10)
        #expect(Set(sightings.map(\.identity.proximityUUID)) == [BeaconScanCapture.uuid, BeaconScanCapture.other])
    }

    @Test("the capture fed in random pieces gives the records of the whole file, in order", arguments: [
        (UInt64(1), 1), (2, 7), (3, 24), (4, 100), (5, 4_096), (6, 12_000),
    ])
    func randomChunks(seed: UInt64, largest: Int) throws {
        let bytes = try BeaconScanCapture.bytes()
        let whole = try BTSnoopCapture(bytes: bytes)
        var reader = BTSnoopStreamReader()
        var records: [BTSnoopRecord] = []
        var returnedBeforeEnd = false
        for piece in BeaconScanCapture.chunks(bytes, seed: seed, largest: largest) {
            let completed = try reader.append(piece)
            returnedBeforeEnd = returnedBeforeEnd || (!completed.isEmpty && records.count + completed.count < whole.records.count)
            records += completed
        }
        try reader.finish()
        #expect(reader.datalink == whole.datalink)
        #expect(records == whole.records)
        #expect(returnedBeforeEnd, "records come out as they complete, not only at the end")
    }

    @Test("a stream cut inside a record, or ended before its header, is refused as the whole-file reader refuses it")
    func cutShort() throws {
        let bytes = try BeaconScanCapture.bytes()
        for end in [16 + 24 + 3, bytes.count - 1, 10] {
            var reader = BTSnoopStreamReader()
            var thrown: BTSnoopError?
            do {
                for piece in BeaconScanCapture.chunks(Array(bytes[..<end]), seed: UInt64(end), largest: 50) { _ = try reader.append(piece) }
                try reader.finish()
            } catch {
                thrown = error
            }
            var wholeThrown: BTSnoopError?
            do {
                _ = try BTSnoopCapture(bytes: bytes[..<end])
            } catch {
                wholeThrown = error
            }
            #expect(thrown != nil && thrown == wholeThrown, "cut at \(end): \(String(describing: thrown))")
        }
    }

    @Test("a header that is not btsnoop is refused as soon as its 16 bytes are there")
    func wrongHeader() throws {
        var reader = BTSnoopStreamReader()
        let bytes = Array("btsnoob\0".utf8) + (try BeaconScanCapture.bytes())[8...]
        #expect(try reader.append(bytes[0..<15]).isEmpty)
        #expect(throws: BTSnoopError.notBTSnoop) { try reader.append(bytes[15..<16]) }
    }
}
