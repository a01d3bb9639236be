#!/usr/bin/env bash
# Builds the release `yarn` as it is meant to be installed (and as the benchmarks run it), and
# prints the executable's path on standard output.
#
# On Linux the Swift runtime is linked statically (-static-stdlib: no libswiftCore.so and
# Foundation libraries to load at each start) and the executable is not position-independent
# (-no-pie: none of the 74,000 relocations a PIE binary of this size applies at each start).
# `yarn --version` then takes about 3.5 ms instead of 11 ms; see bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
flags=()
if [ "$(uname)" = Linux ]; then
  flags=(-Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie)
fi
swift build -c release --product yarn ${flags[@]+"${flags[@]}"} >&2
echo "$(swift build -c release ${flags[@]+"${flags[@]}"} --show-bin-path)/yarn"
