#!/usr/bin/env bash
# Installs what is missing, builds and runs every test:
#   1. the Release tree in build/ and its whole ctest suite, then the tests
#      labelled "concurrency" (those that run rank threads) again with
#      PURE_FIBERS=off;
#   2. an MPICH tree in build-mpich/ and the multi-process tests (label
#      "multiproc") against it; the Release tree ran them against Open MPI;
#   3. a ThreadSanitizer tree in build-tsan/ (GCC) and the concurrency tests,
#      with fibers and with PURE_FIBERS=off; then the same with Clang's
#      ThreadSanitizer in build-tsan-clang/ (the two instrument atomics and
#      fences differently: GCC's ignores atomic_thread_fence). The fence-based
#      handshakes neither can check have litmus tests (tests/litmus_test.cpp)
#      in the Release tree.
# Also checks that include/pure/mpi.h matches pure.h. Exits non-zero when any
# step fails; the last line is a one-line summary. Works from any directory.
set -uo pipefail
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh" || exit 1
cd "$pure_root" || exit 1

start=$SECONDS
failed=()
passed=()

section() { printf '\n==== %s\n' "$*"; }

# Each step's output is also kept, so that the end of the run can repeat
# what failed: a CI log is often read from its tail only, and a failing step
# may be followed by half an hour of passing ones.
step_logs=$(mktemp -d)
trap 'rm -rf "$step_logs"' EXIT
failed_logs=()

# step NAME CMD...: runs CMD, records NAME as passed or failed.
step() {
  local name=$1
  shift
  section "$name"
  local log="$step_logs/$((${#passed[@]} + ${#failed[@]})).log"
  if "$@" 2>&1 | tee "$log"; then
    passed+=("$name")
    return 0
  fi
  echo "test.sh: $name FAILED"
  failed+=("$name")
  failed_logs+=("$log")
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

step "mpi.h is up to date" bash tools/gen-mpi-header.sh --check

# The concurrency tests run twice: as built (ranks that share a core are
# fibers, runtime/base/fiber.h) and with PURE_FIBERS=off, where they are threads
# the kernel runs at the same time (tests/harness.h reads it).
if step "Release build (build/)" pure_build_release --verbose; then
  step "Release tests" ctest --test-dir build -j2 --output-on-failure --timeout 600
  step "Release concurrency tests, PURE_FIBERS=off" env PURE_FIBERS=off \
    ctest --test-dir build -L concurrency -j2 --output-on-failure --timeout 600 --no-tests=error
fi

# Jobs of several processes against the second MPI library (MPICH): the
# multi-process tests only, in their own tree.
mpich_build() {
  cmake -S . -B build-mpich -DPURE_MPI=mpich -DPURE_BUILD_BENCH=OFF -DPURE_BUILD_APPS=OFF \
    -DPURE_BUILD_TRANSLATOR=OFF \
    -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build-mpich -j2 --target multiproc_check multiproc_comms exit_codes rma_check pgas_check
}
if step "MPICH build (build-mpich/)" mpich_build; then
  step "MPICH multi-process tests" \
    ctest --test-dir build-mpich -L multiproc -j2 --output-on-failure --timeout 300 --no-tests=error
fi

# The whole p2p, collective and task suites run again with every job traced
# (tests/CMakeLists.txt, *_traced) in the Release tree; under the sanitizers
# the suites run once, tracing hooks included (trace_test).
traced_reruns='_traced$'

# Assertions stay on in this tree (no -DNDEBUG): the runtime's asserts check
# protocol invariants that only concurrency exercises.
tsan_build() {
  cmake -S . -B build-tsan -DPURE_SANITIZE=thread -DPURE_BUILD_BENCH=OFF -DPURE_BUILD_TRANSLATOR=OFF \
    -DPURE_BUILD_APPS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" &&
    cmake --build build-tsan -j2
}
if step "ThreadSanitizer build (build-tsan/)" tsan_build; then
  export TSAN_OPTIONS=${TSAN_OPTIONS:-second_deadlock_stack=1}
  step "ThreadSanitizer concurrency tests" "${no_aslr[@]}" \
    ctest --test-dir build-tsan -L concurrency -E "$traced_reruns" -j2 --output-on-failure \
    --timeout 900 --no-tests=error
  step "ThreadSanitizer concurrency tests, PURE_FIBERS=off" env PURE_FIBERS=off "${no_aslr[@]}" \
    ctest --test-dir build-tsan -L concurrency -E "$traced_reruns" -j2 --output-on-failure \
    --timeout 900 --no-tests=error
fi

clang_tsan_build() {
  cmake -S . -B build-tsan-clang -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DPURE_SANITIZE=thread -DPURE_BUILD_BENCH=OFF -DPURE_BUILD_TRANSLATOR=OFF -DPURE_BUILD_APPS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" &&
    cmake --build build-tsan-clang -j2
}
if step "Clang ThreadSanitizer build (build-tsan-clang/)" clang_tsan_build; then
  step "Clang ThreadSanitizer concurrency tests" "${no_aslr[@]}" \
    ctest --test-dir build-tsan-clang -L concurrency -E "$traced_reruns" -j2 \
    --output-on-failure --timeout 900 --no-tests=error
  step "Clang ThreadSanitizer concurrency tests, PURE_FIBERS=off" env PURE_FIBERS=off "${no_aslr[@]}" \
    ctest --test-dir build-tsan-clang -L concurrency -E "$traced_reruns" -j2 \
    --output-on-failure --timeout 900 --no-tests=error
fi

elapsed=$((SECONDS - start))
duration="$((elapsed / 60)) min $((elapsed % 60)) s"
echo
if [ ${#failed[@]} -eq 0 ]; then
  echo "test.sh: PASS (${#passed[@]} steps in $duration)"
  exit 0
fi
for i in "${!failed[@]}"; do
  section "What failed in: ${failed[$i]}"
  digest "${failed_logs[$i]}"
done
echo
failed_list=$(printf '%s; ' "${failed[@]}")
echo "test.sh: FAIL: ${failed_list%; } (${#passed[@]} passed, ${#failed[@]} failed, $duration)"
exit 1
