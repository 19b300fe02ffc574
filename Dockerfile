# roomtax container image: build with Rust 1.95 on Debian bookworm, run on bookworm-slim.
#
#   docker build -t roomtax .                 (docker compose up builds it too)
#   docker run -p 8080:8080 -v roomtax-data:/app/data roomtax serve --demo
#
# Without DATABASE_URL the service uses SQLite at /app/data/roomtax.db (the volume).
# docker-compose.yml runs it against PostgreSQL instead.

# ---- builder ---------------------------------------------------------------
FROM rust:1.95-bookworm AS builder

# libpq for diesel's postgres backend (linked dynamically); SQLite is bundled.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# 1. Dependencies only, cached in their own layer: compile the locked dependency graph
#    against empty stand-ins for the crate's own sources, so that a change under src/
#    does not rebuild every dependency.
#    `.cargo/config.toml` comes first: it sets how the bundled SQLite is compiled.
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
RUN mkdir -p src \
 && echo 'fn main() {}' > src/main.rs \
 && touch src/lib.rs \
 && cargo build --release --locked \
 && rm -rf src

# 2. The crate itself. Its build script and embedded migrations, OpenAPI document and
#    policy presets come with it. The stand-ins' build results are removed first so
#    cargo cannot take them for up to date (COPY keeps the files' own mtimes).
COPY . .
RUN rm -rf target/release/.fingerprint/roomtax-* target/release/deps/roomtax-* \
           target/release/deps/libroomtax-* target/release/roomtax* \
 && cargo build --release --locked \
 && install -D -m 0755 -s target/release/roomtax /out/roomtax

# ---- runtime ---------------------------------------------------------------
FROM debian:bookworm-slim AS runtime

RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# An unprivileged user with a fixed id (so volume ownership and runAsNonRoot-style
# policies can rely on it).
RUN groupadd --system --gid 10001 roomtax \
 && useradd --system --uid 10001 --gid roomtax --home-dir /app --no-create-home \
            --shell /usr/sbin/nologin roomtax \
 && mkdir -p /app/data \
 && chown -R roomtax:roomtax /app

COPY --from=builder /out/roomtax /usr/local/bin/roomtax

WORKDIR /app
USER 10001:10001

# Listen on every interface inside the container; the default SQLite database
# (sqlite://data/roomtax.db) resolves to /app/data/roomtax.db from WORKDIR /app.
ENV ROOMTAX_HOST=0.0.0.0 \
    ROOMTAX_PORT=8080
VOLUME ["/app/data"]
EXPOSE 8080

# The image has no curl: bash (essential in Debian, so present in slim) asks /readyz
# over /dev/tcp and wants a 200 status line.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${ROOMTAX_PORT:-8080} && printf 'GET /readyz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && IFS= read -r -t 4 status <&3 && [[ $status == HTTP/1.?' 200'* ]]"]

# SIGTERM (docker stop) lets roomtax finish in-flight requests before it exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["roomtax"]
CMD ["serve"]
