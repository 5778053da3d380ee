#!/usr/bin/env bash
# Builds the static DocC documentation of every library module on Linux, with the toolchain's
# docc: symbol graphs from `swift build`, then `docc convert` per module, warnings as errors.
#
#   Scripts/build-docs.sh [output folder]       (default: .build/docs-site)
#
# Each module lands in <output>/<Module>/. To read one, serve its folder and open the module's page:
#   python3 -m http.server --directory .build/docs-site/MVCObservation 8000
#   open http://127.0.0.1:8000/documentation/mvcobservation/
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi

output=${1:-.build/docs-site}
scratch=.build/docs
graphs=$scratch/symbol-graphs
modules=(MVCTracing MVCObservation MVCModel MVCPersistence MVCStore MVCAvatarServiceLive MVCDelegates MVCPresenter MVCPresenterTesting MVCObservationBridge)

mkdir -p "$graphs"
# MVCPresenterTesting depends, directly or not, on every other library module but the live avatar
# service (a leaf nothing imports), so building the two emits every module's symbol graph. The
# graphs stay in the scratch folder, so an incremental build that recompiles nothing still finds
# them.
for target in MVCPresenterTesting MVCAvatarServiceLive MVCObservationBridge; do
    swift build --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
done

rm -rf "$output"
mkdir -p "$output"
for module in "${modules[@]}"; do
    catalog=$(find Modules -maxdepth 2 -type d -name "$module.docc" | head -n 1)
    if [ -z "$catalog" ]; then
        echo "error: no documentation catalog $module.docc under Modules/" >&2
        exit 1
    fi
    module_graphs=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$module_graphs" \
        --output-path "$output/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.mvclayers.$module" \
        --transform-for-static-hosting \
        --warnings-as-errors
    rm -rf "$module_graphs"
    echo "$module: $output/$module"
done
