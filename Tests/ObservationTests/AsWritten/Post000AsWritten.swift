import MVCObservation
import Testing

// Post 000 ("More on MVC on the iPhone") as written, rendered in Swift by this project: key-value
// observing with one callback for every observed key path, the method each change should reach
// passed as an untyped context and cast back on faith. The package's version is
// `ObservableProperty` with `observe(_:action:)` (Modules/Observation/Property).

/// What the post's observer implements: one callback for every key path it observes.
private protocol KeyValueObserver: AnyObject {
    func observeValue(forKeyPath keyPath: String, change: [String: Any], context: Any)
}

/// The post's model: properties that announce their changes by key path.
private final class SwitchesModelAsWritten {
    private var registrations: [(keyPath: String, observer: any KeyValueObserver, context: Any)] =
        []
    var isSwitchAOn = false {
        didSet { announce("isSwitchAOn", old: oldValue, new: isSwitchAOn) }
    }
    var title = "Switches" {
        didSet { announce("title", old: oldValue, new: title) }
    }

    func addObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String, context: Any) {
        registrations.append((keyPath, observer, context))
    }

    private func announce(_ keyPath: String, old: Any, new: Any) {
        for registration in registrations where registration.keyPath == keyPath {
            registration.observer.observeValue(
                forKeyPath: keyPath, change: ["old": old, "new": new],
                context: registration.context)
        }
    }
}

/// The post's presenter: the context is the method to call, and every method must take the same
/// argument type, since the callback casts the new value to it without knowing which key changed.
private final class SwitchesPresenterAsWritten: KeyValueObserver {
    private(set) var heard: [String] = []

    init(model: SwitchesModelAsWritten) {
        let switchChanged: (SwitchesPresenterAsWritten, Bool) -> Void = { $0.switchChanged($1) }
        model.addObserver(self, forKeyPath: "isSwitchAOn", context: switchChanged)
        // The slip the post warns about: a handler for a Bool, registered for a String property.
        // Nothing checks it; it compiles.
        model.addObserver(self, forKeyPath: "title", context: switchChanged)
    }

    func switchChanged(_ isOn: Bool) {
        heard.append("switch A is \(isOn ? "on" : "off")")
    }

    func observeValue(forKeyPath keyPath: String, change: [String: Any], context: Any) {
        // Cast back on faith, as the post does with its selector.
        // swift-format-ignore: NeverForceUnwrap
        let method = context as! (SwitchesPresenterAsWritten, Bool) -> Void
        // swift-format-ignore: NeverForceUnwrap
        method(self, change["new"] as! Bool)
    }
}

extension Ideas {
    @Suite("Post 000 as written, and what the package does instead")
    struct Post000AsWrittenTests {
        @Test("as written: a change reaches the method passed as the context")
        func contextReachesItsMethod() {
            let model = SwitchesModelAsWritten()
            let presenter = SwitchesPresenterAsWritten(model: model)

            model.isSwitchAOn = true

            #expect(presenter.heard == ["switch A is on"])
        }

        @Test(
            "as written: a handler registered for a property of another type compiles, and crashes the program when that property changes"
        )
        func wrongContextCrashes() async {
            await #expect(processExitsWith: .failure) {
                let model = SwitchesModelAsWritten()
                let presenter = SwitchesPresenterAsWritten(model: model)
                model.title = "Lights"  // the cast to Bool traps
                withExtendedLifetime(presenter) {}
            }
        }

        @Test(
            "the package: each property reaches a handler typed by its own value, so the slip does not compile"
        )
        func typedHandlers() {
            let isSwitchAOn = ObservableProperty(false)
            let title = ObservableProperty("Switches")
            var heard: [String] = []

            let tokens = [
                isSwitchAOn.observe(options: .new) {
                    heard.append("switch A is \($0.newValue == true)")
                },
                // `title.observe { (change: ObservedChange<Bool>) in … }` is a type error.
                title.observe(options: .new) { heard.append("title is \($0.newValue ?? "")") },
            ]
            isSwitchAOn.value = true
            title.value = "Lights"

            #expect(heard == ["switch A is true", "title is Lights"])
            withExtendedLifetime(tokens) {}
        }
    }
}
