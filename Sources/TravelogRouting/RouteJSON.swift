import TravelogCore

/// A route as `travelog directions --json` prints it and `GET /api/v1/directions` answers it:
/// `MKRoute`'s fields (distance in metres, expectedTravelTime in seconds, polyline as a GeoJSON
/// LineString, steps, transportType, name) and the ends as asked and as snapped.
public struct RouteJSON: Encodable, Sendable {
    public struct Point: Encodable, Sendable {
        let latitude: Double
        let longitude: Double

        init(_ coordinate: Coordinate) {
            latitude = (coordinate.latitude * 1e7).rounded() / 1e7
            longitude = (coordinate.longitude * 1e7).rounded() / 1e7
        }
    }

    public struct End: Encodable, Sendable {
        let requested: Point
        let snapped: Point
        let snapDistance: Double
        let road: String?
    }

    public struct LineString: Encodable, Sendable {
        let type = "LineString"
        let coordinates: [[Double]]
    }

    public struct Step: Encodable, Sendable {
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
    let polyline: LineString
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
        polyline = LineString(coordinates: route.polyline.map { point in
            let rounded = Point(point)
            return [rounded.longitude, rounded.latitude]
        })
        steps = route.steps.map {
            Step(instruction: $0.instruction, maneuver: $0.maneuver, modifier: $0.modifier, road: $0.roadName,
                 distance: Self.tenth($0.distanceMeters), expectedTravelTime: Self.tenth($0.expectedTravelTimeSeconds), start: Point($0.start))
        }
    }

    static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
