# A terravox server in a container: `terravox serve` (no window, no GPU), its save
# folder a volume, its settings from the environment (deploy/serve.sh lists them).
#
#   docker build -f deploy/server.Dockerfile -t terravox-server .
#   docker run -d --name terravox -p 27050:27050/udp -v terravox-data:/data \
#     -e TERRAVOX_SEED=alpha -e TERRAVOX_MOTD="welcome" -i terravox-server
#   docker attach terravox        # the console: list, ban, op, ..., stop
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --bin terravox

FROM debian:bookworm-slim
# The binary needs only the C library (its window libraries load at run time, and a
# server opens none).
RUN useradd --system --home-dir /data --shell /usr/sbin/nologin terravox \
    && mkdir /data && chown terravox /data
COPY --from=build /src/target/release/terravox /usr/local/bin/terravox
COPY deploy/serve.sh /usr/local/bin/terravox-serve
USER terravox
VOLUME /data
EXPOSE 27050/udp
# SIGTERM (docker stop) saves the world and stops, as the console's `stop` does.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/terravox-serve"]
