#!/usr/bin/env python3
"""Builds every step of the DocC tutorial against this checkout, as a learner would.

    python3 Scripts/check-tutorial.py [--pictures] [work folder]   (default: .build/tutorial)

The tutorial (Documentation/MVCLayers.docc/Tutorials) shows, step by step, the files of a
package that depends on MVCLayers by path. This script makes that package in the work folder,
beside a link named MVCLayers to this checkout, and applies the steps in order: after each step
it builds (or runs `swift test` when the step adds a test); a step listed in
Documentation/tutorial-checks.json may instead only be applied, be run with its output compared,
be required to fail to compile (then it is undone), or add a test that must fail until a later
step fixes the bug it shows. The package starts as the real
`swift package init --type executable --name PackingList` makes it, and the steps that show what
init made are compared with it. An output step may be the program's (compared exactly, with the
package's path shown as /path/to/), or `swift test`'s (each line shown must be printed; durations
are not compared). A failure names the step.

Before building, it checks the tutorial as a reader meets it: each step's size (a file's first
listing at most 25 lines, then at most 20 added lines a step, in one place unless the prose
names each), and the quizzes (at least three a chapter, no right answer copied from the
chapter). After the last step it runs the finished app as a user would: an edit must reach the
file within 2 s while the app runs, and an edit made just before SIGTERM must be written; the
files the app makes beside the list must be named in the text; two copies on one file must show
each other's items as they arrive, keep edits of different fields, and name on the losing
copy's screen an edit of one field that lost. What the page shows of those runs is compared with
what they printed and wrote. The finished app is left in <work>/PackingList, runnable there with
`swift run PackingList`.

Every run of the app has a picture of the reader's terminal beside its step, checked (or, with
--pictures, drawn from the step's run) by Scripts/tutorial_pictures.py.
"""
import difflib
import json
import pathlib
import re
import shutil
import subprocess
import sys
import time

import tutorial_pictures as pictures
from tutorial_app import StepFailure, check_finished_app

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOG = ROOT / "Documentation" / "MVCLayers.docc"
RESOURCES = CATALOG / "Resources"
CHECKS = json.loads((ROOT / "Documentation" / "tutorial-checks.json").read_text())
FIRST_LISTING = 25
STEP_LINES = 20


def tutorials_in_order():
    toc = (CATALOG / "Tutorials" / "PackingList.tutorial").read_text()
    return re.findall(r'@TutorialReference\(tutorial: "doc:(\w+)"\)', toc)


def steps(tutorial, with_prose=False):
    """(section title, step number, shown name, code file) for each step with code, in order;
    with the step's prose last if asked."""
    text = (CATALOG / "Tutorials" / f"{tutorial}.tutorial").read_text()
    found = []
    for section in re.finditer(r'@Section\(title: "([^"]+)"\)(.*?)(?=@Section\(|@Assessments|\Z)', text, re.S):
        number = 0
        for step in re.finditer(r"@Step \{(.*?)@Code\(name: \"([^\"]+)\", file: ([\w.-]+)\)", section.group(2), re.S):
            number += 1
            found.append((section.group(1), number, step.group(2), step.group(3))
                         + ((step.group(1),) if with_prose else ()))
    return found


LAST_BUILD = [0.0]


def settle():
    """Waits until a file written now is newer, by the clock the build compares, than the last
    build: a file copied in the same second as that build may be taken as built already."""
    wait = LAST_BUILD[0] + 1.1 - time.time()
    if wait > 0:
        time.sleep(wait)


