#!/usr/bin/env bash
# Installs yttlint for the GitHub Action (action.yml), on Linux, macOS and Windows (Git Bash),
# x86_64 and arm64. Every step of the action that does more than one thing calls this script, so
# that it can be run and tested outside GitHub (tests/it/action_install.rs).
#
#   install.sh download   the release binary of YTTLINT_VERSION for this runner, checked against
#                         the release's SHA256SUMS and its own --version; any failure (no binary
#                         for the runner, a download, a checksum that is missing or does not
#                         match, another version) fails the step: it never falls back to building
#   install.sh key        the cache key and directory of a build from the action's source
#   install.sh build      cargo install --locked from the action's source into that directory
#   install.sh path       puts that directory's bin on the PATH of the next steps
#
# Environment: what the runner sets (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, RUNNER_TOOL_CACHE,
# GITHUB_ACTION_PATH, GITHUB_SERVER_URL, GITHUB_OUTPUT, GITHUB_PATH) and
#   YTTLINT_VERSION      the release to download (0.1.0 or v0.1.0)
#   YTTLINT_RELEASE_URL  where that release's files are (default: the GitHub release of the
#                        action's repository); a file:// URL or a local directory works too
#   YTTLINT_INSTALL_DIR  the build's directory (from `key`)
set -uo pipefail

fail() { echo "::error title=yttlint::$1"; exit 1; }

# A path the next steps understand: native on Windows (D:\a\_temp\x), unchanged elsewhere.
native_path() {
  if [ "${RUNNER_OS:-}" = Windows ] && command -v cygpath >/dev/null; then
    cygpath -w "$1"
  else
    printf '%s\n' "$1"
  fi
}

# The SHA-256 of a file in lower-case hex, with whatever the platform has: sha256sum (Linux, Git
# Bash), shasum (macOS), certutil or PowerShell (Windows).
sha256_of() {
  local digest=""
  if command -v sha256sum >/dev/null; then
    digest=$(sha256sum "$1" | cut -d' ' -f1)
  elif command -v shasum >/dev/null; then
    digest=$(shasum -a 256 "$1" | cut -d' ' -f1)
  elif command -v certutil >/dev/null; then
    digest=$(certutil -hashfile "$(native_path "$1")" SHA256 | sed -n 2p | tr -d ' \r')
  elif command -v powershell >/dev/null; then
    digest=$(powershell -NoProfile -Command "(Get-FileHash -Algorithm SHA256 -LiteralPath '$(native_path "$1")').Hash" | tr -d '\r')
  fi
  printf '%s\n' "$digest" | tr '[:upper:]' '[:lower:]'
}

# The release target of this runner and its archive's extension.
target_of() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo "x86_64-unknown-linux-musl tar.gz" ;;
    Linux/ARM64) echo "aarch64-unknown-linux-musl tar.gz" ;;
    macOS/X64) echo "x86_64-apple-darwin tar.gz" ;;
    macOS/ARM64) echo "aarch64-apple-darwin tar.gz" ;;
    Windows/X64) echo "x86_64-pc-windows-msvc zip" ;;
    Windows/ARM64) echo "aarch64-pc-windows-msvc zip" ;;
    *) echo "" ;;
  esac
}

# The action's repository (owner/name) from its checkout path, .../_actions/<owner>/<name>/<ref> with
# either separator; yttlint's home when the action is used from a local path.
action_repository() {
  local path repo
  path="${GITHUB_ACTION_PATH:-}"
  path="${path//\\//}"
  repo=$(printf '%s\n' "$path" | sed -n 's|.*/_actions/\([^/]*\)/\([^/]*\)/.*|\1/\2|p')
  printf '%s\n' "${repo:-yttlint/yttlint}"
}

# Copies URL (http(s), file:// or a local path) to FILE.
fetch() {
  case "$1" in
    http://* | https://* | file://*) curl -fsSL --retry 3 -o "$2" "$1" ;;
    *) cp "$1" "$2" ;;
  esac
}

