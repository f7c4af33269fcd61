#!/usr/bin/env bash
# Installs what is missing, builds and runs the tests, in one of three tiers:
#
#   tools/test.sh           (CI, the README's command; its budget is in the
#                           README's "Testing")
#     1. the Release tree in build/ and every test of the default tier once
#        (the tests labelled "heavy" are left to --full), then the tests
#        labelled "concurrency" (those that run rank threads) again with
#        PURE_FIBERS=off; the multi-process tests run here against Open MPI;
#     2. an MPICH tree in build-mpich/ and the multi-process tests (label
#        "multiproc") against it;
#     3. a ThreadSanitizer tree built by Clang in build-tsan-clang/ and the
#        concurrency tests, with fibers and with PURE_FIBERS=off, their rank
#        sweeps sampled (tests/harness.h, rank_sweep). Clang's
#        instruments fences (GCC's ignores atomic_thread_fence); the
#        fence-based handshakes neither can check have litmus tests
#        (tests/litmus_test.cpp) in the Release tree.
#   tools/test.sh --quick   (the inner loop, on a built tree)
#     the tests labelled "quick" in build/: the unit tests, one run of each
#     layer's suite, the translator's golden tests, and one multi-process
#     job per MPI library (build-mpich/ is built when missing).
#   tools/test.sh --full    (before resolving a change to a concurrency
#                           protocol, the wait loop or memory ordering)
#     the default tier with the heavy tests too (2^31-byte messages, apps at
#     32-80 ranks, the traced reruns of whole suites), every rank count of
#     the sweeps under ThreadSanitizer, and a second ThreadSanitizer tree
#     built by GCC in build-tsan/, with fibers and with PURE_FIBERS=off.
#
# Also checks that include/pure/mpi.h matches pure.h. Prints a table of each
# step's time at the end; exits non-zero when any step fails; the last line
# is a one-line summary. Works from any directory.
set -uo pipefail

tier=default
case ${1:-} in
  "") ;;
  --quick) tier=quick ;;
  --full) tier=full ;;
  -h | --help)
    sed -n '2,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  *)
    echo "test.sh: unknown option '$1' (expected --quick, --full or nothing)" >&2
    exit 2 ;;
esac

start=$SECONDS
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh" || exit 1
cd "$pure_root" || exit 1

failed=()
passed=()
step_names=()
step_times=()
step_status=()
step_names+=("packages (tools/deps.sh)")
step_times+=($((SECONDS - start)))
step_status+=(ok)

section() { printf '\n==== %s\n' "$*"; }

# Each step's output is also kept, so that the end of the run can repeat
# what failed: a CI log is often read from its tail only, and a failing step
# may be followed by many passing ones.
step_logs=$(mktemp -d)
trap 'rm -rf "$step_logs"' EXIT
failed_logs=()

# step NAME CMD...: runs CMD, records NAME as passed or failed, and its time.
step() {
  local name=$1 began=$SECONDS
  shift
  section "$name"
  local log="$step_logs/$((${#passed[@]} + ${#failed[@]})).log"
  local status=0
  "$@" 2>&1 | tee "$log" || status=1
  step_names+=("$name")
  step_times+=($((SECONDS - began)))
  if [ "$status" -eq 0 ]; then
    passed+=("$name")
    step_status+=(ok)
    return 0
  fi
  echo "test.sh: $name FAILED"
  failed+=("$name")
  failed_logs+=("$log")
  step_status+=(FAILED)
  return 1
}

# digest LOG: the lines of a failed step that say what failed -- ctest's
# list of failed tests, GoogleTest failures, sanitizer reports and errors,
# then the first sanitizer report whole.
digest() {
  grep -E '\*\*\*(Failed|Exception|Timeout)|Failed +[0-9.]+ sec|The following tests FAILED|^[[:space:]]+[0-9]+ - |\[  FAILED  \]|: Failure$|SUMMARY: [A-Za-z]+Sanitizer|ThreadSanitizer: CHECK|error:|FAIL' "$1" |
    grep -v 'tests failed out of' | head -n 60
  awk '/WARNING: ThreadSanitizer|ERROR: [A-Za-z]+Sanitizer/ { on = 1 } on && n++ < 50' "$1"
}

# Newer kernels randomise mmap more than GCC 12's ThreadSanitizer can map
# ("unexpected memory mapping"); running without address randomisation avoids
# that and changes nothing else.
no_aslr=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  no_aslr=(setarch "$(uname -m)" -R)
fi

# The heavy tests run in --full only.
heavy=()
[ "$tier" = full ] || heavy=(-LE heavy)
# ctest_in DIR [ctest options]: ctest with two jobs, failures shown (a
# function: not for env's command line).
ctest_in() {
  local dir=$1
  shift
  ctest --test-dir "$dir" -j2 --output-on-failure "$@"
}

step "mpi.h is up to date" bash tools/gen-mpi-header.sh --check