def swift(package, *arguments, input_text=None, check=True):
    scratch = package.parent / "scratch"
    command = ["swift", *arguments, "--package-path", str(package), "--scratch-path", str(scratch)]
    if arguments[0] == "run":
        command = ["swift", "run", "--package-path", str(package), "--scratch-path", str(scratch), "-q", *arguments[1:]]
    result = subprocess.run(command, cwd=package, input=input_text, capture_output=True, text=True)
    LAST_BUILD[0] = time.time()
    if check and result.returncode != 0:
        raise StepFailure(f"`{' '.join(command[:2])}` failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result


def main():
    arguments = sys.argv[1:]
    if arguments and arguments[0] in ("-h", "--help"):
        print(__doc__)
        return
    pictures.DRAWING[0] = "--pictures" in arguments
    arguments = [argument for argument in arguments if argument != "--pictures"]
    problems = check_step_sizes() + check_quizzes() + pictures.check_pictures_shown()
    if problems:
        print("FAIL the tutorial as a reader meets it:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print("ok   step sizes, quizzes, and a picture beside every run")
    work = pathlib.Path(arguments[0] if arguments else ROOT / ".build" / "tutorial").resolve()
    package = work / "PackingList"
    shutil.rmtree(package, ignore_errors=True)
    package.mkdir(parents=True)
    # The learner's first command, for real.
    init = subprocess.run(
        ["swift", "package", "init", "--type", "executable", "--name", "PackingList"],
        cwd=package, capture_output=True, text=True)
    if init.returncode != 0:
        print(f"FAIL `swift package init` failed:\n{init.stdout}{init.stderr}")
        sys.exit(1)
    link = work / "MVCLayers"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(ROOT)

    count = 0
    for tutorial in tutorials_in_order():
        for section, number, name, code in steps(tutorial):
            label = f"{tutorial} › “{section}” › step {number} ({code})"
            count += 1
            try:
                check_step(package, name, code)
            except StepFailure as failure:
                print(f"FAIL tutorial step {label}: {failure}")
                sys.exit(1)
            print(f"ok   {label}")
        # The learner's tests pass at the end of every chapter, and they import only what the
        # test target depends on: a module merely built beside them (the executable) may be
        # found by luck of build order and be missing from a clean build.
        try:
            check_test_imports(package)
            swift(package, "test", "--disable-xctest")
        except StepFailure as failure:
            print(f"FAIL after {tutorial}, `swift test`: {failure}")
            sys.exit(1)
        print(f"ok   after {tutorial}: `swift test` passes")
    try:
        check_finished_app(package, package.parent / "scratch" / "debug" / "PackingList")
        for listing, picture in CHECKS["pictures of the finished app's runs"].items():
            pictures.picture_of(picture, (RESOURCES / listing).read_text(),
                                picture.get("input", "").splitlines())
        pictures.check_heroes()
    except (StepFailure, pictures.PictureError) as failure:
        print(f"FAIL the finished app: {failure}")
        sys.exit(1)
    print("ok   the finished app saves while it runs and on SIGTERM, and two copies are told the truth")
    print(f"{count} tutorial steps checked; the finished app is in {package}")


def check_step_sizes():
    """The limits a reader's step keeps: a file's first listing is at most FIRST_LISTING lines;
    each later listing adds at most STEP_LINES over the file's previous one, in one place (the
    manifest excepted, where a dependency goes beside each target that needs it; a change to the
    imports alone does not count as a place), unless the step's prose says "in two places" (or
    three, four) and names them. A listing that keeps less than half of the one
    before it replaces the file, and counts as a first listing. Returns the problems found."""
    problems, last = [], {}
    for tutorial in tutorials_in_order():
        for section, number, name, code, prose in steps(tutorial, with_prose=True):
            if name == "Output" or code in CHECKS["fails to compile"]:
                continue
            label = f"{tutorial} › “{section}” › step {number} ({code})"
            new = (RESOURCES / code).read_text().splitlines()
            # A listing that keeps less than half of the one before replaces it: read as new.
            if name in last and difflib.SequenceMatcher(None, last[name], new, autojunk=False).ratio() < 0.5:
                del last[name]
            if name not in last:
                if len(new) > FIRST_LISTING:
                    problems.append(f"{label}: the first listing of {name} has {len(new)} lines (at most {FIRST_LISTING})")
            else:
                matcher = difflib.SequenceMatcher(None, last[name], new, autojunk=False)
                changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
                added = sum(j2 - j1 for _, _, _, j1, j2 in changes)
                places = [op for op in changes
                          if not all(line.startswith("import ") or not line.strip()
                                     for line in last[name][op[1]:op[2]] + new[op[3]:op[4]])]
                if added > STEP_LINES:
                    problems.append(f"{label}: adds {added} lines to {name} (at most {STEP_LINES})")
                said = re.search(r"in (two|three|four) places", prose)
                told = said and ["two", "three", "four"].index(said.group(1)) + 2 == len(places)
                if len(places) > 1 and name != "Package.swift" and not told:
                    problems.append(f"{label}: changes {name} in {len(places)} places, and its prose "
                                    f"does not say so (“in two places”) and name each")
            last[name] = new
    return problems


def check_quizzes():
    """At least three questions a chapter, and no right answer copied from the chapter's prose.
    Returns the problems found."""
    problems = []
    flat = lambda text: re.sub(r"\s+", " ", text.replace("`", "")).strip().rstrip(".!?").lower()
    for tutorial in tutorials_in_order():
        text = (CATALOG / "Tutorials" / f"{tutorial}.tutorial").read_text()
        prose, _, quiz = text.partition("@Assessments")
        questions = re.findall(r"@MultipleChoice \{", quiz)
        if len(questions) < 3:
            problems.append(f"{tutorial}: {len(questions)} quiz questions (at least 3)")
        for answer in re.findall(r"@Choice\(isCorrect: true\) \{(.*?)@Justification", quiz, re.S):
            if flat(answer) and flat(answer) in flat(prose):
                problems.append(f"{tutorial}: the right answer “{flat(answer)}” is copied from the chapter")
    return problems


def check_test_imports(package):
    """Each module a test file imports is one its test target reaches through the manifest (a
    target or a product it depends on, directly or through a target of this package), or the
    toolchain's: a module that is merely built beside the tests (the executable) is found only
    by luck of build order, and a clean build says `no such module`."""
    manifest = json.loads(subprocess.run(
        ["swift", "package", "dump-package", "--package-path", str(package)],
        capture_output=True, text=True, check=True).stdout)
    targets = {target["name"]: target for target in manifest["targets"]}

    def reached(name, seen):
        if name in seen:
            return seen
        seen.add(name)
        for dependency in targets.get(name, {}).get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    reached(dependency[kind][0], seen)
        return seen

    for target in targets.values():
        if target["type"] != "test":
            continue
        allowed = reached(target["name"], set()) | {"Testing", "XCTest", "Foundation"}
        for source in sorted((package / "Tests" / target["name"]).rglob("*.swift")):
            for module in re.findall(r"^\s*(?:@testable\s+)?import\s+(\w+)", source.read_text(), re.M):
                if module not in allowed:
                    raise StepFailure(f"{source.relative_to(package)} imports {module}, which "
                                      f"{target['name']} does not depend on")


def check_step(package, name, code):
    source = RESOURCES / code
    if not source.exists():
        raise StepFailure(f"the step shows {code}, which is not in {RESOURCES}")
    runs = CHECKS["runs"]
    if code in CHECKS.get("made by init", []):
        made = (package / name).read_text() if (package / name).exists() else None
        shown = source.read_text()
        # The tools version is the toolchain's own; the rest must be what init made.
        strip = lambda text: re.sub(r"^// swift-tools-version:.*\n", "", text or "")
        if made is None or strip(made) != strip(shown):
            raise StepFailure(f"the step shows {name} as init makes it, but init made:\n{made}")
        if code in runs:
            swift(package, "build")
            run_and_compare(package, runs[code])
        return
    if name == "Output":
        if code in runs:  # an output shown for its own run (a second run, say)
            run_and_compare(package, runs[code])
        return
    target = package / name
    if code in CHECKS["fails to compile"]:
        expected = CHECKS["fails to compile"][code]
        previous = target.read_text() if target.exists() else None
        target.parent.mkdir(parents=True, exist_ok=True)
        settle()
        shutil.copy(source, target)
        result = swift(package, "build", check=False)
        settle()
        if previous is None:
            target.unlink()
        else:
            target.write_text(previous)
        if result.returncode == 0:
            raise StepFailure("the step says it does not compile, but it built")
        if expected not in result.stdout + result.stderr:
            raise StepFailure(f"it failed to compile, but not with “{expected}”:\n{result.stdout[-2000:]}")
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    settle()
    shutil.copy(source, target)
    if code in CHECKS["apply only"]:
        return
    if code in CHECKS["test fails"]:  # the test shows a bug the next steps fix
        result = swift(package, "test", "--disable-xctest", check=False)
        failing = f'✘ Test "{CHECKS["test fails"][code]}"'
        if result.returncode == 0 or failing not in result.stdout:
            raise StepFailure(f"the step says `swift test` fails with {failing}, but it printed:\n"
                              f"{result.stdout[-3000:]}")
    elif name.startswith("Tests/"):
        swift(package, "test", "--disable-xctest")
    else:
        swift(package, "build")
    if code in runs:
        run_and_compare(package, runs[code])


def run_and_compare(package, run):
    for fresh in run.get("fresh files", []):
        for path in [package / fresh, package / f".{fresh}.lock"]:
            if path.exists():
                path.unlink()
    expected = (RESOURCES / run["output"]).read_text()
    if run.get("test"):
        result = swift(package, "test", "--disable-xctest")
        durations = lambda text: re.sub(r"after [0-9.]+ seconds", "after … seconds", text)
        printed = set(durations(result.stdout).splitlines())
        missing = [line for line in durations(expected).splitlines() if line not in printed]
        if missing:
            raise StepFailure(f"`swift test` did not print:\n" + "\n".join(missing) + f"\n--- it printed\n{result.stdout[-3000:]}")
        return
    typed = run["input"].splitlines() if run.get("typed") else []
    live = None
    if pictures.DRAWING[0] and typed:  # typed line by line, to draw where each shows
        swift(package, "build")
        live = pictures.live_transcript(package, run)
        actual = "".join(text + "\n" for is_typed, text in live if not is_typed)
    else:
        result = swift(package, "run", "PackingList", *run["arguments"], input_text=run["input"])
        actual = result.stdout.replace(str(package) + "/", "/path/to/")
    if actual != expected:
        raise StepFailure(f"the program's output differs from {run['output']}:\n--- expected\n{expected}--- actual\n{actual}")
    pictures.picture_of(run, expected, typed, live)


if __name__ == "__main__":
    main()
