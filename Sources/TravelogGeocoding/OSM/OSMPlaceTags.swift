import TravelogOSM

/// Which OSM tags make an address, a point of interest or a street, and which tags are kept
/// (wiki.openstreetmap.org/wiki/Map_features).
enum OSMPlaceTags {
    /// Keys whose value is a point of interest's category, in order of preference when a place
    /// has several (a shop that is also a craft is a shop).
    static let categoryKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare", "public_transport",
                               "historic", "sport"]
    /// `railway=*` values that are places people go to.
    static let railwayCategories: Set<String> = ["station", "halt", "tram_stop", "subway_entrance"]
    /// `public_transport=*` values kept (not the `platform` and `stop_position` of every stop).
    static let publicTransportCategories: Set<String> = ["station"]
    /// Names besides `name` and `name:*`.
    static let otherNameKeys: Set<String> = ["alt_name", "official_name", "short_name", "loc_name", "old_name", "brand"]
    /// Contact and opening tags kept.
    static let detailKeys: Set<String> = ["opening_hours", "website", "contact:website", "phone", "contact:phone", "cuisine"]

    /// What a tagged object is; `category` for a point of interest.
    static func classify(_ tags: [OSMTag], isWay: Bool) -> (kind: OSMPlace.Kind, category: String?) {
        var kind: OSMPlace.Kind = []
        if tags.contains(where: { $0.key == "addr:housenumber" || $0.key == "addr:housename" }) { kind.insert(.address) }
        let named = tags.contains(where: { $0.key == "name" })
        var category: String?
        if named {
            for key in categoryKeys {
                guard let value = tags[osmKey: key], value != "no", value != "yes" || key == "historic" else { continue }
                if key == "public_transport", !publicTransportCategories.contains(value) { continue }
                category = key + "=" + value
                break
            }
            if category == nil, let value = tags[osmKey: "railway"], railwayCategories.contains(value) { category = "railway=" + value }
            if category != nil { kind.insert(.pointOfInterest) }
            if isWay, tags[osmKey: "highway"] != nil, tags[osmKey: "area"] != "yes" { kind.insert(.street) }
        }
        return (kind, category)
    }

    /// The `admin_level` (1–12) of a named `boundary=administrative` element, `nil` for others.
    static func administrativeLevel(_ tags: [OSMTag]) -> Int? {
        guard tags[osmKey: "boundary"] == "administrative", tags.contains(where: { $0.key == "name" }),
              let level = tags[osmKey: "admin_level"].flatMap({ Int($0) }), (1...12).contains(level) else { return nil }
        return level
    }

    /// The tags a place keeps (see ``OSMPlace/tags``).
    static func kept(_ tags: [OSMTag], category: String?) -> [(key: String, value: String)] {
        let categoryKey = category.map { String($0.prefix(while: { $0 != "=" })) }
        return tags.filter { tag in
            tag.key == "name" || tag.key.hasPrefix("name:") || tag.key.hasPrefix("addr:") || otherNameKeys.contains(tag.key)
                || detailKeys.contains(tag.key) || tag.key == categoryKey || tag.key == "highway"
        }.map { ($0.key, $0.value) }
    }
}
