/// A GeoJSON object as read whole: a Feature (`geometry`, `properties`), or a geometry written
/// where a Feature was expected (its own `coordinates` or `geometries`). Memory holds one feature.
struct GeoJSONObject {
    enum Member: String, CaseIterable {
        case geometry, properties
        static let table = JSONKeyTable(Member.self)
    }

    var start: SourcePosition
    /// The object's own `type`, `coordinates` and `geometries` (the type of a Feature is `Feature`).
    var own: GeoJSONGeometry
    /// A Feature's `geometry`; nil when absent or `null`.
    var geometry: GeoJSONGeometry?
    var properties = GeoJSONProperties()
    /// Why the object as a whole cannot be used.
    var problem: RecordRejection?

    init(start: SourcePosition) {
        self.start = start
        own = GeoJSONGeometry(start: start)
    }

    /// Reads an object after its `{`, up to and including its `}`.
    static func read(from parser: inout JSONParser, start: SourcePosition) throws -> GeoJSONObject {
        var object = GeoJSONObject(start: start)
        while try parser.nextKey() {
            if try !object.readMember(from: &parser) { try parser.skipValue() }
        }
        return object
    }

    /// Reads the value of the member whose key the parser has just read when it is one a Feature
    /// or a geometry has; returns false (nothing consumed) for any other key.
    mutating func readMember(from parser: inout JSONParser) throws -> Bool {
        switch parser.key(in: Member.table) {
        case .geometry?:
            let event = try parser.next()
            let position = parser.tokenPosition
            if event == .objectStart {
                geometry = try GeoJSONGeometry.read(from: &parser, start: position)
            } else if event != .null {
                let error = try parser.valueError(for: event)
                if problem == nil {
                    problem = RecordRejection(position: error.position, reason: .invalidValue(field: "geometry", value: error.found))
                }
            }
        case .properties?:
            let event = try parser.next()
            if event == .objectStart {
                try properties.read(from: &parser)
            } else {
                _ = try parser.valueError(for: event)  // `null`, or something no writer means: no properties
            }
        case nil:
            return try own.readMember(from: &parser)
        }
        return true
    }

    var isFeature: Bool { own.typeName == "Feature" }

    /// The geometry the object stands for: a Feature's, or its own when it is a geometry (the
    /// `type` of a Feature is not a geometry type, so `own` is only taken when it has content).
    var resolvedGeometry: GeoJSONGeometry? {
        if isFeature || geometry != nil { return geometry }
        guard own.hasContent else { return nil }
        var geometry = own
        geometry.validate()
        return geometry
    }
}
