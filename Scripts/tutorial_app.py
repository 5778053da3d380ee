"""The finished app of the tutorial, run as a user would run it (used by check-tutorial.py).

What the last chapter promises: an edit in the file within 2 s while the app runs and after
SIGTERM; every file the app makes beside the list named in the tutorial's text; two copies on
one file that show each other's items as they arrive, keep edits of different fields, and name
an edit of one field that lost on the losing copy's screen. What the page shows of those runs
must be what they print and write.
"""
import json
import pathlib
import re
import shutil
import signal
import subprocess
import threading
import time

CATALOG = pathlib.Path(__file__).resolve().parent.parent / "Documentation" / "MVCLayers.docc"
RESOURCES = CATALOG / "Resources"
SHOWN = json.loads((CATALOG.parent / "tutorial-checks.json").read_text())[
    "shown, checked by the finished app's run"]


class StepFailure(Exception):
    pass


class Copy:
    """The finished app, running on `file` in `folder`, its output read line by line as it comes."""

    def __init__(self, binary, folder, file):
        self.process = subprocess.Popen(["stdbuf", "-oL", str(binary), "--file", file], cwd=folder,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines, self.seen = [], threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            with self.seen:
                self.lines.append(line.rstrip("\n"))
                self.seen.notify_all()

    def send(self, *lines):
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def wait_for(self, text, seconds=10, after=0):
        """Waits until a line printed after the first `after` lines holds `text`; how many lines
        had been printed then."""
        with self.seen:
            if not self.seen.wait_for(lambda: any(text in line for line in self.lines[after:]), seconds):
                raise StepFailure(f"the app never printed “{text}” within {seconds} s; it printed:\n"
                                  + "\n".join(self.lines[-30:]))
            return len(self.lines)

    def end(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=60)


def wait_for_file(path, text, seconds):
    for _ in range(int(seconds * 20)):
        if path.exists() and text in path.read_text():
            return True
        time.sleep(0.05)
    return False


def shown(key):
    """The listing the page shows for what the finished app's run checks (tutorial-checks.json)."""
    return (RESOURCES / SHOWN[key]).read_text()


def without_ids(text):
    return re.sub(r'"[0-9A-F-]{36}"', '"…"', text).strip()


def check_finished_app(package, binary):
    """What the last chapter promises of the finished app, as a user at a terminal meets it: the
    file written while it runs and on SIGTERM, and two copies on one file (each other's items
    shown as they arrive, different fields both kept, a lost same-field edit named on the losing
    copy's screen). What the page shows of these runs must be what they print and write."""
    folder = package.parent / "finished"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    trip = folder / "trip.json"
    app = Copy(binary, folder, "trip.json")
    try:
        app.wait_for("Packing list")
        app.send("add Socks")
        app.wait_for("1. [ ] Socks")
        if not wait_for_file(trip, "Socks", 2):
            raise StepFailure("an edit did not reach the file within 2 s while the app ran")
        if without_ids(trip.read_text()) != shown("file").strip():
            raise StepFailure(f"the page shows the file as\n{shown('file')}but it holds\n{trip.read_text()}")
        if app.process.poll() is not None:
            raise StepFailure("the app ended on its own")
        # SIGTERM right after an edit: the edit is written before the app ends.
        after = app.wait_for("Packing list")
        app.send("add Hat")
        app.wait_for("2. [ ] Hat", after=after)
        app.process.send_signal(signal.SIGTERM)
        app.process.wait(timeout=30)
        if without_ids(trip.read_text()) != shown("file after SIGTERM").strip():
            raise StepFailure(f"after an edit and SIGTERM the page shows the file as\n"
                              f"{shown('file after SIGTERM')}but it holds\n{trip.read_text()}")
    finally:
        if app.process.poll() is None:
            app.process.kill()
    # Lock files or other companions beside the list: the text names each one.
    text = "".join(path.read_text() for path in (CATALOG / "Tutorials").glob("*.tutorial"))
    for companion in sorted(path.name for path in folder.iterdir() if path.name != "trip.json"):
        if companion not in text:
            raise StepFailure(f"the app made {companion} beside the list, and the tutorial never names it")

    # Two copies on one file.
    first, second = Copy(binary, folder, "trip.json"), Copy(binary, folder, "trip.json")
    try:
        for copy in (first, second):
            copy.wait_for("2. [ ] Hat")
        # A running copy shows what the other saved, with no command typed.
        second.send("add Towel")
        first.wait_for("3. [ ] Towel")
        # Different fields of one item: both kept.
        mark = first.wait_for("Towel")
        first.send("pack 1")
        first.wait_for("1. [x] Socks", after=mark)
        second.wait_for("1. [x] Socks")
        mark = second.wait_for("1. [x] Socks")
        second.send("edit 1", "quantity 2", "save")
        first.wait_for("1. [x] Socks ×2", after=mark)
        # One field, both: the editor open in the first while the second saves.
        mark = first.wait_for("1. [x] Socks ×2")
        first.send("edit 2", "quantity 5")
        editing = first.wait_for("quantity: 5", after=mark)
        mark = second.wait_for("Socks ×2")
        second.send("edit 2", "quantity 3", "save")
        second.wait_for("2. [ ] Hat ×3", after=mark)
        if not wait_for_file(trip, '"quantity":3', 5):
            raise StepFailure("the second copy's quantity never reached the file")
        # The first copy takes the save in while its editor is open, and draws the editor again.
        mark = first.wait_for("Editing an item", after=editing)
        first.send("save")
        first.wait_for("note:", after=mark)
        printed = first.lines[mark:]
        if not any(re.search(r"“Hat”.*quantity.*3", line) for line in printed):
            raise StepFailure("the losing copy was not told which item and field it lost:\n"
                              + "\n".join(printed))
        missing = [line for line in shown("losing copy").splitlines() if line not in printed]
        if missing:
            raise StepFailure("the page shows the losing copy printing lines it did not:\n"
                              + "\n".join(missing) + "\n--- it printed\n" + "\n".join(printed))
        # The lost save left nothing to undo: undo takes back this copy's `pack 1`, field by
        # field (the other copy's ×2 is kept), as the quiz says.
        mark = len(first.lines)
        first.send("undo")
        first.wait_for("1. [ ] Socks ×2", after=mark)
        for copy in (first, second):
            copy.end()
        saved = json.loads(trip.read_text())["document"]
        kept = {item["name"]: (item["isPacked"], item["quantity"]) for item in saved}
        if kept != {"Socks": (False, 2), "Hat": (False, 3), "Towel": (False, 1)}:
            raise StepFailure(f"the file holds {kept} after the two copies' edits")
    finally:
        for copy in (first, second):
            if copy.process.poll() is None:
                copy.process.kill()
