import MVCObservation
import Testing

@Suite("Observing with a target's method")
struct TargetActionTests {
    @Test("a method taking the change is called with typed values")
    func methodWithChange() {
        let property = ObservableProperty(1)
        let listener = Listener()
        let token = property.observe(listener, action: Listener.valueChanged)

        property.value = 2

        #expect(listener.changes == [.setting(1, 2)])
        withExtendedLifetime(token) {}
    }

    @Test("a method taking nothing is called after each change")
    func methodWithoutArguments() {
        let property = ObservableProperty(1)
        let listener = Listener()
        let token = property.observe(listener, action: Listener.ping)

        property.value = 2
        property.value = 3

        #expect(listener.pings == 2)
        withExtendedLifetime(token) {}
    }

    @Test("the property does not keep the target alive")
    func targetHeldWeakly() {
        let property = ObservableProperty(1)
        var listener: Listener? = Listener()
        weak let weakListener = listener
        let token = listener.map { property.observe($0, action: Listener.ping) }

        listener = nil

        #expect(weakListener == nil)
        withExtendedLifetime(token) {}
    }

    @Test("a target that goes away ends its observation at the next change")
    func releasedTargetEndsObservation() {
        let property = ObservableProperty(1)
        var listener: Listener? = Listener()
        let token = listener.map { property.observe($0, action: Listener.valueChanged) }
        #expect(property.observationCount == 1)

        listener = nil
        property.value = 2

        #expect(property.observationCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test("a target's observation also ends when its token is released")
    func tokenReleaseEndsTargetObservation() {
        let property = ObservableProperty(1)
        let listener = Listener()
        var token: ObservationToken? = property.observe(listener, action: Listener.ping)

        token = nil
        property.value = 2

        #expect(listener.pings == 0)
        #expect(token == nil)
    }
}
