/// Observing from async code.
extension ObservableProperty where Value: Sendable {
    /// The property's values as an asynchronous sequence: the current value first, then each new one.
    ///
    /// The sequence ends when the property is deallocated (with the model that owns it). When the
    /// consuming task is cancelled, or stops iterating, the sequence ends, its buffered values are
    /// dropped at once, and its registration on the property is removed at the property's next
    /// change. (The property cannot be touched from the cancelling thread, since it belongs to its
    /// model's isolation domain, so the removal waits for the next time the owner touches it.)
    ///
    /// ```swift
    /// for await isOn in model.isSwitchAOn.values() {
    ///     print(isOn)
    /// }
    /// ```
    ///
    /// - Parameter bufferingPolicy: What to keep when values arrive faster than they are consumed.
    /// - Returns: A sequence of values, delivered on the consuming task.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Value.self, bufferingPolicy: bufferingPolicy)
        var streamID: ObservationID?
        let token = register(options: [.initial, .new]) { id in
            streamID = id
            return { [weak self] change in
                guard let value = change.newValue else { return }
                if case .terminated = continuation.yield(value) {
                    self?.removeObservation(id)
                }
            }
        }
        if let streamID {
            beginUse()
            books.streams[streamID] = { continuation.finish() }
            endUse()
        }
        // The stream, not a token, decides how long this registration lasts; the registration is
        // removed when the stream terminates (see above) or the property goes away.
        token.detach()
        return stream
    }
}
