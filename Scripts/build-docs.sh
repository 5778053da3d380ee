#!/usr/bin/env bash
# Builds one static DocC site for every library module and the guide, on Linux, with the
# toolchain's docc: symbol graphs from `swift build`, `docc convert` per module (warnings as
# errors, links between modules resolved), then `docc merge` into one site.
#
#   Scripts/build-docs.sh [output folder]       (default: .build/docs-site)
#   Scripts/build-docs.sh --serve [port]        builds, then serves it on this machine and
#                                               prints the addresses to open (default: 8000)
#
# To read a site built without --serve, serve the folder and open the guide:
#   python3 -m http.server --directory .build/docs-site 8000
#   open http://127.0.0.1:8000/documentation/mvclayers/
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
serve=""
if [ "${1:-}" = "--serve" ]; then
    serve=${2:-8000}
    if ! [[ "$serve" =~ ^[0-9]+$ ]]; then
        echo "error: --serve takes a port number, not '$serve'" >&2
        exit 64
    fi
    set --
fi

output=${1:-.build/docs-site}
scratch=.build/docs
graphs=$scratch/symbol-graphs
modules=(MVCTracing MVCObservation MVCElements MVCModel MVCListStore MVCStore MVCDocumentStore MVCSQLiteStore MVCPostgresStore MVCAvatarServiceLive MVCDelegates MVCPresenter MVCPresenterTesting MVCObservationBridge)

mkdir -p "$graphs"
# MVCPresenterTesting depends, directly or not, on every module of the layer line; the adapters
# (the JSON document, the SQLite store, the live avatar service) are leaves nothing imports, so
# each is built too. Together they emit every module's symbol graph. The graphs stay in the
# scratch folder, so an incremental build that recompiles nothing still finds them.
for target in MVCPresenterTesting MVCObservationBridge MVCDocumentStore MVCSQLiteStore \
    MVCPostgresStore MVCAvatarServiceLive; do
    swift build --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
done

rm -rf "$output" "$scratch/archives"
mkdir -p "$scratch/archives" "$(dirname "$output")"
# Each module is converted with the archives of the modules before it as dependencies, so a
# catalog can link to another module's symbols (``/MVCObservation/ObservableProperty``); the
# list above is in dependency order.
dependencies=()
for module in "${modules[@]}"; do
    catalog=$(find Modules Adapters -maxdepth 2 -type d -name "$module.docc" | head -n 1)
    if [ -z "$catalog" ]; then
        echo "error: no documentation catalog $module.docc under Modules/ or Adapters/" >&2
        exit 1
    fi
    module_graphs=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    archive=$scratch/archives/$module.doccarchive
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$module_graphs" \
        --output-path "$archive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.mvclayers.$module" \
        --transform-for-static-hosting \
        --enable-experimental-external-link-support \
        "${dependencies[@]}" \
        --warnings-as-errors
    rm -rf "$module_graphs"
    dependencies+=(--dependency "$archive")
    echo "$module: $archive"
done

# The guide: the landing page (the three ideas, where to start reading), linking to every module.
docc convert Documentation/MVCLayers.docc \
    --output-path "$scratch/archives/MVCLayers.doccarchive" \
    --fallback-display-name MVCLayers \
    --fallback-bundle-identifier org.mvclayers.guide \
    --transform-for-static-hosting \
    --enable-experimental-external-link-support \
    "${dependencies[@]}" \
    --warnings-as-errors
echo "MVCLayers (guide): $scratch/archives/MVCLayers.doccarchive"

# One site: the guide first, then every module; docc merge adds an index of them all at
# /documentation/. The site's root sends a browser to the guide.
archives=("$scratch/archives/MVCLayers.doccarchive")
for module in "${modules[@]}"; do archives+=("$scratch/archives/$module.doccarchive"); done
docc merge "${archives[@]}" \
    --synthesized-landing-page-name MVCLayers \
    --synthesized-landing-page-kind Package \
    --synthesized-landing-page-topics-style detailedGrid \
    --output-path "$output"
cat >"$output/index.html" <<'HTML'
<!doctype html>
<meta charset="utf-8">
<title>MVCLayers documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/mvclayers/">
<p><a href="documentation/mvclayers/">MVCLayers: start here</a></p>
HTML
echo "site: $output (open /documentation/mvclayers/)"
if [ -n "$serve" ]; then
    echo "the tutorial: http://127.0.0.1:$serve/tutorials/packinglist"
    echo "the guide:    http://127.0.0.1:$serve/documentation/mvclayers/"
    echo "(serving until Ctrl-C)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$output" "$serve"
fi
