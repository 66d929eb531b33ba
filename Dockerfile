# syntax=docker/dockerfile:1
# The Pontoon bot: a cgo build (SQLite is C) and a small runtime image.
#   docker build -t pontoon .
#   docker run -d --name pontoon -e PONTOON_DISCORD_TOKEN=... -v pontoon-data:/data pontoon
# Configuration comes from PONTOON_* variables (README: Configuration); the database
# lives on the /data volume.

# Build on the Debian release the runtime image is made from, so the binary's glibc
# matches. Any Go of 1.21 or later fetches the pinned toolchain (go.mod, .ci/run).
FROM golang:1.26-bookworm AS build
ENV GOTOOLCHAIN=go1.27.3 CGO_ENABLED=1
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download && go version
COPY . .
RUN go build -trimpath -ldflags="-s -w" -o /out/pontoon ./cmd/pontoon \
 && mkdir -p /out/data

# distroless/base: glibc, CA certificates and tzdata, no shell, user nonroot (65532).
FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/pontoon /pontoon
# The volume's mount point belongs to the runtime user, so a fresh named volume does too.
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
# The admin listener on the container's loopback, for the health check below. To scrape
# /metrics from another container, set PONTOON_ADMIN_LISTEN=:9464 and PONTOON_ADMIN_TOKEN.
ENV PONTOON_DATABASE_PATH=/data/pontoon.db \
    PONTOON_LOG_FORMAT=json \
    PONTOON_ADMIN_LISTEN=127.0.0.1:9464
VOLUME ["/data"]
EXPOSE 9464
# No shell or curl here: the binary asks its own admin listener (GET /healthz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/pontoon", "healthcheck"]
ENTRYPOINT ["/pontoon"]
CMD ["serve"]
