import MVCObservation
import MVCPresenter
import MVCTracing
import SampleSupport

/// The View of the Switches sample: draws the presenter's view-state on the terminal.
///
/// Like a UIKit view, it does not redraw on every change: a change marks it as needing display,
/// and the command loop redraws once per command (``renderIfNeeded()``), so a batch of changes
/// is drawn once.
@MainActor
final class SwitchesScreen {
    private let presenter: SwitchesPresenter
    private let console: Console
    private let tracer: HopTracer
    private var needsRender = true
    private var token: ObservationToken?

    init(presenter: SwitchesPresenter, console: Console, tracer: HopTracer) {
        self.presenter = presenter
        self.console = console
        self.tracer = tracer
        token = presenter.observeViewState { [weak self] state in
            self?.tracer.record(from: .presenter, to: .view, "view state changed: \(state.label)")
            self?.needsRender = true
        }
    }

    /// Draws the screen if the view-state changed since it was last drawn.
    func renderIfNeeded() {
        guard needsRender else { return }
        render()
    }

    /// Draws the screen.
    func render() {
        needsRender = false
        console.print(Self.text(for: presenter.viewState))
    }

    /// The screen as one line.
    ///
    /// For example: `[A: on ] [B: off]  Switch A turned on.`
    static func text(for state: SwitchesViewState) -> String {
        state.buttons.map(text(for:)).joined(separator: " ") + "  \(state.label)"
    }

    private static func text(for button: SwitchesViewState.Button) -> String {
        "[\(button.title): \(button.isOn ? "on " : "off")]"
    }
}
