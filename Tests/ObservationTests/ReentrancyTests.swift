import MVCObservation
import Testing

@Suite("Changes made during a delivery")
struct ReentrancyTests {
    @Test("a change made by a handler is delivered after every handler of the current change")
    func changeDuringDeliveryIsQueued() {
        let counters = Counters()
        let log = Log<String>()
        let tokens = [
            counters.first.observe { change in
                log.append("first heard \(change.newValue ?? -1)")
                counters.second.value = 100
            },
            counters.first.observe { change in
                log.append(
                    "first again heard \(change.newValue ?? -1), second is \(counters.second.value)"
                )
            },
            counters.second.observe { change in log.append("second heard \(change.newValue ?? -1)")
            },
        ]

        counters.first.value = 1

        #expect(
            log.items == [
                "first heard 1",
                "first again heard 1, second is 100",
                "second heard 100",
            ]
        )
        withExtendedLifetime(tokens) {}
    }

    @Test("a handler that changes its own property sees every change in order")
    func handlerChangesOwnProperty() {
        let property = ObservableProperty(0)
        let log = Log<ObservedChange<Int>>()
        let clamp = property.observe { change in
            if let new = change.newValue, new > 10 { property.value = 10 }
        }
        let recorder = property.observe { log.append($0) }

        property.value = 50

        #expect(log.items == [.setting(0, 50), .setting(50, 10)])
        #expect(property.value == 10)
        withExtendedLifetime((clamp, recorder)) {}
    }

    @Test("a handler that cancels its own observation is not called again")
    func handlerCancelsItself() {
        let property = ObservableProperty(0)
        let log = Log<Int?>()
        var token: ObservationToken?
        token = property.observe { change in
            log.append(change.newValue)
            token?.cancel()
        }

        property.value = 1
        property.value = 2

        #expect(log.items == [1])
        #expect(property.observationCount == 0)
    }

    @Test(
        "a handler that ends its own observation keeps what it captured until its call returns, and no longer"
    )
    func handlerEndsItsOwnObservationAndKeepsRunning() {
        final class Captured {
            var notes: [String] = []
        }
        let property = ObservableProperty(0)
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        var token: ObservationToken?
        token = captured.map { object in
            property.observe { _ in
                token = nil  // the last reference to the token: the observation ends here
                // The list no longer holds this handler, but the call is not over: what it
                // captured must still be alive (AddressSanitizer in CI checks this access).
                object.notes.append("after cancelling")
                #expect(object.notes == ["after cancelling"])
            }
        }
        captured = nil

        property.value = 1

        #expect(token == nil)
        #expect(property.observationCount == 0)
        #expect(weakCaptured == nil)
    }

    @Test("a handler that cancels a later observation stops it from hearing the current change")
    func handlerCancelsAnother() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        var later: ObservationToken?
        let earlier = property.observe { _ in
            log.append("earlier")
            later?.cancel()
        }
        later = property.observe { _ in log.append("later") }

        property.value = 1

        #expect(log.items == ["earlier"])
        #expect(property.observationCount == 1)
        withExtendedLifetime(earlier) {}
    }

    @Test("a handler that cancels an earlier observation leaves the current delivery to the rest")
    func handlerCancelsEarlier() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        let earlier = property.observe { _ in log.append("earlier") }
        let middle = property.observe { _ in
            log.append("middle")
            earlier.cancel()
        }
        let last = property.observe { _ in log.append("last") }

        property.value = 1
        property.value = 2

        #expect(log.items == ["earlier", "middle", "last", "middle", "last"])
        withExtendedLifetime((middle, last)) {}
    }

    @Test("an observation added during a delivery hears the next change, not the current one")
    func handlerAddsObservation() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        var added: [ObservationToken] = []
        let adder = property.observe { change in
            log.append("adder heard \(change.newValue ?? -1)")
            if added.isEmpty {
                added.append(property.observe { log.append("added heard \($0.newValue ?? -1)") })
            }
        }

        property.value = 1
        property.value = 2

        #expect(log.items == ["adder heard 1", "adder heard 2", "added heard 2"])
        withExtendedLifetime(adder) {}
    }

    @Test(
        "an observation added during a delivery with the initial option hears the current value at once"
    )
    func handlerAddsInitialObservation() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        var added: [ObservationToken] = []
        let adder = property.observe { _ in
            log.append("adder")
            if added.isEmpty {
                added.append(
                    property.observe(options: [.initial, .new]) { log.append("added \($0.kind)") })
            }
        }

        property.value = 1

        #expect(log.items == ["adder", "added initial"])
        withExtendedLifetime(adder) {}
    }

    @Test("a batch made by a handler is delivered after the current change")
    func batchInsideHandler() {
        let counters = Counters()
        let log = Log<String>()
        let tokens = [
            counters.first.observe { _ in
                counters.changes.batch {
                    counters.second.value = 1
                    counters.second.value = 2
                }
                log.append("first handler done")
            },
            counters.second.observe {
                log.append("second \($0.oldValue ?? -1)→\($0.newValue ?? -1)")
            },
        ]

        counters.first.value = 1

        #expect(log.items == ["first handler done", "second 0→2"])
        withExtendedLifetime(tokens) {}
    }
}

@Suite("Prior handlers that assign the property")
struct PriorReentrancyTests {
    @Test("a prior handler's assignment is delivered first, and the change after it starts from it")
    func priorHandlerAssignmentGivesTheRightOldValue() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        var hasAssigned = false
        let prior = property.observe(options: [.prior]) { _ in
            guard !hasAssigned else { return }
            hasAssigned = true
            property.value = 5
        }
        let later = property.observe(options: [.old, .new]) { change in
            log.append("\(change.oldValue ?? -1) → \(change.newValue ?? -1)")
        }

        property.value = 9

        #expect(log.items == ["0 → 5", "5 → 9"])
        #expect(property.value == 9)
        withExtendedLifetime((prior, later)) {}
    }

    @Test(
        "a prior handler that ends its own observation, then causes a whole delivery, keeps what it captured until it returns"
    )
    func priorHandlerEndsItsObservationThenAssigns() {
        final class Captured {
            var notes: [String] = []
        }
        let property = ObservableProperty(0)
        let log = Log<String>()
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        var token: ObservationToken?
        token = captured.map { object in
            property.observe(options: [.prior]) { _ in
                token = nil
                // A delivery to `later` runs and ends inside this call; the handler's own box
                // must outlive it (AddressSanitizer on the optimized build checks this access).
                property.value = 5
                object.notes.append("after the nested delivery")
                #expect(object.notes == ["after the nested delivery"])
            }
        }
        let later = property.observe(options: [.old, .new]) { change in
            log.append("\(change.oldValue ?? -1) → \(change.newValue ?? -1)")
        }
        captured = nil

        property.value = 9

        #expect(token == nil)
        #expect(log.items == ["0 → 5", "5 → 9"])
        #expect(weakCaptured == nil)
        withExtendedLifetime(later) {}
    }

    @Test("a prior handler that assigns the incoming value leaves nothing more to deliver")
    func priorHandlerAssigningTheSameValue() {
        let property = ObservableProperty(0)
        let log = Log<String>()
        var hasAssigned = false
        let prior = property.observe(options: [.prior]) { _ in
            guard !hasAssigned else { return }
            hasAssigned = true
            property.value = 9
        }
        let later = property.observe(options: [.old, .new]) { change in
            log.append("\(change.oldValue ?? -1) → \(change.newValue ?? -1)")
        }

        property.value = 9

        #expect(log.items == ["0 → 9"])
        withExtendedLifetime((prior, later)) {}
    }
}
