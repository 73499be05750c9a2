import TravelogCore
import TravelogOSM

extension OSMPlacesFile {
    /// The bytes of a file holding `places` (sorted by type and id, each once: the builder's order).
    /// - Parameters:
    ///   - sourceName: the extract's file name, shown by `travelog osm list`.
    ///   - boundingBox: the extract's box, when its header gives one.
    /// - Complexity: O(places + tags + points).
    public static func encode(_ places: [OSMPlace], sourceName: String, boundingBox: OSMHeader.BoundingBox?) -> [UInt8] {
        var strings: [String] = [""]
        var stringIndexes: [String: UInt32] = ["": 0]
        func intern(_ string: String) -> UInt32 {
            if let index = stringIndexes[string] { return index }
            let index = UInt32(strings.count)
            strings.append(string)
            stringIndexes[string] = index
            return index
        }
        let sourceIndex = intern(sourceName)
        var types: [UInt8] = [], kinds: [UInt8] = [], ids: [Int64] = [], latitudes: [Int32] = [], longitudes: [Int32] = []
        var categories: [UInt32] = [], tagStarts: [UInt32] = [0], partStarts: [UInt32] = [0]
        var tagKeys: [UInt32] = [], tagValues: [UInt32] = [], pointStarts: [UInt32] = [0], pointLatitudes: [Int32] = [], pointLongitudes: [Int32] = []
        for place in places {
            types.append(place.elementType.rawValue)
            kinds.append(place.kind.rawValue)
            ids.append(place.id)
            latitudes.append(units(place.coordinate.latitude))
            longitudes.append(units(place.coordinate.longitude))
            categories.append(place.category.map(intern) ?? 0)
            for tag in place.tags {
                tagKeys.append(intern(tag.key))
                tagValues.append(intern(tag.value))
            }
            tagStarts.append(UInt32(tagKeys.count))
            for part in place.geometry {
                for point in part {
                    pointLatitudes.append(units(point.latitude))
                    pointLongitudes.append(units(point.longitude))
                }
                pointStarts.append(UInt32(pointLatitudes.count))
            }
            partStarts.append(UInt32(pointStarts.count - 1))
        }
        var stringBytes: [UInt8] = []
        var stringOffsets: [UInt32] = [0]
        for string in strings {
            stringBytes += string.utf8
            stringOffsets.append(UInt32(stringBytes.count))
        }
        var out: [UInt8] = magic
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func put<T: FixedWidthInteger>(_ values: [T]) { for value in values { put(value) } }
        put(formatVersion)
        for value in [places.count, strings.count, stringBytes.count, tagKeys.count, pointStarts.count - 1, pointLatitudes.count] { put(UInt32(value)) }
        if let box = boundingBox {
            put([units(box.minimumLatitude), units(box.minimumLongitude), units(box.maximumLatitude), units(box.maximumLongitude)])
        } else {
            put([Int32.min, Int32.min, Int32.min, Int32.min])  // no box
        }
        put(sourceIndex)
        put(UInt64(0))
        put(stringOffsets)
        out += stringBytes
        out += types
        out += kinds
        put(ids)
        put(latitudes)
        put(longitudes)
        put(categories)
        put(tagStarts)
        put(partStarts)
        put(tagKeys)
        put(tagValues)
        put(pointStarts)
        put(pointLatitudes)
        put(pointLongitudes)
        return out
    }

    private static func units(_ degrees: Double) -> Int32 { Int32((degrees * unitsPerDegree).rounded()) }
}
