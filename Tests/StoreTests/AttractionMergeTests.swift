import MVCListStore
import MVCModel
import MVCStore
import TestSupport
import Testing

@Suite("Merging two processes' versions of the list")
struct AttractionMergeTests {
    let louvre = Attraction(name: "Louvre", notes: "Mona Lisa")
    let orsay = Attraction(name: "Orsay")
    let eiffel = Attraction(name: "Eiffel Tower")
    let rodin = Attraction(name: "Musée Rodin")
    let pantheon = Attraction(name: "Panthéon")

    private func names(_ result: MergeResult<[Attraction]>) -> [String] {
        result.document.map(\.name)
    }

    @Test("additions from both sides are kept, each after the attraction it follows on its side")
    func additionsFromBoth() {
        let base = [louvre, orsay]

        let result = ListMerge<Attraction>.merge(
            base: base, ours: [louvre, rodin, orsay], theirs: [louvre, orsay, pantheon])

        #expect(names(result) == ["Louvre", "Musée Rodin", "Orsay", "Panthéon"])
        #expect(result.notices.isEmpty)
    }

    @Test("a deletion on one side of an attraction the other left alone is honoured")
    func deletionHonoured() {
        let result = ListMerge<Attraction>.merge(
            base: [louvre, orsay, eiffel], ours: [louvre, eiffel], theirs: [louvre, orsay, eiffel])

        #expect(names(result) == ["Louvre", "Eiffel Tower"])
    }

    @Test("edits to different attractions are both kept")
    func editsToDifferentAttractions() {
        var ourOrsay = orsay
        ourOrsay.notes = "Impressionists"
        var theirLouvre = louvre
        theirLouvre.name = "Musée du Louvre"

        let result = ListMerge<Attraction>.merge(
            base: [louvre, orsay], ours: [louvre, ourOrsay], theirs: [theirLouvre, orsay])

        #expect(result.document == [theirLouvre, ourOrsay])
        #expect(result.notices.isEmpty)
    }

