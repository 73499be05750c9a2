/// The points of the time-zone rings as the file stores them, zig-zag LEB128 varints, longitude
/// then latitude, each the difference from the point before (the first from 0), read in place from
/// the mapped file instead of decoded into arrays (8 bytes a point, 65 MB for the world): a lookup
/// decodes the few edges it tests. A checkpoint every ``pointsPerCheckpoint`` points (the byte
/// where that point starts and the point before it) lets decoding start near any point.
///
/// Every point is decoded and checked once when the file is loaded (``init(bytes:start:byteCount:count:unitsPerDegree:)``),
/// so decoding afterwards trusts the bytes.
struct PackedPoints: Sendable {
    /// Points between checkpoints: 12 bytes of checkpoint per 64 points (1.5 MB for the world), and
    /// at most 63 points decoded before the first one a lookup wants.
    static let pointsPerCheckpoint = 64
    /// The load's check lets go of the pages it has read every this many points (about 2.5 MB).
    static let pointsPerRelease = 1 << 20

    let bytes: MappedBytes
    /// The number of points.
    let count: Int
    /// Per checkpoint: the byte offset of its first point's varints, and the point before it.
    let checkpointOffsets: [UInt32]
    let checkpointXs: [Int32]
    let checkpointYs: [Int32]

    /// Why the points are unsound: the byte offset in the file and what is wrong there.
    struct Failure: Error {
        var offset: Int
        var reason: TimeZoneBoundariesCorruption
    }

    /// Decodes and checks every point: each varint ends within the section, each point lies within
    /// ±180° and ±90°, and the section ends with the last point.
    /// - Complexity: O(byteCount); no memory per point.
    init(bytes: MappedBytes, start: Int, byteCount: Int, count: Int, unitsPerDegree: Int64) throws(Failure) {
        let end = start + byteCount
        let checkpointCount = (count + Self.pointsPerCheckpoint - 1) / Self.pointsPerCheckpoint
        var offsets: [UInt32] = [], xs: [Int32] = [], ys: [Int32] = []
        offsets.reserveCapacity(checkpointCount)
        xs.reserveCapacity(checkpointCount)
        ys.reserveCapacity(checkpointCount)
        let input = bytes.base.assumingMemoryBound(to: UInt8.self)
        var position = start
        var x: Int64 = 0, y: Int64 = 0
        let longitudeLimit = 180 * unitsPerDegree, latitudeLimit = 90 * unitsPerDegree
        for point in 0..<count {
            if point % Self.pointsPerRelease == 0 { bytes.releasePages(before: position) }
            if point % Self.pointsPerCheckpoint == 0 {
                offsets.append(UInt32(position))
                xs.append(Int32(x))
                ys.append(Int32(y))
            }
            for axis in 0..<2 {
                var value: UInt64 = 0, shift: UInt64 = 0
                while true {
                    guard position < end, shift < 64 else { throw Failure(offset: position, reason: .badVarint(point: point)) }
                    let byte = input[position]
                    position += 1
                    value |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                let delta = Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
                if axis == 0 { x &+= delta } else { y &+= delta }
            }
            guard (-longitudeLimit...longitudeLimit).contains(x), (-latitudeLimit...latitudeLimit).contains(y) else {
                throw Failure(offset: position, reason: .coordinateOutOfRange(point: point, longitude: x, latitude: y))
            }
        }
        guard position == end else { throw Failure(offset: position, reason: .trailingBytes(count: end - position)) }
        self.bytes = bytes
        self.count = count
        checkpointOffsets = offsets
        checkpointXs = xs
        checkpointYs = ys
    }

    /// Reads points one after the other from where ``PackedPoints/cursor(at:)`` put it. Valid
    /// while its ``PackedPoints`` is.
    struct Cursor {
        var position: UnsafePointer<UInt8>
        var x: Int64
        var y: Int64

        /// The next point, in 1/`unitsPerDegree` degrees.
        @inline(__always)
        mutating func next() -> (x: Int64, y: Int64) {
            x &+= varint()
            y &+= varint()
            return (x, y)
        }

        @inline(__always)
        private mutating func varint() -> Int64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = position.pointee
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
        }
    }

    /// A cursor whose first `next()` is point `index` (< `count`).
    /// - Complexity: O(``pointsPerCheckpoint``).
    func cursor(at index: Int) -> Cursor {
        let checkpoint = index / Self.pointsPerCheckpoint
        var cursor = Cursor(position: bytes.base.assumingMemoryBound(to: UInt8.self) + Int(checkpointOffsets[checkpoint]),
                            x: Int64(checkpointXs[checkpoint]), y: Int64(checkpointYs[checkpoint]))
        for _ in (checkpoint * Self.pointsPerCheckpoint)..<index { _ = cursor.next() }
        return cursor
    }
}
