"""The pictures of the reader's terminal beside the tutorial's steps (used by check-tutorial.py).

Every run of the app has a picture (an `@Image` in its step's `@Code`), and each command a
picture shows at the prompt is one the text says to type. With --pictures, each is drawn from
the run of its step (Scripts/terminal_picture.py); without it, the transcript each picture keeps
must be what its step prints now. Each chapter's hero is a run of the chapter's finished app,
drawn wide.
"""
import difflib
import json
import pathlib
import re
import subprocess
import threading
import time

import terminal_picture
from terminal_picture import PictureError
from tutorial_app import StepFailure

CATALOG = pathlib.Path(__file__).resolve().parent.parent / "Documentation" / "MVCLayers.docc"
RESOURCES = CATALOG / "Resources"
CHECKS = json.loads((CATALOG.parent / "tutorial-checks.json").read_text())
HEROES = "chapter heroes, each a run of the chapter's finished app drawn wide"
DRAWING = [False]


def tutorials_in_order():
    toc = (CATALOG / "Tutorials" / "PackingList.tutorial").read_text()
    return re.findall(r'@TutorialReference\(tutorial: "doc:(\w+)"\)', toc)


def check_pictures_shown():
    """Every run of the app (each output it checks, but `swift test`'s) has a picture, which a
    step's code shows (`@Image` inside its `@Code`), and each command a picture shows at the
    prompt is one the text tells the reader to type. Returns the problems found."""
    problems = []
    text = "".join((CATALOG / "Tutorials" / f"{name}.tutorial").read_text()
                   for name in tutorials_in_order())
    flat = lambda words: re.sub(r"\s+", " ", words)
    shown = {key: run for key, run in CHECKS["runs"].items() if not run.get("test")}
    shown.update(CHECKS["pictures of the finished app's runs"])
    for name in tutorials_in_order():
        intro = re.search(r"@Intro\(.*?\n    \}", (CATALOG / "Tutorials" / f"{name}.tutorial").read_text(), re.S)
        heroes = re.findall(r"@Image\(source: ([\w.-]+),", intro.group(0)) if intro else []
        if not heroes or heroes[0] not in CHECKS[HEROES]:
            problems.append(f"{name}'s hero is not a picture of its last run (tutorial-checks.json)")
    for key, run in shown.items():
        picture = run.get("picture")
        if picture is None:
            problems.append(f"the run checked by {key} has no picture of the reader's terminal")
        elif not re.search(r"@Code\([^)]*\) \{\s*@Image\(source: " + re.escape(picture) + ",", text):
            problems.append(f"no step's code shows {picture} (the picture of {key}'s run)")
        for command in run.get("commands", []):
            if f"`{flat(command)}`" not in flat(text):
                problems.append(f"{picture} shows `{command}` typed, and the text never says to")
    return problems


def picture_of(run, printed, typed_lines, live=None):
    """Checks the picture of a run against what it printed now (`printed`, the listing the page
    shows, already compared with the real run) and the lines typed to it; with --pictures, draws
    it instead, from the `live` transcript (typed lines where the terminal showed them) or, for
    a run without one, from the listing."""
    path = RESOURCES / run["picture"]
    if DRAWING[0]:
        lines = live if live is not None else (
            [(True, line) for line in typed_lines] + [(False, line) for line in printed.splitlines()])
        terminal_picture.draw(terminal_picture.transcript(run.get("commands", []), lines), path)
        print(f"     drew {path.name}")
        return
    try:
        shown = terminal_picture.read_transcript(path)
    except (OSError, terminal_picture.PictureError) as error:
        raise StepFailure(f"the picture {path.name}: {error}")
    typed = [line["text"] for line in shown["lines"] if line["typed"]]
    drawn = [line["text"] for line in shown["lines"] if not line["typed"]]
    if shown["commands"] != run.get("commands", []) or typed != typed_lines or drawn != printed.splitlines():
        difference = "\n".join(difflib.unified_diff(
            drawn, printed.splitlines(), "the picture", "the run", lineterm=""))
        raise StepFailure(f"{path.name} no longer shows what the step prints (draw it again with "
                          f"`python3 Scripts/check-tutorial.py --pictures`):\n{difference}")


def live_transcript(package, run):
    """Runs the built app as a reader at a terminal would: each line typed once the app has
    gone quiet, so the transcript shows the typed lines where the terminal would."""
    binary = package.parent / "scratch" / "debug" / "PackingList"
    process = subprocess.Popen(["stdbuf", "-oL", str(binary), *run["arguments"]], cwd=package,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    lines, last = [], [time.time()]
    seen = threading.Condition()

    def read():
        for line in process.stdout:
            with seen:
                lines.append((False, line.rstrip("\n").replace(str(package) + "/", "/path/to/")))
                last[0] = time.time()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def quiet():
        while time.time() - last[0] < 0.6:
            time.sleep(0.1)

    for typed in run["input"].splitlines():
        quiet()
        with seen:
            lines.append((True, typed))
            last[0] = time.time()
        process.stdin.write(typed + "\n")
        process.stdin.flush()
    process.stdin.close()
    process.wait(timeout=60)
    reader.join(timeout=10)
    return lines


def check_heroes():
    """Each chapter's hero keeps the transcript of the run it shows; with --pictures, draws it."""
    for hero, run in CHECKS[HEROES].items():
        shown = terminal_picture.read_transcript(RESOURCES / run)
        if DRAWING[0]:
            terminal_picture.draw(shown, RESOURCES / hero, hero=True)
            print(f"     drew {hero}")
        elif terminal_picture.read_transcript(RESOURCES / hero) != shown:
            raise StepFailure(f"the hero {hero} no longer shows the run {run} shows (draw it "
                              f"again with `python3 Scripts/check-tutorial.py --pictures`)")
