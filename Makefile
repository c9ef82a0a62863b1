# Build and checks of the conformance suite. CI (.github/workflows/ci.yml)
# runs these same targets, so `make lint test build` locally is what CI does.
#
#   make build            bin/conformance, reproducible (see below)
#   make test             go test ./... (the suite's self-test included)
#   make lint             vet, gofmt, staticcheck, no committed Ginkgo focus
#   make lint-workflows   actionlint on .github/workflows (from the module proxy)
#   make release-check    goreleaser check of .goreleaser.yaml (from the module proxy)
#   make release-snapshot every release archive into dist/, nothing published

GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
MODULE  := github.com/conformance-suite/conformance

# Tools run from the module proxy, so nothing needs installing first.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
ACTIONLINT  ?= github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
# v2.16.0 is the newest GoReleaser that builds here: v2.17 needs a module
# the proxy does not serve (go.digitalxero.dev/go-msix), v2.18 Go 1.27.
# Its first build takes minutes (about 3.5 on 2 cores), later runs seconds.
GORELEASER  ?= github.com/goreleaser/goreleaser/v2@v2.16.0

# Reproducible: -trimpath keeps build-machine paths out of the binary (and
# out of report locations), -buildvcs=false keeps the checkout's state and
# time out, CGO_ENABLED=0 keeps the C toolchain out. The same commit and
# Go version give the same bytes; the version comes from VERSION.
BUILDFLAGS := -trimpath -buildvcs=false -ldflags "-X $(MODULE)/internal/cli.version=$(VERSION)"

.PHONY: all build test lint vet fmt-check staticcheck focus-check lint-workflows release-check release-snapshot clean

all: lint test build

build:
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o bin/conformance ./cmd/conformance

test:
	$(GO) test ./...

lint: vet fmt-check staticcheck focus-check

vet:
	$(GO) vet ./...

fmt-check:
	@files=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$files" ]; then echo "gofmt needed (run gofmt -w):"; echo "$$files"; exit 1; fi

# Checks come from staticcheck.conf: ST1001 (dot imports) is off because
# Ginkgo and Gomega are meant to be dot-imported in spec files.
staticcheck:
	$(GO) run $(STATICCHECK) ./...

# A focused spec (FIt, FDescribe, ... or the Focus decorator) makes every
# other spec silently skipped, and the run exit 197: never commit one.
FOCUS_RE := (^|[^A-Za-z0-9_.])(FIt|FDescribe|FContext|FWhen|FEntry|FSpecify|FDescribeTable|FDescribeTableSubtree)\(|ginkgo\.Focus\b|[(,][[:space:]]*Focus[[:space:]]*[,)]
focus-check:
	@if grep -rnE '$(FOCUS_RE)' --include='*.go' . ; then \
		echo "focused Ginkgo specs found (above): remove the focus before committing"; exit 1; \
	else echo "no focused Ginkgo specs"; fi

lint-workflows:
	$(GO) run $(ACTIONLINT)

release-check:
	$(GO) run $(GORELEASER) check

release-snapshot:
	$(GO) run $(GORELEASER) release --snapshot --clean --skip=publish

clean:
	rm -rf bin
