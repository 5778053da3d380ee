import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCStore
import TestSupport
import Testing

/// The store's behaviour restated as simply as possible: an array, and stacks of whole snapshots.
private struct ReferenceModel {
    var attractions: [Attraction] = []
    var undoStack: [[Attraction]] = []
    var redoStack: [[Attraction]] = []

    mutating func record(_ change: (inout [Attraction]) -> Void) {
        var next = attractions
        change(&next)
        undoStack.append(attractions)
        redoStack.removeAll()
        attractions = next
    }

    mutating func undo() -> Bool {
        guard let previous = undoStack.popLast() else { return false }
        redoStack.append(attractions)
        attractions = previous
        return true
    }

    mutating func redo() -> Bool {
        guard let next = redoStack.popLast() else { return false }
        undoStack.append(attractions)
        attractions = next
        return true
    }
}

@MainActor
@Suite("The store against a plain array model")
struct RandomizedStoreTests {
    @Test(
        "thousands of random edits, undos and redos match the array model step by step, across reloads"
    )
    func randomEdits() async throws {
        var random = SeededGenerator(seed: 0x5EED_0004)
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("attractions.json"), format: .attractions)
        var store = AttractionStore()
        var model = ReferenceModel()
        var mirror: [Attraction] = []
        var token = follow(store, into: { mirror = $0(mirror, store) })
        var reloads = 0

        for step in 1...4_000 {
            let position = Int.random(in: -1...(model.attractions.count + 1), using: &random)
            let other = Int.random(in: 0..<max(model.attractions.count, 1), using: &random)
            let isValid = model.attractions.indices.contains(position)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let new = Attraction(name: "attraction \(step)")
                let at = (0...model.attractions.count).contains(position) ? position : nil
                let expectedToSucceed = at != nil || position == -1
                do {
                    try store.add(new, at: position == -1 ? nil : position)
                    #expect(
                        expectedToSucceed,
                        "step \(step): add at \(position) should have been refused")
                    model.record { $0.insert(new, at: at ?? $0.count) }
                } catch {
                    #expect(
                        !expectedToSucceed, "step \(step): add at \(position) was refused: \(error)"
                    )
                }
            case 30..<45:
                guard isValid else { continue }
                var edited = model.attractions[position]
                edited.notes = Bool.random(using: &random) ? "notes \(step)" : edited.notes
                try store.replace(edited.id, with: edited)
                if edited != model.attractions[position] { model.record { $0[position] = edited } }
            case 45..<60:
                let succeeded = (try? store.move(from: position, to: other)) != nil
                #expect(
                    succeeded == (isValid && model.attractions.indices.contains(other)),
                    "step \(step)")
                if succeeded, position != other {
                    model.record { $0.insert($0.remove(at: position), at: other) }
                }
            case 60..<75:
                let succeeded = (try? store.delete(at: position)) != nil
                #expect(succeeded == isValid, "step \(step)")
                if succeeded { model.record { _ = $0.remove(at: position) } }
            case 75..<88:
                let succeeded = (try? store.undo()) != nil
                #expect(succeeded == model.undo(), "step \(step): undo")
            case 88..<99:
                let succeeded = (try? store.redo()) != nil
                #expect(succeeded == model.redo(), "step \(step): redo")
            default:
                try await file.overwrite(with: store.elements)
                let reloaded = try #require(try await file.load())
                store = AttractionStore(reloaded)
                model = ReferenceModel(attractions: model.attractions)
                mirror = reloaded
                token = follow(store, into: { mirror = $0(mirror, store) })
                reloads += 1
            }
            try #require(
                store.elements == model.attractions,
                "step \(step): the store differs from the model")
            try #require(
                mirror == store.elements, "step \(step): the published changes do not add up")
            #expect((store.undoLabel != nil) == !model.undoStack.isEmpty, "step \(step)")
            #expect((store.redoLabel != nil) == !model.redoStack.isEmpty, "step \(step)")
        }
        #expect(reloads > 10)
        withExtendedLifetime(token) {}
    }

    /// Rebuilds a copy of the list from the store's published changes alone.
    private func follow(
        _ store: AttractionStore,
        into update: @escaping ((([Attraction], AttractionStore) -> [Attraction])) -> Void
    ) -> AnyObject {
        store.changes.subscribeToAll { published in
            update { mirror, _ in
                // From the change's values alone: the store is not read during a delivery.
                var mirror = mirror
                switch published.change {
                case .inserted(let attraction, let at): mirror.insert(attraction, at: at)
                case .removed(_, let at): mirror.remove(at: at)
                case .moved(_, let from, let to): mirror.insert(mirror.remove(at: from), at: to)
                case .replaced(_, let attraction, let at): mirror[at] = attraction
                }
                return mirror
            }
        }
    }
}
