import MVCSQLiteStore
import Testing

/// The SQLite persistence's life, decided as a value: every stage × event, without a file.
@Suite("The SQLite persistence's lifecycle core")
struct DatabaseLifecycleTests {
    private let lost = DatabaseLifecycle.Event.fileLost(
        reason: "it was deleted", recovery: "/d/s.recovered.sqlite")

    @Test("an open file takes edits to the file, and a lost one is told once and written beside")
    func openThenLost() {
        var life = DatabaseLifecycle.opening
        #expect(life.handle(.edited, path: "/d/s.sqlite") == [])
        #expect(life.handle(.opened, path: "/d/s.sqlite") == [])
        #expect(life.handle(.edited, path: "/d/s.sqlite") == [.writeQueued])

        let effects = life.handle(lost, path: "/d/s.sqlite")

        #expect(life == .detached(reason: "it was deleted", recovery: "/d/s.recovered.sqlite"))
        #expect(effects.first == .foldLog)
        guard case .tell(let message)? = effects.last else {
            Issue.record("no notice: \(effects)")
            return
        }
        #expect(message.contains("/d/s.sqlite") && message.contains("/d/s.recovered.sqlite"))
        // Told once: a second look that finds it lost says nothing more.
        #expect(life.handle(lost, path: "/d/s.sqlite") == [])
        #expect(
            life.handle(.edited, path: "/d/s.sqlite") == [.writeList(to: "/d/s.recovered.sqlite")])
        #expect(
            life.handle(.flushRequested, path: "/d/s.sqlite")
                == [.writeList(to: "/d/s.recovered.sqlite")])
        #expect(life.handle(.recovered, path: "/d/s.sqlite") == [.writeQueued])
        #expect(life == .open)
    }

    @Test("closing a lost file writes the list beside it first; a closed one hears nothing")
    func closing() {
        var life = DatabaseLifecycle.open
        _ = life.handle(lost, path: "/d/s.sqlite")
        #expect(
            life.handle(.closeRequested, path: "/d/s.sqlite")
                == [.stopLooking, .writeList(to: "/d/s.recovered.sqlite")])
        _ = life.handle(.recovered, path: "/d/s.sqlite")
        #expect(
            life.handle(.closeRequested, path: "/d/s.sqlite")
                == [.stopLooking, .writeQueued])
        #expect(life == .closing)
        #expect(life.handle(.closed, path: "/d/s.sqlite") == [])
        for event in [lost, .edited, .flushRequested, .recovered, .closeRequested, .opened] {
            #expect(life.handle(event, path: "/d/s.sqlite") == [])
            #expect(life == .closed)
        }
    }

    @Test("a file lost while closing sends the list beside it, told once, before closing ends")
    func lostWhileClosing() {
        var life = DatabaseLifecycle.open
        _ = life.handle(.closeRequested, path: "/d/s.sqlite")

        let effects = life.handle(lost, path: "/d/s.sqlite")

        #expect(life == .detached(reason: "it was deleted", recovery: "/d/s.recovered.sqlite"))
        #expect(effects.first == .foldLog)
        #expect(effects.last == .writeList(to: "/d/s.recovered.sqlite"))
        #expect(effects.count == 3)
        #expect(life.handle(lost, path: "/d/s.sqlite") == [])
        _ = life.handle(.closed, path: "/d/s.sqlite")
        #expect(life == .closed)
    }

    @Test("only an open or closing persistence writes to its file")
    func writes() {
        #expect(DatabaseLifecycle.open.writes && DatabaseLifecycle.closing.writes)
        #expect(!DatabaseLifecycle.opening.writes && !DatabaseLifecycle.closed.writes)
        #expect(!DatabaseLifecycle.detached(reason: "", recovery: "").writes)
    }
}
