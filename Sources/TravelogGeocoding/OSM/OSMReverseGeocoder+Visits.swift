import Foundation
import TravelogCore

/// The point of interest a stay was at: what the journal calls a visit ("Café Regatta").
extension OSMReverseGeocoder {
    /// A point of interest a visit may have been at, and how likely.
    public struct VisitCandidate: Sendable {
        public let place: OSMPlace
        /// From the visit's centre to the point, or to the area's outline (0 inside it), metres.
        public let distanceMeters: Double
        /// The category's stay weight times the nearness (see ``pointOfInterest(forVisitAt:radiusMeters:)``).
        public let score: Double
    }

    /// The radius searched around a visit's centre: its radius, at least 50 m (indoors a phone's fixes
    /// come from Wi-Fi and cell towers, 20–50 m off: the centre of a real day's stay in a church lay
    /// 33 to 40 m from it) and at most 150 m (a long stay's drifting fixes make a wide circle, and a
    /// point of interest that far away is a guess).
    static func visitSearchRadius(_ radiusMeters: Double) -> Double { min(max(radiusMeters, 50), 150) }

    /// The named point of interest a visit at `center` most likely was: the candidates within the
    /// visit's radius (``visitSearchRadius(_:)``), each scored by how much its category is a place
    /// people stay at (``OSMStayCategories``) and by its distance, `w / (1 + (d / s)²)` with `s` a
    /// third of the searched radius, at least 12 m; areas (a café's building, a museum) count from
    /// their outline, and inside from half their equivalent radius (a park is a weaker guess than
    /// a café's room), and not at all when a stay place inside them is within reach (the hotel's
    /// restaurant). `nil` when none is near or the best is a place nobody stays at.
    /// Ties: the nearer, then the lower OSM id, so the answer does not depend on the extracts' order.
    /// - Complexity: O(log n) for the tree, plus the areas of the nine grid cells around the centre.
    public func pointOfInterest(forVisitAt center: Coordinate, radiusMeters: Double) -> VisitCandidate? {
        let radius = Self.visitSearchRadius(radiusMeters)
        let scale = max(radius / 3, 12)
        var nodes: [(index: Int, distance: Double)] = []
        var areas: [(index: Int, distance: Double, inside: Bool)] = []
        // Points (nodes); areas are measured from their outline below.
        poiTree.forEach(within: radius * radius, of: ReverseGeocoder.earthCenteredPoint(center)) { position, _ in
            let index = poiIndexes[position]
            guard !places[index].kind.contains(.area) else { return }
            nodes.append((index, center.distanceMeters(to: places[index].coordinate)))
        }
        var seen = Set<Int>()
        let cell = GridCell(center)
        let span = Int32((radius / 111_000 / Self.cellDegrees).rounded(.up))
        for row in (cell.row - span)...(cell.row + span) {
            for column in (cell.column - span)...(cell.column + span) {
                for index in areaCells[GridCell(row: row, column: column)] ?? [] where places[index].kind.contains(.pointOfInterest) {
                    guard seen.insert(index).inserted else { continue }
                    let rings = places[index].geometry
                    if Self.contains(rings, center) {
                        // Inside a building or a park, where it is is less telling the larger it is:
                        // it counts from half its equivalent radius (a café's room: a few metres; a
                        // park or a station: tens).
                        areas.append((index, Self.equivalentRadius(rings, at: center) / 2, true))
                    } else {
                        areas.append((index, Self.distanceToArea(rings, from: center), false))
                    }
                }
            }
        }
        var best: VisitCandidate?
        func consider(_ index: Int, distance: Double) {
            let place = places[index]
            guard distance <= radius, place.name != nil, let category = place.category else { return }
            let weight = OSMStayCategories.weight(category)
            guard weight > 0 else { return }
            let score = weight / (1 + (distance / scale) * (distance / scale))
            let candidate = VisitCandidate(place: place, distanceMeters: distance, score: score)
            guard let current = best else { best = candidate; return }
            if score > current.score
                || (score == current.score && (distance, place.elementType, place.id) < (current.distanceMeters, current.place.elementType, current.place.id)) {
                best = candidate
            }
        }
        for node in nodes { consider(node.index, distance: node.distance) }
        for area in areas {
            // A place inside the hotel or the station around the stay (its restaurant, a café) says
            // more than the building does: the building is then not a candidate.
            if area.inside, nodes.contains(where: { node in
                node.distance <= radius && OSMStayCategories.weight(places[node.index].category ?? "") > 0
                    && Self.contains(places[area.index].geometry, places[node.index].coordinate)
            }) { continue }
            consider(area.index, distance: area.distance)
        }
        return best
    }

    /// The radius of a circle of the rings' area, metres (a local plane around `point`).
    static func equivalentRadius(_ rings: [[Coordinate]], at point: Coordinate) -> Double {
        let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        let scale = cos(point.latitude * .pi / 180)
        var area = 0.0
        for ring in rings {
            var twice = 0.0
            for (a, b) in zip(ring, ring.dropFirst()) {
                let ax = (a.longitude - point.longitude) * scale * metersPerDegree, ay = (a.latitude - point.latitude) * metersPerDegree
                let bx = (b.longitude - point.longitude) * scale * metersPerDegree, by = (b.latitude - point.latitude) * metersPerDegree
                twice += ax * by - bx * ay
            }
            area += abs(twice) / 2
        }
        return (area / .pi).squareRoot()
    }

