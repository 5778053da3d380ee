"""Pictures of a terminal, for the tutorial's pages (used by check-tutorial.py).

A picture is drawn from a transcript: the commands typed at the shell prompt, then each line the
program printed or the reader typed to it, in the order the terminal showed them. Chromium draws
the transcript as a terminal window and saves it as a PNG, and the transcript itself is kept in
the PNG (an iTXt chunk named "MVCLayers transcript"), so a check can read back what a picture
shows and compare it with what the step prints now, without comparing pixels.
"""
import html
import json
import pathlib
import struct
import subprocess
import tempfile
import zlib

KEYWORD = b"MVCLayers transcript"
LINE_HEIGHT = 19
CHARACTER_WIDTH = 8.43  # DejaVu Sans Mono at 14 px
COLUMNS = (80, 120)  # the terminal is at least 80 columns wide, and wraps a line past 120


class PictureError(Exception):
    pass


def transcript(commands, lines):
    """A transcript: `commands` typed at the prompt, then `lines`, each (typed, text)."""
    return {"commands": list(commands), "lines": [{"typed": typed, "text": text} for typed, text in lines]}


def columns(shown):
    texts = [f"$ {command}" for command in shown["commands"]] + [line["text"] for line in shown["lines"]]
    return max(COLUMNS[0], min(COLUMNS[1], max(map(len, texts), default=0))), texts


def page(shown):
    rows = [f'<div class="prompt"><span class="dollar">$</span> {html.escape(command)}</div>'
            for command in shown["commands"]]
    for line in shown["lines"]:
        kind = "typed" if line["typed"] else "printed"
        rows.append(f'<div class="{kind}">{html.escape(line["text"]) or "&nbsp;"}</div>')
    return f"""<!doctype html><meta charset="utf-8"><style>
html, body {{ margin: 0; background: #d9dde3; }}
.window {{ margin: 14px; border-radius: 9px; overflow: hidden; background: #1d1f23;
  box-shadow: 0 3px 10px rgba(0, 0, 0, 0.35); }}
.bar {{ height: 26px; background: #3a3d43; padding-left: 12px; }}
.bar span {{ display: inline-block; width: 12px; height: 12px; margin: 7px 4px 0 0;
  border-radius: 6px; background: #6b6e74; }}
.text {{ padding: 10px 14px 12px; font: 14px/{LINE_HEIGHT}px "DejaVu Sans Mono", monospace;
  color: #d6d9de; white-space: pre-wrap; word-break: break-all; width: {columns(shown)[0]}ch; }}
.prompt {{ color: #9fd08a; }} .dollar {{ color: #7aa6da; }}
.typed {{ color: #ffffff; font-weight: bold; }}
</style><div class="window"><div class="bar"><span></span><span></span><span></span></div>
<div class="text">{"".join(rows)}</div></div>"""


HERO = (1800, 600, 24)  # a chapter's hero: width, height, and the last rows it shows


def hero_page(shown):
    """A chapter's hero: DocC draws it behind the chapter's title, on the left, so the terminal
    sits on the right of a wide dark canvas, showing the run's last rows."""
    rows = len(shown["commands"]) + len(shown["lines"])
    keep = max(0, rows - HERO[2])
    commands = shown["commands"][keep:]
    lines = shown["lines"][max(0, keep - len(shown["commands"])):]
    window = page({"commands": commands, "lines": lines})
    return window.replace("html, body { margin: 0; background: #d9dde3; }",
                          "html, body { margin: 0; background: #101114; }"
                          f" .window {{ position: absolute; right: 150px; top: 30px; }}")


def draw(shown, path, hero=False):
    """Draws `shown` with Chromium into the PNG at `path`, the transcript kept inside it; as a
    chapter's hero, if asked."""
    width, texts = columns(shown)
    count = sum(max(1, -(-len(text) // width)) for text in texts)  # a wrapped line takes more
    height = 14 * 2 + 26 + 22 + count * LINE_HEIGHT + 4
    window = int(width * CHARACTER_WIDTH) + 14 * 2 + 14 * 2 + 4
    if hero:
        window, height = HERO[0], HERO[1]
    with tempfile.TemporaryDirectory() as folder:
        source = pathlib.Path(folder) / "screen.html"
        source.write_text(hero_page(shown) if hero else page(shown))
        shot = pathlib.Path(folder) / "screen.png"
        result = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--window-size={window},{height}",
             f"--screenshot={shot}", source.as_uri()],
            capture_output=True, text=True, timeout=120)
        if result.returncode != 0 or not shot.exists():
            raise PictureError(f"chromium could not draw {path.name}:\n{result.stderr[-2000:]}")
        pathlib.Path(path).write_bytes(with_transcript(shot.read_bytes(), shown))


def chunks(png):
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise PictureError("not a PNG")
    at = 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind = png[at + 4:at + 8]
        yield kind, png[at + 8:at + 8 + length], at, at + 12 + length
        at += 12 + length


def with_transcript(png, shown):
    """`png` with `shown` kept in an iTXt chunk right after its header."""
    data = KEYWORD + b"\x00\x00\x00\x00\x00" + json.dumps(shown, ensure_ascii=False).encode()
    chunk = struct.pack(">I", len(data)) + b"iTXt" + data
    chunk += struct.pack(">I", zlib.crc32(b"iTXt" + data) & 0xFFFFFFFF)
    _, _, _, header_end = next(chunks(png))
    return png[:header_end] + chunk + png[header_end:]


def read_transcript(path):
    """The transcript a picture was drawn from, or PictureError if it keeps none."""
    for kind, data, _, _ in chunks(pathlib.Path(path).read_bytes()):
        if kind == b"iTXt" and data.startswith(KEYWORD + b"\x00"):
            return json.loads(data[len(KEYWORD) + 5:].decode())
    raise PictureError(f"{pathlib.Path(path).name} keeps no transcript: draw it again with "
                       f"`python3 Scripts/check-tutorial.py --pictures`")
