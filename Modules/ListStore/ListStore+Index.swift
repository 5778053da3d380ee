extension ListStore {
    /// Indexes the ids of a list made with ``EditableList/init(distinctIDs:)`` on another thread.
    ///
    /// A long list is then shown before its million ids are hashed. An edit or a lookup by id
    /// made before the index arrives indexes the list itself; the index that arrives after it is
    /// let go.
    func indexInBackground() {
        let elements = list.elements
        indexing = Task.detached(priority: .userInitiated) { [weak self] in
            let positions = EditableList.positions(of: elements)
            await self?.adoptIndex(positions, of: elements)
        }
    }

    private func adoptIndex(_ positions: [Element.ID: Int], of elements: [Element]) {
        list.adoptIndex(positions, of: elements)
    }

    /// Returns once the index of the list's ids that the store builds on another thread (for a
    /// list made with ``EditableList/init(distinctIDs:)``) is built and taken, or let go; at
    /// once for any other list.
    public func finishIndexing() async {
        await indexing?.value
    }
}
