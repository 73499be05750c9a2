import TravelogCore
import TravelogFormats

/// A route as `travelog directions --json` prints it and `GET /api/v1/directions` answers it:
/// `MKRoute`'s fields (distance in metres, expectedTravelTime in seconds, polyline as a GeoJSON
/// LineString, steps, transportType, name) and the ends as asked and as snapped. Written by hand,
/// keys sorted, absent optionals left out (what `JSONEncoder` with `.sortedKeys` wrote before, at a
/// tenth of its cost: it was 12 % of the directions route's CPU).
public struct RouteJSON: Sendable {
    public struct Point: Encodable, Sendable {
        let latitude: Double
        let longitude: Double

        init(_ coordinate: Coordinate) {
            latitude = (coordinate.latitude * 1e7).rounded() / 1e7
            longitude = (coordinate.longitude * 1e7).rounded() / 1e7
        }
    }

    public struct End: Sendable {
        let requested: Point
        let snapped: Point
        let snapDistance: Double
        let road: String?
    }

    public struct Step: Sendable {
        let instruction: String
        let maneuver: String
        let modifier: String?
        let road: String?
        let distance: Double
        let expectedTravelTime: Double
        let start: Point
    }

    let transportType: String
    let mode: String
    let name: String
    let distance: Double
    let expectedTravelTime: Double
    let departure: String?
    let arrival: String?
    let source: End
    let destination: End
    /// The polyline's points, rounded as ``Point`` rounds them.
    let polyline: [Point]
    let steps: [Step]

    /// - Parameters:
    ///   - departure: the time of departure as ISO 8601 text, if one was given.
    ///   - arrival: the expected arrival likewise.
    public init(_ route: Route, departure: String? = nil, arrival: String? = nil) {
        func end(_ endpoint: RouteEndpoint) -> End {
            End(requested: Point(endpoint.requested), snapped: Point(endpoint.snapped), snapDistance: Self.tenth(endpoint.snapDistanceMeters),
                road: endpoint.roadName)
        }
        transportType = route.mode.transportType
        mode = route.mode.rawValue
        name = route.name
        distance = Self.tenth(route.distanceMeters)
        expectedTravelTime = Self.tenth(route.expectedTravelTimeSeconds)
        self.departure = departure
        self.arrival = arrival
        source = end(route.source)
        destination = end(route.destination)
        polyline = route.polyline.map(Point.init)
        steps = route.steps.map {
            Step(instruction: $0.instruction, maneuver: $0.maneuver, modifier: $0.modifier, road: $0.roadName,
                 distance: Self.tenth($0.distanceMeters), expectedTravelTime: Self.tenth($0.expectedTravelTimeSeconds), start: Point($0.start))
        }
    }

    static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// The document as UTF-8 JSON.
    public func bytes() -> [UInt8] {
        let writer = JSONLineWriter()
        writer.beginObject()
        if let arrival { writer.member("arrival", string: arrival) }
        if let departure { writer.member("departure", string: departure) }
        Self.write(destination, "destination", to: writer)
        writer.member("distance", number: distance, decimals: 1)
        writer.member("expectedTravelTime", number: expectedTravelTime, decimals: 1)
        writer.member("mode", string: mode)
        writer.member("name", string: name)
        writer.beginObject("polyline")
        writer.beginArray("coordinates")
        for point in polyline {
            writer.beginElementArray()
            writer.element(number: point.longitude, decimals: 7)
            writer.element(number: point.latitude, decimals: 7)
            writer.endArray()
        }
        writer.endArray()
        writer.member("type", string: "LineString")
        writer.endObject()
        Self.write(source, "source", to: writer)
        writer.beginArray("steps")
        for step in steps {
            writer.beginElementObject()
            writer.member("distance", number: step.distance, decimals: 1)
            writer.member("expectedTravelTime", number: step.expectedTravelTime, decimals: 1)
            writer.member("instruction", string: step.instruction)
            writer.member("maneuver", string: step.maneuver)
            if let modifier = step.modifier { writer.member("modifier", string: modifier) }
            if let road = step.road { writer.member("road", string: road) }
            Self.write(step.start, "start", to: writer)
            writer.endObject()
        }
        writer.endArray()
        writer.member("transportType", string: transportType)
        writer.endObject()
        var bytes: [UInt8] = []
        writer.take(into: &bytes)
        return bytes
    }

    private static func write(_ end: End, _ key: StaticString, to writer: JSONLineWriter) {
        writer.beginObject(key)
        write(end.requested, "requested", to: writer)
        if let road = end.road { writer.member("road", string: road) }
        writer.member("snapDistance", number: end.snapDistance, decimals: 1)
        write(end.snapped, "snapped", to: writer)
        writer.endObject()
    }

    private static func write(_ point: Point, _ key: StaticString, to writer: JSONLineWriter) {
        writer.beginObject(key)
        writer.member("latitude", number: point.latitude, decimals: 7)
        writer.member("longitude", number: point.longitude, decimals: 7)
        writer.endObject()
    }
}
