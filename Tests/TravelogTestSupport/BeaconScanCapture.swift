import Foundation

/// `Tests/Captures/beacon-scan.btsnoop`, written by BlueZ's btmon 5.66 (`btmon -d TTY -w FILE`,
/// fed by `scripts/make-beacon-capture.py`): 90 s of a scan, timestamps from 1970-01-01T00:16:40Z.
public enum BeaconScanCapture {
    public static let url = SharedFixtures.ownFixture("Captures/beacon-scan.btsnoop")
    public static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    public static let other = UUID(uuidString: "00000000-1111-2222-3333-444444444444")!
    public static let start = Date(timeIntervalSince1970: 1_000)

    public static func bytes() throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// `bytes` cut into pieces of 1 to `largest` bytes, at random.
    public static func chunks(_ bytes: [UInt8], seed: UInt64, largest: Int) -> [ArraySlice<UInt8>] {
        var random = SplitMix64(seed: seed)
        var pieces: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, 1 + Int(random.next() % UInt64(largest)))
            pieces.append(bytes[offset..<(offset + length)])
            offset += length
        }
        return pieces
    }
}
