import Foundation
import TravelogCore

/// Each user's regions (geofences), the transitions of their devices into and out of them, and
/// where each device's region monitor stands. Every backend passes the same conformance suite
/// (`Tests/TravelogStoreTests/RegionStoreConformanceTests.swift`).
///
/// Guarantees every backend keeps:
/// - A region is only ever seen by its user: another user's region id is unknown (`nil`, `false`,
///   `StoreError.unknownRegion`).
/// - A region's name is unique among its user's regions.
/// - A transition is stored once per `RegionTransition.key`, however often it is recorded.
/// - Changing a region's area or flags forgets every device's state for it (it starts unknown, so
///   the change itself is no crossing); removing it removes its transitions too.
public protocol RegionStore: Sendable {
    /// Adds a region. - Throws: `StoreError.unknownUser`, `.regionExists`.
    func addRegion(_ definition: RegionDefinition, userID: UserID, at now: Date) async throws(StoreError) -> StoredRegion
    /// Replaces a region's definition. - Throws: `StoreError.unknownRegion`, `.regionExists` (the new name is taken).
    func updateRegion(id: RegionID, userID: UserID, _ definition: RegionDefinition,
                      at now: Date) async throws(StoreError) -> StoredRegion
    /// Removes a region and its transitions. - Returns: whether the user had it.
    func removeRegion(id: RegionID, userID: UserID) async throws(StoreError) -> Bool
    /// The user's regions, oldest first.
    func regions(userID: UserID) async throws(StoreError) -> [StoredRegion]
    func region(id: RegionID, userID: UserID) async throws(StoreError) -> StoredRegion?

    /// Records what a device's region monitor decided, in one transaction: removes the detected
    /// transitions of the device that occurred in `replacingDetected` (a stretch evaluated again),
    /// stores `transitions` (each once per key) and saves the checkpoint. Transitions of regions
    /// removed meanwhile are dropped.
    /// - Returns: the transitions that were not stored before, oldest first.
    /// - Throws: `StoreError.unknownDevice`.
    func recordTransitions(_ transitions: [RegionTransition], deviceID: DeviceID, replacingDetected: Range<Date>?,
                           checkpoint: RegionCheckpoint?) async throws(StoreError) -> [StoredRegionTransition]
    /// The transitions of the user's devices, oldest first, optionally of one region and within
    /// `[from, to)`.
    func transitions(userID: UserID, regionID: RegionID?, from: Date?, to: Date?) async throws(StoreError) -> [StoredRegionTransition]
    /// Where the device's region monitor stands (`nil` before its first fix), with only the regions
    /// that still exist unchanged since.
    func regionCheckpoint(deviceID: DeviceID) async throws(StoreError) -> RegionCheckpoint?

    /// The fingerprint of the regions last offered to the device (OwnTracks' `setWaypoints`).
    func offeredRegionsFingerprint(deviceID: DeviceID) async throws(StoreError) -> String?
    /// Records what was offered. - Throws: `StoreError.unknownDevice`.
    func setOfferedRegionsFingerprint(_ fingerprint: String, deviceID: DeviceID) async throws(StoreError)
}
