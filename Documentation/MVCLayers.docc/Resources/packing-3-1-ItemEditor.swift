/// Why an editor's Save was refused.
public struct ItemEditorError: Error, Equatable, CustomStringConvertible {
    /// Why, in words a user can act on.
    public let description: String

    /// An item, not yet packed unless said.
    public init(description: String) {
        self.description = description
    }
}

/// What an item editor tells whoever opened it.
///
/// Saving is required; cancelling is optional (the extension below gives it a default that does
/// nothing).
@MainActor
public protocol ItemEditorDelegate: AnyObject {
    func saveItem(named name: String) throws(ItemEditorError)
    func cancelEditing()
}

extension ItemEditorDelegate {
    /// Does nothing: cancelling is optional.
    public func cancelEditing() {}
}

/// Saving adds a new item.
@MainActor
public final class AddItemDelegate: ItemEditorDelegate {
    private let list: PackingList

    /// An item, not yet packed unless said.
    public init(list: PackingList) {
        self.list = list
    }

    /// Adds an item named `name`.
    public func saveItem(named name: String) throws(ItemEditorError) {
        do {
            try list.add(name)
        } catch {
            throw ItemEditorError(description: "an item needs a name")
        }
    }
}

/// Saving renames the item the editor was opened on; cancelling is heard, and counted.
@MainActor
public final class RenameItemDelegate: ItemEditorDelegate {
    private let list: PackingList
    private let row: Int
    /// How many times an edit was cancelled.
    public private(set) var cancellations = 0

    /// An item, not yet packed unless said.
    public init(list: PackingList, row: Int) {
        self.list = list
        self.row = row
    }

    /// Renames the item the editor was opened on.
    public func saveItem(named name: String) throws(ItemEditorError) {
        do {
            try list.rename(at: row, to: name)
        } catch .noRow(let row) {
            throw ItemEditorError(description: "there is no row \(row)")
        } catch {
            throw ItemEditorError(description: "an item needs a name")
        }
    }

    /// Counts the cancellation.
    public func cancelEditing() {
        cancellations += 1
    }
}
