import MVCListStore
import MVCModel
import MVCStore
import Testing

/// Ranks kept in memory, as a database would answer the placement's questions.
private final class RanksInMemory: StoredRanks {
    var ranks: [String: Int64]
    var renumbered = 0

    init(_ ranks: [String: Int64]) {
        self.ranks = ranks
    }

    func rank(of key: String) -> Int64? { ranks[key] }

    func nearest(to rank: Int64, upward: Bool, excluding excluded: [String]) -> Int64? {
        let others = ranks.filter { !excluded.contains($0.key) }.values
        return upward ? others.filter { $0 >= rank }.min() : others.filter { $0 <= rank }.max()
    }

    func renumber() {
        renumbered += 1
        for (position, key) in ranks.sorted(by: { $0.value < $1.value }).map(\.key).enumerated() {
            ranks[key] = Int64(position) * RowRank.gap
        }
    }
}

/// The one decision of a row write and the one rule of placing a row, which every database
/// adapter asks inside its write's transaction.
@Suite("A row write's plan and a row's place, decided once for every database")
struct RowPlanTests {
    private let louvre = Attraction(name: "Louvre", notes: "Paris")

    @Test("an insert over a row that exists merges with it instead of replacing it")
    func insertOverAnExistingRowMerges() {
        let theirs = Attraction(id: louvre.id, name: "Louvre", notes: "by the river")
        let write = RowWrite(change: .inserted(louvre, at: 0), in: [louvre])
        let (outcome, steps) = write.plan(stored: .some(theirs))
        #expect(outcome.element?.notes == "by the river")
        #expect(steps.isEmpty, "the stored row already holds the merge: nothing to write")
    }

    @Test(
        "a stored row that cannot be read is no deletion: this process's version is written over it"
    )
    func unreadableRowCountsAsUntouched() {
        let edited = Attraction(id: louvre.id, name: "Louvre", notes: "closed Tuesdays")
        let write = RowWrite(change: .replaced(old: louvre, new: edited, at: 0), in: [edited])
        let (outcome, steps) = write.plan(stored: .some(nil))
        #expect(outcome.element == edited)
        guard case .update(let written)? = steps.first else {
            Issue.record("expected an update, planned \(steps)")
            return
        }
        #expect(written == edited)
    }

    @Test("a move writes the row's rank alone; a delete of a row gone already writes nothing")
    func moveAndDeleteOfAGoneRow() {
        let other = Attraction(name: "Orsay")
        let move = RowWrite(change: .moved(louvre, from: 0, to: 1), in: [other, louvre])
        let moved = move.plan(stored: .some(louvre)).steps
        #expect(moved.count == 1)
        if case .rank? = moved.first {} else { Issue.record("expected a rank, planned \(moved)") }
        let delete = RowWrite(change: .removed(louvre, at: 0), in: [])
        #expect(delete.plan(stored: nil).steps.isEmpty)
    }

    @Test(
        "a row goes right after its predecessor, before its successor if that is gone, else at an end"
    )
    func placement() throws {
        let ranks = RanksInMemory(["a": 0, "b": RowRank.gap, "c": 2 * RowRank.gap])
        #expect(try RowRank.placing("x", after: "a", before: "b", in: ranks) == RowRank.gap / 2)
        let beforeC = try RowRank.placing("x", after: "gone", before: "c", in: ranks)
        #expect(beforeC.map { $0 > RowRank.gap && $0 < 2 * RowRank.gap } == true)
        #expect(try RowRank.placing("x", after: nil, before: "gone", in: ranks) == -RowRank.gap)
        #expect(
            try RowRank.placing("x", after: "gone", before: "gone", in: ranks) == 3 * RowRank.gap)
    }

    @Test(
        "a row placed after one another program ranked at the largest integer renumbers, never overflows"
    )
    func rankAtTheIntegerLimit() throws {
        let ranks = RanksInMemory(["a": 0, "z": .max])
        let rank = try RowRank.placing("x", after: "z", before: nil, in: ranks)
        #expect(ranks.renumbered == 1)
        #expect(rank == 2 * RowRank.gap)
        #expect(
            try RowRank.placing("y", after: nil, before: "a", in: RanksInMemory(["a": .min])) != nil
        )
    }

    @Test("neighbours with no room between them are renumbered once, then the row is placed")
    func renumbersWhenThereIsNoRoom() throws {
        let ranks = RanksInMemory(["a": 10, "b": 11])
        let rank = try RowRank.placing("x", after: "a", before: "b", in: ranks)
        #expect(ranks.renumbered == 1)
        #expect(rank == RowRank.gap / 2)
    }
}
