#!/usr/bin/env bash
# Builds the release `yarn` as it is meant to be installed (and as the benchmarks run it), and
# prints the executable's path on standard output.
#
# On Linux the Swift runtime is linked statically (-static-stdlib: no libswiftCore.so and
# Foundation libraries to load at each start) and the executable is not position-independent
# (-no-pie: none of the 74,000 relocations a PIE binary of this size applies at each start).
# `yarn --version` then takes about 3.5 ms instead of 11 ms; see bench/README.md.
#
# SQLite and the C++ runtime (which the static Swift runtime needs) are linked statically too
# when their archives are there (libsqlite3-dev ships libsqlite3.a; gcc, libstdc++.a): the
# loader then maps and relocates only libc and libm at each start, which took 3.1 M of the
# 13.8 M instructions of `yarn time start` (bench/README.md). The linker takes a library from
# the first directory of its search path that holds libX.so or libX.a, so a directory holding
# only the archives, put before the system's, makes `-lsqlite3` and `-lstdc++` static.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
flags=()
if [ "$(uname)" = Linux ]; then
  flags=(-Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie)
  static=.build/static-archives
  rm -rf "$static"
  mkdir -p "$static"
  for archive in libsqlite3.a libstdc++.a; do
    found=$(cc -print-file-name="$archive" 2>/dev/null || true)
    # cc prints the bare name when it finds no such file.
    if [ -n "$found" ] && [ "$found" != "$archive" ] && [ -f "$found" ]; then
      ln -s "$(realpath "$found")" "$static/$archive"
    else
      echo "build-release: $archive not found; that library is linked dynamically" >&2
    fi
  done
  flags+=(-Xswiftc -L -Xswiftc "$PWD/$static")
fi
swift build -c release --product yarn ${flags[@]+"${flags[@]}"} >&2
echo "$(swift build -c release ${flags[@]+"${flags[@]}"} --show-bin-path)/yarn"
