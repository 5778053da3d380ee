import MVCObservation
import MVCPresenter
import MVCTracing
import SampleSupport

/// The View of the Attractions sample: draws the list, or the editor while one is open.
///
/// Like the Switches screen, it redraws once per command, and only if what it shows changed. A
/// change that arrives between commands (another process's save, taken in by the store) is drawn
/// at once, so a user sees it without typing anything.
@MainActor
final class AttractionsScreen {
    private let list: AttractionListPresenter
    private let console: Console
    private let tracer: HopTracer
    private var editor: AttractionDetailPresenter?
    private var needsRender = true
    private var lastDrawn: String?
    private var tokens: [ObservationToken] = []
    private var editorToken: ObservationToken?
    /// The list's note when the editor opened: the editor's screen shows only a newer one.
    private var noteBeforeEditor: String?
    /// Whether the screen waits for the next command, so a change must be drawn right away.
    var isWaitingForCommand = false
    /// The first row drawn (counting from 0), when the list is longer than a screenful.
    private var windowStart = 0

    /// How many rows a screen draws at most: a long list is drawn a window at a time, so one
    /// command's output does not grow with the list.
    static let windowSize = 20

    init(list: AttractionListPresenter, console: Console, tracer: HopTracer) {
        self.list = list
        self.console = console
        self.tracer = tracer
        tokens.append(
            list.observeViewState { [weak self] _ in
                guard let self else { return }
                self.tracer.record(from: .presenter, to: .view, "list view state changed")
                self.needsRender = true
                // The editor's screen shows the list's note too, so it is redrawn for one.
                if self.isWaitingForCommand {
                    let text = self.currentText()
                    guard text != self.lastDrawn else { return }
                    self.needsRender = false
                    if self.console.isInteractive && TerminalInput.canEdit {
                        // The prompt's line (and what the user typed on it) gives way to the
                        // screen, then comes back below it, with no key drawn in between.
                        self.lastDrawn = text
                        TerminalInput.printAbovePrompt(text)
                    } else {
                        self.draw(text)
                    }
                }
            }
        )
    }

    /// Shows `editor` instead of the list, or the list again when `nil`.
    func show(editor: AttractionDetailPresenter?) {
        self.editor = editor
        // The screen changes to the editor or back to the list: traced as the change it is.
        tracer.record(
            from: .presenter, to: .view,
            editor == nil ? "list view state shown" : "editor view state shown")
        noteBeforeEditor = list.viewState.notice
        editorToken = editor?.observeViewState { [weak self] _ in
            self?.tracer.record(from: .presenter, to: .view, "editor view state changed")
            self?.needsRender = true
        }
        needsRender = true
    }

    /// Draws the screen if what it shows changed since it was last drawn.
    ///
    /// A refused command changes the view-state (its `lastError`) but not the screen: errors are
    /// shown once, as `error: …` lines on standard error, so the same screen is not drawn twice.
    func renderIfNeeded() {
        guard needsRender else { return }
        needsRender = false
        let text = currentText()
        guard text != lastDrawn else { return }
        draw(text)
    }

    /// Draws the screen.
    func render() {
        needsRender = false
        draw(currentText())
    }

    /// Moves the window, if need be, so that it shows the row at `index` (counting from 0).
    func reveal(row index: Int) {
        let count = list.viewState.rows.count
        guard count > Self.windowSize, (0..<count).contains(index) else { return }
        guard index < windowStart || index - windowStart >= Self.windowSize else { return }
        // A full screen around the row: half before it, or the last screenful at the end.
        windowStart = max(0, min(index - Self.windowSize / 2, count - Self.windowSize))
        needsRender = true
    }

    /// Shows the `page`-th window of rows (counting from 1; the caller checks it against
    /// ``pageCount``).
    func show(page: Int) {
        windowStart = (min(page, pageCount) - 1) * Self.windowSize
        needsRender = true
    }

    /// How many pages the list has.
    var pageCount: Int {
        max(1, (list.viewState.rows.count + Self.windowSize - 1) / Self.windowSize)
    }

    private func currentText() -> String {
        if let editor {
            // A note that came while editing is shown now: the save that closes the editor
            // changes the list, which takes the note off the list screen before it is drawn.
            Self.text(for: editor.viewState)
                + (list.viewState.notice.flatMap {
                    $0 == noteBeforeEditor ? nil : "\n  note: \($0.terminalSafe)"
                } ?? "")
        } else {
            Self.text(for: list.viewState, from: windowStart)
        }
    }

    private func draw(_ text: String) {
        lastDrawn = text
        console.print(text)
    }

    /// The list screen, with the window of rows that starts at `start` (a list no longer than
    /// a window is drawn whole).
    static func text(for state: AttractionListViewState, from start: Int = 0) -> String {
        var lines = ["Attractions"]
        if let emptyMessage = state.emptyMessage {
            lines.append("  \(emptyMessage)")
        }
        let count = state.rows.count
        // The window as set; a list that shrank under it shows its last screenful.
        let first = count <= windowSize ? 0 : start < count ? max(0, start) : count - windowSize
        let last = min(count, first + windowSize)
        for index in first..<last {
            let row = state.rows[index]
            let parts = row.parts.map { " — \($0.terminalSafe)" }.joined()
            lines.append("  \(index + 1). \(row.name.terminalSafe)\(parts)")
        }
        if count > windowSize {
            let pages = (count + windowSize - 1) / windowSize
            lines.append(
                "  (rows \(first + 1)–\(last) of \(count); 'page <1–\(pages)>' shows another \(windowSize))"
            )
        }
        lines.append("  [\(text(for: state.undo))]  [\(text(for: state.redo))]")
        if state.isSavePending { lines.append("  (not saved yet)") }
        if let problem = state.saveProblem {
            lines.append("  ! \(problem.terminalSafe)")
        }
        if let notice = state.notice { lines.append("  note: \(notice.terminalSafe)") }
        return lines.joined(separator: "\n")
    }

    static func text(for state: AttractionDetailViewState) -> String {
        let names = state.fields.map(\.name)
        let width = (names.map(\.count).max() ?? 0) + 2
        var lines = [
            "Editing an attraction (\(names.joined(separator: ", ")), then save or cancel)"
        ]
        for field in state.fields {
            let label = "\(field.name):".padded(to: width)
            lines.append("  \(label)\(field.text.isEmpty ? "(empty)" : field.text.terminalSafe)")
            if let message = field.message {
                lines.append("  \(String(repeating: " ", count: width))! \(message)")
            }
        }
        lines.append("  [\(state.isSaveEnabled ? "save" : "save: not yet")]  [cancel]")
        return lines.joined(separator: "\n")
    }

    private static func text(for command: AttractionListViewState.Command) -> String {
        command.isEnabled ? command.title.terminalSafe : "\(command.title.terminalSafe): nothing"
    }
}

extension String {
    /// The string followed by spaces up to `width` characters (at least one space).
    fileprivate func padded(to width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(1, width - count))
    }
}
