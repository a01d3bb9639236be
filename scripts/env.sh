# Sourced by the scripts that build. On macOS, Homebrew's headers (libzip's zip.h, which
# Sources/CLibzip includes) are not on the C compiler's default path: point it there.
if [ "$(uname)" = Darwin ] && command -v brew >/dev/null 2>&1; then
  CPATH="$(brew --prefix)/include${CPATH:+:$CPATH}"
  export CPATH
fi
