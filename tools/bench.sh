#!/usr/bin/env bash
# Builds the Release tree (build/, or $BUILD_DIR) and runs one benchmark suite.
# A benchmark is never a test: nothing here passes or fails on a time.
#
#   tools/bench.sh p2p [--quick] [--rounds N]   Pure vs Open MPI, ping-pong latency
#                                               and windowed bandwidth, 1 B .. 4 MiB
#   tools/bench.sh queue [--quick]              the eager queue vs Boost.Lockfree
#
# Adding a suite: write cmd_<name> and list it in usage().
set -euo pipefail
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"

build=${BUILD_DIR:-$pure_root/build}
results=$build/bench-results

usage() {
  cat <<'EOF'
usage: tools/bench.sh SUITE [options]

suites:
  p2p [--quick] [--rounds N]  ping-pong latency and windowed bandwidth, 1 B to 4 MiB:
                              Pure (2 rank threads) against Open MPI (2 processes,
                              mpirun --bind-to core), alternating within one run
  queue [--quick]             eager-queue micro-benchmarks against
                              boost::lockfree::spsc_queue

environment:
  BUILD_DIR       build tree (default: build/ in the repository)
  BENCH_MPI_ARGS  mpirun transport options to use instead of the detected ones,
                  e.g. "--mca pml ob1 --mca btl self,vader"
EOF
}

die() {
  echo "bench: $*" >&2
  exit 1
}

build_release() {
  echo "bench: building Release in $build" >&2
  pure_build_release
}

# ----------------------------------------------------------------- p2p

# Open MPI refuses root unless told; benchmark containers often run as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

ompi_args=()
ompi_transport=

# Runs the MPI benchmark briefly with the given transport options; succeeds
# when it finishes cleanly and every size up to 1 MiB (single-copy territory)
# reported.
ompi_probe() {
  local log=$results/p2p/probe.log
  timeout 120 mpirun -np 2 --bind-to core "$@" "$build/bench/bench_p2p_mpi" \
    --quick --batches 1 --max-bytes 1048576 >"$log" 2>&1 &&
    grep -q '^bw 1048576 ' "$log" &&
    ! grep -qiE 'process_vm_readv|Read -1, expected|single.copy' "$log"
}

# Chooses how Open MPI moves data between the two processes: its default
# shared-memory path (ob1 + vader, with CMA single copy for large messages),
# or, where the container refuses CMA (ptrace restrictions), vader without
# single copy. TCP is left out so that no network is needed.
pick_ompi_transport() {
  if [ -n "${BENCH_MPI_ARGS:-}" ]; then
    read -ra ompi_args <<<"$BENCH_MPI_ARGS"
    ompi_transport="as given in BENCH_MPI_ARGS: $BENCH_MPI_ARGS"
    return
  fi
  ompi_args=(--mca pml ob1 --mca btl "self,vader")
  if ompi_probe "${ompi_args[@]}"; then
    ompi_transport="ob1 + vader shared memory, CMA single copy for large messages"
    return
  fi
  echo "bench: Open MPI with CMA single copy failed here; retrying without it:" >&2
  sed 's/^/  /' "$results/p2p/probe.log" | tail -n 5 >&2
  ompi_args+=(--mca btl_vader_single_copy_mechanism none)
  if ompi_probe "${ompi_args[@]}"; then
    ompi_transport="ob1 + vader shared memory, no single copy (CMA refused here)"
    return
  fi
  cat "$results/p2p/probe.log" >&2
  die "Open MPI cannot run 2 processes here (see the output above)"
}

# Says which OMPI_MCA_* variables also shape the Open MPI runs, if any.
ompi_env_note() {
  local vars
  vars=$(env | grep -o '^OMPI_MCA_[A-Za-z0-9_]*' | tr '\n' ' ')
  [ -z "$vars" ] || echo " (and from the environment: ${vars% })"
}

# run_logged OUT CMD...: runs CMD with its output in OUT; on failure shows it.
run_logged() {
  local out=$1
  shift
  if ! timeout 600 "$@" >"$out" 2>&1; then
    cat "$out" >&2
    die "failed: $*"
  fi
}

