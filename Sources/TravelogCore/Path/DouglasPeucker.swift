/// Douglas–Peucker simplification of a path, with a tolerance in metres.
///
/// Keeps the two endpoints, then repeatedly keeps the point farthest from the segment between two
/// kept points while it lies farther than the tolerance; every dropped point therefore lies within
/// the tolerance of the simplified line (distance to the segment, not just to its line).
///
/// The path is projected once onto a plane in metres centred on it (`PlanarTrackFrame`: an
/// equirectangular frame, continuous across the antimeridian), and the work runs on contiguous
/// buffers of doubles with squared distances, an explicit stack instead of recursion and no
/// allocation per point. The planar tolerance is reduced by the frame's worst scale factor, and
/// chords long enough to part from their geodesic by more than 5 % of the tolerance are split, so
/// that a dropped point's geodesic cross-track distance from the simplified path stays within the
/// tolerance (up to the centimetre-level approximations of the bound). Near a pole the frame's
/// curvature grows, chords get short and more points are kept; a track over the pole itself keeps
/// nearly all of its points there. A tolerance of 0 keeps (nearly) every point.
///
/// Source: D. H. Douglas and T. K. Peucker, "Algorithms for the reduction of the number of points
/// required to represent a digitized line or its caricature", The Canadian Cartographer 10(2),
/// 1973, pp. 112–122.
///
/// - Complexity: O(n log n) time for typical tracks, O(n²) in the worst case (a spiral that keeps
///   splitting off one point at a time); O(n) memory (two doubles and a flag per point).
public enum DouglasPeucker {
    /// Share of the tolerance allowed for the parting of planar chords from geodesics.
    static let curvatureShare = 0.05

    /// The indices of the points to keep, ascending; always the first and last of a non-empty path.
    /// - Parameters:
    ///   - coordinates: the path.
    ///   - toleranceMeters: how far, at most, a dropped point may lie from the simplified path, metres.
    /// - Throws: `SimplificationError.invalidTolerance` when the tolerance is negative or not finite.
    public static func keptIndices(of coordinates: [Coordinate], toleranceMeters: Double) throws(SimplificationError) -> [Int] {
        try coordinates.withUnsafeBufferPointer { (points) throws(SimplificationError) in
            try keptIndices(of: points, toleranceMeters: toleranceMeters) { $0 }
        }
    }

    /// The indices of the locations to keep, ascending (see `keptIndices(of:toleranceMeters:)`).
    public static func keptIndices(of locations: [Location], toleranceMeters: Double) throws(SimplificationError) -> [Int] {
        try locations.withUnsafeBufferPointer { (points) throws(SimplificationError) in
            try keptIndices(of: points, toleranceMeters: toleranceMeters) { $0.coordinate }
        }
    }

    /// The simplified path: the kept coordinates, in order.
    public static func simplified(_ coordinates: [Coordinate], toleranceMeters: Double) throws(SimplificationError) -> [Coordinate] {
        try keptIndices(of: coordinates, toleranceMeters: toleranceMeters).map { coordinates[$0] }
    }

    /// The simplified path: the kept locations, in order, with all their other values.
    public static func simplified(_ locations: [Location], toleranceMeters: Double) throws(SimplificationError) -> [Location] {
        try keptIndices(of: locations, toleranceMeters: toleranceMeters).map { locations[$0] }
    }

    /// The indices to keep for any buffer of points that have a coordinate.
    static func keptIndices<Point>(of points: UnsafeBufferPointer<Point>, toleranceMeters: Double,
                                   coordinate: (Point) -> Coordinate) throws(SimplificationError) -> [Int] {
        guard toleranceMeters.isFinite, toleranceMeters >= 0 else { throw .invalidTolerance(toleranceMeters) }
        let count = points.count
        guard count > 2 else { return Array(0..<count) }
        let x = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let y = UnsafeMutablePointer<Double>.allocate(capacity: count)
        let keep = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        defer {
            x.deallocate()
            y.deallocate()
            keep.deallocate()
        }
        let frame = PlanarTrackFrame(projecting: points, coordinate: coordinate, x: x, y: y)
        keep.initialize(repeating: false, count: count)
        let planarTolerance = toleranceMeters * (1 - curvatureShare) / frame.worstScale
        let keptCount = markKept(x: x, y: y, count: count, toleranceSquared: planarTolerance * planarTolerance,
                                 maximumChordSquared: frame.maximumChordSquared(allowanceMeters: curvatureShare * toleranceMeters),
                                 keep: keep)
        var indices: [Int] = []
        indices.reserveCapacity(keptCount)
        for index in 0..<count where keep[index] { indices.append(index) }
        return indices
    }

    /// The Douglas–Peucker core on planar buffers: sets `keep` for the kept points and returns
    /// how many there are.
    static func markKept(x: UnsafePointer<Double>, y: UnsafePointer<Double>, count: Int,
                         toleranceSquared: Double, maximumChordSquared: Double,
                         keep: UnsafeMutablePointer<Bool>) -> Int {
        keep[0] = true
        keep[count - 1] = true
        var kept = 2
        var stack: [(first: Int, last: Int)] = [(0, count - 1)]
        stack.reserveCapacity(64)
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let ax = x[first], ay = y[first]
            let dx = x[last] - ax, dy = y[last] - ay
            let chordSquared = dx * dx + dy * dy
            // Distances are compared scaled by the chord's length squared, so that the common case
            // (the point projects inside the segment) costs one cross product: d² · L² = (p × d)².
            let scale = chordSquared > 0 ? chordSquared : 1
            var farthestScaled = -1.0, farthest = first
            for index in (first + 1)..<last {
                let px = x[index] - ax, py = y[index] - ay
                let along = px * dx + py * dy
                let scaled: Double
                if along <= 0 {
                    scaled = (px * px + py * py) * scale
                } else if along >= chordSquared {
                    let qx = px - dx, qy = py - dy
                    scaled = (qx * qx + qy * qy) * scale
                } else {
                    let cross = px * dy - py * dx
                    scaled = cross * cross
                }
                if scaled > farthestScaled {
                    farthestScaled = scaled
                    farthest = index
                }
            }
            let farthestSquared = farthestScaled / scale
            let split: Int
            if farthestSquared > toleranceSquared {
                split = farthest
            } else if chordSquared > maximumChordSquared {
                split = (first + last) / 2  // close enough in the plane, but too long to trust the plane
            } else {
                continue
            }
            keep[split] = true
            kept += 1
            stack.append((first, split))
            stack.append((split, last))
        }
        return kept
    }
}
