import Foundation
import MVCObservation
import MVCObservationBridge
import Observation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `@Observable` object that other threads may change: its storage has a lock, so it is
/// `Sendable`, and it tells Apple's registrar about each access and change as the macro would.
///
/// By default each change is whole to readers, as the bridge asks of an object changed off the
/// main actor: the lock is held from the change's announcement (willSet) until it is stored, so
/// a read that a notice prompts returns the new value (or a later one), never the one before.
/// Made with `wholeChanges: false`, it locks only the store, and a read can fall in between.
///
/// Made `holding` a value, its writer is held up between announcing that change and storing it,
/// as a preempted thread would be: for `microseconds`, or, with `untilRead`, until something reads
/// the value meanwhile (at most 30 s; ``wasReadWhileHeld`` says whether something did).
///
/// An `NSLock`, not a `Mutex`: ThreadSanitizer on Linux cannot see `Mutex`'s hand-off of a
/// contended lock (its futex is in an uninstrumented library) and reports it as a race.
final class SharedCounter: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    /// Read and written only while `lock` is held.
    private var stored = 0
    private let wholeChanges: Bool
    private let heldValue: Int?
    private let microseconds: UInt32
    private let untilRead: Bool
    private let readWhileHeld = DispatchSemaphore(value: 0)
    private let holdLock = NSLock()
    /// Read and written only while `holdLock` is held.
    private var isHeld = false
    private var readsWhileHeld = 0

    init(
        wholeChanges: Bool = true, holding heldValue: Int? = nil,
        forMicroseconds microseconds: UInt32 = 0, untilRead: Bool = false
    ) {
        self.wholeChanges = wholeChanges
        self.heldValue = heldValue
        self.microseconds = microseconds
        self.untilRead = untilRead
    }

    /// Whether something read the value while a writer was held up.
    var wasReadWhileHeld: Bool { holdLock.withLock { readsWhileHeld > 0 } }

    var value: Int {
        get {
            registrar.access(self, keyPath: \.value)
            holdLock.withLock {
                guard isHeld else { return }
                isHeld = false
                readsWhileHeld += 1
                readWhileHeld.signal()
            }
            return lock.withLock { stored }
        }
        set {
            if wholeChanges { lock.lock() }
            defer { if wholeChanges { lock.unlock() } }
            registrar.withMutation(of: self, keyPath: \.value) {
                if newValue == heldValue, untilRead {
                    holdLock.withLock { isHeld = true }
                    _ = readWhileHeld.wait(timeout: .now() + 30)
                    holdLock.withLock { isHeld = false }
                } else if newValue == heldValue {
                    usleep(microseconds)
                }
                if wholeChanges {
                    stored = newValue
                } else {
                    lock.withLock { stored = newValue }
                }
            }
        }
    }
}

// BEGIN How the bridge works: an object that keeps each change whole
final class Counter: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private let lock = NSRecursiveLock()
    private var stored = 0  // read and written only while `lock` is held

    var value: Int {
        get {
            registrar.access(self, keyPath: \.value)
            return lock.withLock { stored }
        }
        set {
            lock.withLock {
                registrar.withMutation(of: self, keyPath: \.value) { stored = newValue }
            }
        }
    }
}
// END How the bridge works: an object that keeps each change whole

