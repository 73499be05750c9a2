extension StoreTable {
    /// Every table a move copies, parents before children (foreign keys hold after each one).
    public static let all: [StoreTable] = [
        StoreTable("users", .none, [("id", .integer), ("name", .text), ("created_at_ms", .integer), ("password_hash", .text),
                                    ("administrator", .boolean), ("disabled", .boolean)]),
        devices,
        StoreTable("sessions", .stored, key: ["id_sha256"], [("id_sha256", .text), ("expires_at_ms", .integer),
                                                                        ("started_at_ms", .integer)]),
        StoreTable("imports", .device, [
            ("id", .integer), ("device_id", .integer), ("file_name", .text), ("content_sha256", .text), ("format", .text),
            ("imported_at_ms", .integer), ("inserted_count", .integer), ("duplicate_count", .integer),
            ("rejected_count", .integer), ("state", .text), ("heartbeat_ms", .integer),
        ]),
        locations,
        StoreTable("location_labels", .device, key: ["device_id", "timestamp_ms", "latitude_e7", "longitude_e7", "kind"], [
            ("device_id", .integer), ("timestamp_ms", .integer), ("latitude_e7", .integer), ("longitude_e7", .integer),
            ("kind", .text), ("text", .text),
        ]),
        StoreTable("places", .stored, [("id", .integer), ("name", .text), ("latitude_e7", .integer),
                                       ("longitude_e7", .integer), ("radius_m", .real)]),
        StoreTable("visits", .device, [
            ("id", .integer), ("device_id", .integer), ("source", .text), ("arrival_ms", .integer),
            ("departure_ms", .integer), ("latitude_e7", .integer), ("longitude_e7", .integer), ("radius_m", .real),
            ("location_count", .integer), ("name", .text), ("address", .text), ("external_place_id", .text),
            ("placemark_json", .text), ("place_id", .integer), ("title", .text), ("hidden", .boolean),
            ("merged_until_ms", .integer),
        ]),
        StoreTable("notification_channels", .stored, [("id", .integer), ("kind", .text), ("url", .text), ("secret", .text)]),
        StoreTable("notification_deliveries", .channel, [
            ("id", .integer), ("channel_id", .integer), ("event_key", .text), ("message_json", .text), ("state", .text),
            ("attempts", .integer), ("next_attempt_ms", .integer), ("last_result", .text), ("updated_at_ms", .integer),
        ]),
        StoreTable("rejected_items", .stored, [
            ("id", .integer), ("device_id", .integer), ("route", .text), ("reason", .text), ("raw", .text),
            ("raw_byte_count", .integer), ("received_at_ms", .integer), ("fingerprint", .text),
        ]),
        StoreTable("regions", .stored, [
            ("id", .integer), ("name", .text), ("shape", .text), ("center_latitude_e7", .integer),
            ("center_longitude_e7", .integer), ("radius_m", .real), ("rings_json", .text), ("notify_on_entry", .boolean),
            ("notify_on_exit", .boolean), ("beacon_uuid", .text), ("beacon_major", .integer), ("beacon_minor", .integer),
            ("created_at_ms", .integer), ("updated_at_ms", .integer),
        ]),
        StoreTable("region_transitions", .device, [
            ("id", .integer), ("device_id", .integer), ("region_id", .integer), ("kind", .text),
            ("occurred_at_ms", .integer), ("latitude_e7", .integer), ("longitude_e7", .integer),
            ("horizontal_accuracy_m", .real), ("source", .text),
        ]),
        StoreTable("region_checkpoints", .device, key: ["device_id"], [
            ("device_id", .integer), ("evaluated_through_ms", .integer), ("offered_fingerprint", .text),
        ]),
        StoreTable("region_states", .device, key: ["device_id", "region_id"], [
            ("device_id", .integer), ("region_id", .integer), ("state", .text), ("pending_since_ms", .integer),
        ]),
        StoreTable("device_states", .device, key: ["device_id"], [
            ("device_id", .integer), ("retired_at_ms", .integer), ("silent_after_s", .integer), ("silence_notified", .boolean),
            ("reported_at_ms", .integer), ("fix_ms", .integer), ("latitude_e7", .integer), ("longitude_e7", .integer),
            ("horizontal_accuracy_m", .real), ("battery_percent", .real), ("charging", .boolean), ("user_agent", .text),
            ("phone_status", .text),
        ]),
        StoreTable("photos", .stored, [
            ("id", .integer), ("device_id", .integer), ("digest", .text), ("path", .text), ("uploaded", .boolean),
            ("mime_type", .text), ("byte_count", .integer), ("width", .integer), ("height", .integer), ("orientation", .integer),
            ("camera_make", .text), ("camera_model", .text), ("camera_time", .text), ("taken_at_ms", .integer),
            ("offset_source", .text), ("latitude_e7", .integer), ("longitude_e7", .integer), ("altitude_m", .real),
            ("direction_deg", .real), ("accuracy_m", .real), ("placement", .text), ("unplaced_reason", .text),
            ("added_at_ms", .integer),
        ]),
        StoreTable("shares", .stored, [
            ("id", .integer), ("token_sha256", .text), ("kind", .text), ("from_ms", .integer), ("to_ms", .integer), ("title", .text),
            ("password_hash", .text), ("hide_visits", .boolean), ("created_at_ms", .integer), ("expires_at_ms", .integer),
            ("revoked_at_ms", .integer), ("views", .integer), ("last_viewed_at_ms", .integer), ("include_photos", .boolean),
        ]),
        StoreTable("zones", .stored, [
            ("id", .integer), ("name", .text), ("shape", .text), ("center_latitude_e7", .integer), ("center_longitude_e7", .integer),
            ("radius_m", .real), ("rings_json", .text), ("rule", .text), ("created_at_ms", .integer),
        ]),
        StoreTable("zone_drops", .stored, key: ["user_id", "day"], [("day", .text), ("count", .integer)]),
        StoreTable("two_factor", .stored, key: ["user_id"], [
            ("totp_secret", .text), ("enabled", .boolean), ("created_at_ms", .integer), ("last_used_step", .integer),
        ]),
        StoreTable("two_factor_recovery_codes", .stored, key: ["user_id", "code_sha256"], [("code_sha256", .text)]),
        StoreTable("retention_settings", .stored, key: ["user_id"], [
            ("keep_days", .integer), ("journal", .text), ("updated_at_ms", .integer),
        ]),
        StoreTable("retention_runs", .stored, key: ["user_id"], [
            ("ran_at_ms", .integer), ("cutoff_ms", .integer), ("deleted_fixes", .integer), ("deleted_visits", .integer),
        ]),
        StoreTable("friendships", .stored, [
            ("id", .integer), ("friend_id", .integer), ("created_at_ms", .integer), ("accepted_at_ms", .integer),
            ("user_shares_history", .boolean), ("friend_shares_history", .boolean),
        ]),
    ]

    /// `devices`, whose rows (`user_id`, `id` first) name the groups of a table read `perDevice`.
    public static let devices = StoreTable("devices", .stored, [
        ("id", .integer), ("name", .text), ("created_at_ms", .integer), ("app", .text), ("token_sha256", .text),
        ("token_scope", .text), ("owntracks_secret", .text), ("owntracks_card_name", .text), ("owntracks_card_face", .text),
    ])

    /// `locations`, by far the largest: read device by device in the order of its unique key.
    public static let locations = StoreTable("locations", .device, key: ["timestamp_ms", "latitude_e7", "longitude_e7"],
                                             perDevice: true, [
        ("device_id", .integer), ("timestamp_ms", .integer), ("latitude_e7", .integer), ("longitude_e7", .integer),
        ("altitude_m", .real), ("horizontal_accuracy_m", .real), ("vertical_accuracy_m", .real), ("speed_mps", .real),
        ("speed_accuracy_mps", .real), ("course_deg", .real), ("course_accuracy_deg", .real), ("utc_offset_s", .integer),
        ("source", .text), ("import_id", .integer),
    ])
}
