# Quarry's container image: a static binary (no cgo) on a distroless base, as a non-root user,
# in production mode, with all of the app's state in one volume at /data.
#
#   docker build --build-arg VCS_REF=$(git rev-parse HEAD) -t quarry .
#   docker run -p 1337:1337 -e JWT_SECRET=$(openssl rand -base64 32) -v quarry-data:/data quarry
#
# The release (go run ./cmd/release) writes the same image as an OCI layout without Docker:
# docker load -i dist/quarry_<version>_oci.tar. See docs/docker.md.
#
# Build arguments: VERSION (shown by quarry version), VCS_REF (the commit; the build context
# has no .git).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG VCS_REF=unknown
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.buildVersion=${VERSION} -X main.buildCommit=${VCS_REF} -X main.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      -o /out/quarry ./cmd/quarry \
 && /out/quarry version \
 && mkdir -p /out/app /out/data/uploads \
 && cp -r examples/blog/src examples/blog/config /out/app/ \
 && ln -s /data /out/app/.tmp

# distroless/static has no shell, no curl and no libc: the binary needs none of them, and the
# health check is the binary itself (quarry health). It carries CA certificates and tzdata.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/quarry /usr/local/bin/quarry
COPY --from=build /out/app /app
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /app
USER 65532:65532
# Production by default: the GraphQL playground is off and JWT_SECRET is required.
# The app's .tmp (SQLite database, generated API token salt) is a link to /data, and uploads
# go to /data/uploads: one volume keeps the database and the files it points at together.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=1337 UPLOADS_DIR=/data/uploads
EXPOSE 1337
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["/usr/local/bin/quarry", "health"]
ENTRYPOINT ["/usr/local/bin/quarry"]
CMD ["serve", "--app", "/app"]
