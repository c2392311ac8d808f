import Foundation
import PadText
import Synchronization
import Testing

/// ``BackgroundLane``: items run off the caller's thread, one at a time in the order enqueued;
/// `wait()` returns only once they have all run and throws the first error, the items after it
/// skipped.
@Suite struct BackgroundLaneTests {
    struct Failure: Error, Equatable { var item: Int }

    /// What the items did, in the order they did it (a lane's items share it with the test).
    final class Record: Sendable {
        private let entries = Mutex<[Int]>([])
        func append(_ item: Int) { entries.withLock { $0.append(item) } }
        var items: [Int] { entries.withLock { $0 } }
    }

    /// The lane's resource: the item that used it last, and whether one is using it now.
    final class Turnstile {
        var inside = false
        var last = -1
    }

    /// Items that take different times (the early ones the longest) still run one at a time and in
    /// order; on a concurrent queue later, shorter items would overtake. An item that finds
    /// another inside, or not its predecessor last, records -1.
    @Test func itemsRunOneAtATimeInTheOrderEnqueued() throws {
        let lane = BackgroundLane(Turnstile())
        let record = Record()
        for item in 0..<200 {
            lane.enqueue { turnstile in
                let alone = !turnstile.inside && turnstile.last == item - 1
                turnstile.inside = true
                usleep(useconds_t((200 - item) % 7 * 50))
                record.append(alone ? item : -1)
                (turnstile.inside, turnstile.last) = (false, item)
            }
        }
        try lane.wait()
        #expect(record.items == Array(0..<200))
    }

    /// `enqueue` returns before its item runs, and `wait()` not before every item has run.
    @Test func enqueueReturnsAtOnceAndWaitWaitsForEveryItem() throws {
        let lane = BackgroundLane()
        let record = Record()
        let release = DispatchSemaphore(value: 0)
        lane.enqueue { _ in
            // Blocks until the test has gone on past `enqueue`; times out if `enqueue` ran it itself.
            record.append(release.wait(timeout: .now() + 10) == .success ? 1 : 0)
        }
        for item in 2...4 {
            lane.enqueue { _ in
                usleep(20_000)
                record.append(item)
            }
        }
        #expect(record.items.isEmpty)
        release.signal()
        try lane.wait()
        #expect(record.items == [1, 2, 3, 4])
        try lane.wait() // nothing enqueued since: returns at once, no error
    }

    /// The first error is the one thrown; the items after it are skipped, those enqueued after
    /// `wait()` too, and every later `wait()` throws the same error.
    @Test func theFirstErrorIsThrownAndTheItemsAfterItSkipped() {
        let lane = BackgroundLane()
        let record = Record()
        lane.enqueue { _ in record.append(0) }
        lane.enqueue { _ in throw Failure(item: 1) }
        lane.enqueue { _ in record.append(2) }
        lane.enqueue { _ in throw Failure(item: 3) }
        #expect(throws: Failure(item: 1)) { try lane.wait() }
        lane.enqueue { _ in record.append(4) }
        #expect(throws: Failure(item: 1)) { try lane.wait() }
        #expect(record.items == [0])
    }

    /// The resource given to the lane is the one every item gets.
    @Test func everyItemGetsTheLanesResource() throws {
        let lane = BackgroundLane(Turnstile())
        let record = Record()
        for item in 0..<3 { lane.enqueue { $0.last = item } }
        lane.enqueue { record.append($0.last) }
        try lane.wait()
        #expect(record.items == [2])
    }
}
