extension TraveledDistance {
    /// The moving phase: from leaving one stationary place until a stop is recognised.
    ///
    /// Fixes are averaged in small groups (which removes most of the noise of dense fixes), the
    /// group means are simplified online with an opening window (a group mean within its noise of
    /// the line between the last vertex and the newest mean is dropped), and the vertices are
    /// joined by geodesics. A stop candidate follows the most recent fixes; when they have stayed
    /// together long enough, the distance counted since the candidate began is withdrawn and the
    /// trip ends at the candidate's centre.
    struct Trip: Sendable {
        struct Vertex: Sendable {
            var point: SurfacePoint
            var time: Double
        }

        /// The start of the current speed sample: a vertex and the distance up to it.
        struct SpeedBase: Sendable {
            var time: Double
            var distanceMeters: Double
        }

        /// The state just after a vertex was committed, kept so that a stop can undo what followed.
        struct Checkpoint: Sendable {
            var vertex: Vertex
            var distanceMeters: Double
            var speeds: MedianOfThreeMaximum
            var speedBase: SpeedBase
        }

        /// A group mean waiting in the simplification window.
        struct WindowPoint: Sendable {
            var point: SurfacePoint
            var time: Double
            var toleranceMeters: Double
        }

        /// How a trip ended (or would end if the path ended now).
        struct Outcome: Sendable {
            /// Where the device stopped (the stop candidate), `nil` for a provisional outcome
            /// while it is still moving.
            var arrival: WeightedCentroid?
            var distanceMeters: Double
            var durationSeconds: Double
            var speeds: MedianOfThreeMaximum
            /// The device came back to where it started without ever going clearly away: the
            /// departure was noise.
            var returnedWithoutLeaving: Bool
        }

        let configuration: Configuration
        /// The place the trip started from and the last time the device was seen there.
        let origin: WeightedCentroid
        let startTime: Double
        private var anchor: Vertex
        private var distanceMeters = 0.0
        private var speeds = MedianOfThreeMaximum()
        private var speedBase: SpeedBase
        private var window: [WindowPoint] = []
        private var group: WeightedCentroid?
        private var stop: WeightedCentroid?
        private var stopOutliers: [PathFix] = []
        private var checkpoints: [Checkpoint]
        private var farthestFromOriginMeters = 0.0
        private(set) var lastTime: Double

        init(leaving origin: WeightedCentroid, configuration: Configuration) {
            self.configuration = configuration
            self.origin = origin
            startTime = origin.lastTime
            lastTime = origin.lastTime
            anchor = Vertex(point: origin.point, time: origin.lastTime)
            speedBase = SpeedBase(time: origin.lastTime, distanceMeters: 0)
            checkpoints = [Checkpoint(vertex: anchor, distanceMeters: 0, speeds: MedianOfThreeMaximum(), speedBase: speedBase)]
            window.reserveCapacity(TripTuning.windowCapacity + 1)
        }

        /// Feeds one fix; returns the outcome when the fix completes a stop.
        mutating func ingest(_ fix: PathFix) -> Outcome? {
            lastTime = max(lastTime, fix.time)
            addToGroup(fix)
            followStop(fix)
            guard let stop else { return nil }
            let duration = stop.lastTime - stop.firstTime
            // Dense fixes: enough of them together for long enough. Sparse fixes (phones stop
            // reporting while still): two at the same place minutes apart are a stay as well.
            let stopped = (stop.count >= configuration.stopFixCount && duration >= configuration.stopDurationSeconds)
                || (stop.count >= 2 && duration >= TripTuning.sparseStopSeconds)
            guard stopped else { return nil }
            return arrive(at: stop)
        }

        /// The outcome if the path ended now: the committed distance plus the chords through the
        /// pending window, the open group and the fix not yet passed on (`latest`).
        func provisionalOutcome(through latest: PathFix?) -> Outcome {
            var tail = anchor.point
            var distance = distanceMeters
            if let last = window.last {
                distance += tail.chordMeters(to: last.point)
                tail = last.point
            }
            var current = tail
            if let group {
                current = group.point
                distance += tail.chordMeters(to: current)
            }
            var endTime = lastTime
            if let latest {
                distance += current.chordMeters(to: latest.point)
                current = latest.point
                endTime = max(endTime, latest.time)
            }
            let radius = configuration.stationaryRadiusMeters(placeAccuracyMeters: origin.typicalAccuracyMeters,
                                                              fixAccuracyMeters: origin.typicalAccuracyMeters)
            let farthest = max(farthestFromOriginMeters, origin.point.chordMeters(to: current))
            return Outcome(arrival: nil, distanceMeters: distance, durationSeconds: endTime - startTime, speeds: speeds,
                           returnedWithoutLeaving: farthest <= 2 * radius)
        }

        // MARK: Grouping and simplification

        private mutating func addToGroup(_ fix: PathFix) {
            guard var current = group else {
                group = WeightedCentroid(fix)
                return
            }
            let combined = (fix.accuracyMeters * fix.accuracyMeters + current.meanAccuracyMeters * current.meanAccuracyMeters).squareRoot()
            if current.point.chordMeters(to: fix.point) > TripTuning.groupSpanFactor * combined
                || fix.time - current.firstTime > TripTuning.groupMaximumSeconds {
                close(current)
                group = WeightedCentroid(fix)
            } else {
                current.add(fix)
                group = current
            }
        }

