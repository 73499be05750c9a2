import TravelogCore

extension GPXReader {
    /// Starts reading a point at its start tag: its coordinate comes from the attributes.
    mutating func startPoint(_ element: GPXPoint.Element) {
        pointElement = element
        pointDepth = parser.depth
        extensionsDepth = 0
        point = GPXPoint(position: parser.eventPosition)
        pointName = nil
        guard let latitude = coordinateAttribute("lat"), let longitude = coordinateAttribute("lon") else { return }
        do throws(CoordinateError) {
            point.coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            reject(at: point.position, .invalidCoordinate(error))
        }
    }

    /// The `lat` or `lon` attribute as a number; `nil` with the point rejected when it is missing
    /// or not a number.
    private mutating func coordinateAttribute(_ name: StaticString) -> Double? {
        guard let value = parser.attribute(name) else {
            reject(at: point.position, .missingField(name.description))
            return nil
        }
        guard let number = value.parseDouble() else {
            reject(at: point.position, .invalidValue(field: name.description, value: value.excerpt))
            return nil
        }
        return number
    }

    /// A start tag inside a point: notes where a field that may be rejected starts.
    mutating func startFieldElement() {
        let depth = parser.depth
        let name = parser.localName
        if depth == pointDepth + 1 {
            if name == "time" || name == "ele" || name == "speed" || name == "course" {
                fieldPosition = parser.eventPosition
            } else if name == "extensions" {
                extensionsDepth = depth
            }
        } else if extensionsDepth > 0, name == "speed" || name == "course" {
            fieldPosition = parser.eventPosition
        }
    }

    /// An end tag inside a point: reads the field it closes; at the point's own end tag, the
    /// point's record.
    @inline(__always)
    mutating func endFieldElement() -> FormatRecord? {
        let depth = parser.depth
        if depth == pointDepth {
            pointDepth = 0
            guard !point.isRejected, point.coordinate != nil else { return .rejected(pointFault) }
            let kind = kindOfFinishedPoint()
            return point.record(kind: kind, name: pointName)
        }
        guard !point.isRejected else { return nil }
        let name = parser.localName
        if depth == pointDepth + 1 {
            if name == "time" {
                readTime()
            } else if name == "ele" {
                point.elevationMeters = number("ele")
            } else if name == "name" {
                let text = parser.text.trimmed
                if !text.isEmpty { pointName = text.string }
            } else if name == "speed" {
                point.speedMetersPerSecond = number("speed")
            } else if name == "course" {
                point.courseDegrees = course()
            } else if name == "extensions" {
                extensionsDepth = 0
            }
        } else if extensionsDepth > 0 {
            if name == "speed" {
                point.extensionSpeedMetersPerSecond = number("speed")
            } else if name == "course" {
                point.extensionCourseDegrees = course()
            }
        }
        return nil
    }

    /// Rejects the point for `reason` at `position`, unless something earlier was already wrong.
    private mutating func reject(at position: SourcePosition, _ reason: RecordRejection.Reason) {
        guard !point.isRejected else { return }
        point.isRejected = true
        pointFault = RecordRejection(position: position, reason: reason)
    }

    /// The `time` just closed; white space only counts as no time.
    private mutating func readTime() {
        do throws(TimestampError) {
            point.time = try parser.text.parseTimestamp()
        } catch {
            if case .empty = error { return }
            reject(at: fieldPosition, .invalidTime(parser.text.trimmed.excerpt))
        }
    }

    /// The element just closed as a number: `nil` when empty, the point rejected when it is not
    /// a number.
    private mutating func number(_ field: String) -> Double? {
        let text = parser.text
        if let value = text.parseDouble() { return value }
        if !text.trimmed.isEmpty { reject(at: fieldPosition, .invalidValue(field: field, value: text.trimmed.excerpt)) }
        return nil
    }

    /// The course just closed, in [0, 360) degrees (360 is 0); above 360 the point is rejected.
    /// A negative course means unknown, as in `Location`.
    private mutating func course() -> Double? {
        guard let degrees = number("course") else { return nil }
        guard degrees <= 360 else {
            reject(at: fieldPosition, .invalidValue(field: "course", value: parser.text.trimmed.excerpt))
            return nil
        }
        return degrees == 360 ? 0 : degrees
    }
}
