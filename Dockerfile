# The conformance suite as a container image: a static binary on a
# distroless base, run as a non-root user.
#
#   docker build --build-arg VERSION=v1.2.0 -t conformance .
#   docker run --rm -e CONFORMANCE_TOKEN -e CONFORMANCE_AUTH_TOKEN \
#     -v "$PWD/reports:/home/nonroot/reports" --user "$(id -u)" \
#     conformance --base-url https://staging.example.org --json-report reports/report.json
#
# The Go version is go.mod's (a test keeps them equal). Both base images are
# named in full (registry included, so Podman and Buildah resolve them as
# Docker does) and by an exact tag, never "latest".
ARG GO_VERSION=1.26.8

FROM docker.io/library/golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
# As `make build`: no C toolchain, no build-machine paths, no VCS state.
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/conformance-suite/conformance/internal/cli.version=${VERSION}" \
      -o /out/conformance ./cmd/conformance

# distroless/static: CA certificates and time zones, no shell, no package
# manager; the nonroot variant's user is 65532.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/conformance /usr/local/bin/conformance
USER 65532:65532
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/conformance"]
CMD ["--help"]
