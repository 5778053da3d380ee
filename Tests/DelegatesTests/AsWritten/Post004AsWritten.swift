import MVCDelegates
import MVCModel
import MVCStore
import Testing

// Post 004 ("Editing Attractions – Using a Delegate") as written, rendered in Swift by this
// project: the editor holds its delegate weakly and asks, by name, whether it answers an optional
// message before sending it; the name it asks about is not the one the delegate implements. The
// package's version is `ElementEditorDelegate` (Modules/Delegates/Elements) and the editor that
// owns its delegate while the edit lasts (`ElementEditorPresenter`, the attractions' editor).

/// A delegate as the post has it: what it answers is looked up by name.
private protocol EditorDelegateAsWritten: AnyObject {
    func save(_ attraction: Attraction)
    /// The names of the optional messages it answers.
    var optionalMessages: Set<String> { get }
    func perform(_ message: String)
}

/// The post's editor.
private final class EditorAsWritten {
    /// Weak, as delegates were: the editor does not keep its delegate alive.
    weak var delegate: (any EditorDelegateAsWritten)?

    func saveTapped(_ attraction: Attraction) {
        delegate?.save(attraction)
    }

    func cancelTapped() {
        // The check asks for a name the delegate protocol does not declare.
        if delegate?.optionalMessages.contains("cancel:") == true {
            delegate?.perform("cancel:")
        }
    }
}

/// The post's edit delegate: it implements the optional message under its declared name.
private final class EditDelegateAsWritten: EditorDelegateAsWritten {
    private(set) var saved: [Attraction] = []
    private(set) var cancelled = 0
    let optionalMessages: Set<String> = ["cancelEditing:"]

    func save(_ attraction: Attraction) {
        saved.append(attraction)
    }

    func perform(_ message: String) {
        if message == "cancelEditing:" { cancelled += 1 }
    }
}

extension Ideas {
    @Suite("Post 004 as written, and what the package does instead")
    @MainActor
    struct Post004AsWrittenTests {
        @Test(
            "as written: the optional check asks for the wrong name, so cancel never reaches the delegate"
        )
        func cancelIsNeverDelivered() {
            let editor = EditorAsWritten()
            let delegate = EditDelegateAsWritten()
            editor.delegate = delegate

            editor.cancelTapped()

            #expect(delegate.cancelled == 0)
        }

        @Test(
            "as written: a delegate made on the spot and handed over is gone before the save, which is lost"
        )
        func weakDelegateVanishes() {
            let editor = EditorAsWritten()
            weak var handedOver: EditDelegateAsWritten?
            do {
                let delegate = EditDelegateAsWritten()
                handedOver = delegate
                editor.delegate = delegate
            }

            editor.saveTapped(Attraction(name: "Louvre"))

            #expect(handedOver == nil && editor.delegate == nil)
        }

        @Test(
            "the package: cancel is a protocol requirement the compiler dispatches (EditorOwnershipTests show the editor keeping its delegate)"
        )
        func protocolDispatchAndOwnership() throws {
            final class CountingDelegate: ElementEditorDelegate {
                var cancelled = 0
                func saveElement(_ attraction: Attraction) throws(AttractionEditorError) {}
                func cancelEditing() { cancelled += 1 }
            }
            let delegate = CountingDelegate()
            let editor: any ElementEditorDelegate<Attraction> = delegate

            editor.cancelEditing()

            #expect(delegate.cancelled == 1)
        }
    }
}
