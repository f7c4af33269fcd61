#!/usr/bin/env bash
# The demo: installs what is missing, builds the Release tree, then runs a
# short ping-pong comparison of Pure (2 rank threads) with Open MPI
# (2 processes) and prints the table. `tools/bench.sh p2p` is the full run.
set -euo pipefail
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
echo "demo: building Release in ${BUILD_DIR:-$pure_root/build}"
pure_build_release
exec bash "$pure_root/tools/bench.sh" p2p --quick
