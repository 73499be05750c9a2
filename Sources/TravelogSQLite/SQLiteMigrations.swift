import GRDB

/// The schema, as numbered plain-SQL migrations. A migration is never edited once shipped: change
/// the schema by adding the next one.
enum SQLiteMigrations {
    static let all: [(identifier: String, sql: String)] = [
        ("001_initial", """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at_ms INTEGER NOT NULL
        );
        CREATE TABLE devices (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            UNIQUE (user_id, name)
        );
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            file_name TEXT NOT NULL,
            content_sha256 TEXT,
            format TEXT NOT NULL,
            imported_at_ms INTEGER NOT NULL,
            inserted_count INTEGER NOT NULL,
            duplicate_count INTEGER NOT NULL,
            rejected_count INTEGER NOT NULL
        );
        -- One row per fix. Coordinates are integers of 1e-7 degree, times milliseconds since 1970;
        -- the unique key is what makes every ingest idempotent. The key's index also serves a
        -- device's time-range queries.
        CREATE TABLE locations (
            id INTEGER PRIMARY KEY,
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            timestamp_ms INTEGER NOT NULL,
            latitude_e7 INTEGER NOT NULL,
            longitude_e7 INTEGER NOT NULL,
            altitude_m REAL,
            horizontal_accuracy_m REAL NOT NULL,
            vertical_accuracy_m REAL NOT NULL,
            speed_mps REAL NOT NULL,
            speed_accuracy_mps REAL NOT NULL,
            course_deg REAL NOT NULL,
            course_accuracy_deg REAL NOT NULL,
            utc_offset_s INTEGER,
            source TEXT NOT NULL,
            import_id INTEGER REFERENCES imports(id) ON DELETE SET NULL,
            UNIQUE (device_id, timestamp_ms, latitude_e7, longitude_e7)
        );
        -- Map-area queries go through one bounding box per device and UTC day, not per point
        -- (an R*Tree row per point would cost many times the insert rate).
        CREATE TABLE location_days (
            id INTEGER PRIMARY KEY,
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            day INTEGER NOT NULL,
            location_count INTEGER NOT NULL,
            min_latitude_e7 INTEGER NOT NULL,
            max_latitude_e7 INTEGER NOT NULL,
            min_longitude_e7 INTEGER NOT NULL,
            max_longitude_e7 INTEGER NOT NULL,
            UNIQUE (device_id, day)
        );
        CREATE VIRTUAL TABLE location_days_rtree USING rtree (
            id, min_latitude, max_latitude, min_longitude, max_longitude
        );
        """),
        ("002_credentials", """
        -- Secrets are never stored: a bcrypt hash of the password, SHA-256 digests of device
        -- tokens and session ids.
        ALTER TABLE users ADD COLUMN password_hash TEXT;
        ALTER TABLE devices ADD COLUMN app TEXT;
        ALTER TABLE devices ADD COLUMN token_sha256 TEXT;
        CREATE UNIQUE INDEX devices_token ON devices(token_sha256) WHERE token_sha256 IS NOT NULL;
        CREATE TABLE sessions (
            id_sha256 TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            expires_at_ms INTEGER NOT NULL
        );
        """),
        ("003_journal", """
        -- Places people return to; a name given to a place names its visits.
        CREATE TABLE places (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT,
            latitude_e7 INTEGER NOT NULL,
            longitude_e7 INTEGER NOT NULL,
            radius_m REAL NOT NULL
        );
        -- Visits, detected or described by the data. title, hidden, merged_until_ms and place_id are
        -- the person's decisions: re-processing refines the other columns of a row and keeps these.
        CREATE TABLE visits (
            id INTEGER PRIMARY KEY,
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            arrival_ms INTEGER NOT NULL,
            departure_ms INTEGER,
            latitude_e7 INTEGER NOT NULL,
            longitude_e7 INTEGER NOT NULL,
            radius_m REAL NOT NULL,
            location_count INTEGER NOT NULL,
            name TEXT,
            address TEXT,
            external_place_id TEXT,
            placemark_json TEXT,
            place_id INTEGER REFERENCES places(id) ON DELETE SET NULL,
            title TEXT,
            hidden INTEGER NOT NULL DEFAULT 0,
            merged_until_ms INTEGER
        );
        CREATE INDEX visits_device_time ON visits(device_id, source, arrival_ms);
        """),
        ("004_notifications", """
        -- Where a user's notifications go: kind is 'webhook' (secret = the HMAC key) or 'ntfy'
        -- (secret = an optional access token).
        CREATE TABLE notification_channels (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            url TEXT NOT NULL,
            secret TEXT
        );
        -- The outbox and the delivery log. The unique key is what makes every event go out once
        -- per channel, also across restarts.
        CREATE TABLE notification_deliveries (
            id INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
            event_key TEXT NOT NULL,
            message_json TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_ms INTEGER,
            last_result TEXT,
            updated_at_ms INTEGER NOT NULL,
            UNIQUE (channel_id, event_key)
        );
        CREATE INDEX notification_deliveries_due ON notification_deliveries(state, next_attempt_ms);
        """),
        ("005_write_path", """
        -- An import is stored batch by batch: 'running' until it is finished, and discarded (its
        -- locations deleted through the index below) when it fails or its process died, which the
        -- heartbeat (the time of its last batch) tells.
        ALTER TABLE imports ADD COLUMN state TEXT NOT NULL DEFAULT 'finished';
        ALTER TABLE imports ADD COLUMN heartbeat_ms INTEGER;
        CREATE INDEX locations_by_import ON locations(import_id) WHERE import_id IS NOT NULL;
        -- Items phone apps sent that could not be stored, kept for their user. The fingerprint
        -- (route, device, raw bytes) keeps a retried batch from adding them twice.
        CREATE TABLE rejected_items (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            device_id INTEGER REFERENCES devices(id) ON DELETE SET NULL,
            route TEXT NOT NULL,
            reason TEXT NOT NULL,
            raw TEXT NOT NULL,
            raw_byte_count INTEGER NOT NULL,
            received_at_ms INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,
            UNIQUE (user_id, fingerprint)
        );
        """),
        ("006_token_scopes", """
        -- What a device token may do: 'write' (its device's locations; every token made before) or
        -- 'read' (the user's history too).
        ALTER TABLE devices ADD COLUMN token_scope TEXT NOT NULL DEFAULT 'write';
        """),
        ("007_regions", """
        -- Each user's regions (geofences): a circle (center in 1e-7 degree, radius in metres) or a
        -- polygon (its rings as a JSON array of [longitude, latitude] positions, GeoJSON's order),
        -- optionally the iBeacon that marks it.
        CREATE TABLE regions (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            shape TEXT NOT NULL CHECK (shape IN ('circle', 'polygon')),
            center_latitude_e7 INTEGER,
            center_longitude_e7 INTEGER,
            radius_m REAL,
            rings_json TEXT,
            notify_on_entry INTEGER NOT NULL,
            notify_on_exit INTEGER NOT NULL,
            beacon_uuid TEXT,
            beacon_major INTEGER,
            beacon_minor INTEGER,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            UNIQUE (user_id, name)
        );
        -- Entries and exits, 'detected' by the server's monitor or 'reported' by the device; the
        -- unique key keeps a re-evaluated stretch or a retried message from storing one twice.
        CREATE TABLE region_transitions (
            id INTEGER PRIMARY KEY,
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('enter', 'exit')),
            occurred_at_ms INTEGER NOT NULL,
            latitude_e7 INTEGER,
            longitude_e7 INTEGER,
            horizontal_accuracy_m REAL,
            source TEXT NOT NULL CHECK (source IN ('detected', 'reported')),
            UNIQUE (device_id, region_id, kind, occurred_at_ms, source)
        );
        CREATE INDEX region_transitions_by_device_time ON region_transitions(device_id, occurred_at_ms);
        CREATE INDEX region_transitions_by_region ON region_transitions(region_id, occurred_at_ms);
        -- Where each device's region monitor stands, so a restart goes on without reporting twice
        -- (NULL before its first fix), and the regions last offered to it (OwnTracks' setWaypoints).
        CREATE TABLE region_checkpoints (
            device_id INTEGER PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
            evaluated_through_ms INTEGER,
            offered_fingerprint TEXT
        );
        CREATE TABLE region_states (
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            region_id INTEGER NOT NULL REFERENCES regions(id) ON DELETE CASCADE,
            state TEXT NOT NULL CHECK (state IN ('inside', 'outside', 'unknown')),
            pending_since_ms INTEGER,
            PRIMARY KEY (device_id, region_id)
        );
        CREATE INDEX region_states_by_region ON region_states(region_id);
        """),
        ("008_visit_ends", """
        -- Where each visit ends as a range of the journal tests it (a visit going on never ends), so
        -- reading the visits of a recent stretch does not scan every visit that arrived before it
        -- (20 ms a query with 30k visits, several a journal run).
        CREATE INDEX visits_device_end ON visits(device_id,
            max(coalesce(departure_ms, 9223372036854775807), coalesce(merged_until_ms, 0)));
        """),
        ("009_user_administrator_disabled", """
        -- Administrators manage every user; a disabled user cannot log in and their device tokens
        -- are refused. The oldest user of an existing database becomes its administrator.
        ALTER TABLE users ADD COLUMN administrator INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
        UPDATE users SET administrator = 1 WHERE id = (SELECT min(id) FROM users);
        """),
        ("010_device_states", """
        -- What is known of a device beyond its record: when it was removed with its history kept
        -- (its token is dropped then), its latest report (when the server heard from it, its newest
        -- fix, battery, the app's user agent) written once a batch, and after how long without a
        -- report it counts as silent, with whether that silence was notified.
        CREATE TABLE device_states (
            device_id INTEGER PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
            retired_at_ms INTEGER,
            silent_after_s INTEGER,
            silence_notified INTEGER NOT NULL DEFAULT 0,
            reported_at_ms INTEGER,
            fix_ms INTEGER,
            latitude_e7 INTEGER,
            longitude_e7 INTEGER,
            horizontal_accuracy_m REAL,
            battery_percent REAL,
            charging INTEGER,
            user_agent TEXT
        );
        CREATE INDEX device_states_watched ON device_states(device_id) WHERE silent_after_s IS NOT NULL;
        """),
        ("011_device_owntracks_secret", """
        -- The secret an OwnTracks phone encrypts its messages with, as typed (it opens every message).
        ALTER TABLE devices ADD COLUMN owntracks_secret TEXT;
        """),
        ("012_photos", """
        -- A user's photos (issue 32), one row per content digest: where the original is, what its
        -- EXIF says, its instant, and its position: its own GPS, or where the history placed it
        -- (placement 'interpolated' or 'visit', with the accuracy), or 'unplaced' with the reason.
        CREATE TABLE photos (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            device_id INTEGER REFERENCES devices(id) ON DELETE SET NULL,
            digest TEXT NOT NULL,
            path TEXT NOT NULL,
            uploaded INTEGER NOT NULL DEFAULT 0,
            mime_type TEXT NOT NULL,
            byte_count INTEGER NOT NULL,
            width INTEGER,
            height INTEGER,
            orientation INTEGER,
            camera_make TEXT,
            camera_model TEXT,
            camera_time TEXT,
            taken_at_ms INTEGER,
            offset_source TEXT,
            latitude_e7 INTEGER,
            longitude_e7 INTEGER,
            altitude_m REAL,
            direction_deg REAL,
            accuracy_m REAL,
            placement TEXT NOT NULL,
            unplaced_reason TEXT,
            added_at_ms INTEGER NOT NULL,
            UNIQUE (user_id, digest)
        );
        CREATE INDEX photos_taken ON photos(user_id, taken_at_ms);
        """),
        ("013_shares", """
        -- Share links: a read-only view of part of a user's history for anyone holding the link,
        -- which carries a secret token; only its SHA-256 digest is kept. A live link's range runs
        -- from its making to its end. Revoked links stay listed (with their views) until the user goes.
        CREATE TABLE shares (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            token_sha256 TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            from_ms INTEGER NOT NULL,
            to_ms INTEGER NOT NULL,
            title TEXT,
            password_hash TEXT,
            hide_visits INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER,
            revoked_at_ms INTEGER,
            views INTEGER NOT NULL DEFAULT 0,
            last_viewed_at_ms INTEGER
        );
        CREATE INDEX shares_user ON shares(user_id);
        """),
        ("014_device_owntracks_card", """
        -- The name and face (base64 of an image) an OwnTracks phone's card gives, as the app sent them.
        ALTER TABLE devices ADD COLUMN owntracks_card_name TEXT;
        ALTER TABLE devices ADD COLUMN owntracks_card_face TEXT;
        """),
        ("015_zones", """
        -- Privacy zones: a circle (centre in 1e-7 degree, radius) or a polygon (rings as JSON
        -- [[[longitude, latitude], …], …]) whose fixes are hidden from others ('hide') or not stored ('drop').
        CREATE TABLE zones (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            shape TEXT NOT NULL,
            center_latitude_e7 INTEGER,
            center_longitude_e7 INTEGER,
            radius_m REAL,
            rings_json TEXT,
            rule TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            UNIQUE (user_id, name)
        );
        -- How many fixes drop zones kept out, per user and UTC day (YYYY-MM-DD).
        CREATE TABLE zone_drops (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            day TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (user_id, day)
        );
        """),
        ("016_two_factor", """
        -- Two-factor login: the TOTP secret as the authenticator app has it (codes are computed from
        -- it, so it cannot be a digest; never logged, see docs/SECURITY.md), whether the user confirmed
        -- it, and the step of the last code accepted (no code is accepted twice). Recovery codes are
        -- kept as SHA-256 digests and deleted when spent.
        CREATE TABLE two_factor (
            user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            totp_secret TEXT NOT NULL,
            enabled INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL,
            last_used_step INTEGER
        );
        CREATE TABLE two_factor_recovery_codes (
            user_id INTEGER NOT NULL REFERENCES two_factor(user_id) ON DELETE CASCADE,
            code_sha256 TEXT NOT NULL,
            PRIMARY KEY (user_id, code_sha256)
        );
        """),
        ("017_retention", """
        -- A user's own retention: fixes older than keep_days are deleted (NULL: off, everything kept);
        -- journal 'keep' or 'delete' for the visits that ended before then. No row: the server's default.
        CREATE TABLE retention_settings (
            user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            keep_days INTEGER,
            journal TEXT NOT NULL,
            updated_at_ms INTEGER NOT NULL
        );
        -- What the last retention run of a user deleted, and before when.
        CREATE TABLE retention_runs (
            user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            ran_at_ms INTEGER NOT NULL,
            cutoff_ms INTEGER NOT NULL,
            deleted_fixes INTEGER NOT NULL,
            deleted_visits INTEGER NOT NULL
        );
        """),
        ("018_friends", """
        -- Friendships between two users: user_id invited friend_id; accepted_at_ms is NULL while the
        -- invitation waits. Each side says whether the other may read its history (off until granted).
        -- A pair of users has one row at most, whoever invited.
        CREATE TABLE friendships (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            friend_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at_ms INTEGER NOT NULL,
            accepted_at_ms INTEGER,
            user_shares_history INTEGER NOT NULL DEFAULT 0,
            friend_shares_history INTEGER NOT NULL DEFAULT 0,
            CHECK (user_id <> friend_id)
        );
        CREATE UNIQUE INDEX friendships_pair ON friendships (min(user_id, friend_id), max(user_id, friend_id));
        CREATE INDEX friendships_user ON friendships (user_id);
        CREATE INDEX friendships_friend ON friendships (friend_id);
        """),
        ("020_trip_matches", """
        -- The journal trips matched to the roads (issue 29): trips are derived from the visits, so a
        -- match is filed under a digest of what it depends on (device, times, mode, fixes, road graphs);
        -- a new match replaces the device's overlapping ones. Roads and line are JSON.
        CREATE TABLE trip_matches (
            key TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            device_id INTEGER NOT NULL,
            start_ms INTEGER NOT NULL,
            end_ms INTEGER NOT NULL,
            matched_distance_m REAL,
            roads_json TEXT NOT NULL,
            line_json TEXT NOT NULL,
            unmatched_reason TEXT
        );
        CREATE INDEX trip_matches_device_time ON trip_matches (device_id, start_ms);
        """),
        // A user's id is never given again (issue 30): without AUTOINCREMENT SQLite hands a new row the
        // highest id plus one, so deleting the newest user freed their id, and a server still holding
        // caches filed by id (the map index, sessions) could show the deleted user's history to the next
        // account made. The table is rebuilt with AUTOINCREMENT, its rows and ids kept (migrations run
        // with foreign keys off and checked before they commit, so the other tables' rows stay theirs).
        ("021_user_ids_never_reused", """
        CREATE TABLE users_autoincrement (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE,
            created_at_ms INTEGER NOT NULL,
            password_hash TEXT,
            administrator INTEGER NOT NULL DEFAULT 0,
            disabled INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO users_autoincrement (id, name, created_at_ms, password_hash, administrator, disabled)
            SELECT id, name, created_at_ms, password_hash, administrator, disabled FROM users;
        DROP TABLE users;
        ALTER TABLE users_autoincrement RENAME TO users;
        """),
        // Deletions of fixes counted per user (issue 30), in the deletion's transaction: a running server
        // reads the count to notice what another process deleted (a CLI retention run, a drop zone's
        // fixes) and builds its map index anew.
        ("022_history_removals", """
        CREATE TABLE history_removals (
            user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            generation INTEGER NOT NULL
        );
        """),
        // What an OwnTracks phone says of itself with its newest fix (issue 31: `tid`, `conn`, `SSID`,
        // `BSSID`, `m`, `inregions`), a JSON object beside the battery.
        ("023_device_phone_status", """
        ALTER TABLE device_states ADD COLUMN phone_status TEXT;
        """),
        // When a session's person signed in (issue 30): a recent sign-in confirms an account's
        // deletion for someone who signs in through a provider and has no password to type.
        ("024_session_start", """
        ALTER TABLE sessions ADD COLUMN started_at_ms INTEGER;
        """),
        // What people wrote on their fixes (issue 31: OwnTracks `poi` and `tag`; files' named
        // waypoints), keyed by the fix as `locations` is unique, and read only while the fix is there.
        ("025_location_labels", """
        CREATE TABLE location_labels (
            device_id INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            timestamp_ms INTEGER NOT NULL,
            latitude_e7 INTEGER NOT NULL,
            longitude_e7 INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (device_id, timestamp_ms, latitude_e7, longitude_e7, kind)
        ) WITHOUT ROWID;
        """),
        // Whether a share link shows the photos of its range (issue 32: only when the owner ticks it).
        ("026_share_photos", """
        ALTER TABLE shares ADD COLUMN include_photos INTEGER NOT NULL DEFAULT 0;
        """),
        // Figures derived from a user's history, kept between reads (issue 33: the year review's days
        // and weeks), each under the digest of its inputs: a reader recomputes a slot whose digest moved.
        ("027_figure_cache", """
        CREATE TABLE figure_cache (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            slot INTEGER NOT NULL,
            key TEXT NOT NULL,
            payload BLOB NOT NULL,
            PRIMARY KEY (user_id, kind, slot)
        ) WITHOUT ROWID;
        """),
        // Deletions counted per device and UTC day (issue 33): with the day's count of fixes, what a kept
        // figure's digest is made of, so a deletion followed by as many new fixes still changes it.
        ("028_location_day_removals", """
        ALTER TABLE location_days ADD COLUMN removals INTEGER NOT NULL DEFAULT 0;
        """),
    ]

    /// The migrations among `applied` this binary does not know: a newer Travelog wrote the file.
    static func unknown(among applied: [String]) -> [String] {
        let known = Set(all.map(\.identifier))
        return applied.filter { !known.contains($0) }
    }

    /// The migrations a database file has, read without changing it (none for an empty file).
    static func applied(atPath path: String) throws(SQLiteBackupError) -> [String] {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        guard try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'grdb_migrations'").count == 1 else {
            return []
        }
        return try connection.rows("SELECT identifier FROM grdb_migrations").compactMap { $0 }
    }

    /// A migrator that applies every migration not applied yet, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }
}
