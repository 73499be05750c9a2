import TravelogCore

/// One fix a phone uploaded, with who sent it and what else it said.
public struct IngestedLocation: Hashable, Sendable {
    /// The identifier the app sends for itself (OsmAnd/Traccar `id` or `deviceid`, Traccar
    /// Client's `device_id`, GPSLogger's `device`); never empty.
    public var deviceIdentifier: String
    /// The fix. A fix the app marked invalid (`valid=false`) has a negative
    /// `horizontalAccuracyMeters`, Core Location's way of saying the coordinate is not to be
    /// trusted; `isValidFix` says so too.
    public var location: Location
    /// Whether the app called the fix valid; `false` only when it said so (`valid=false`).
    public var isValidFix: Bool
    /// The battery's charge in percent, 0–100, `nil` when not reported.
    public var batteryPercent: Double?
    /// Whether the phone was charging, `nil` when not reported.
    public var isCharging: Bool?
    /// Horizontal dilution of precision (unitless), `nil` when not reported.
    public var horizontalDilutionOfPrecision: Double?
    /// Everything else the app sent, by name, as text: parameters Travelog does not interpret
    /// (the last value of a repeated name), and for the JSON body `is_moving`, `odometer` (m),
    /// `event`, `activity` and the members of `extras`.
    public var attributes: [String: String]

    public init(deviceIdentifier: String, location: Location, isValidFix: Bool = true, batteryPercent: Double? = nil,
                isCharging: Bool? = nil, horizontalDilutionOfPrecision: Double? = nil, attributes: [String: String] = [:]) {
        self.deviceIdentifier = deviceIdentifier
        self.location = location
        self.isValidFix = isValidFix
        self.batteryPercent = batteryPercent
        self.isCharging = isCharging
        self.horizontalDilutionOfPrecision = horizontalDilutionOfPrecision
        self.attributes = attributes
    }
}
