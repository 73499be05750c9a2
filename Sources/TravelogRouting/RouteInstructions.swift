import TravelogCore

/// Turns a route's pieces into steps: consecutive pieces on roads of the same name make one step;
/// where the name changes, the turn's angle (the bearing leaving against the bearing arriving) gives
/// the maneuver — under 20° straight on, 20–60° slight, 60–120° a turn, 120–170° sharp, beyond a
/// U-turn; a roundabout is one step, a ferry another.
enum RouteInstructions {
    static func steps(_ pieces: [RoadGraph.Piece], graph: RoadGraph, mode: DirectionsMode) -> [RouteStep] {
        guard let last = pieces.last else { return [] }
        var groups: [[RoadGraph.Piece]] = []
        func key(_ piece: RoadGraph.Piece) -> (Int32, Bool, Bool) {
            let segment = Int(piece.state >> 1)
            let flags = graph.segmentFlags[segment]
            return (graph.wayName[Int(graph.segmentWay[segment])], flags & RoadGraphData.roundaboutBit != 0, flags & RoadGraphData.ferryBit != 0)
        }
        for piece in pieces {
            if let previous = groups.last?.last, key(previous) == key(piece) {
                groups[groups.count - 1].append(piece)
            } else {
                groups.append([piece])
            }
        }
        var steps: [RouteStep] = []
        for (index, group) in groups.enumerated() {
            let segment = Int(group[0].state >> 1)
            let name = graph.name(ofSegment: segment)
            let (_, roundabout, ferry) = key(group[0])
            let meters = group.reduce(0) { $0 + $1.distanceMeters }
            let seconds = group.reduce(0) { $0 + $1.seconds }
            let onto = name.map { " onto \($0)" } ?? ""
            let maneuver: String, modifier: String?, instruction: String
            if index == 0 {
                maneuver = ferry ? "ferry" : "depart"
                modifier = nil
                let heading = compass(bearing(of: group.first { $0.distanceMeters > 0.5 } ?? group[0]))
                instruction = ferry ? "Take the ferry\(name.map { " \($0)" } ?? "")" : "Head \(heading)\(name.map { " on \($0)" } ?? "")"
            } else if ferry {
                (maneuver, modifier, instruction) = ("ferry", nil, "Take the ferry\(name.map { " \($0)" } ?? "")")
            } else if roundabout {
                (maneuver, modifier, instruction) = ("roundabout", nil, "Enter the roundabout")
            } else {
                let previous = groups[index - 1]
                let arriving = bearing(of: previous.last { $0.distanceMeters > 0.5 } ?? previous[previous.count - 1])
                let leaving = bearing(of: group.first { $0.distanceMeters > 0.5 } ?? group[0])
                var turn = (leaving - arriving).truncatingRemainder(dividingBy: 360)
                if turn > 180 { turn -= 360 }
                if turn <= -180 { turn += 360 }
                let side = turn >= 0 ? "right" : "left"
                let angle = abs(turn)
                let exitingRoundabout = key(previous[0]).1
                if exitingRoundabout {
                    (maneuver, modifier, instruction) = ("turn", side, "Exit the roundabout\(onto)")
                } else if angle < 20 {
                    (maneuver, modifier, instruction) = ("continue", "straight", "Continue\(onto)")
                } else if angle < 60 {
                    (maneuver, modifier, instruction) = ("turn", "slight " + side, "Bear \(side)\(onto)")
                } else if angle < 120 {
                    (maneuver, modifier, instruction) = ("turn", side, "Turn \(side)\(onto)")
                } else if angle < 170 {
                    (maneuver, modifier, instruction) = ("turn", "sharp " + side, "Turn sharp \(side)\(onto)")
                } else {
                    (maneuver, modifier, instruction) = ("turn", "uturn", "Make a U-turn\(onto)")
                }
            }
            steps.append(RouteStep(maneuver: maneuver, modifier: modifier, instruction: instruction, roadName: name,
                                   distanceMeters: meters, expectedTravelTimeSeconds: seconds, start: group[0].start))
        }
        steps.append(RouteStep(maneuver: "arrive", modifier: nil, instruction: "Arrive at the destination", roadName: graph.name(ofSegment: Int(last.state >> 1)),
                               distanceMeters: 0, expectedTravelTimeSeconds: 0, start: last.end))
        return steps
    }

    static func bearing(of piece: RoadGraph.Piece) -> Double {
        piece.start == piece.end ? 0 : piece.start.initialBearingDegrees(to: piece.end)
    }

    static func compass(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        return names[Int(((bearing + 22.5) / 45).rounded(.down)) % 8]
    }
}
