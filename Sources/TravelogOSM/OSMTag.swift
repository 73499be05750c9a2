/// One `key=value` tag of an OpenStreetMap object.
public struct OSMTag: Hashable, Sendable {
    public let key: String
    public let value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == OSMTag {
    /// The value of the first tag with `key`, if any (objects carry a handful of tags: a linear scan).
    public subscript(osmKey key: String) -> String? {
        first(where: { $0.key == key })?.value
    }
}
