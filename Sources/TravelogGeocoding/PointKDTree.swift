/// A static k-d tree over points in three dimensions, for nearest-neighbour and radius queries
/// by Euclidean distance.
///
/// The tree is implicit: points are permuted so that the node of a range `lo..<hi` is at its
/// middle `(lo + hi) / 2`, with the smaller coordinates on the axis of the largest spread to its
/// left. No pointers, no per-node allocation: the points and one byte per node.
/// Source: Bentley, "Multidimensional binary search trees used for associative searching",
/// CACM 18(9), 1975; Friedman, Bentley and Finkel, ACM TOMS 3(3), 1977 (spread-based splits).
public struct PointKDTree: Sendable {
    /// The points in tree order.
    private let points: [SIMD3<Double>]
    /// For each tree position, the index of its point in the array given to `init`.
    private let originalIndexes: [Int32]
    /// For each tree position, the axis (0, 1, 2) its node splits.
    private let axes: [UInt8]

    /// The number of points.
    public var count: Int { points.count }

    /// Builds the tree.
    /// - Precondition: fewer than 2³¹ points, all finite.
    /// - Complexity: O(n log n) expected (quickselect at each level).
    public init(points input: [SIMD3<Double>]) {
        precondition(input.count < Int(Int32.max), "too many points for a PointKDTree")
        var order = Array(0..<input.count)
        var axes = [UInt8](repeating: 0, count: input.count)
        order.withUnsafeMutableBufferPointer { order in
            axes.withUnsafeMutableBufferPointer { axes in
                input.withUnsafeBufferPointer { points in
                    Self.build(order, axes, points, 0, points.count)
                }
            }
        }
        self.points = order.map { input[$0] }
        self.originalIndexes = order.map { Int32($0) }
        self.axes = axes
    }

    private static func build(_ order: UnsafeMutableBufferPointer<Int>, _ axes: UnsafeMutableBufferPointer<UInt8>,
                              _ points: UnsafeBufferPointer<SIMD3<Double>>, _ lo: Int, _ hi: Int) {
        guard hi - lo > 1 else { return }
        var low = points[order[lo]], high = low
        for i in (lo + 1)..<hi {
            low = pointwiseMin(low, points[order[i]])
            high = pointwiseMax(high, points[order[i]])
        }
        let spread = high - low
        let axis = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2)
        let mid = (lo + hi) / 2
        select(order, points, axis: axis, lo, hi, nth: mid)
        axes[mid] = UInt8(axis)
        build(order, axes, points, lo, mid)
        build(order, axes, points, mid + 1, hi)
    }

    /// Hoare's quickselect: afterwards `order[nth]` holds the point that sorting `lo..<hi` on
    /// `axis` would put there, with no larger coordinate before it and no smaller one after.
    private static func select(_ order: UnsafeMutableBufferPointer<Int>, _ points: UnsafeBufferPointer<SIMD3<Double>>,
                               axis: Int, _ lo: Int, _ hi: Int, nth: Int) {
        var left = lo, right = hi - 1
        while left < right {
            let pivot = points[order[(left + right) / 2]][axis]
            var i = left, j = right
            while i <= j {
                while points[order[i]][axis] < pivot { i += 1 }
                while points[order[j]][axis] > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if nth <= j { right = j } else if nth >= i { left = i } else { return }
        }
    }

    /// The point nearest to `query` (ties go to any of them), or `nil` when the tree is empty.
    /// - Returns: the index of the point in the array given to `init` and its squared distance.
    /// - Complexity: O(log n) expected for points spread like the query, O(n) worst case.
    public func nearest(to query: SIMD3<Double>) -> (index: Int, squaredDistance: Double)? {
        guard !points.isEmpty else { return nil }
        var best = (position: 0, squaredDistance: Double.infinity)
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                Self.nearest(points, axes, query, 0, points.count, &best)
            }
        }
        return (Int(originalIndexes[best.position]), best.squaredDistance)
    }

    private static func nearest(_ points: UnsafeBufferPointer<SIMD3<Double>>, _ axes: UnsafeBufferPointer<UInt8>,
                                _ query: SIMD3<Double>, _ lo: Int, _ hi: Int,
                                _ best: inout (position: Int, squaredDistance: Double)) {
        var lo = lo, hi = hi
        while lo < hi {
            let mid = (lo + hi) &>> 1
            let point = points[mid]
            let difference = query - point
            let squared = (difference * difference).sum()
            if squared < best.squaredDistance { best = (mid, squared) }
            let axis = Int(axes[mid])
            let offset = difference[axis]
            // Descend into the near side now; visit the far side only if the splitting plane is
            // closer than the best point so far (the loop continues on the near side).
            if offset < 0 {
                if offset * offset < best.squaredDistance, mid + 1 < hi {
                    nearestFar(points, axes, query, mid + 1, hi, offset, &best, near: (lo, mid))
                    return
                }
                hi = mid
            } else {
                if offset * offset < best.squaredDistance, lo < mid {
                    nearestFar(points, axes, query, lo, mid, offset, &best, near: (mid + 1, hi))
                    return
                }
                lo = mid + 1
            }
        }
    }

    /// Searches the near side, then the far side if it can still hold a nearer point.
    private static func nearestFar(_ points: UnsafeBufferPointer<SIMD3<Double>>, _ axes: UnsafeBufferPointer<UInt8>,
                                   _ query: SIMD3<Double>, _ farLo: Int, _ farHi: Int, _ offset: Double,
                                   _ best: inout (position: Int, squaredDistance: Double), near: (Int, Int)) {
        nearest(points, axes, query, near.0, near.1, &best)
        if offset * offset < best.squaredDistance { nearest(points, axes, query, farLo, farHi, &best) }
    }

    /// Calls `body` with the index (in the array given to `init`) and squared distance of every
    /// point strictly closer to `query` than `squaredRadius`, in no particular order.
    /// - Complexity: O(log n + k) expected for k points found.
    public func forEach(within squaredRadius: Double, of query: SIMD3<Double>, _ body: (Int, Double) -> Void) {
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                var stack: [(Int, Int)] = [(0, points.count)]
                while let (lo, hi) = stack.popLast() {
                    guard lo < hi else { continue }
                    let mid = (lo + hi) &>> 1
                    let difference = query - points[mid]
                    let squared = (difference * difference).sum()
                    if squared < squaredRadius { body(Int(originalIndexes[mid]), squared) }
                    let offset = difference[Int(axes[mid])]
                    if offset < 0 || offset * offset < squaredRadius { stack.append((lo, mid)) }
                    if offset >= 0 || offset * offset < squaredRadius { stack.append((mid + 1, hi)) }
                }
            }
        }
    }
}
