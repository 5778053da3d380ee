import Foundation
import MVCObservation
import Observation
import Synchronization

/// The floor: a hand-written `didSet` that calls one stored closure.
private final class DidSetModel {
    var onChange: (Bool, Bool) -> Void = { _, _ in }
    var value = false {
        didSet { onChange(oldValue, value) }
    }
}

/// The same model through Apple's Observation module.
@Observable
private final class AppleObservableModel {
    var value = false
}

/// A counter handlers bump, so the work they do is the same in every variant.
private final class Counter {
    var count = 0
}

enum ObservationBenchmarks {
    static func run(scale: Int, stopwatch: Stopwatch) {
        print("MVCObservation")
        propertyDelivery(scale: scale, stopwatch: stopwatch)
        keyedChannel(scale: scale, stopwatch: stopwatch)
        memoryPerObservation(scale: scale)
    }

    // MARK: One property change, one handler

    private static func propertyDelivery(scale: Int, stopwatch: Stopwatch) {
        // Many short runs, alternated with the floor's (see `alternatingNanosecondsPerOperation`).
        let changes = 200_000 * scale

        let floorCounter = Counter()
        let floor = DidSetModel()
        floor.onChange = { _, new in if new { floorCounter.count += 1 } }

        let ourCounter = Counter()
        let property = ObservableProperty(false)
        let token = property.observe { change in
            if change.newValue == true { ourCounter.count += 1 }
        }
        let (ourTime, floorTime) = stopwatch.alternatingNanosecondsPerOperation(
            operations: changes,
            measured: { for _ in 0..<changes { property.value.toggle() } },
            reference: { for _ in 0..<changes { floor.value.toggle() } }
        )
        blackHole((floorCounter.count, ourCounter.count, token))

        Comparison(
            name: "a property change delivered to one handler",
            measured: ourTime, reference: floorTime,
            referenceName: "(didSet calling a stored closure)",
            unit: "ns/change", target: .atMost(2)
        ).print()

        let appleChanges = 100_000 * scale
        let apple = AppleObservableModel()
        let appleCounter = Atomic<Int>(0)
        let appleTime = stopwatch.nanosecondsPerOperation(operations: appleChanges) {
            for _ in 0..<appleChanges {
                withObservationTracking {
                    blackHole(apple.value)
                } onChange: {
                    appleCounter.add(1, ordering: .relaxed)
                }
                apple.value.toggle()
            }
        }
        Comparison(
            name:
                "the same through Apple's Observation (withObservationTracking, re-registered per change)",
            measured: ourTime, reference: appleTime, referenceName: "(Observation)",
            unit: "ns/change", target: .fasterBy(10)
        ).print()

        let center = NotificationCenter()
        let name = Notification.Name("ValueChanged")
        let notificationCounter = Atomic<Int>(0)
        let sender = DidSetModel()
        let observer = center.addObserver(forName: name, object: sender, queue: nil) {
            notification in
            if notification.userInfo?["new"] as? Bool == true {
                notificationCounter.add(1, ordering: .relaxed)
            }
        }
        sender.onChange = { old, new in
            center.post(name: name, object: sender, userInfo: ["old": old, "new": new])
        }
        let notificationTime = stopwatch.nanosecondsPerOperation(operations: appleChanges) {
            for _ in 0..<appleChanges { sender.value.toggle() }
        }
        center.removeObserver(observer)
        blackHole(notificationCounter.load(ordering: .relaxed))
        Comparison(
            name: "the same through NotificationCenter (old and new values in userInfo)",
            measured: ourTime, reference: notificationTime, referenceName: "(NotificationCenter)",
            unit: "ns/change", target: .fasterBy(5)
        ).print()
    }

    // MARK: Keyed channel

    private struct Ping: KeyedUpdate {
        var key: Int
    }

    private static func keyedChannel(scale: Int, stopwatch: Stopwatch) {
        let updates = 1_000_000 * scale
        let target = -1

        func keyedTime(otherSubscribers: Int) -> Double {
            let channel = UpdateChannel<Ping>()
            let counter = Counter()
            var tokens = [channel.subscribe(to: target) { _ in counter.count += 1 }]
            for key in 0..<otherSubscribers {
                tokens.append(channel.subscribe(to: key) { _ in counter.count += 1 })
            }
            let time = stopwatch.nanosecondsPerOperation(operations: updates) {
                for _ in 0..<updates { channel.publish(Ping(key: target)) }
            }
            blackHole((tokens, counter.count))
            return time
        }
        let withOne = keyedTime(otherSubscribers: 1)
        let withMany = keyedTime(otherSubscribers: 10_000)
        Comparison(
            name: "a keyed update with 10,000 subscribers on other keys",
            measured: withMany, reference: withOne,
            referenceName: "(with 1 subscriber on another key)",
            unit: "ns/update", target: .atMost(2)
        ).print()

        let broadcastUpdates = 2_000 * scale
        let channel = UpdateChannel<Ping>()
        let counter = Counter()
        let tokens = (0..<10_000).map { key in
            channel.subscribeToAll { update in if update.key == key { counter.count += 1 } }
        }
        let broadcast = stopwatch.nanosecondsPerOperation(operations: broadcastUpdates) {
            for _ in 0..<broadcastUpdates { channel.publish(Ping(key: target)) }
        }
        blackHole((tokens, counter.count))
        Comparison(
            name:
                "for contrast: broadcasting to all 10,000 and filtering in each handler (the post-001 way)",
            measured: broadcast, reference: withMany,
            referenceName: "(keyed, 10,000 on other keys)",
            unit: "ns/update", target: .none
        ).print()
    }

    // MARK: Memory

    private static func memoryPerObservation(scale: Int) {
        let count = 100_000 * scale
        let property = ObservableProperty(0)
        let counter = Counter()
        guard
            let perObservation = heapBytesPerItem(
                count: count,
                { _ in
                    property.observe { _ in counter.count += 1 }
                }),
            let perClosure = heapBytesPerItem(
                count: count,
                { _ -> () -> Void in
                    { counter.count += 1 }
                })
        else {
            print(
                "  memory per live observation: not measurable on this platform (needs glibc 2.33 or later for mallinfo2)"
            )
            return
        }
        print("  memory per live observation, token and handler included (one captured reference)")
        print(
            "      \(format(perObservation)) bytes   vs   \(format(perClosure)) bytes (the handler closure alone, kept in an array)"
        )
        print("      target ≤ 100 bytes \(perObservation <= 100 ? "met" : "MISSED")")
    }
}
