import MVCObservation
import MVCPresenter
import MVCTracing
import SampleSupport

/// The View of the Avatars sample: the contacts, each with its avatar drawn in the terminal.
///
/// Interactively, avatars land in the background: a change schedules one redraw on the main actor,
/// so a burst of arrivals is drawn once. In a script, the screen is drawn after each command that
/// changed it. Pictures are drawn in colour on a terminal and in ASCII shades in a script, so
/// scripted output is plain text.
@MainActor
final class AvatarsScreen {
    private let list: ContactListPresenter
    private let console: Console
    private let tracer: HopTracer
    private var lastDrawn: String?
    private var needsRender = true
    private var isRenderScheduled = false
    private var token: ObservationToken?

    init(list: ContactListPresenter, console: Console, tracer: HopTracer) {
        self.list = list
        self.console = console
        self.tracer = tracer
        token = list.observeViewState { [weak self] _ in self?.viewStateChanged() }
    }

    private func viewStateChanged() {
        tracer.record(from: .presenter, to: .view, "contact list view state changed")
        needsRender = true
        guard console.isInteractive, !isRenderScheduled else { return }
        isRenderScheduled = true
        Task { @MainActor in
            self.isRenderScheduled = false
            guard self.needsRender else { return }
            guard TerminalInput.canEdit else {
                self.renderIfNeeded()
                return
            }
            // The prompt's line (and what the user typed on it) gives way to the screen, then
            // comes back below it, with no key drawn in between.
            self.needsRender = false
            let text = Self.text(for: self.list.viewState, inColour: self.console.isInteractive)
            self.lastDrawn = text
            TerminalInput.printAbovePrompt(text)
        }
    }

    /// Draws the screen if the view-state changed since it was last drawn.
    ///
    /// A refused command changes the view-state (its `lastError`) but not the screen: errors are
    /// shown once, as `error: …` lines on standard error.
    func renderIfNeeded() {
        guard needsRender else { return }
        needsRender = false
        let text = Self.text(for: list.viewState, inColour: console.isInteractive)
        guard text != lastDrawn else { return }
        lastDrawn = text
        console.print(text)
    }

    /// Draws the screen.
    func render() {
        needsRender = false
        lastDrawn = Self.text(for: list.viewState, inColour: console.isInteractive)
        console.print(lastDrawn ?? "")
    }

    static func text(for state: ContactListViewState, inColour: Bool) -> String {
        var lines = ["Contacts"]
        if state.rows.isEmpty { lines.append("  No contacts yet.") }
        for (index, row) in state.rows.enumerated() {
            lines.append(
                "  \(index + 1). \(row.name.terminalSafe) <\(row.avatar.address.terminalSafe)>  \(text(for: row.avatar.status))"
            )
            if case .loaded(.drawable(let width, let height, let pixels)) = row.avatar.status {
                lines += drawing(width: width, height: height, pixels: pixels, inColour: inColour)
                    .map { "       " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func text(for status: AvatarViewState.Status) -> String {
        switch status {
        case .notRequested: "[no avatar yet]"
        case .loading: "[loading…]"
        case .loaded(.drawable(let width, let height, _)): "[avatar: \(width)×\(height) PPM]"
        case .loaded(.undrawable(let format, let byteCount)):
            "[avatar: \(format.terminalSafe), \(byteCount) bytes, not drawable here]"
        case .failed(let message): "[failed: \(message.terminalSafe)]"
        }
    }

    /// The picture as text lines, at most 16 columns wide (larger pictures are sampled).
    private static func drawing(
        width: Int, height: Int, pixels: [PictureViewState.Color], inColour: Bool
    ) -> [String] {
        let step = max(1, (max(width, height) + 15) / 16)
        let shades = Array(".:-=+*#%@".reversed())
        var lines: [String] = []
        for row in stride(from: 0, to: height, by: step) {
            var line = ""
            for column in stride(from: 0, to: width, by: step) {
                let pixel = pixels[row * width + column]
                if inColour {
                    line += "\u{1B}[48;2;\(pixel.red);\(pixel.green);\(pixel.blue)m  "
                } else {
                    let luminance =
                        (299 * Int(pixel.red) + 587 * Int(pixel.green) + 114 * Int(pixel.blue))
                        / 1000
                    let shade = shades[min(shades.count - 1, luminance * shades.count / 256)]
                    line += String(repeating: shade, count: 2)
                }
            }
            lines.append(inColour ? line + "\u{1B}[0m" : line)
        }
        return lines
    }
}
