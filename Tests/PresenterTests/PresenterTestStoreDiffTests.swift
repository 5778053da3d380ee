import Dispatch
import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import Testing

/// A long list on screen, for diffs of large view-states.
private struct ListState: Equatable, Sendable {
    struct Row: Equatable, Sendable {
        var name: String
        var isDone = false
    }
    var rows: [Row]
    var title = "Things"
}

/// A presenter whose one intent renames one row.
@MainActor
private final class LongListPresenter: ViewStatePresenter {
    private let state: ObservableProperty<ListState>

    init(rows: Int) {
        state = ObservableProperty(ListState(rows: (0..<rows).map { .init(name: "row \($0)") }))
    }

    var viewState: ListState { state.value }

    func observeViewState(_ handler: @escaping (ListState) -> Void) -> ObservationToken {
        state.observe(options: .new) { change in
            if let value = change.newValue { handler(value) }
        }
    }

    func renameTapped(row: Int, to name: String) {
        state.value.rows[row].name = name
    }
}

@MainActor
@Suite("The presenter test store's failure messages and waiting")
struct PresenterTestStoreDiffTests {
    /// The removed (−) and added (+) lines of the diff a failure reports.
    nonisolated static func diffLines(of issue: Issue) -> [Substring] {
        issue.comments.map(\.rawValue).joined().split(separator: "\n").filter {
            $0.hasPrefix("− ") || $0.hasPrefix("+ ")
        }
    }

    @Test("a diff names the path of a nested field, expected (−) before actual (+)")
    func diffNamesThePath() async {
        let store = PresenterTestStore(LongListPresenter(rows: 3))
        withKnownIssue {
            store.send { $0.renameTapped(row: 1, to: "bee") }
            store.expect { $0.rows[1].name = "bea" }
        } matching: { issue in
            let lines = Self.diffLines(of: issue)
            guard let removed = lines.firstIndex(of: "− rows[1].name: \"bea\""),
                let added = lines.firstIndex(of: "+ rows[1].name: \"bee\"")
            else { return false }
            return removed < added && !lines.contains { $0.contains("rows[0]") }
        }
        await store.finish()
    }

    @Test("a failing step on a view-state of 3,000 rows reports only the row that differs")
    func largeStateDiff() async {
        let store = PresenterTestStore(LongListPresenter(rows: 3_000))
        withKnownIssue {
            store.send { $0.renameTapped(row: 1_500, to: "changed") }
            store.expect { $0.rows[1_499].name = "changed" }
        } matching: { issue in
            Self.diffLines(of: issue) == [
                "− rows[1499].name: \"changed\"", "+ rows[1499].name: \"row 1499\"",
                "− rows[1500].name: \"row 1500\"", "+ rows[1500].name: \"changed\"",
            ]
        }
        await store.finish()
    }

    @Test(
        "receive fails, without waiting on a clock, when the presenter has no work left and nothing arrived"
    )
    func receiveWithNothingComing() async {
        let store = PresenterTestStore(LongListPresenter(rows: 1))
        await withKnownIssue {
            await store.receive { $0.title = "never" }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("no state was published")
        }
        await store.finish()
    }
}

/// A view-state keyed by name, whose dictionary is rebuilt from scratch on every change.
private struct ScoresState: Equatable, Sendable {
    var scores: [String: Int]
}

/// A presenter that rebuilds its dictionary on each change, so equal dictionaries in the
/// expected and the actual state have different storage histories.
@MainActor
private final class ScoresPresenter: ViewStatePresenter {
    private let state: ObservableProperty<ScoresState>

    init(players: Int) {
        var scores: [String: Int] = [:]
        for player in 0..<(players * 4) { scores["player \(player)"] = player }
        for player in players..<(players * 4) { scores["player \(player)"] = nil }
        state = ObservableProperty(ScoresState(scores: scores))
    }

    var viewState: ScoresState { state.value }

    func observeViewState(_ handler: @escaping (ScoresState) -> Void) -> ObservationToken {
        state.observe(options: .new) { change in
            if let value = change.newValue { handler(value) }
        }
    }

    func scored(_ player: Int) {
        var rebuilt: [String: Int] = [:]
        for (name, score) in state.value.scores.sorted(by: { $0.key > $1.key }) {
            rebuilt[name] = score
        }
        rebuilt["player \(player)", default: 0] += 1
        state.value = ScoresState(scores: rebuilt)
    }
}

@MainActor
@Suite("The presenter test store's diff of keyed values")
struct PresenterTestStoreKeyedDiffTests {
    @Test("a diff of a dictionary shows the one entry that differs, whatever the storage order")
    func dictionaryDiffShowsOnlyTheChange() async {
        let store = PresenterTestStore(ScoresPresenter(players: 40))
        withKnownIssue {
            store.send { $0.scored(7) }
            store.expect { $0.scores["player 7"] = 9 }
        } matching: { issue in
            PresenterTestStoreDiffTests.diffLines(of: issue) == [
                "− scores[\"player 7\"]: 9", "+ scores[\"player 7\"]: 8",
            ]
        }
        await store.finish()
    }
}