@MainActor
@Suite("Changes made off the main actor")
struct OffMainActorChangeTests {
    @Test("a property changed many times on another thread ends on its last value every time")
    func neverMissesTheLastValue() async {
        for round in 0..<100 {
            let changes = await changesHeard(from: SharedCounter(), writingUpTo: 1 + round % 7)
            #expect(changes.last?.newValue == 1 + round % 7, "round \(round): \(changes)")
            #expect(
                changes.map(\.newValue) == changes.map(\.newValue).sorted { ($0 ?? 0) < ($1 ?? 0) })
        }
    }

    @Test("the article's counter, changed many times on another thread, ends on its last value")
    func articleCounter() async {
        for round in 0..<50 {
            let changes = await changesHeard(from: Counter(), writingUpTo: 1 + round % 5)
            #expect(changes.last?.newValue == 1 + round % 5, "round \(round): \(changes)")
        }
    }

    @Test(
        "a change held up between its announcement and its store is delivered, however long",
        arguments: [(true, UInt32(1_000_000)), (false, UInt32(3_000_000))])
    func changeHeldUp(wholeChanges: Bool, microseconds: UInt32) async {
        // The value 2 is announced, then stored later (a writer thread preempted on two loaded
        // cores, or under a sanitizer). Kept whole, the read its notice prompts waits for the
        // store; stored outside the lock, 3 s later, the notice's read sees 1, and the follower
        // finds the 2 by looking again.
        let counter = SharedCounter(
            wholeChanges: wholeChanges, holding: 2, forMicroseconds: microseconds)
        let log = Log<Int>()
        let token = counter.observe(\.value, options: [.new]) { log.changes.append($0) }
        await onThreadOfItsOwn {
            counter.value = 1
            counter.value = 2
        }
        await waitUntil(log, endsOn: 2)
        #expect(log.changes.last?.newValue == 2, "\(log.changes)")
        withExtendedLifetime(token) {}
    }

    @Test(
        "an object that stores a change after announcing it, unlocked, still ends on a change stored after a read"
    )
    func changeThatLandsLate() async {
        for round in 0..<20 {
            // The value 2 is announced, then stored outside the lock once the follower has read
            // in between: it sees 1, and hears no more from Observations; it finds the 2 by
            // looking again.
            let counter = SharedCounter(wholeChanges: false, holding: 2, untilRead: true)
            let log = Log<Int>()
            let token = counter.observe(\.value, options: [.new]) { log.changes.append($0) }
            await onThreadOfItsOwn {
                counter.value = 1
                counter.value = 2
            }
            await waitUntil(log, endsOn: 2)
            #expect(log.changes.last?.newValue == 2, "round \(round): \(log.changes)")
            #expect(counter.wasReadWhileHeld, "round \(round): nothing read between the two")
            withExtendedLifetime(token) {}
        }
    }

    @Test("ending the observation lets its handler go at once, though it was looking again")
    func handlerLetGoAtTheEnd() async {
        final class Held: Sendable {}
        let counter = SharedCounter()
        weak var weakHeld: Held?
        var token: ObservationToken?
        do {
            let held = Held()
            weakHeld = held
            token = counter.observe(\.value, options: [.new]) { _ in _ = held }
        }
        await onThreadOfItsOwn { counter.value = 1 }
        // By now the follower looks again after a pause of a second (due at about 2 s).
        try? await Task.sleep(for: .milliseconds(1_200))
        // Let go on this thread, by the cancel itself: not when the follower's tasks next get a
        // turn on the main actor, which a loaded machine can put off past any wall clock.
        token?.cancel()
        #expect(weakHeld == nil)
        token = nil
    }

    @Test("a token released on another thread ends the observation")
    func tokenReleasedOnAnotherThread() async {
        let counter = SharedCounter()
        let log = Log<Int>()
        nonisolated(unsafe) var token: ObservationToken? = counter.observe(\.value) {
            log.changes.append($0)
        }
        await Task.detached { token = nil }.value

        counter.value = 1
        await settle()

        #expect(log.changes.isEmpty)
        #expect(token == nil)
    }
}

/// Runs `body` on a thread of its own, and waits for it: a writer held up there blocks no thread
/// of the cooperative pool, which has as few as two.
private func onThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            body()
            continuation.resume()
        }
    }
}

/// Waits, by the clock, for at most `seconds`, until the last change `log` heard is to `value`:
/// the handler runs on a later turn of the main actor.
@MainActor
private func waitUntil(_ log: Log<Int>, endsOn value: Int, seconds: Int = 30) async {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while log.changes.last?.newValue != value, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// A counter other threads may set.
protocol ThreadSafeCounter: Observable, AnyObject, Sendable {
    var value: Int { get set }
}

extension SharedCounter: ThreadSafeCounter {}
extension Counter: ThreadSafeCounter {}

/// What a handler on `counter.value` heard while another thread set it to 1, 2, … `last`, once
/// it ended on `last` (or two seconds passed).
@MainActor
private func changesHeard(from counter: some ThreadSafeCounter, writingUpTo last: Int) async
    -> [ObservedChange<Int>]
{
    let log = Log<Int>()
    let token = counter.observe(\.value, options: [.new]) { log.changes.append($0) }
    await Task.detached {
        for value in 1...last { counter.value = value }
    }.value
    await waitUntil(log, endsOn: last)
    withExtendedLifetime(token) {}
    return log.changes
}
