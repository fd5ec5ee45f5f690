# Build: docker build --build-arg VERSION=$(git describe --always --dirty) -t dixbot .
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/dixbot ./cmd/dixbot \
 && mkdir -p /out/data

# A static binary on a minimal image, running as an unprivileged user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/dixbot /dixbot
COPY --from=build --chown=nonroot:nonroot /out/data /data
# The embedded store's file lives in /data: mount a volume there
# (docker run -v dix-data:/data …). No VOLUME line, so a deployment on
# Redis (docker-compose.yml) gets no anonymous volume it never uses.
ENV DIX_DATA_FILE=/data/dix.db \
    HTTP_ADDR=0.0.0.0:8080 \
    LOG_FORMAT=json
USER nonroot:nonroot
# 8080: /healthz and /metrics; 8081: the interactions endpoint, in HTTP
# interactions mode (INTERACTIONS_ADDR=0.0.0.0:8081 and DISCORD_PUBLIC_KEY).
EXPOSE 8080 8081
# /healthz: gateway connected and store reachable (the image has no shell or curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["/dixbot", "-healthcheck"]
ENTRYPOINT ["/dixbot"]
