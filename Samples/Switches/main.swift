// The Switches sample: a button per switch, and a label that says which switch changed.
// This file is the composition root: it builds the model, the presenter and the screen, and
// feeds the presenter the user's commands.

import MVCModel
import MVCObservation
import MVCPresenter
import MVCTracing
import SampleSupport

let usage = """
    USAGE: switches [--trace] [-h | --help]

    A button per switch toggles it; a label says which switch changed. Each switch is bound to its
    own presenter method through MVCObservation (source post 000).

    Interactive on a terminal (a prompt and 'help'); scripted when standard input is not a terminal:
    one command per line, the screen printed after each command that changed it, errors on standard
    error starting with 'error:', and exit status 1 if any command failed.

    OPTIONS:
      --trace       print each hop across a layer boundary as it happens
      -h, --help    show this help

    COMMANDS:
    \(SwitchesCommand.summary(switchNames: SwitchesModel().switches.map(\.name)))
    """

let console = Console()
let arguments = LaunchArguments.parseOrExit(usage: usage, knownFlags: ["--trace"], console: console)

let tracer =
    arguments.contains("--trace")
    ? HopTracer { hop in console.print("  trace: \(hop.description.terminalSafe)") } : .disabled
let model = SwitchesModel(tracer: tracer)
let presenter = SwitchesPresenter(model: model, tracer: tracer)
let screen = SwitchesScreen(presenter: presenter, console: console, tracer: tracer)
let switchNames = model.switches.map(\.name)

if console.isInteractive {
    console.print(
        "Switches: press a switch's letter to flip it. Type 'help' for the commands; arrows, Home, End and history edit the line."
    )
}
screen.render()

let status = await CommandLoop(console: console).run { line in
    let command: SwitchesCommand
    do throws(CommandError) {
        command = try SwitchesCommand(parsing: line, switchNames: switchNames)
    } catch {
        return .failed(error.description)
    }
    switch command {
    case .press(let name):
        tracer.record(from: .view, to: .presenter, "buttonTapped(\"\(name)\")")
        presenter.buttonTapped(name)
    case .reset:
        tracer.record(from: .view, to: .presenter, "resetTapped()")
        presenter.resetTapped()
    case .show: screen.render()
    case .help: console.print(SwitchesCommand.summary(switchNames: switchNames))
    case .quit: return .quit
    }
    screen.renderIfNeeded()
    return .succeeded
}
exitProcess(status)