    @Test("one attraction edited on both sides keeps each side's own field, theirs for a clash")
    func sameAttractionBothSides() {
        var ours = louvre
        ours.name = "Le Louvre"
        ours.notes = "Winged Victory"
        var theirs = louvre
        theirs.notes = "Venus de Milo"

        let result = ListMerge<Attraction>.merge(base: [louvre], ours: [ours], theirs: [theirs])

        #expect(
            result.document == [
                Attraction(id: louvre.id, name: "Le Louvre", notes: "Venus de Milo")
            ])
        #expect(
            result.notices == [
                "“Louvre” had its notes changed here to “Winged Victory” and in another process to “Venus de Milo”; the other process's was kept"
            ])
    }

    @Test("an attraction deleted on one side and edited on the other is kept, with a notice")
    func deleteAgainstEdit() {
        var edited = orsay
        edited.notes = "Clock"

        let result = ListMerge<Attraction>.merge(
            base: [louvre, orsay], ours: [louvre], theirs: [louvre, edited])

        #expect(result.document == [louvre, edited])
        #expect(
            result.notices == [
                "“Orsay” was deleted here but edited in another process; it was kept"
            ])
    }

    @Test("each side's moves stand; of two moves of one element, the one merged in here")
    func order() {
        let base = [louvre, orsay, eiffel]

        let oursMoved = ListMerge<Attraction>.merge(
            base: base, ours: [eiffel, louvre, orsay], theirs: base)
        let bothMoved = ListMerge<Attraction>.merge(
            base: base, ours: [eiffel, louvre, orsay], theirs: [orsay, louvre, eiffel])

        #expect(names(oursMoved) == ["Eiffel Tower", "Louvre", "Orsay"])
        // Theirs swapped Orsay and Louvre, ours moved Eiffel Tower to the top: both stand.
        #expect(names(bothMoved) == ["Eiffel Tower", "Orsay", "Louvre"])
        #expect(bothMoved.notices.isEmpty)
        // Both moved Eiffel Tower: this side's move, the later, stands.
        let sameMoved = ListMerge<Attraction>.merge(
            base: base, ours: [eiffel, louvre, orsay], theirs: [louvre, eiffel, orsay])
        #expect(names(sameMoved) == ["Eiffel Tower", "Louvre", "Orsay"])
    }

    @Test("with no base (no file when this process started) both sides' attractions are kept")
    func noBase() {
        let result = ListMerge<Attraction>.merge(base: nil, ours: [louvre], theirs: [orsay])

        #expect(Set(names(result)) == ["Louvre", "Orsay"])
    }

    @Test("one attraction moved from the top to the bottom is one move, not one per row")
    func rotationIsOneMove() {
        let old = (0..<1_000).map { Attraction(name: "Attraction \($0)") }
        let new = Array(old.dropFirst()) + [old[0]]

        let edits = ListDifference<Attraction>.changes(from: old, to: new)
        var list = EditableList<Attraction>(old)
        for edit in edits { _ = list.apply(edit) }

        #expect(edits == [.move(old[0].id, from: 0, to: 999)])
        #expect(list.elements == new)
    }

    @Test("long and short moves in a long list keep every row findable by id, in its place")
    func movesKeepLookups() {
        var random = SeededGenerator(seed: 0x3D0E)
        var model = (0..<20_000).map { Attraction(name: "Attraction \($0)") }
        var list = EditableList<Attraction>(model)
        for round in 0..<300 {
            // Alternately far (renumbered when next looked up) and near (renumbered at once).
            let source = Int.random(in: 0..<model.count, using: &random)
            let reach = round % 2 == 0 ? model.count : 40
            let destination = min(
                max(source + Int.random(in: -reach...reach, using: &random), 0), model.count - 1)
            let moving = model[source]
            #expect(
                list.apply(.move(moving.id, from: source, to: destination)) != nil
                    || source == destination)
            model.insert(model.remove(at: source), at: destination)
            // A lookup now and then, of rows on either side of the move.
            if round % 3 == 0 {
                for probe in [0, destination, model.count / 2, model.count - 1] {
                    #expect(
                        list.index(of: model[probe].id) == probe, "round \(round), row \(probe)")
                }
            }
        }
        #expect(list.elements == model)
        for (position, element) in model.enumerated() where position % 97 == 0 {
            #expect(list.index(of: element.id) == position)
        }
    }

    @Test("random reorderings, removals and additions are reproduced exactly", arguments: 1...20)
    func randomDifferences(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let pool = (0..<40).map { Attraction(name: "Attraction \($0)") }
        let old = pool.filter { _ in Bool.random(using: &random) }.shuffled(using: &random)
        let new = pool.filter { _ in Bool.random(using: &random) }.shuffled(using: &random)
        var list = EditableList<Attraction>(old)

        for edit in ListDifference<Attraction>.changes(from: old, to: new) {
            #expect(list.apply(edit) != nil, "seed \(seed): \(edit) did not fit")
        }

        #expect(list.elements == new, "seed \(seed)")
    }

    @Test("the difference between two lists, applied in order, turns one into the other")
    func difference() {
        var renamed = orsay
        renamed.name = "Musée d'Orsay"
        let old = [louvre, orsay, eiffel, rodin]
        let new = [pantheon, eiffel, renamed, louvre]
        var list = EditableList<Attraction>(old)

        for edit in ListDifference<Attraction>.changes(from: old, to: new) {
            #expect(list.apply(edit) != nil, "\(edit) did not fit")
        }

        #expect(list.elements == new)
    }

    /// A long list and another process's version of it: a few rows removed, edited, moved and
    /// added somewhere in the middle.
    private static func fewChanges(seed: Int) -> (old: [Attraction], new: [Attraction]) {
        var random = SeededGenerator(seed: UInt64(seed))
        let old = (0..<2_000).map { Attraction(name: "Attraction \($0)") }
        var new = old
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0..<new.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: new.remove(at: at)
            case 1: new[at].notes = "edited \(at)"
            case 2:
                new.insert(new.remove(at: at), at: Int.random(in: 0..<new.count, using: &random))
            default: new.insert(Attraction(name: "Added \(at)"), at: at)
            }
        }
        return (old, new)
    }

    @Test(
        "a few changes in the middle of a long list are reproduced exactly, by as few edits",
        arguments: 1...20)
    func fewChangesInALongList(seed: Int) {
        let (old, new) = Self.fewChanges(seed: seed)
        var list = EditableList<Attraction>(old)

        let edits = ListDifference<Attraction>.changes(from: old, to: new)
        for edit in edits {
            #expect(list.apply(edit) != nil, "seed \(seed): \(edit) did not fit")
        }

        #expect(list.elements == new, "seed \(seed)")
        #expect(edits.count <= 8, "seed \(seed): \(edits.count) edits")
    }

    @Test(
        "a merge where this process changed nothing is the other process's list exactly, with a notice only naming the rows it deleted",
        arguments: 1...10)
    func mergeUnchangedHere(seed: Int) {
        let (base, theirs) = Self.fewChanges(seed: seed)
        // An equal list, not the same array: compared element by element.
        let ours = base.map { $0 }

        let result = ListMerge<Attraction>.merge(base: base, ours: ours, theirs: theirs)

        #expect(result.document == theirs, "seed \(seed)")
        let theirIDs = Set(theirs.map(\.id))
        let deleted = base.filter { !theirIDs.contains($0.id) }.map(\.name)
        #expect(result.notices == (deleted.isEmpty ? [] : [MergeNotice.deletedThere(deleted)]))
    }

    @Test("rows deleted in another process and untouched here are named, three at most")
    func deletionsNamed() {
        let rows = (1...6).map { Attraction(name: "Row \($0)") }
        let one = ListMerge<Attraction>.merge(
            base: rows, ours: rows + [Attraction(name: "Mine")], theirs: Array(rows.dropFirst()))
        #expect(one.notices == ["“Row 1” was deleted in another process"])
        #expect(one.document.map(\.name) == ["Row 2", "Row 3", "Row 4", "Row 5", "Row 6", "Mine"])

        let two = ListMerge<Attraction>.merge(base: rows, ours: rows, theirs: Array(rows.prefix(4)))
        #expect(two.notices == ["“Row 5” and “Row 6” were deleted in another process"])

        let five = ListMerge<Attraction>.merge(base: rows, ours: rows, theirs: [rows[5]])
        #expect(
            five.notices == ["“Row 1”, “Row 2”, “Row 3” and 2 more were deleted in another process"]
        )
    }
}
