/// Where a value lies in a JSON document, written `$.features[2].geometry.coordinates[0]`.
struct GeoJSONPath: CustomStringConvertible {
    private enum Component {
        case member(String)
        case index(Int)
    }

    private var components: [Component]

    /// The path of a decoder's coding path (keys with an integer value are array indices).
    init(_ codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .member(key.stringValue) }
    }

    /// The path of a member of the object here.
    func appending(_ member: String) -> GeoJSONPath {
        var path = self
        path.components.append(.member(member))
        return path
    }

    /// The path of an element of the array here.
    func appending(_ index: Int) -> GeoJSONPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    var description: String {
        components.reduce("$") { text, component in
            switch component {
            case .member(let name): "\(text).\(name)"
            case .index(let index): "\(text)[\(index)]"
            }
        }
    }
}