unpack() { # unpack ARCHIVE DIR
  case "$1" in
    *.zip)
      if command -v unzip >/dev/null; then
        unzip -q -o "$1" -d "$2"
      elif command -v 7z >/dev/null; then
        7z x -y "-o$2" "$1" >/dev/null
      else
        powershell -NoProfile -Command "Expand-Archive -Force -LiteralPath '$(native_path "$1")' -DestinationPath '$(native_path "$2")'"
      fi
      ;;
    *) tar -xzf "$1" -C "$2" ;;
  esac
}

download() {
  local version="${YTTLINT_VERSION#v}"
  [ -n "$version" ] || fail "no version given"
  local target ext
  read -r target ext <<<"$(target_of)"
  [ -n "${target:-}" ] || fail "no yttlint release for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}; leave version empty to build from source"
  local name="yttlint-$version-$target.$ext"
  local base="${YTTLINT_RELEASE_URL:-${GITHUB_SERVER_URL:-https://github.com}/$(action_repository)/releases/download/v$version}"
  base="${base%/}"
  local dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/yttlint-$version"
  { rm -rf "$dir" && mkdir -p "$dir/bin"; } || fail "cannot create $dir"
  fetch "$base/$name" "$dir/$name" || fail "cannot download $base/$name"
  fetch "$base/SHA256SUMS" "$dir/SHA256SUMS" || fail "cannot download $base/SHA256SUMS"
  local want got
  want=$(tr -d '\r' <"$dir/SHA256SUMS" | awk -v f="$name" '$2 == f || $2 == "*" f { print tolower($1); exit }')
  [ -n "$want" ] || fail "SHA256SUMS of v$version has no checksum for $name"
  got=$(sha256_of "$dir/$name")
  [ -n "$got" ] || fail "no SHA-256 tool on this runner (sha256sum, shasum, certutil or PowerShell)"
  [ "$want" = "$got" ] || fail "$name does not match SHA256SUMS (got $got, want $want)"
  unpack "$dir/$name" "$dir/bin" || fail "cannot unpack $name"
  local exe
  exe=$(find "$dir/bin" -type f \( -name yttlint -o -name yttlint.exe \) | head -1)
  [ -n "$exe" ] || fail "no yttlint binary in $name"
  chmod +x "$exe"
  # The binary is the version asked for (a release whose archive holds another is refused).
  local said
  said=$("$exe" --version 2>/dev/null | tr -d '\r')
  [ "$said" = "yttlint $version" ] || fail "$name: the binary says \"$said\" to --version, not yttlint $version"
  native_path "$(dirname "$exe")" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
  echo "yttlint $version ($target) checked against SHA256SUMS ($got) and --version"
}

key() {
  cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}" || fail "cannot enter the action's directory"
  local sources digest
  sources=$(mktemp)
  { cat Cargo.toml Cargo.lock; find src docs -type f -print0 | LC_ALL=C sort -z | xargs -0 cat; } >"$sources"
  digest=$(sha256_of "$sources" | cut -c1-16)
  rm -f "$sources"
  [ -n "$digest" ] || fail "no SHA-256 tool on this runner (sha256sum, shasum, certutil or PowerShell)"
  local root="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?RUNNER_TEMP is not set}}"
  {
    echo "key=yttlint-${RUNNER_OS:-}-${RUNNER_ARCH:-}-$digest"
    echo "dir=$(native_path "$root/yttlint-build-$digest")"
  } >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

build() {
  cargo install --locked --root "${YTTLINT_INSTALL_DIR:?YTTLINT_INSTALL_DIR is not set}" \
    --path "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}" || fail "cargo install failed"
}

path() {
  local dir="${YTTLINT_INSTALL_DIR:?YTTLINT_INSTALL_DIR is not set}"
  [ -x "$dir/bin/yttlint" ] || [ -x "$dir/bin/yttlint.exe" ] || fail "no yttlint in $dir/bin"
  native_path "$dir/bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
}

case "${1:-}" in
  download | key | build | path) "$1" ;;
  *) echo "usage: $0 download|key|build|path" >&2; exit 2 ;;
esac
