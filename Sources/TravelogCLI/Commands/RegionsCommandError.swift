/// Why `travelog regions` could not do what it was asked.
enum RegionsCommandError: Error, CustomStringConvertible {
    case noSuchRegion(String)
    /// The region asked for cannot be monitored (its name or its radius), with the reason.
    case invalidRegion(name: String, reason: String)
    /// A `--polygon` file that does not hold exactly one polygon.
    case notOnePolygon(path: String, count: Int)

    var description: String {
        switch self {
        case .noSuchRegion(let name): "no region named '\(name)' (see `travelog regions list`)"
        case let .invalidRegion(name, reason): "region '\(name)': \(reason)"
        case let .notOnePolygon(path, count): "\(path): expected one polygon, found \(count)"
        }
    }
}