# Jobs of several processes against the second MPI library (MPICH): the
# multi-process programs only, in their own tree, without LTO (its tests
# check behaviour, and the library's link-time optimisation is the Release
# tree's).
mpich_build() {
  cmake -S . -B build-mpich -G Ninja -DPURE_MPI=mpich -DPURE_BUILD_BENCH=OFF -DPURE_BUILD_APPS=OFF \
    -DPURE_BUILD_TRANSLATOR=OFF -DPURE_LTO=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build-mpich -j2 --target multiproc_check multiproc_comms exit_codes rma_check pgas_check cxx_check raii_throw
}

if [ "$tier" = quick ]; then
  if step "Release build (build/)" pure_build_release; then
    step "quick tests" ctest_in build -L quick --timeout 300 --no-tests=error
  fi
  if step "MPICH build (build-mpich/)" mpich_build; then
    step "MPICH multi-process job" ctest_in build-mpich -L quick -L multiproc --timeout 300 \
      --no-tests=error
  fi
else
  # The concurrency tests run twice: as built (ranks that share a core are
  # fibers, runtime/base/fiber.h) and with PURE_FIBERS=off, where they are
  # threads the kernel runs at the same time (tests/harness.h reads it).
  if step "Release build (build/)" pure_build_release --verbose; then
    step "Release tests" ctest_in build "${heavy[@]}" --timeout 600 \
      --output-junit "$pure_root/build/Testing/release.xml"
    step "Release concurrency tests, PURE_FIBERS=off" env PURE_FIBERS=off \
      ctest --test-dir build -j2 --output-on-failure -L concurrency "${heavy[@]}" --timeout 600 \
      --no-tests=error
  fi
  # One job at a time: MPICH's processes poll at full speed, and two jobs of
  # several processes each on 2 cores starved each other past the timeout
  # (multiproc_p2p_rankmap and multiproc_coll_rankmap, side by side, in a
  # fresh-clone run; alone, each passes at once).
  if step "MPICH build (build-mpich/)" mpich_build; then
    step "MPICH multi-process tests" ctest --test-dir build-mpich -j1 --output-on-failure \
      -L multiproc "${heavy[@]}" --timeout 300 --no-tests=error
  fi

  # tsan_tree NAME DIR [cmake options]: a ThreadSanitizer tree and the
  # concurrency tests in it, with fibers and with PURE_FIBERS=off. Assertions
  # stay on (no -DNDEBUG): the runtime's asserts check protocol invariants
  # that only concurrency exercises. The traced reruns of whole suites stay
  # out: under the sanitizer the suites run once, tracing hooks included
  # (trace_test).
  # The default tier samples the rank sweeps there (tests/harness.h,
  # rank_sweep); --full runs every count.
  tsan_sweeps=sampled
  [ "$tier" = full ] && tsan_sweeps=full
  tsan_build() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -G Ninja -DPURE_SANITIZE=thread -DPURE_BUILD_BENCH=OFF \
      -DPURE_BUILD_TRANSLATOR=OFF -DPURE_BUILD_APPS=OFF -DPURE_TEST_SWEEPS="$tsan_sweeps" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" "$@" \
      >/dev/null && cmake --build "$dir" -j2
  }
  tsan_tree() {
    local name=$1 dir=$2
    shift 2
    if step "$name build ($dir/)" tsan_build "$dir" "$@"; then
      export TSAN_OPTIONS=${TSAN_OPTIONS:-second_deadlock_stack=1}
      step "$name concurrency tests" "${no_aslr[@]}" \
        ctest --test-dir "$dir" -j2 --output-on-failure -L concurrency "${heavy[@]}" \
        -E '_traced$' --timeout 900 --no-tests=error
      step "$name concurrency tests, PURE_FIBERS=off" env PURE_FIBERS=off "${no_aslr[@]}" \
        ctest --test-dir "$dir" -j2 --output-on-failure -L concurrency "${heavy[@]}" \
        -E '_traced$' --timeout 900 --no-tests=error
    fi
  }
  tsan_tree "Clang ThreadSanitizer" build-tsan-clang -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_CXX_COMPILER=clang++-14
  if [ "$tier" = full ]; then
    tsan_tree "GCC ThreadSanitizer" build-tsan
  fi
fi

elapsed=$((SECONDS - start))
duration="$((elapsed / 60)) min $((elapsed % 60)) s"
section "Time per step ($tier tier)"
for i in "${!step_names[@]}"; do
  printf '%7s  %-6s  %s\n' "$((step_times[i] / 60))m$(printf '%02d' $((step_times[i] % 60)))s" \
    "${step_status[i]}" "${step_names[i]}"
done
printf '%7s          %s\n' "$((elapsed / 60))m$(printf '%02d' $((elapsed % 60)))s" "total"
echo
if [ ${#failed[@]} -eq 0 ]; then
  echo "test.sh: PASS ($tier tier: ${#passed[@]} steps in $duration)"
  exit 0
fi
for i in "${!failed[@]}"; do
  section "What failed in: ${failed[$i]}"
  digest "${failed_logs[$i]}"
done
echo
failed_list=$(printf '%s; ' "${failed[@]}")
echo "test.sh: FAIL: ${failed_list%; } ($tier tier: ${#passed[@]} passed, ${#failed[@]} failed, $duration)"
exit 1
