import MVCListStore
import MVCModel

// Tuning, kept out of the store's own file: the attractions store's edits, compiled once more for
// `Attraction` (prespecialized), so a program that edits attractions calls code that knows the
// element's type. A generic method called from another module otherwise runs unspecialized,
// asking the runtime for the metadata of every generic type it touches on every call: that cost
// three times the work of a replace by id (PERFORMANCE.md). Each method below only names a method
// of `ListStore` (which it calls) and the type to compile it for; nothing calls them.
//
// Optimized builds only: an unoptimized build gains nothing from it, and Swift 6.3's compiler
// crashes prespecializing these methods without optimization.
#if !DEBUG
    @_specializeExtension
    extension ListStore {
        @_specialize(exported:true,target:replace(_:with:),where Element == Attraction)
        func prespecializedReplace(_ id: Element.ID, with newVersion: Element)
            throws(ListStoreError<Element>)
        { try replace(id, with: newVersion) }

        @_specialize(exported:true,target:mergeEdit(of:result:),where Element == Attraction)
        func prespecializedMergeEdit(of original: Element, result edited: Element)
            throws(ListStoreError<Element>)
        { try mergeEdit(of: original, result: edited) }

        @_specialize(exported:true,target:add(_:at:),where Element == Attraction)
        func prespecializedAdd(_ element: Element, at position: Int?) throws(ListStoreError<
            Element
        >) {
            try add(element, at: position)
        }

        @_specialize(exported:true,target:move(from:to:),where Element == Attraction)
        func prespecializedMove(from source: Int, to destination: Int) throws(ListStoreError<
            Element
        >) {
            try move(from: source, to: destination)
        }

        @_specialize(exported:true,target:delete(at:),where Element == Attraction)
        func prespecializedDelete(at position: Int) throws(ListStoreError<Element>) -> Element {
            try delete(at: position)
        }

        @_specialize(exported:true,target:undo(),where Element == Attraction)
        func prespecializedUndo() throws(ListStoreError<Element>) { try undo() }

        @_specialize(exported:true,target:redo(),where Element == Attraction)
        func prespecializedRedo() throws(ListStoreError<Element>) { try redo() }

        var prespecializedElements: [Element] {
            @_specialize(exported:true,target:elements,where Element == Attraction)
            get { elements }
        }

        var prespecializedCount: Int {
            @_specialize(exported:true,target:count,where Element == Attraction)
            get { count }
        }

        @_specialize(exported:true,target:element(withID:),where Element == Attraction)
        func prespecializedElement(withID id: Element.ID) -> Element? { element(withID: id) }
    }
#endif
