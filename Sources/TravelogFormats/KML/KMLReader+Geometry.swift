import TravelogCore

extension KMLReader {
    /// A Placemark begins: a track of its own, a name and time for its Points.
    mutating func startPlacemark(depth: Int) {
        placemarkDepth = depth
        placemarkName = nil
        placemarkTime = .none
        waitingPoints.removeAll(keepingCapacity: true)
        tracks.startTrack()
    }

    /// A `gx:Track` or `LineString` begins: a new segment (of a new track outside a Placemark).
    /// Points of the Placemark read so far are handed out first, to keep file order.
    mutating func startLine() {
        flushWaitingPoints()
        tracks.startSegment()
        if placemarkDepth == 0 { tracks.startTrack() }
    }

    /// The kind of a line's point, numbering its track and segment if it is their first point.
    mutating func trackKind() -> FormatPoint.Kind {
        tracks.nextTrackPoint()
    }

    /// A `gx:Track`'s `when` just ended.
    mutating func readTrackWhen() {
        let pair: KMLTrackPairing.Pair?
        do throws(TimestampError) {
            pair = pairing.add(when: try parser.text.parseTimestamp())
        } catch {
            if case .empty = error {
                pair = pairing.add(when: nil)
            } else {
                emit(.rejected(RecordRejection(position: fieldPosition, reason: .invalidTime(parser.text.trimmed.excerpt))))
                pair = pairing.add(when: nil, rejected: true)
            }
        }
        if let pair { take(pair) }
    }

    /// A `gx:Track`'s `gx:coord` just ended.
    mutating func readTrackCoordinate() {
        let pair: KMLTrackPairing.Pair?
        switch KMLCoordinateText.parseSpaced(parser.text, at: fieldPosition) {
        case .position(let coordinate, let altitude):
            pair = pairing.add(coordinate: coordinate, altitudeMeters: altitude)
        case .rejected(let rejection):
            emit(.rejected(rejection))
            pair = pairing.add(coordinate: nil, altitudeMeters: nil)
        case nil:
            pair = pairing.add(coordinate: nil, altitudeMeters: nil)
        }
        if let pair { take(pair) }
    }

    private mutating func take(_ pair: KMLTrackPairing.Pair) {
        switch pair {
        case .fix(let location):
            emit(.point(FormatPoint(kind: trackKind(), position: .fix(location))))
        case .untimed(let coordinate, let altitude):
            emit(.point(FormatPoint(kind: trackKind(), position: .untimed(coordinate, altitudeMeters: altitude))))
        case .dropped:
            break
        }
    }

    /// `</gx:Track>`: a `when` or `gx:coord` left without its partner is rejected there.
    mutating func finishTrack() {
        let unmatched = pairing.finish()
        if unmatched.whens + unmatched.coordinates > 0 {
            let position = parser.eventPosition
            for _ in 0..<unmatched.whens {
                emit(.rejected(RecordRejection(position: position, reason: .missingField("gx:coord"))))
            }
            for _ in 0..<unmatched.coordinates {
                emit(.rejected(RecordRejection(position: position, reason: .missingField("when"))))
            }
        }
        trackDepth = 0
    }

    /// Turns the tuples of coordinate text just read into records (a Point's wait for the end of
    /// their Placemark).
    mutating func takeTuples() {
        for tuple in tuples {
            switch tuple {
            case .rejected(let rejection):
                emit(.rejected(rejection))
            case .position(let coordinate, let altitude) where coordinatesOwner == .lineString:
                emit(.point(FormatPoint(kind: trackKind(), position: .untimed(coordinate, altitudeMeters: altitude))))
            case .position(let coordinate, let altitude):
                waitingPoints.append(WaitingPoint(coordinate: coordinate, altitudeMeters: altitude))
                if placemarkDepth == 0 { flushWaitingPoints() }
            }
        }
        tuples.removeAll(keepingCapacity: true)
    }

    /// A Placemark's `TimeStamp/when` just ended. A date without a time of day (`2024-01-15`,
    /// `2024-01`, `2024`: KML allows them) is no time for a point.
    mutating func readPlacemarkTime() {
        let text = parser.text.trimmed
        do throws(TimestampError) {
            placemarkTime = .time(try text.parseTimestamp())
        } catch {
            if case .empty = error { return }
            if text.count <= 10, text.allSatisfy({ $0 == UInt8(ascii: "-") || $0 &- UInt8(ascii: "0") < 10 }) { return }
            placemarkTime = .rejected(RecordRejection(position: fieldPosition, reason: .invalidTime(text.excerpt)))
        }
    }

    /// Hands out the Placemark's Points read so far as waypoints, with its name and time.
    mutating func flushWaitingPoints() {
        for point in waitingPoints {
            switch placemarkTime {
            case .none:
                emit(.point(FormatPoint(kind: .waypoint, position: .untimed(point.coordinate, altitudeMeters: point.altitudeMeters),
                                        name: placemarkName)))
            case .time(let time):
                let location = Location(coordinate: point.coordinate, altitudeMeters: point.altitudeMeters,
                                        timestamp: time.date, utcOffsetSeconds: time.utcOffsetSeconds)
                emit(.point(FormatPoint(kind: .waypoint, position: .fix(location), name: placemarkName)))
            case .rejected(let rejection):
                emit(.rejected(rejection))
            }
        }
        waitingPoints.removeAll(keepingCapacity: true)
    }
}
