#!/usr/bin/env bash
# Checks the merged documentation site in a real browser: serves it on loopback, opens pages in
# headless Chromium (DocC renders pages with JavaScript, so only a browser shows whether a page
# really renders), and checks each page's rendered title. Pages: the guide (the landing page),
# the index of modules, each module's page and one symbol page per module, the SwiftUI and
# UIKit article, and the tutorial's table of contents and chapters. The guide's links to other modules must lead to pages that exist. A screenshot
# of the landing page is kept for a person to look at.
#
#   Scripts/check-docs-site.sh [site folder] [output folder]
#       site folder     built by Scripts/build-docs.sh (default: .build/docs-site)
#       output folder   where the screenshot and the rendered pages go (default: .build/ci-output)
#
# Needs chromium (Debian: apt-get install chromium), curl and python3. Exit status 1 when a page
# does not render.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi

site=${1:-.build/docs-site}
output=${2:-.build/ci-output}
chromium=${CHROMIUM:-chromium}
mkdir -p "$output/pages"
if [ ! -f "$site/data/documentation.json" ]; then
    echo "error: $site is not a merged documentation site; run Scripts/build-docs.sh first" >&2
    exit 2
fi

# The pages to check, one per line: path, page title, heading and a text it must show, separated
# by tabs: the guide, the index, the tutorial, each module and its first symbol.
pages=$output/pages.txt
python3 - "$site" >"$pages" <<'PY'
import json, os, sys
site = sys.argv[1]
def load(path):
    return json.load(open(os.path.join(site, "data", path)))
def page(path, title, heading=None, contains=""):
    print("\t".join([path, f"{title} | Documentation", heading or title, contains]))
index = load("documentation.json")
page("/documentation/", index['metadata']['title'])
guide = load("documentation/mvclayers.json")
page("/documentation/mvclayers/", guide['metadata']['title'], contains="Start here")
# The tutorial: its table of contents, and each chapter's tutorial with its quiz.
toc = load("tutorials/packinglist.json")
toc_title = toc['metadata']['title']
page("/tutorials/packinglist/", f"{toc_title} Tutorials", toc_title, "The terminal view")
for name in ["packinglistmodel", "packingliststore", "packinglistpresenter", "packinglistterminal"]:
    tutorial = load(f"tutorials/mvclayers/{name}.json")
    title = tutorial['metadata']['title']
    page(f"/tutorials/mvclayers/{name}/", f"{title} — {toc_title} Tutorials", title, "What the layers bought you")
modules = sorted(f[:-5] for f in os.listdir(os.path.join(site, "data", "documentation"))
                 if f.endswith(".json") and f != "mvclayers.json")
if len(modules) < 10:
    sys.exit(f"error: only {len(modules)} modules in the site: {modules}")
for module in modules:
    data = load(f"documentation/{module}.json")
    page(f"/documentation/{module}/", data['metadata']['title'])
    refs = data["references"]
    ids = [i for s in data.get("topicSections", []) for i in s["identifiers"]]
    symbols = [refs[i] for i in ids if refs.get(i, {}).get("kind") == "symbol"]
    if not symbols:
        sys.exit(f"error: the {module} page lists no symbol")
    page(f"{symbols[0]['url']}/", symbols[0]['title'])
article = load("documentation/mvcobservationbridge/swiftuianduikit.json")
page("/documentation/mvcobservationbridge/swiftuianduikit/", article['metadata']['title'])
PY

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --directory "$site" "$port" --bind 127.0.0.1 >"$output/server.log" 2>&1 &
server=$!
profile=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$profile"' EXIT
base=http://127.0.0.1:$port
for _ in $(seq 100); do
    curl -fsS -o /dev/null "$base/documentation/" 2>/dev/null && break
    sleep 0.1
done

# --no-sandbox: CI runs as root. --virtual-time-budget: let the page fetch its data and render
# before the DOM is dumped.
browse() {
    timeout 90 "$chromium" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --user-data-dir="$profile" --hide-scrollbars --virtual-time-budget=10000 "$@" \
        2>>"$output/chromium.log"
}

failures=0
while IFS=$'\t' read -r path title heading contains; do
    dom=$output/pages/$(echo "$path" | tr '/' '_' | sed 's/^_//; s/_$//').html
    status=$(curl -s -L -o /dev/null -w '%{http_code}' "$base$path" || true)
    if [ "$status" != 200 ]; then
        echo "FAIL $path: HTTP $status"
        failures=$((failures + 1))
        continue
    fi
    if ! browse --dump-dom "$base$path" >"$dom"; then
        echo "FAIL $path: chromium failed or timed out"
        failures=$((failures + 1))
        continue
    fi
    if verdict=$(python3 - "$dom" "$title" "$heading" "$contains" 2>&1 <<'PY'
import html, re, sys
dom, expected_title, expected, contains = open(sys.argv[1], encoding="utf-8").read(), *sys.argv[2:5]
found = re.search(r"<title>(.*?)</title>", dom, re.S)
page_title = html.unescape(found.group(1)) if found else ""
h1s = [html.unescape(re.sub(r"<[^>]+>", "", h)).strip()
       for h in re.findall(r'<h1[^>]*class="(?:title|heading)[^"]*"[^>]*>(.*?)</h1>', dom, re.S)]
if "error-content" in dom or "can't be found" in dom:
    sys.exit(f"DocC rendered its not-found page (title {page_title!r})")
if page_title != expected_title:
    sys.exit(f"title {page_title!r}, expected {expected_title!r}")
if expected not in h1s:
    sys.exit(f"no <h1> {expected!r} (found {h1s})")
if contains and contains not in html.unescape(re.sub(r"<[^>]+>", "", dom)):
    sys.exit(f"the page does not show {contains!r}")
print(f"renders {page_title!r}")
PY
    ); then
        echo "ok   $path $verdict"
    else
        echo "FAIL $path $verdict"
        failures=$((failures + 1))
    fi
done <"$pages"

# Links between modules: every module page the guide links to exists.
guide_dom=$output/pages/documentation_mvclayers.html
links=$(grep -o 'href="/documentation/[a-z]*/[a-z0-9_-]*"' "$guide_dom" | sort -u | sed 's/href="//; s/"$//' || true)
linked_modules=$(echo "$links" | cut -d/ -f3 | sort -u | grep -c . || true)
if [ "$linked_modules" -lt 5 ]; then
    echo "FAIL the guide links to symbols of only $linked_modules modules"
    failures=$((failures + 1))
fi
for link in $links; do
    status=$(curl -s -L -o /dev/null -w '%{http_code}' "$base$link/" || true)
    if [ "$status" != 200 ]; then
        echo "FAIL the guide links to $link, which gives HTTP $status"
        failures=$((failures + 1))
    fi
done
echo "ok   the guide's $(echo "$links" | grep -c .) links into $linked_modules modules lead to pages"

browse --window-size=1280,1000 --screenshot="$output/docs-landing.png" "$base/documentation/mvclayers/" >/dev/null
echo "screenshot of the landing page: $output/docs-landing.png"

total=$(wc -l <"$pages")
echo "$((total - failures))/$total pages rendered"
[ "$failures" -eq 0 ]
