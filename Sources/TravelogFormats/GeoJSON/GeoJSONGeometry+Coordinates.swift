import TravelogCore

/// Reading a geometry object and its `coordinates` at any nesting, before its `type` is known
/// (RFC 7946 does not order members, and writers put `type` last).
extension GeoJSONGeometry {
    enum Member: String, CaseIterable {
        case type, coordinates, geometries
        static let table = JSONKeyTable(Member.self)
    }

    /// Reads a geometry object after its `{`, up to and including its `}`, and validates it.
    static func read(from parser: inout JSONParser, start: SourcePosition) throws -> GeoJSONGeometry {
        var geometry = GeoJSONGeometry(start: start)
        while try parser.nextKey() {
            if try !geometry.readMember(from: &parser) { try parser.skipValue() }
        }
        geometry.validate()
        return geometry
    }

    /// Reads the value of the member whose key the parser has just read, if it is `type`,
    /// `coordinates` or `geometries`; returns false (nothing consumed) for any other key.
    mutating func readMember(from parser: inout JSONParser) throws -> Bool {
        switch parser.key(in: Member.table) {
        case .type?:
            do {
                typeName = try parser.readLenientString()
                // Through the key table: `Kind(rawValue:)` is a string switch, measurable on every feature.
                kind = typeName.flatMap { name in name.utf8.withContiguousStorageIfAvailable { Kind.table.match($0) } ?? Kind(rawValue: name) }
            } catch let error as JSONFieldValueError {
                note(RecordRejection(position: error.position, reason: .invalidValue(field: "type", value: error.found)))
            }
        case .coordinates?:
            try readCoordinates(from: &parser)
        case .geometries?:
            try readMembers(from: &parser)
        case nil:
            return false
        }
        return true
    }

    /// Reads `coordinates` after its key: a position, or arrays of them nested to any depth.
    mutating func readCoordinates(from parser: inout JSONParser) throws {
        hasContent = true
        let event = try parser.next()
        let position = parser.tokenPosition
        switch event {
        case .arrayStart?:
            _ = try readArray(from: &parser, level: 1, start: position)
        case .null?:
            break
        default:
            let error = try parser.valueError(for: event)
            note(RecordRejection(position: error.position, reason: .invalidValue(field: "coordinates", value: error.found)))
        }
    }

    /// Reads a GeometryCollection's `geometries` after its key.
    private mutating func readMembers(from parser: inout JSONParser) throws {
        hasContent = true
        let event = try parser.next()
        guard event == .arrayStart else {
            if event == .null { return }
            let error = try parser.valueError(for: event)
            note(RecordRejection(position: error.position, reason: .invalidValue(field: "geometries", value: error.found)))
            return
        }
        while let element = try parser.nextElement() {
            let start = parser.tokenPosition
            if element == .objectStart {
                members.append(try GeoJSONGeometry.read(from: &parser, start: start))
            } else if element != .null {
                let error = try parser.valueError(for: element)
                note(RecordRejection(position: error.position, reason: .invalidValue(field: "geometries", value: error.found)))
            }
        }
    }

    private enum ArrayShape { case empty, position, nested }

    /// Reads the elements of an array nested `level` deep in `coordinates` (1 is `coordinates`
    /// itself), after its `[` (at `start`), up to and including its `]`.
    private mutating func readArray(from parser: inout JSONParser, level: Int, start: SourcePosition) throws -> ArrayShape {
        guard let first = try parser.nextElement() else { return .empty }
        guard first == .arrayStart else {
            try readPosition(from: &parser, first: first, level: level, start: start)
            return .position
        }
        let partStart = positions.count
        var holdsPositions = false
        var element: JSONEvent? = first
        while let event = element {
            let elementStart = parser.tokenPosition
            if event == .arrayStart {
                if try readArray(from: &parser, level: level + 1, start: elementStart) == .position { holdsPositions = true }
            } else {
                let error = try parser.valueError(for: event)
                note(RecordRejection(position: error.position, reason: .invalidValue(field: "coordinates", value: error.found)))
            }
            element = try parser.nextElement()
        }
        if holdsPositions, positions.count > partStart { partStarts.append(partStart) }
        return .nested
    }

    /// Reads a position whose first element (`first`) has been read, up to and including its `]`.
    /// Numbers in strings are accepted; a third element is the altitude, further ones are ignored.
    private mutating func readPosition(from parser: inout JSONParser, first: JSONEvent, level: Int,
                                       start: SourcePosition) throws {
        if let depth = positionDepth, depth != level {
            note(RecordRejection(position: start, reason: .invalidValue(
                field: "coordinates", value: "positions nested both \(depth) and \(level) deep")))
        } else {
            positionDepth = level
        }
        var longitude: Double?, latitude: Double?, altitude: Double?
        var problem: RecordRejection?
        var index = 0
        var element: JSONEvent? = first
        while let event = element {
            if event != .number || index >= 3 { hasLoosePosition = true }
            do {
                let value = try parser.lenientDouble(after: event)
                switch index {
                case 0: longitude = value
                case 1: latitude = value
                case 2: altitude = value
                default: break
                }
            } catch let error as JSONFieldValueError {
                if index < 3, problem == nil {
                    problem = RecordRejection(position: error.position, reason: .invalidValue(field: "coordinates", value: error.found))
                }
            }
            index += 1
            element = try parser.nextElement()
        }
        if let longitude, abs(longitude) > 180 { hasWrappedLongitude = true }
        if problem == nil {
            if let longitude, let latitude {
                do throws(CoordinateError) {
                    positions.append(Position(coordinate: try Coordinate(latitude: latitude, longitude: longitude),
                                              altitudeMeters: altitude))
                    return
                } catch {
                    problem = RecordRejection(position: start, reason: .invalidCoordinate(error))
                }
            } else {
                problem = RecordRejection(position: start, reason: .missingField(longitude == nil ? "longitude" : "latitude"))
            }
        }
        positionProblems[positions.count] = problem
        positions.append(Position(coordinate: nil, altitudeMeters: nil))
    }
}
