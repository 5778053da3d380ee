// Post 000, the essentials: each observed property is tied to a handler of its own.
//
// The idea: an observer names, for each property, the method that handles its changes, so no
// handler has to ask "which property was it?" through a chain of ifs over key paths.
// The post's bug: its handler is a selector passed as an untyped context and cast back on faith;
// an observer registered with any other context crashes at run time. Here the handler is a method
// reference, `SwitchesPresenter.switchAChanged`: the compiler checks that it exists, belongs to the
// observer's type and takes the property's type, so that registration cannot be written wrong.
//
// Production does the same with more: Modules/Observation/Property/ObservableProperty.swift
// (tokens that end an observation, old and new values, batching, any thread) and its
// +Target.swift and +Delivery.swift, Modules/Model/Switches/SwitchesModel.swift,
// Modules/Presenter/Switches/SwitchesPresenter.swift and Samples/Switches/.

/// A value that calls its observers' handlers each time it changes.
@MainActor
final class Observable<Value: Equatable> {
    private var handlers: [(Value) -> Void] = []

    /// The value; setting a different one calls every handler with it.
    var value: Value {
        didSet {
            guard value != oldValue else { return }
            // `handlers` is copied by the loop: a handler may add another without harm.
            for handler in handlers { handler(value) }
        }
    }

    init(_ value: Value) {
        self.value = value
    }

    /// Calls `action` on `target` with each new value, for as long as `target` exists.
    ///
    /// `action` is an unapplied method reference (`Presenter.switchAChanged`), checked by the
    /// compiler. The target is held weakly: observing never keeps an observer alive, and a handler
    /// whose observer is gone does nothing.
    func observe<Target: AnyObject>(
        _ target: Target, action: @escaping (Target) -> (Value) -> Void
    ) {
        handlers.append { [weak target] value in
            if let target { action(target)(value) }
        }
    }
}

/// The Model: two switches, each observable on its own.
@MainActor
final class SwitchesModel {
    let isSwitchAOn = Observable(false)
    let isSwitchBOn = Observable(false)

    /// Turns every switch off; each switch that was on tells its observers.
    func reset() {
        isSwitchAOn.value = false
        isSwitchBOn.value = false
    }
}
