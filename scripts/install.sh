#!/usr/bin/env bash
# Installs yarn under a prefix (default ~/.local): the release binary, its manual page and its
# shell completions, each where the system looks for them:
#   PREFIX/bin/yarn
#   PREFIX/share/man/man1/yarn.1                           (man yarn; `yarn help --man`)
#   PREFIX/share/bash-completion/completions/yarn          (bash-completion loads it)
#   PREFIX/share/zsh/site-functions/_yarn                  (add it to $fpath for zsh)
#   PREFIX/share/fish/vendor_completions.d/yarn.fish       (fish reads it under /usr/local, /usr)
#
# Usage: bash scripts/install.sh [PREFIX]
#   DESTDIR=dir  installs under dir/PREFIX (for packaging).
#   YARN_BINARY=path  installs that binary instead of building one (scripts/build-release.sh).
# The page and the scripts are written by the binary itself (`yarn help --man`,
# `yarn completions bash|zsh|fish`), so they match its commands.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-${PREFIX:-$HOME/.local}}
root=${DESTDIR:-}$prefix
binary=${YARN_BINARY:-$(bash scripts/build-release.sh)}
[ -x "$binary" ] || { echo "install: $binary is not an executable" >&2; exit 66; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$binary" help --man > "$work/yarn.1"
"$binary" completions bash > "$work/yarn.bash"
"$binary" completions zsh > "$work/_yarn"
"$binary" completions fish > "$work/yarn.fish"

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/bin/yarn"
install -m 644 "$work/yarn.1" "$root/share/man/man1/yarn.1"
install -m 644 "$work/yarn.bash" "$root/share/bash-completion/completions/yarn"
install -m 644 "$work/_yarn" "$root/share/zsh/site-functions/_yarn"
install -m 644 "$work/yarn.fish" "$root/share/fish/vendor_completions.d/yarn.fish"
echo "installed yarn, its manual page and its bash, zsh and fish completions under $root" >&2
