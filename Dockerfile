# Quarry's container image: a static binary (no cgo) on a distroless base, as a non-root user.
#
#   docker build -t quarry .
#   docker run -p 1337:1337 -v quarry-data:/app/.tmp quarry              # examples/blog on SQLite
#   docker run -p 1337:1337 -v "$PWD/my-app:/app" quarry                  # your app folder
#
# Build arguments: VCS_REF (commit shown by `quarry version`; the build context has no .git).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VCS_REF=unknown
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.buildCommit=${VCS_REF} -X main.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      -o /out/quarry ./cmd/quarry \
 && /out/quarry version \
 && mkdir -p /out/app/.tmp /out/app/public/uploads \
 && cp -r examples/blog/src examples/blog/config /out/app/

# distroless/static has no shell, no curl and no libc: the binary needs none of them, and the
# health check is the binary itself (quarry health).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/quarry /usr/local/bin/quarry
COPY --from=build --chown=65532:65532 /out/app /app
WORKDIR /app
USER 65532:65532
ENV HOST=0.0.0.0 PORT=1337
EXPOSE 1337
# The app's generated secrets and SQLite file live in /app/.tmp, uploads in /app/public/uploads:
# mount volumes there to keep them.
VOLUME ["/app/.tmp", "/app/public/uploads"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["/usr/local/bin/quarry", "health"]
ENTRYPOINT ["/usr/local/bin/quarry"]
CMD ["serve", "--app", "/app"]
