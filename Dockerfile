# syntax=docker/dockerfile:1
# yttlint in a container: a static (musl) binary on Alpine. Alpine rather than an empty image
# because CI jobs run shell scripts in it (GitLab's `script:`); the image is about 20 MB.
#
#   docker build -t yttlint .                          # builds yttlint from this source
#   docker run --rm -v "$PWD:/work" yttlint            # lints the current directory
#
# Released images are ghcr.io/yttlint/yttlint:VERSION (and :latest).
#
# The release workflow passes BINARY_SOURCE=prebuilt and puts its musl binaries at
# dist/docker/<arch>/yttlint, so the image is not compiled again under emulation.
ARG BINARY_SOURCE=source

FROM rust:1-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
RUN cargo build --release --locked && cp target/release/yttlint /yttlint

FROM scratch AS source
COPY --from=build /yttlint /yttlint

FROM scratch AS prebuilt
ARG TARGETARCH
COPY dist/docker/${TARGETARCH}/yttlint /yttlint

FROM ${BINARY_SOURCE} AS binary

FROM alpine:3.20
# Links the image on ghcr.io/yttlint/yttlint to its repository.
LABEL org.opencontainers.image.source="https://github.com/yttlint/yttlint" \
      org.opencontainers.image.description="yttlint, a linter for Carvel ytt repositories" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=binary /yttlint /usr/local/bin/yttlint
WORKDIR /work
ENTRYPOINT ["yttlint"]
