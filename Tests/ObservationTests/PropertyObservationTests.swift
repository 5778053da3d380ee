import MVCObservation
import Testing

extension Ideas {
    @Suite("Observing one property")
    struct PropertyObservationTests {
        @Test("a handler receives the typed old and new values of each change")
        func typedOldAndNew() {
            let property = ObservableProperty("draft")
            let log = Log<ObservedChange<String>>()
            let token = property.observe { log.append($0) }

            property.value = "saved"
            property.value = "published"

            #expect(log.items == [.setting("draft", "saved"), .setting("saved", "published")])
            withExtendedLifetime(token) {}
        }

        @Test("each property reaches only its own handler")
        func eachPropertyHasItsOwnHandler() {
            let counters = Counters()
            let firstLog = Log<ObservedChange<Int>>()
            let secondLog = Log<ObservedChange<Int>>()
            let tokens = [
                counters.first.observe { firstLog.append($0) },
                counters.second.observe { secondLog.append($0) },
            ]

            counters.first.value = 1

            #expect(firstLog.items == [.setting(0, 1)])
            #expect(secondLog.items.isEmpty)
            withExtendedLifetime(tokens) {}
        }

        @Test("the initial option delivers the current value before observe returns")
        func initialOption() {
            let property = ObservableProperty(7)
            let log = Log<ObservedChange<Int>>()

            let token = property.observe(options: [.initial, .new]) { log.append($0) }

            #expect(log.items == [ObservedChange(kind: .initial, oldValue: nil, newValue: 7)])
            property.value = 8
            #expect(log.items.last == ObservedChange(kind: .setting, oldValue: nil, newValue: 8))
            withExtendedLifetime(token) {}
        }

        @Test("without the initial option nothing is delivered until a change")
        func noInitialWithoutOption() {
            let property = ObservableProperty(7)
            let log = Log<ObservedChange<Int>>()

            let token = property.observe { log.append($0) }

            #expect(log.items.isEmpty)
            withExtendedLifetime(token) {}
        }

        @Test(
            "the prior option delivers a notice before the change, while the old value is still stored"
        )
        func priorOption() {
            let property = ObservableProperty(1)
            let log = Log<String>()
            let token = property.observe(options: [.prior, .old, .new]) { change in
                switch change.kind {
                case .prior:
                    log.append("prior old=\(change.oldValue ?? -1) stored=\(property.value)")
                case .setting:
                    log.append("after old=\(change.oldValue ?? -1) new=\(change.newValue ?? -1)")
                case .initial: log.append("initial")
                }
            }

            property.value = 2

            #expect(log.items == ["prior old=1 stored=1", "after old=1 new=2"])
            withExtendedLifetime(token) {}
        }

        @Test("only observers that asked for prior notices receive them")
        func priorOnlyForThoseWhoAsked() {
            let property = ObservableProperty(1)
            let plain = Log<ObservedChange<Int>>()
            let token = property.observe { plain.append($0) }

            property.value = 2

            #expect(plain.items.map(\.kind) == [.setting])
            withExtendedLifetime(token) {}
        }

        @Test("the old and new options decide which values a change carries")
        func oldAndNewOptions() {
            let property = ObservableProperty(1)
            let onlyOld = Log<ObservedChange<Int>>()
            let onlyNew = Log<ObservedChange<Int>>()
            let neither = Log<ObservedChange<Int>>()
            let tokens = [
                property.observe(options: .old) { onlyOld.append($0) },
                property.observe(options: .new) { onlyNew.append($0) },
                property.observe(options: []) { neither.append($0) },
            ]

            property.value = 2

            #expect(onlyOld.items == [ObservedChange(kind: .setting, oldValue: 1, newValue: nil)])
            #expect(onlyNew.items == [ObservedChange(kind: .setting, oldValue: nil, newValue: 2)])
            #expect(neither.items == [ObservedChange(kind: .setting, oldValue: nil, newValue: nil)])
            withExtendedLifetime(tokens) {}
        }

        @Test("assigning an equal value to an Equatable property notifies nobody")
        func equalValueIsNotAChange() {
            let property = ObservableProperty(5)
            let log = Log<ObservedChange<Int>>()
            let token = property.observe(options: [.prior, .old, .new]) { log.append($0) }

            property.value = 5

            #expect(log.items.isEmpty)
            withExtendedLifetime(token) {}
        }

        @Test("a value that is not Equatable notifies on every assignment")
        func nonEquatableNotifiesEveryAssignment() {
            let property = ObservableProperty(Opaque(number: 1))
            let log = Log<Int?>()
            let token = property.observe { log.append($0.newValue?.number) }

            property.value = Opaque(number: 1)
            property.value = Opaque(number: 1)

            #expect(log.items == [1, 1])
            withExtendedLifetime(token) {}
        }

        @Test("update applies several edits as one change")
        func updateIsOneChange() {
            let property = ObservableProperty([1, 2])
            let log = Log<ObservedChange<[Int]>>()
            let token = property.observe { log.append($0) }

            property.update { numbers in
                numbers.append(3)
                numbers.removeFirst()
            }

            #expect(log.items == [.setting([1, 2], [2, 3])])
            withExtendedLifetime(token) {}
        }

        @Test("observers are called in the order they were added")
        func registrationOrder() {
            let property = ObservableProperty(0)
            let log = Log<String>()
            let tokens = ["first", "second", "third"].map { name in
                property.observe { _ in log.append(name) }
            }

            property.value = 1

            #expect(log.items == ["first", "second", "third"])
            #expect(property.observationCount == 3)
            withExtendedLifetime(tokens) {}
        }
    }
}

@Suite("Editing a value in place")
struct ModifyTests {
    @Test("modify notifies observers of the new value once, and an old-value observer gets both")
    func modifyNotifies() {
        let property = ObservableProperty([1, 2, 3])
        let log = Log<String>()
        let newOnly = property.observe(options: .new) { change in
            log.append("new \(change.newValue ?? [])")
        }

        property.modify { $0[1] = 20 }
        let withOld = property.observe(options: [.old, .new]) { change in
            log.append("old \(change.oldValue ?? []) new \(change.newValue ?? [])")
        }
        property.modify { $0[2] = 30 }

        #expect(
            log.items == [
                "new [1, 20, 3]", "new [1, 20, 30]", "old [1, 20, 3] new [1, 20, 30]",
            ])
        withExtendedLifetime((newOnly, withOld)) {}
    }
}

@Suite("A property's read-only view")
struct ReadOnlyPropertyTests {
    @Test("a read-only view reads the value and hears each change its owner makes")
    func readsAndObserves() {
        let owned = ObservableProperty(1)
        let view = owned.readOnly
        let log = Log<ObservedChange<Int>>()
        let token = view.observe { log.append($0) }
        let listener = Listener()
        let targetToken = view.observe(listener, action: Listener.valueChanged)

        owned.value = 2

        #expect(view.value == 2)
        #expect(log.items == [.setting(1, 2)])
        #expect(listener.changes == [.setting(1, 2)])
        #expect(view.observationCount == 2)
        withExtendedLifetime((token, targetToken)) {}
    }

    @Test("a read-only view's value stream starts with the current value")
    func valueStream() async {
        let owned = ObservableProperty(5)
        var iterator = owned.readOnly.values().makeAsyncIterator()
        owned.value = 6

        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == 6)
    }
}
