# shellcheck shell=bash
# Sourced by the project scripts (tools/test.sh, tools/demo.sh, tools/bench.sh):
# installs the Debian packages the build needs, only those missing, and says
# nothing when every one is already there. Running it directly works too.
#
# After sourcing: pure_root is the repository root, and pure_build_release
# configures and builds the Release tree.

pure_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# ccache (the build's compiler launcher when installed) rewrites paths under
# the checkout as relative ones, so that another clone on the same machine
# (CI's) finds the objects this one compiled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$pure_root}

# What a fresh Debian 12 machine lacks for configure, build, test and bench.
# openmpi-bin brings mpirun (and openssh-client, which its launcher wants);
# MPICH is the second MPI that jobs of several processes are tested against.
# The Clang 14 packages are for tools/mpi2pure (clang-14 brings the builtin
# headers it parses with) and for the Clang ThreadSanitizer tree of
# tools/test.sh (libclang-rt-14-dev holds the sanitizer runtimes, which
# Debian only recommends). tools/bench_report.py runs on Debian's python3;
# matplotlib draws the figures of tools/bench.sh --plot and tools/trace_plot.py.
pure_packages=(
  build-essential cmake ninja-build pkg-config ccache
  libhwloc-dev libboost-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  libmpich-dev mpich
  libgtest-dev libgmock-dev libbenchmark-dev
  libclang-cpp14-dev libclang-14-dev llvm-14-dev clang-14 libclang-rt-14-dev
  python3 python3-matplotlib
)

pure_install_deps() {
  local missing=() p
  for p in "${pure_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0

  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null ||
      { echo "deps: missing ${missing[*]} and not root (no sudo to install them)" >&2; return 1; }
    sudo=(sudo)
  fi
  echo "deps: installing ${missing[*]}"
  # Wait for another apt (unattended upgrades on a fresh machine) to finish.
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  "${apt[@]}" update -qq >/dev/null ||
    { echo "deps: apt-get update failed" >&2; return 1; }
  "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { echo "deps: apt-get install ${missing[*]} failed" >&2; return 1; }
}

# Configures and builds the Release tree ($BUILD_DIR, default build/) with at
# most two compile jobs, with Ninja (a tree configured before with another
# generator keeps it). Quiet unless it fails; --verbose shows the output.
pure_build_release() {
  local dir=${BUILD_DIR:-$pure_root/build} verbose=${1:-} generator=()
  if [ ! -f "$dir/CMakeCache.txt" ] || grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    generator=(-G Ninja)
  fi
  pure_build_step "$verbose" cmake -S "$pure_root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release &&
    pure_build_step "$verbose" cmake --build "$dir" -j2
}

# pure_build_step [--verbose|""] CMD...: runs CMD; unless verbose, shows its
# output only when it fails.
pure_build_step() {
  local verbose=$1 log status=0
  shift
  if [ "$verbose" = --verbose ]; then
    "$@" || status=$?
  else
    log=$(mktemp)
    "$@" >"$log" 2>&1 || { status=$?; cat "$log" >&2; }
    rm -f "$log"
  fi
  [ "$status" -eq 0 ] || echo "build: '$*' failed" >&2
  return "$status"
}

# Sourced: return the failure to the caller; run directly: exit with it.
# shellcheck disable=SC2317
pure_install_deps || { return 1 2>/dev/null || exit 1; }
