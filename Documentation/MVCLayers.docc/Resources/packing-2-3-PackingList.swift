import Foundation
import MVCObservation
import MVCStore

/// What changed in the list, with the values, so a subscriber never reads the list mid-delivery.
public enum PackingChange: KeyedUpdate, Equatable, Sendable {
    case added(Item, at: Int)
    case replaced(old: Item, new: Item, at: Int)
    case removed(Item, at: Int)

    /// Updates are keyed by item: a row can follow its own item only.
    public var key: UUID {
        switch self {
        case .added(let item, _), .removed(let item, _): item.id
        case .replaced(_, let item, _): item.id
        }
    }
}

/// A refused edit.
public enum PackingError: Error, Equatable {
    case noRow(Int)
    case emptyName
}

/// Owns the items: every edit is undoable and published as a `PackingChange`.
@MainActor
public final class PackingList {
    /// The items, in the order they were added.
    public private(set) var items: [Item]
    /// Called with the whole list after each change, to save it.
    public var onSave: (([Item]) -> Void)?
    private var history = UndoHistory<PackingChange>()
    private let channel = UpdateChannel<PackingChange>()

    /// A list holding `items`.
    public init(items: [Item] = []) {
        self.items = items
    }

    /// Where changes are published; only the list publishes.
    public var changes: UpdateSubscriptions<PackingChange> { channel.subscriptions }

    /// What Undo would undo, if anything.
    public var undoLabel: String? { history.undoLabel }

    /// Adds an item named `name` at the end; an empty name is refused.
    @discardableResult
    public func add(_ name: String) throws(PackingError) -> Item {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .emptyName }
        let item = Item(name: trimmed)
        apply(.added(item, at: items.count), label: "Add “\(trimmed)”")
        return item
    }

    /// Packs or unpacks the item at `row` (counting from 0).
    public func togglePacked(at row: Int) throws(PackingError) {
        guard items.indices.contains(row) else { throw .noRow(row + 1) }
        var item = items[row]
        item.isPacked.toggle()
        apply(.replaced(old: items[row], new: item, at: row), label: "Pack “\(item.name)”")
    }

    /// Renames the item at `row` (counting from 0); an empty name is refused.
    public func rename(at row: Int, to name: String) throws(PackingError) {
        guard items.indices.contains(row) else { throw .noRow(row + 1) }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .emptyName }
        var item = items[row]
        item.name = trimmed
        apply(.replaced(old: items[row], new: item, at: row), label: "Rename “\(trimmed)”")
    }

    /// Undoes the last edit; `false` if there is none.
    @discardableResult
    public func undo() -> Bool {
        guard let entry = history.takeUndo() else { return false }
        let inverse: PackingChange =
            switch entry.edit {
            case .added(let item, let row): .removed(item, at: row)
            case .removed(let item, let row): .added(item, at: row)
            case .replaced(let old, let new, let row): .replaced(old: new, new: old, at: row)
            }
        perform(inverse)
        return true
    }

    private func apply(_ change: PackingChange, label: String) {
        history.record(change, label: label)
        perform(change)
    }

    /// Changes the items, then publishes: subscribers see the list as the change left it.
    private func perform(_ change: PackingChange) {
        switch change {
        case .added(let item, let row): items.insert(item, at: row)
        case .removed(_, let row): items.remove(at: row)
        case .replaced(_, let item, let row): items[row] = item
        }
        channel.publish(change)
        onSave?(items)
    }
}
