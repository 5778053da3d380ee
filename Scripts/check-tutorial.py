#!/usr/bin/env python3
"""Builds every step of the DocC tutorial against this checkout, as a learner would.

    python3 Scripts/check-tutorial.py [work folder]      (default: .build/tutorial)

The tutorial (Documentation/MVCLayers.docc/Tutorials) shows, step by step, the files of a
package that depends on MVCLayers by path. This script makes that package in the work folder,
beside a link named MVCLayers to this checkout, and applies the steps in order: after each step
it builds (or runs `swift test` when the step adds a test); a step listed in
Documentation/tutorial-checks.json may instead only be applied, be run with its output compared,
or be required to fail to compile (then it is undone). The package starts as the real
`swift package init --type executable --name PackingList` makes it, and the steps that show what
init made are compared with it. An output step may be the program's (compared exactly, with the
package's path shown as /path/to/), `swift test`'s (each line shown must be printed; durations
are not compared), or two copies of the program run at once on one file, then a third run. A
failure names the step. At the end the finished app is in <work>/PackingList, runnable there with
`swift run PackingList`.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOG = ROOT / "Documentation" / "MVCLayers.docc"
RESOURCES = CATALOG / "Resources"
CHECKS = json.loads((ROOT / "Documentation" / "tutorial-checks.json").read_text())


class StepFailure(Exception):
    pass


def tutorials_in_order():
    toc = (CATALOG / "Tutorials" / "PackingList.tutorial").read_text()
    return re.findall(r'@TutorialReference\(tutorial: "doc:(\w+)"\)', toc)


def steps(tutorial):
    """(section title, step number, shown name, code file) for each step with code, in order."""
    text = (CATALOG / "Tutorials" / f"{tutorial}.tutorial").read_text()
    found = []
    for section in re.finditer(r'@Section\(title: "([^"]+)"\)(.*?)(?=@Section\(|@Assessments|\Z)', text, re.S):
        number = 0
        for step in re.finditer(r"@Step \{(.*?)@Code\(name: \"([^\"]+)\", file: ([\w.-]+)\)", section.group(2), re.S):
            number += 1
            found.append((section.group(1), number, step.group(2), step.group(3)))
    return found


def swift(package, *arguments, input_text=None, check=True):
    scratch = package.parent / "scratch"
    command = ["swift", *arguments, "--package-path", str(package), "--scratch-path", str(scratch)]
    if arguments[0] == "run":
        command = ["swift", "run", "--package-path", str(package), "--scratch-path", str(scratch), "-q", *arguments[1:]]
    result = subprocess.run(command, cwd=package, input=input_text, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise StepFailure(f"`{' '.join(command[:2])}` failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    work = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build" / "tutorial").resolve()
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
    print(f"{count} tutorial steps checked; the finished app is in {package}")


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
        shutil.copy(source, target)
        result = swift(package, "build", check=False)
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
    shutil.copy(source, target)
    if code in CHECKS["apply only"]:
        return
    if name.startswith("Tests/"):
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
    if "two copies" in run:
        run_two_copies(package, run)
        result = swift(package, "run", "PackingList", *run["arguments"], input_text=run["two copies"]["then"])
    else:
        result = swift(package, "run", "PackingList", *run["arguments"], input_text=run["input"])
    actual = result.stdout.replace(str(package) + "/", "/path/to/")
    if actual != expected:
        raise StepFailure(f"the program's output differs from {run['output']}:\n--- expected\n{expected}--- actual\n{actual}")


def run_two_copies(package, run):
    """Starts the built program twice on one file; once both have drawn their screen, the second
    edits and ends, then the first: each copy saves when it ends, merging what the other saved."""
    swift(package, "build")
    binary = package.parent / "scratch" / "debug" / "PackingList"
    copies = run["two copies"]
    # Line-buffered output (stdbuf), so each copy's first screen arrives while it waits for input.
    command = ["stdbuf", "-oL", str(binary), *run["arguments"]]
    first = subprocess.Popen(command, cwd=package, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    second = subprocess.Popen(command, cwd=package, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    # Nothing here may hang CI: after two minutes both copies are stopped, and the step fails.
    watchdog = threading.Timer(120, lambda: [copy.kill() for copy in (first, second)])
    watchdog.start()
    try:
        # Both have opened the file once each has drawn its first screen.
        for copy in (first, second):
            if not copy.stdout.readline():
                raise StepFailure("a copy ended before drawing its screen")
        # The second copy edits, saves and ends; only then does the first, which opened the file
        # before the second saved: its save must merge the second's, not overwrite it.
        second.stdin.write(copies["second"]); second.stdin.flush()
        second.stdin.close()
        second.stdout.read()
        if second.wait(timeout=120) != 0:
            raise StepFailure("the second copy failed")
        first.stdin.write(copies["first"]); first.stdin.flush()
        first.stdin.close()
        first.stdout.read()
        if first.wait(timeout=120) != 0:
            raise StepFailure("the first copy failed")
    finally:
        watchdog.cancel()
        for copy in (first, second):
            if copy.poll() is None:
                copy.kill()


if __name__ == "__main__":
    main()
