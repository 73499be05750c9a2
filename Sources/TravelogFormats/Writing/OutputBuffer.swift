import Foundation

/// The bytes a writer is formatting, handed to its sink whenever they pass `drainThresholdBytes`.
/// Every append writes straight into raw memory: the per-point cost is a few copies and digit loops.
final class OutputBuffer {
    /// Where full buffers go.
    let sink: any ByteSink
    /// Above this many pending bytes, `drainIfNeeded()` hands them to the sink.
    let drainThresholdBytes: Int
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes formatted and not yet handed to the sink.
    private(set) var count = 0
    /// Bytes already handed to the sink.
    private(set) var drainedBytes = 0

    init(sink: any ByteSink, drainThresholdBytes: Int = 1 << 16) {
        self.sink = sink
        self.drainThresholdBytes = drainThresholdBytes
        self.capacity = drainThresholdBytes + 4096
        self.storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes not yet drained, as UTF-8 text.
    var pendingText: String { String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self) }

    /// Every byte produced so far, drained or not.
    var totalBytes: Int { drainedBytes + count }

    /// Hands the pending bytes to the sink once there are enough of them.
    @inline(__always)
    func drainIfNeeded() throws(FormatError) {
        if count >= drainThresholdBytes { try drain() }
    }

    /// Hands every pending byte to the sink.
    func drain() throws(FormatError) {
        guard count > 0 else { return }
        try sink.write(UnsafeRawBufferPointer(start: storage, count: count))
        drainedBytes += count
        count = 0
    }

    /// Makes room for `byteCount` more bytes and returns where they go; the caller then calls
    /// `commit(_:)` with how many it wrote.
    @inline(__always)
    func reserve(_ byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        if count + byteCount > capacity { grow(toFit: byteCount) }
        return storage + count
    }

    @inline(__always)
    func commit(_ byteCount: Int) { count += byteCount }

    /// Appends the pending bytes to `output` instead of the sink (they count as drained).
    func takePending(into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: storage, count: count))
        drainedBytes += count
        count = 0
    }

    private func grow(toFit byteCount: Int) {
        let newCapacity = max(capacity * 2, count + byteCount)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    // MARK: Appending

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    /// Appends literal text (markup, keys, separators).
    @inline(__always)
    func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Appends a string's UTF-8 bytes as they are.
    func append(raw text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            reserve(bytes.count).update(from: base, count: bytes.count)
            count += bytes.count
        }
    }

    /// Appends `value` with exactly `decimals` places (coordinates).
    @inline(__always)
    func append(_ value: Double, decimals: Int) {
        let start = reserve(FixedDecimalFormatter.maximumByteCount(decimals: decimals))
        count += FixedDecimalFormatter.write(value, decimals: decimals, trimmingTrailingZeros: false, to: start)
    }

    /// Appends `value` with at most `decimals` places, trailing zeros dropped (measurements).
    @inline(__always)
    func append(trimmed value: Double, decimals: Int) {
        let start = reserve(FixedDecimalFormatter.maximumByteCount(decimals: decimals))
        count += FixedDecimalFormatter.write(value, decimals: decimals, trimmingTrailingZeros: true, to: start)
    }

    /// Appends a whole number.
    func append(integer value: Int) {
        let start = reserve(21)
        var cursor = start
        if value < 0 {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        cursor += FixedDecimalFormatter.writeUnsigned(UInt64(value.magnitude), to: cursor)
        count += cursor - start
    }

    /// Appends an ISO 8601 UTC time.
    @inline(__always)
    func append(time date: Date) {
        count += ISO8601TimeFormatter.write(date, to: reserve(ISO8601TimeFormatter.maximumByteCount))
    }
}
