/// Everything Travelog keeps, as one backend: what `travelog serve` and the command line open.
///
/// Each concern is a protocol of its own with a conformance suite of its own, so a type that needs
/// only part of the store asks for only that part (`HistoryExporter` reads an `AccountStore &
/// LocationStore`, `JournalReader` a `JournalStore`…); a backend conforms to all of them.
public protocol TravelogStore: LocationStore, AccountStore, JournalStore, NotificationStore, QuarantineStore, RegionStore, DeviceStore, ShareStore, ZoneStore, RetentionStore {}
