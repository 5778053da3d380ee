import MVCElements
import MVCObservation
import MVCTracing

/// The store's side of its port: each edit handed to persistence, and where saving stands
/// taken back from it.
extension ListStore {
    /// Hands `change` and the list after it to persistence, if the list is kept anywhere.
    func recordForSaving(_ change: ListChange<Element>) {
        guard let persistence else { return }
        tracer.record(from: .store, to: .persistence, "listChanged(\(Element.counted(count)))")
        persistence.listChanged(list.elements, by: change)
    }

    /// Follows `persistence`'s save status into ``saving``, each hop traced: a save's status
    /// leads to a screen's change like any other.
    func followSaving(of persistence: any ListPersistence<Element>) -> ObservationToken {
        persistence.saveStatus.observe(options: .new) { [weak self] change in
            guard let self, let status = change.newValue else { return }
            tracer.record(from: .persistence, to: .store, "save status: \(status.word)")
            tracer.record(from: .store, to: .observation, "saving \(status.word)")
            savingProperty.value = status
        }
    }
}
