/// Observing with a method of a target object: the Swift form of "tie each property to its own
/// method".
///
/// The method is named as an unapplied method reference, `Presenter.switchAChanged`, so the
/// compiler checks that it exists, that it belongs to the target's type, and that it takes the
/// property's change (or nothing). The target is held weakly: observing never keeps it alive, and
/// once it is gone its observation ends.
extension ObservableProperty {
    /// Calls `action` on `target` with each change, for as long as both the token and the target live.
    ///
    /// ```swift
    /// tokens.append(model.isSwitchAOn.observe(self, action: SwitchesPresenter.switchAChanged))
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object whose method is called; held weakly.
    ///   - options: What to deliver and when; see ``ObservationOptions``.
    ///   - action: An instance method of `Target` that takes an ``ObservedChange``.
    /// - Returns: The token that keeps the observation alive.
    public func observe<Target: AnyObject>(
        _ target: Target,
        options: ObservationOptions = [.old, .new],
        action: @escaping (Target) -> (ObservedChange<Value>) -> Void
    ) -> ObservationToken {
        register(options: options) { id in
            { [weak target, weak self] change in
                guard let target else {
                    self?.removeObservation(id)
                    return
                }
                action(target)(change)
            }
        }
    }

    /// Calls `action` on `target` after each change, for a method that re-reads what it needs.
    ///
    /// - Parameters:
    ///   - target: The object whose method is called; held weakly.
    ///   - options: When to call; see ``ObservationOptions``. Values are not passed.
    ///   - action: An instance method of `Target` that takes no arguments.
    /// - Returns: The token that keeps the observation alive.
    public func observe<Target: AnyObject>(
        _ target: Target,
        options: ObservationOptions = [],
        action: @escaping (Target) -> () -> Void
    ) -> ObservationToken {
        observe(target, options: options) { (target: Target) in
            { (_: ObservedChange<Value>) in action(target)() }
        }
    }
}
