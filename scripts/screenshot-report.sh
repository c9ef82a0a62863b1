#!/bin/sh
# screenshot-report.sh: render an HTML report in headless Chromium and save a
# PNG, to check by eye that a report reads well without the console output.
# Not run in CI (it needs a browser); use it when changing the HTML report.
#
# Usage: scripts/screenshot-report.sh [REPORT.html] [OUT.png] [WIDTHxHEIGHT]
#   With no REPORT it first runs the demo against a mutant of the reference
#   server (a failing run):
#     go run ./cmd/conformance demo --mutant tags-as-string --html-report ...
#   Needs Debian's chromium (apt-get install -y chromium). Set CHROMIUM to use
#   another binary. --no-sandbox is needed when running as root (containers).
set -eu

report=${1:-}
out=${2:-conformance-reports/report.png}
size=${3:-1280,2000}
size=$(printf %s "$size" | tr x ,)
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$browser" ]; then
	echo "screenshot-report.sh: no chromium found (apt-get install -y chromium, or set CHROMIUM)" >&2
	exit 2
fi

if [ -z "$report" ]; then
	report=conformance-reports/demo-mutant.html
	# The demo exits 1 when the mutant is caught, which is the point here.
	go run ./cmd/conformance demo --mutant "${MUTANT:-tags-as-string}" --html-report "$report" >/dev/null || true
fi
[ -f "$report" ] || { echo "screenshot-report.sh: $report: no such file" >&2; exit 2; }

mkdir -p "$(dirname "$out")"
abs=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
outabs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT INT TERM

# The flags keep Chromium off the network (the report must not need it) and
# away from the user's profile.
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run \
	--user-data-dir="$profile" --hide-scrollbars \
	--window-size="$size" --screenshot="$outabs" "file://$abs" 2>/dev/null
echo "wrote $out from $report"
