#!/usr/bin/env bash
# Installs the C libraries yarn builds against, when they are missing:
# libzip (zip backups), SQLite 3 (the library store), OpenSSL's libcrypto (SHA-256, Linux only).
set -euo pipefail

have_headers() {
  pkg-config --exists libzip 2>/dev/null || return 1
  if [ "$(uname)" = Linux ]; then
    pkg-config --exists libcrypto 2>/dev/null || return 1
    [ -f /usr/include/sqlite3.h ] || pkg-config --exists sqlite3 2>/dev/null || return 1
  fi
  return 0
}

# The checkers of the completion scripts and the manual page (zsh -n, fish --no-execute,
# groff, man -l): optional. Without them the tests that use them are skipped with a message;
# with YARN_SETUP_CHECKERS=1 (as .ci/run sets) they are installed with apt-get when missing.
optional_checkers() {
  missing=()
  command -v zsh >/dev/null 2>&1 || missing+=(zsh)
  command -v fish >/dev/null 2>&1 || missing+=(fish)
  command -v groff >/dev/null 2>&1 || missing+=(groff-base)
  command -v man >/dev/null 2>&1 || missing+=(man-db)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "${YARN_SETUP_CHECKERS:-}" = 1 ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "setup: installing ${missing[*]} with apt-get (checkers of the completions and man page)" >&2
    { $SUDO apt-get update -qq \
      && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2; } \
      || echo "setup: could not install ${missing[*]}; the tests that need them are skipped" >&2
  else
    echo "setup: ${missing[*]} not installed; the tests that need them are skipped" \
      "(YARN_SETUP_CHECKERS=1 installs them with apt-get)" >&2
  fi
}
optional_checkers

# Python's jsonschema 4.x, with which the WEFT tests validate `yarn weft export` against WEFT's
# JSON schemas (the test is skipped without it): installed for this user when python3 lacks it.
install_jsonschema() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import jsonschema' 2>/dev/null && return 0
  echo "setup: installing Python's jsonschema 4.x with pip (--user)" >&2
  python3 -m pip install --user --quiet 'jsonschema>=4,<5' >&2 \
    || python3 -m pip install --user --quiet --break-system-packages 'jsonschema>=4,<5' >&2 \
    || echo "setup: could not install jsonschema; the WEFT schema test will be skipped" >&2
}
install_jsonschema

if have_headers; then exit 0; fi

if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing libzip-dev libsqlite3-dev libssl-dev pkg-config with apt-get" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libzip-dev libsqlite3-dev libssl-dev pkg-config >&2
elif command -v brew >/dev/null 2>&1; then
  echo "setup: installing libzip and pkg-config with Homebrew" >&2
  brew install libzip pkg-config >&2
else
  echo "setup: cannot find libzip; install libzip (with pkg-config), SQLite 3 and OpenSSL headers" >&2
  exit 1
fi
have_headers || { echo "setup: libraries still not found by pkg-config" >&2; exit 1; }
