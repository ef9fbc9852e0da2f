import Foundation
import RelayKit
import RelayLanguage

/// A schedule written in a workflow's `on:` (first line), and a moment and a time zone to look
/// from (the next lines): a schedule that reads has its next times after the moment, each later
/// than the one before, on a minute whose wall-clock fields the schedule takes (or at a jump of
/// the clock, which skipped the wall time).
enum CronHarness {
    /// Time zones with changes of the clock both ways, and none.
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Santiago"]

    static func check(_ bytes: [UInt8]) -> String? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let text = lines.first, let schedule = try? CronSchedule(text) else { return nil }
        let seconds = lines.count > 1 ? Double(lines[1]).flatMap { $0.isFinite ? $0 : nil } ?? 0 : 0
        // Any moment from 1900 to 2200.
        let start = Date(timeIntervalSince1970: -2_208_988_800 + abs(seconds).truncatingRemainder(dividingBy: 9_467_280_000))
        let zoneIndex = lines.count > 2 ? (lines[2].unicodeScalars.first.map { Int($0.value) } ?? 0) % zones.count : 0
        guard let zone = TimeZone(identifier: zones[zoneIndex]) else { return nil }
        var after = start
        for _ in 0..<4 {
            guard let next = schedule.next(after: after, in: zone) else { return nil }
            if next <= after { return "'\(text)' in \(zone.identifier): \(next) is not after \(after)" }
            let wall = WallTime(next, in: zone)
            let skipped = zone.nextDaylightSavingTimeTransition(after: next.addingTimeInterval(-1)).map { abs($0.timeIntervalSince(next)) < 1 } ?? false
            if !skipped, !schedule.minutes.contains(wall.minute) || !schedule.hours.contains(wall.hour) || !schedule.months.contains(wall.month) {
                return "'\(text)' in \(zone.identifier): \(next) (\(wall.hour):\(wall.minute), month \(wall.month)) is not a time it takes"
            }
            after = next
        }
        return nil
    }
}
