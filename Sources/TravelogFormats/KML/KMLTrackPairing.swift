import TravelogCore

/// Pairs the `when` and `gx:coord` elements of one `gx:Track`, the i-th `when` with the i-th
/// `gx:coord`, whichever layout the file uses: all `when`s then all `gx:coord`s (Google Earth,
/// GPSBabel), or interleaved (Google's location history, Travelog's own writer).
///
/// Whatever arrives before its partner waits in a queue: interleaved pairs never wait for more
/// than one element; in the grouped layout the `when`s of the track wait, 16 bytes each (the
/// format puts a track's times before its positions, so they must be held).
struct KMLTrackPairing {
    /// A `when` waiting for its `gx:coord`, compact: 16 bytes.
    struct PendingWhen {
        var secondsSince1970: Int64
        /// 0–999 999 999, or `untimed` / `rejected`.
        var nanoseconds: Int32
        /// Seconds east of UTC the time was written with, or `noOffset`.
        var utcOffsetSeconds: Int32

        /// An empty `<when/>`: its position has no time (GPSBabel writes these).
        static let untimed: Int32 = -1
        /// A `when` already reported as rejected: its position is dropped with it.
        static let rejected: Int32 = -2
        static let noOffset = Int32.min
    }

    /// A `gx:coord` waiting for its `when`; `latitude` NaN when it is dropped (empty, or already
    /// reported as rejected), `altitudeMeters` NaN when it had none.
    struct PendingCoordinate {
        var latitude: Double
        var longitude: Double
        var altitudeMeters: Double
    }

    /// What a complete pair makes.
    enum Pair {
        case fix(Location)
        case untimed(Coordinate, altitudeMeters: Double?)
        /// One of the two was empty or already rejected.
        case dropped
    }

    private var whens: [PendingWhen] = []
    private var whenHead = 0
    private var coordinates: [PendingCoordinate] = []
    private var coordinateHead = 0

    /// Starts a new track.
    mutating func reset() {
        whens.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
        whenHead = 0
        coordinateHead = 0
    }

    /// A `when`: its time, `nil` when empty, or `rejected` when it was reported as wrong.
    mutating func add(when time: ParsedTimestamp?, rejected: Bool = false) -> Pair? {
        let pending: PendingWhen
        if rejected {
            pending = PendingWhen(secondsSince1970: 0, nanoseconds: PendingWhen.rejected, utcOffsetSeconds: PendingWhen.noOffset)
        } else if let time {
            pending = PendingWhen(secondsSince1970: time.secondsSince1970, nanoseconds: Int32(time.nanoseconds),
                                  utcOffsetSeconds: time.utcOffsetSeconds.map { Int32($0) } ?? PendingWhen.noOffset)
        } else {
            pending = PendingWhen(secondsSince1970: 0, nanoseconds: PendingWhen.untimed, utcOffsetSeconds: PendingWhen.noOffset)
        }
        if coordinateHead < coordinates.count {
            let coordinate = coordinates[coordinateHead]
            coordinateHead += 1
            compact()
            return Self.pair(pending, coordinate)
        }
        whens.append(pending)
        return nil
    }

    /// A `gx:coord`: its position, or `nil` when it was empty or reported as wrong.
    mutating func add(coordinate: Coordinate?, altitudeMeters: Double?) -> Pair? {
        let pending = PendingCoordinate(latitude: coordinate?.latitude ?? .nan, longitude: coordinate?.longitude ?? .nan,
                                        altitudeMeters: altitudeMeters ?? .nan)
        if whenHead < whens.count {
            let when = whens[whenHead]
            whenHead += 1
            compact()
            return Self.pair(when, pending)
        }
        coordinates.append(pending)
        return nil
    }

    /// At the end of the track: how many `when`s with a time, and how many `gx:coord`s with a
    /// position, found no partner (the file is wrong: their counts must be equal).
    mutating func finish() -> (whens: Int, coordinates: Int) {
        let whens = whens[whenHead...].count { $0.nanoseconds >= 0 }
        let coordinates = coordinates[coordinateHead...].count { !$0.latitude.isNaN }
        reset()
        return (whens, coordinates)
    }

    /// Empties a queue whose every element was taken, so interleaved pairs reuse one slot.
    private mutating func compact() {
        if whenHead == whens.count, whenHead > 0 {
            whens.removeAll(keepingCapacity: true)
            whenHead = 0
        }
        if coordinateHead == coordinates.count, coordinateHead > 0 {
            coordinates.removeAll(keepingCapacity: true)
            coordinateHead = 0
        }
    }

    private static func pair(_ when: PendingWhen, _ coordinate: PendingCoordinate) -> Pair {
        guard when.nanoseconds != PendingWhen.rejected, !coordinate.latitude.isNaN,
              let position = Coordinate(validLatitude: coordinate.latitude, longitude: coordinate.longitude) else {
            return .dropped
        }
        let altitude = coordinate.altitudeMeters.isNaN ? nil : coordinate.altitudeMeters
        guard when.nanoseconds >= 0 else { return .untimed(position, altitudeMeters: altitude) }
        let zone: ParsedTimestamp.Zone = when.utcOffsetSeconds == PendingWhen.noOffset ? .utc : .offset(seconds: Int(when.utcOffsetSeconds))
        let time = ParsedTimestamp(secondsSince1970: when.secondsSince1970, nanoseconds: Int(when.nanoseconds), zone: zone)
        return .fix(Location(coordinate: position, altitudeMeters: altitude, timestamp: time.date,
                             utcOffsetSeconds: time.utcOffsetSeconds))
    }
}