    /// Metres from a point to rings: 0 inside, else to the nearest edge (a local plane: exact
    /// enough within the few hundred metres a visit is searched over).
    static func distanceToArea(_ rings: [[Coordinate]], from point: Coordinate) -> Double {
        if contains(rings, point) { return 0 }
        let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
        let scale = cos(point.latitude * .pi / 180)
        func plane(_ other: Coordinate) -> (Double, Double) {
            ((other.longitude - point.longitude) * scale * metersPerDegree, (other.latitude - point.latitude) * metersPerDegree)
        }
        var nearest = Double.infinity
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) { nearest = min(nearest, segmentDistance(plane(a), plane(b))) }
            if ring.count == 1 { nearest = min(nearest, point.distanceMeters(to: ring[0])) }
        }
        return nearest
    }
}

extension OSMStreetAddress {
    /// "Merikannontie 8, 00260 Helsinki": the street and number (or the street alone), then the
    /// postcode and town when tagged (`town` for addresses without `addr:city`); `nil` without a street.
    public func formatted(town: String? = nil) -> String? {
        guard let thoroughfare else { return nil }
        let street = subThoroughfare.map { "\(thoroughfare) \($0)" } ?? thoroughfare
        let place = [postalCode, locality ?? town].compactMap { $0 }.joined(separator: " ")
        return place.isEmpty ? street : "\(street), \(place)"
    }
}

/// How much a point of interest's category is a place people stay at, 0 to 1: a visit of twenty
/// minutes next to a bench and a café was at the café. Categories not listed weigh 0.5 (a named
/// shop, office or craft); those nobody stays at weigh 0 and are never a visit's place.
public enum OSMStayCategories {
    static let weights: [String: Double] = [
        // Where people sit down, eat, work, learn, are treated, stay the night.
        "amenity=cafe": 1, "amenity=restaurant": 1, "amenity=bar": 1, "amenity=pub": 1, "amenity=fast_food": 0.9,
        "amenity=ice_cream": 0.8, "amenity=food_court": 0.9, "amenity=biergarten": 1, "amenity=nightclub": 1,
        "amenity=cinema": 1, "amenity=theatre": 1, "amenity=arts_centre": 1, "amenity=concert_hall": 1, "amenity=library": 1,
        "amenity=school": 1, "amenity=university": 1, "amenity=college": 1, "amenity=kindergarten": 1,
        "amenity=dentist": 1, "amenity=doctors": 1, "amenity=clinic": 1, "amenity=hospital": 1, "amenity=veterinary": 0.9,
        "amenity=place_of_worship": 0.9, "amenity=community_centre": 0.9, "amenity=townhall": 0.8, "amenity=courthouse": 0.8,
        "amenity=coworking_space": 1, "amenity=marketplace": 0.8, "amenity=sauna": 1, "amenity=public_bath": 1,
        "amenity=pharmacy": 0.6, "amenity=bank": 0.6, "amenity=post_office": 0.6, "amenity=fuel": 0.4,
        "tourism=hotel": 1, "tourism=hostel": 1, "tourism=guest_house": 1, "tourism=motel": 1, "tourism=apartment": 1,
        "tourism=museum": 1, "tourism=gallery": 1, "tourism=zoo": 1, "tourism=theme_park": 1, "tourism=aquarium": 1,
        "tourism=attraction": 0.7, "tourism=viewpoint": 0.5, "tourism=artwork": 0.2, "tourism=information": 0.1,
        "leisure=fitness_centre": 1, "leisure=sports_centre": 1, "leisure=swimming_pool": 0.9, "leisure=stadium": 0.9,
        "leisure=park": 0.6, "leisure=garden": 0.6, "leisure=playground": 0.6, "leisure=pitch": 0.6, "leisure=marina": 0.6,
        "railway=station": 0.6, "public_transport=station": 0.6, "railway=halt": 0.3, "railway=tram_stop": 0.2,
        "railway=subway_entrance": 0.1,
        // Street furniture and services passed by, not stayed at.
        "amenity=bench": 0, "amenity=waste_basket": 0, "amenity=parking": 0, "amenity=bicycle_parking": 0,
        "amenity=parking_entrance": 0, "amenity=motorcycle_parking": 0, "amenity=bicycle_rental": 0.1, "amenity=vending_machine": 0,
        "amenity=post_box": 0, "amenity=telephone": 0, "amenity=atm": 0.1, "amenity=toilets": 0.1, "amenity=drinking_water": 0,
        "amenity=recycling": 0, "amenity=fountain": 0.1, "amenity=clock": 0, "amenity=charging_station": 0.2,
        "amenity=taxi": 0.1, "amenity=shelter": 0.1, "amenity=car_sharing": 0,
    ]

    /// The weight of an OSM category (`amenity=cafe`).
    public static func weight(_ category: String) -> Double {
        if let weight = weights[category] { return weight }
        if category.hasPrefix("historic=") { return 0.3 }
        if category.hasPrefix("shop=") || category.hasPrefix("office=") || category.hasPrefix("healthcare=") { return 0.7 }
        return 0.5
    }
}
