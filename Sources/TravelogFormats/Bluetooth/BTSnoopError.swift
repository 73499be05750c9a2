/// Why bytes are not a btsnoop capture this reader understands, or an HCI event in it is malformed.
public enum BTSnoopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case cannotRead(path: String, reason: String)
    /// The first 8 bytes are not "btsnoop\0".
    case notBTSnoop
    /// The header names another version than 1.
    case unsupportedVersion(UInt32)
    /// The header names a datalink this reader does not decode (it reads 1001 HCI, 1002 UART
    /// (H4) and 2001 BlueZ monitor).
    case unsupportedDatalink(UInt32)
    /// The capture ends inside a record's header or data.
    case truncatedRecord(recordIndex: Int, byteOffset: Int)
    /// An HCI event (LE Meta subevent `subeventCode`, or `nil` for the event header) is
    /// shorter than its own lengths say: `needed` bytes, `available` there.
    case malformedEvent(recordIndex: Int, subeventCode: UInt8?, needed: Int, available: Int)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case .notBTSnoop: "not a btsnoop capture: the file does not start with \"btsnoop\\0\""
        case .unsupportedVersion(let version): "btsnoop version \(version) is not supported (only 1)"
        case .unsupportedDatalink(let datalink): "btsnoop datalink \(datalink) is not supported (1001 HCI, 1002 UART, 2001 BlueZ monitor)"
        case let .truncatedRecord(index, offset): "record \(index) at byte \(offset) is cut short"
        case let .malformedEvent(index, subevent, needed, available):
            "record \(index): HCI event\(subevent.map { " (LE subevent 0x\(String($0, radix: 16)))" } ?? "") needs \(needed) bytes, has \(available)"
        }
    }
}
