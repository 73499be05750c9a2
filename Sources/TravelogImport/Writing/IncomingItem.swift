import Foundation
import TravelogCore
import TravelogFormats

/// One item of a request or a file on its way to the store, as a reader or a decoder found it.
public struct IncomingItem: Sendable {
    public enum Content: Sendable {
        /// A fix, not checked yet.
        case location(Location)
        /// A stay the data describes itself.
        case visit(FormatVisit)
        /// Something that was not taken, and why.
        case refused(String)
        /// Something that is not a location and is passed over (an OwnTracks card), by what it is.
        case passedOver(String)
    }

    public var content: Content
    /// Where the item is (`item 3`, `item 3 (byte 240)`), for messages; written out only when a
    /// message needs it (a body of 100,000 good items never builds the 100,000 strings).
    public var position: String {
        switch place {
        case .text(let text): text
        case .item(let index, let byteOffset): "item \(index) (byte \(byteOffset))"
        }
    }
    private var place: Place
    /// The item as it was sent, for the list of rejected items (phone routes only): its bytes, or
    /// where they are in the body the writer is given.
    public var raw: Raw
    /// The phone's battery when it took the fix, percent 0–100, and whether it was charging, when
    /// the app said (for the device's status, `DeviceStore.recordReport`).
    public var batteryPercent: Double?
    public var isCharging: Bool?
    /// What an OwnTracks phone said of itself with the fix (for the device's status too).
    public var phoneStatus: PhoneStatus?
    /// What the person wrote on the fix (kept with it, `LabelStore`).
    public var labels: [LocationLabel] = []

    public enum Raw: Sendable {
        case none
        case bytes([UInt8])
        case range(Range<Int>)
    }

    private enum Place: Sendable {
        case text(String)
        case item(index: Int, byteOffset: Int)
    }

    public init(_ content: Content, position: String, raw: Raw = .none) {
        self.content = content
        self.place = .text(position)
        self.raw = raw
    }

    /// An item of a body or file: the `index`th record, starting at `byteOffset`.
    public init(_ content: Content, index: Int, byteOffset: Int, raw: Raw = .none) {
        self.content = content
        self.place = .item(index: index, byteOffset: byteOffset)
        self.raw = raw
    }
}

/// A request body that can be read again by byte range (to keep a refused item as it was sent).
public protocol RawBody: Sendable {
    /// At most `limit` bytes from `range` (clamped to the body).
    func bytes(in range: Range<Int>, limit: Int) -> [UInt8]
}