        private mutating func close(_ closed: WeightedCentroid) {
            let point = closed.point
            farthestFromOriginMeters = max(farthestFromOriginMeters, origin.point.chordMeters(to: point))
            let standardError = closed.typicalAccuracyMeters / (2 * Double(closed.count)).squareRoot()
            window.append(WindowPoint(point: point, time: closed.meanTime,
                                      toleranceMeters: TripTuning.simplificationToleranceFactor * standardError))
            simplifyWindow()
        }

        /// Opening-window simplification: while some waiting point lies farther than its tolerance
        /// from the line between the anchor and the newest point, the worst one becomes a vertex.
        private mutating func simplifyWindow() {
            while window.count >= 2 {
                let end = window[window.count - 1].point
                var worstRatio = 0.0, worstIndex = -1
                for index in 0..<(window.count - 1) {
                    let candidate = window[index]
                    let ratio = candidate.point.distanceMeters(toSegmentFrom: anchor.point, to: end) / candidate.toleranceMeters
                    if ratio > worstRatio {
                        worstRatio = ratio
                        worstIndex = index
                    }
                }
                if worstRatio > 1 {
                    commit(window[worstIndex])
                    window.removeFirst(worstIndex + 1)
                } else if window.count > TripTuning.windowCapacity {
                    commit(window[window.count - 2])
                    window.removeFirst(window.count - 1)
                } else {
                    return
                }
            }
        }

        private mutating func commit(_ point: WindowPoint) {
            distanceMeters += anchor.point.geodesicMeters(to: point.point)
            Trip.sampleSpeed(at: point.time, distanceMeters: distanceMeters, base: &speedBase, into: &speeds)
            anchor = Vertex(point: point.point, time: point.time)
            checkpoints.append(Checkpoint(vertex: anchor, distanceMeters: distanceMeters, speeds: speeds, speedBase: speedBase))
        }

        /// Adds a speed sample once the path since the base spans `speedBaselineSeconds`, so that
        /// vertices a second apart do not turn their noise into speed.
        private static func sampleSpeed(at time: Double, distanceMeters: Double, base: inout SpeedBase,
                                        into speeds: inout MedianOfThreeMaximum) {
            guard time - base.time >= TripTuning.speedBaselineSeconds else { return }
            speeds.add((distanceMeters - base.distanceMeters) / (time - base.time))
            base = SpeedBase(time: time, distanceMeters: distanceMeters)
        }

        // MARK: Stops

        private mutating func followStop(_ fix: PathFix) {
            if var candidate = stop {
                if contains(candidate, fix) {
                    candidate.add(fix)
                    stop = candidate
                    stopOutliers.removeAll(keepingCapacity: true)
                } else {
                    // One fix outside may be noise; two in a row start a new candidate.
                    stopOutliers.append(fix)
                    if stopOutliers.count >= 2 {
                        var restarted = WeightedCentroid(stopOutliers[0])
                        for outlier in stopOutliers.dropFirst() {
                            if contains(restarted, outlier) { restarted.add(outlier) } else { restarted = WeightedCentroid(outlier) }
                        }
                        stop = restarted
                        stopOutliers.removeAll(keepingCapacity: true)
                    }
                }
            } else {
                stop = WeightedCentroid(fix)
            }
            // Keep the last checkpoint before the candidate began, and every one after it.
            if let stop {
                var drop = 0
                while drop + 1 < checkpoints.count, checkpoints[drop + 1].vertex.time < stop.firstTime { drop += 1 }
                if drop > 0 { checkpoints.removeFirst(drop) }
            }
        }

        private func contains(_ place: WeightedCentroid, _ fix: PathFix) -> Bool {
            let radius = configuration.stationaryRadiusMeters(placeAccuracyMeters: place.typicalAccuracyMeters,
                                                              fixAccuracyMeters: fix.accuracyMeters)
            return place.point.chordMeters(to: fix.point) <= radius
        }

        private func arrive(at place: WeightedCentroid) -> Outcome {
            let checkpoint = checkpoints[0]
            let destination = place.point
            let distance = checkpoint.distanceMeters + checkpoint.vertex.point.geodesicMeters(to: destination)
            var finalSpeeds = checkpoint.speeds, base = checkpoint.speedBase
            Trip.sampleSpeed(at: place.firstTime, distanceMeters: distance, base: &base, into: &finalSpeeds)
            let radius = configuration.stationaryRadiusMeters(placeAccuracyMeters: origin.typicalAccuracyMeters,
                                                              fixAccuracyMeters: place.typicalAccuracyMeters)
            let returned = origin.point.chordMeters(to: destination) <= radius
                && max(farthestFromOriginMeters, group.map { origin.point.chordMeters(to: $0.point) } ?? 0) <= 2 * radius
            return Outcome(arrival: place, distanceMeters: distance,
                           durationSeconds: place.firstTime - startTime, speeds: finalSpeeds, returnedWithoutLeaving: returned)
        }
    }
}