# Best per size over the rounds: minimum latency, maximum bandwidth. Prints
# the two tables and the issue's targets.
p2p_report() {
  local dir=$1 rounds=$2
  awk -v rounds="$rounds" -v cores="$(nproc)" -v transport="$ompi_transport" -v ompi="$(mpirun --version 2>/dev/null | head -n 1)" '
    function label(b) {
      if (b >= 1048576) return (b / 1048576) " MiB"
      if (b >= 1024) return (b / 1024) " KiB"
      return b " B"
    }
    FNR == 1 { impl = FILENAME ~ /\/pure\.[0-9]+$/ ? "pure" : "mpi" }
    $1 == "lat" || $1 == "bw" {
      key = $1 SUBSEP impl SUBSEP $2
      if (!(key in best) || ($1 == "lat" ? $3 < best[key] : $3 > best[key])) best[key] = $3
      if (!($2 in seen)) { seen[$2] = 1; sizes[n++] = $2 + 0 }
    }
    END {
      for (i = 1; i < n; ++i)  # insertion sort, sizes are few
        for (j = i; j > 0 && sizes[j - 1] > sizes[j]; --j) { t = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = t }
      printf "Point-to-point, 2 ranks. Pure: 2 rank threads in one process, one per core.\n"
      printf "Open MPI: %s, 2 processes, mpirun --bind-to core, %s.\n", ompi, transport
      printf "Best of %d alternating rounds per size; ratio > 1 means Pure is faster.\n", rounds
      printf "Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.\n\n", ENVIRON["load"], cores
      printf "One-way latency, half a ping-pong round trip (us)\n"
      printf "| %8s | %10s | %10s | %8s |\n", "size", "Pure", "Open MPI", "ratio"
      for (i = 0; i < n; ++i) {
        s = sizes[i]; p = best["lat", "pure", s]; m = best["lat", "mpi", s]
        printf "| %8s | %10.3f | %10.3f | %7.2fx |\n", label(s), p, m, (p > 0 ? m / p : 0)
      }
      printf "\nBandwidth, window of 64 messages then an ack (GB/s = 1e9 B/s)\n"
      printf "| %8s | %10s | %10s | %8s |\n", "size", "Pure", "Open MPI", "ratio"
      for (i = 0; i < n; ++i) {
        s = sizes[i]; p = best["bw", "pure", s]; m = best["bw", "mpi", s]
        printf "| %8s | %10.3f | %10.3f | %7.2fx |\n", label(s), p, m, (m > 0 ? p / m : 0)
      }
      p = best["lat", "pure", 8]; m = best["lat", "mpi", 8]
      if (p != "" && m != "")
        printf "\nTarget: 8 B latency <= 0.080 us and >= 2x Open MPI: Pure %.3f us, %.2fx -> %s\n",
               p, m / p, (p <= 0.080 && m / p >= 2 ? "met" : "NOT met")
      p = best["bw", "pure", 4194304]; m = best["bw", "mpi", 4194304]
      if (p != "" && m != "")
        printf "Target: 4 MiB bandwidth >= 20 GB/s and >= 1.8x Open MPI: Pure %.2f GB/s, %.2fx -> %s\n",
               p, p / m, (p >= 20 && p / m >= 1.8 ? "met" : "NOT met")
    }' "$dir"/pure.* "$dir"/mpi.*
}

cmd_p2p() {
  local rounds=5 quick=()
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) quick=(--quick); rounds=3; shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        rounds=$2; shift 2 ;;
      *) usage >&2; die "p2p: unknown option '$1'" ;;
    esac
  done
  build_release
  local dir=$results/p2p
  rm -rf "$dir"
  mkdir -p "$dir"
  pick_ompi_transport
  ompi_transport+=$(ompi_env_note)
  echo "bench: Open MPI transport: $ompi_transport" >&2

  local r load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    run_logged "$dir/pure.$r" "$pure_root/tools/purerun" -n 2 --bind core \
      "$build/bench/bench_p2p_pure" "${quick[@]}"
    printf ', Open MPI' >&2
    run_logged "$dir/mpi.$r" mpirun -np 2 --bind-to core "${ompi_args[@]}" \
      "$build/bench/bench_p2p_mpi" "${quick[@]}"
    printf '\n' >&2
  done
  echo >&2
  load="$load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
    p2p_report "$dir" "$rounds" | tee "$dir/report.txt"
  echo
  echo "(raw output of every run: $dir)"
}

# ----------------------------------------------------------------- queue

cmd_queue() {
  local min_time=0.1 reps=10
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) min_time=0.05; reps=4; shift ;;
      *) usage >&2; die "queue: unknown option '$1'" ;;
    esac
  done
  build_release
  local dir=$results/queue
  mkdir -p "$dir"
  "$build/bench/eager_queue_bench" --benchmark_min_time="$min_time" \
    --benchmark_repetitions="$reps" --benchmark_display_aggregates_only=true \
    --benchmark_out="$dir/queue.csv" --benchmark_out_format=csv
  echo
  echo "ns per message (PushConsume, one thread) or per 8-byte round trip (PingPong, two"
  echo "threads on two CPUs). best: the fastest window of 256 iterations over $reps"
  echo "repetitions; median: the median repetition's mean. Ratio of the bests > 1 means"
  echo "EagerQueue is faster."
  awk -F, '
    $1 == "name" { for (i = 1; i <= NF; ++i) { h = $i; gsub(/"/, "", h); col[h] = i } }
    /_(min|median)"?,/ {
      name = $1; gsub(/"/, "", name)
      stat = name ~ /_min$/ ? "min" : "median"
      sub(/_(min|median)$/, "", name); sub(/\/real_time$/, "", name)
      impl = name ~ /^BM_EagerQueue_/ ? "eager" : "boost"
      sub(/^BM_(EagerQueue|BoostSpsc)_/, "", name)
      t[impl, stat, name] = stat == "min" && ("best_ns" in col) && $col["best_ns"] != "" ? $col["best_ns"] : $3
      if (!(name in seen)) { seen[name] = 1; names[n++] = name }
    }
    END {
      printf "| %-17s | %-21s | %-21s | %7s |\n", "benchmark", "EagerQueue best (med)", "Boost best (med)", "ratio"
      for (i = 0; i < n; ++i) {
        m = names[i]; e = t["eager", "min", m]; b = t["boost", "min", m]
        printf "| %-17s | %9.1f (%9.1f) | %9.1f (%9.1f) | %6.2fx |\n", m, e, t["eager", "median", m],
               b, t["boost", "median", m], (e > 0 ? b / e : 0)
      }
    }' "$dir/queue.csv" | tee "$dir/report.txt"
}

# ----------------------------------------------------------------- main

[ $# -gt 0 ] || { usage >&2; exit 2; }
suite=$1
shift
case $suite in
  p2p | queue) "cmd_$suite" "$@" ;;
  -h | --help) usage ;;
  *) usage >&2; echo "bench: unknown suite '$suite'" >&2; exit 2 ;;
esac
