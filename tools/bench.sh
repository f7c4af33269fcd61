#!/usr/bin/env bash
# Builds the Release tree (build/, or $BUILD_DIR) and runs one benchmark suite.
# A benchmark is never a test: nothing here passes or fails on a time.
#
#   tools/bench.sh p2p [--quick] [--rounds N]   Pure vs Open MPI, ping-pong latency
#                                               and windowed bandwidth, 1 B .. 4 MiB
#   tools/bench.sh coll [--quick] [--rounds N]  Pure vs Open MPI collectives at 2 ranks
#                                               and at 8 ranks on 2 cores
#   tools/bench.sh coll --threshold [...]       Pure allreduce, partitioned vs combined
#   tools/bench.sh tasks [--quick] [--rounds N] the load-imbalanced stencil: Open MPI,
#                                               Pure and Pure with tasks over imbalance
#   tools/bench.sh apps [--quick] [--rounds N]  NAS DT and the MD proxy: Open MPI, Pure
#                                               and Pure with tasks (report:
#                                               tools/bench_apps.py)
#   tools/bench.sh internode [--quick] [--rounds N]
#                                               the same between 2 processes: Pure over
#                                               MPI vs Open MPI
#   tools/bench.sh queue [--quick]              the eager queue vs Boost.Lockfree
#   tools/bench.sh floor [--quick]              the machine's floors: cache-line trips
#                                               between cores, a context switch
#
# Adding a suite: write cmd_<name> and list it in usage(). tools/demo.sh
# sources this file for its helpers; sourced, it runs no suite.
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
  coll [--quick] [--rounds N] allreduce (8 B to 1 MiB), barrier, bcast, reduce and
                              alltoall: Pure against Open MPI, alternating within one
                              run, at 2 ranks (one per core; mpirun --bind-to core)
                              and at 8 ranks on 2 cores (mpirun --oversubscribe
                              --bind-to none)
  coll --threshold [--quick] [--rounds N]
                              Pure allreduce 64 B to 256 KiB with every reduction
                              partitioned (PURE_REDUCE_PARTITION=0) and with none
                              (=1G), at 2 and 8 ranks: where the partitioned
                              reducer starts to win, and the threshold to choose
  tasks [--quick] [--rounds N]
                              apps/rand_stencil with --imbalance 0, 0.25, 0.5, 0.75
                              and 1 (--quick: 0, 0.5, 1): Open MPI, Pure and Pure
                              with tasks, alternating within one run, at 2 ranks
                              and at 8 ranks on 2 cores; times, each version's
                              ratio to its balanced run, chunks stolen
  apps [--quick] [--rounds N] apps/dt (NAS DT class A: BH and WH at 21 ranks, SH at
                              80) and apps/md (balanced and imbalanced, at 2 ranks
                              with a core each and at 8 and 16 ranks on 2 cores):
                              Open MPI, Pure (the same MPI source, ported) and Pure
                              with tasks, alternating within one run; checks that
                              the versions compute the same results; a table and
                              an SVG plot (tools/bench_apps.py)
  internode [--quick] [--rounds N]
                              the p2p benchmark between two processes: Pure with one
                              rank in each of 2 processes (purerun -n 2
                              --ranks-per-proc 1, its messages over Open MPI with
                              the same transport) against Open MPI (2 processes)
  queue [--quick]             eager-queue micro-benchmarks against
                              boost::lockfree::spsc_queue
  floor [--quick]             the machine's floors under the targets: a cache
                              line's one-way trip between two cores, a two-sided
                              exchange, a context switch between threads sharing
                              a core; run it beside p2p/coll (they vary by run
                              on a shared virtual machine)

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

# The Release tree with the benchmarks and apps in it (a tree configured
# without them, e.g. by a test-only setup, gets them switched on).
build_release() {
  echo "bench: building Release in $build" >&2
  if ! pure_build_step "" cmake -S "$pure_root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DPURE_BUILD_BENCH=ON -DPURE_BUILD_APPS=ON || ! pure_build_step "" cmake --build "$build" -j2; then
    die "the Release build failed"
  fi
}

# ------------------------------------------- Open MPI, shared by p2p and coll

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
  local log=$results/ompi-probe.log
  mkdir -p "$results"
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
  sed 's/^/  /' "$results/ompi-probe.log" | tail -n 5 >&2
  ompi_args+=(--mca btl_vader_single_copy_mechanism none)
  if ompi_probe "${ompi_args[@]}"; then
    ompi_transport="ob1 + vader shared memory, no single copy (CMA refused here)"
    return
  fi
  cat "$results/ompi-probe.log" >&2
  die "Open MPI cannot run 2 processes here (see the output above)"
}

# Says which OMPI_MCA_* variables also shape the Open MPI runs, if any.
ompi_env_note() {
  local vars
  vars=$(env | grep -o '^OMPI_MCA_[A-Za-z0-9_]*' | tr '\n' ' ')
  [ -z "$vars" ] || echo " (and from the environment: ${vars% })"
}

# Says which PURE_* variables also shape the Pure runs, if any.
pure_env_note() {
  local vars
  vars=$(env | grep -o '^PURE_[A-Za-z0-9_]*' | tr '\n' ' ')
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

# awk functions the reports share: a size's label, and the median of the
# first c values of x (x[0] .. x[c-1], sorted in place; 0 when c is 0).
awk_report_lib='
    function label(b) {
      if (b >= 1048576) return (b / 1048576) " MiB"
      if (b >= 1024) return (b / 1024) " KiB"
      return b " B"
    }
    function median(x, c,   k, j, t) {
      if (c == 0) return 0
      for (k = 1; k < c; ++k)
        for (j = k; j > 0 && x[j - 1] > x[j]; --j) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
      return c % 2 ? x[int(c / 2)] : (x[c / 2 - 1] + x[c / 2]) / 2
    }
'

# ----------------------------------------------------------------- p2p

# Best per size over the rounds: minimum latency, maximum bandwidth. Prints
# the two tables and the issue's targets.
p2p_report() {
  local dir=$1 rounds=$2 inter=${3:-0}
  awk -v rounds="$rounds" -v cores="$(nproc)" -v transport="$ompi_transport" -v ompi="$(mpirun --version 2>/dev/null | head -n 1)" -v inter="$inter" "$awk_report_lib"'
    # The median over rounds of the ratio within one round (Pure faster > 1):
    # the VM has slow and fast phases, and the two bests may come from
    # different ones.
    function paired(what, s,   r, c, x, p, m) {
      c = 0
      for (r = 1; r <= rounds; ++r) {
        if (!((what, "pure", s, r) in val) || !((what, "mpi", s, r) in val)) continue
        p = val[what, "pure", s, r]; m = val[what, "mpi", s, r]
        if (p <= 0 || m <= 0) continue
        x[c++] = what == "lat" ? m / p : p / m
      }
      return median(x, c)
    }
    FNR == 1 {
      impl = FILENAME ~ /\/pure\.[0-9]+$/ ? "pure" : "mpi"
      rnd = FILENAME; sub(/.*\./, "", rnd); rnd += 0
    }
    $1 == "lat" || $1 == "bw" {
      key = $1 SUBSEP impl SUBSEP $2
      if (!(key in best) || ($1 == "lat" ? $3 < best[key] : $3 > best[key])) best[key] = $3
      val[$1, impl, $2 + 0, rnd] = $3 + 0
      if (!($2 in seen)) { seen[$2] = 1; sizes[n++] = $2 + 0 }
    }
    END {
      for (i = 1; i < n; ++i)  # insertion sort, sizes are few
        for (j = i; j > 0 && sizes[j - 1] > sizes[j]; --j) { t = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = t }
      if (inter)
        printf "Point-to-point between processes, 2 ranks. Pure: one rank in each of 2 processes\n(purerun -n 2 --ranks-per-proc 1), its messages through Open MPI with the same transport.\n"
      else
        printf "Point-to-point, 2 ranks. Pure: 2 rank threads in one process, one per core.\n"
      printf "Open MPI: %s, 2 processes, mpirun --bind-to core, %s.\n", ompi, transport
      printf "Best of %d alternating rounds per size; ratio > 1 means Pure is faster; \"paired\" is the\n", rounds
      printf "median over rounds of the ratio within one round (this VM has slow and fast phases).\n"
      printf "Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.\n\n", ENVIRON["load"], cores
      printf "One-way latency, half a ping-pong round trip (us)\n"
      printf "| %8s | %10s | %10s | %8s | %8s |\n", "size", "Pure", "Open MPI", "ratio", "paired"
      for (i = 0; i < n; ++i) {
        s = sizes[i]; p = best["lat", "pure", s]; m = best["lat", "mpi", s]
        printf "| %8s | %10.3f | %10.3f | %7.2fx | %7.2fx |\n", label(s), p, m, (p > 0 ? m / p : 0), paired("lat", s)
      }
      printf "\nBandwidth, window of 64 messages then an ack (GB/s = 1e9 B/s)\n"
      printf "| %8s | %10s | %10s | %8s | %8s |\n", "size", "Pure", "Open MPI", "ratio", "paired"
      for (i = 0; i < n; ++i) {
        s = sizes[i]; p = best["bw", "pure", s]; m = best["bw", "mpi", s]
        printf "| %8s | %10.3f | %10.3f | %7.2fx | %7.2fx |\n", label(s), p, m, (m > 0 ? p / m : 0), paired("bw", s)
      }
      p = best["lat", "pure", 8]; m = best["lat", "mpi", 8]
      if (inter) {
        if (p != "" && m != "")
          printf "\nTarget: 8 B latency within 1.5x of Open MPI: Pure %.3f us, Open MPI %.3f us, %.2fx -> %s\n",
                 p, m, p / m, (p <= 1.5 * m ? "met" : "NOT met")
        p = best["bw", "pure", 4194304]; m = best["bw", "mpi", 4194304]
        if (p != "" && m != "")
          printf "Target: 4 MiB bandwidth within 10%% of Open MPI: Pure %.2f GB/s, Open MPI %.2f GB/s, %.2fx -> %s\n",
                 p, m, p / m, (p >= 0.9 * m ? "met" : "NOT met")
        exit
      }
      if (p != "" && m != "")
        printf "\nTarget: 8 B latency <= 0.080 us and >= 2x Open MPI: Pure %.3f us, %.2fx (same-round median %.2fx) -> %s\n",
               p, m / p, paired("lat", 8), (p <= 0.080 && m / p >= 2 && paired("lat", 8) >= 2 ? "met" : "NOT met")
      p = best["bw", "pure", 4194304]; m = best["bw", "mpi", 4194304]
      if (p != "" && m != "")
        printf "Target: 4 MiB bandwidth >= 20 GB/s and >= 1.8x Open MPI: Pure %.2f GB/s, %.2fx (same-round median %.2fx) -> %s\n",
               p, p / m, paired("bw", 4194304), (p >= 20 && p / m >= 1.8 && paired("bw", 4194304) >= 1.8 ? "met" : "NOT met")
    }' "$dir"/pure.* "$dir"/mpi.*
}

# p2p_suite NAME INTER [options]: the point-to-point benchmark, Pure and Open
# MPI alternating. INTER=0: Pure's 2 ranks are threads of one process;
# INTER=1: one rank in each of 2 processes, so its messages go through Open
# MPI too, with the same transport (mpirun's --mca options passed on as
# OMPI_MCA_* variables, since purerun runs mpirun itself).
p2p_suite() {
  local name=$1 inter=$2 rounds=5 quick=()
  shift 2
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) quick=(--quick); rounds=3; shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        rounds=$2; shift 2 ;;
      *) usage >&2; die "$name: unknown option '$1'" ;;
    esac
  done
  build_release
  local dir=$results/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  pick_ompi_transport
  ompi_transport+=$(ompi_env_note)
  echo "bench: Open MPI transport: $ompi_transport" >&2
  local pure=("$pure_root/tools/purerun" -n 2 --bind core) i
  if [ "$inter" = 1 ]; then
    pure=(env)
    for ((i = 0; i + 2 < ${#ompi_args[@]} + 1; ++i)); do
      if [ "${ompi_args[i]}" = --mca ]; then
        pure+=("OMPI_MCA_${ompi_args[i + 1]}=${ompi_args[i + 2]}")
        i=$((i + 2))
      fi
    done
    pure+=("$pure_root/tools/purerun" -n 2 --ranks-per-proc 1 --bind core)
  fi

  local r load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    run_logged "$dir/pure.$r" "${pure[@]}" "$build/bench/bench_p2p_pure" "${quick[@]}"
    printf ', Open MPI' >&2
    run_logged "$dir/mpi.$r" mpirun -np 2 --bind-to core "${ompi_args[@]}" \
      "$build/bench/bench_p2p_mpi" "${quick[@]}"
    printf '\n' >&2
  done
  echo >&2
  load="$load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
    p2p_report "$dir" "$rounds" "$inter" | tee "$dir/report.txt"
  echo
  echo "(raw output of every run: $dir)"
}

cmd_p2p() { p2p_suite p2p 0 "$@"; }
cmd_internode() { p2p_suite internode 1 "$@"; }

# ----------------------------------------------------------------- coll

# How each implementation runs N ranks (sets pure_opts and mpi_opts). 2 ranks:
# one per core, both bound. More ranks than the 2 cores: Pure with its
# defaults (ranks pinned round-robin; a blocked rank spins, yields, then
# parks) and Open MPI oversubscribed and unbound, which is where Open MPI
# turns mpi_yield_when_idle on by itself (bench_coll prints what it got).
coll_launch() {
  if [ "$1" -le "$(nproc)" ]; then
    pure_opts=(-n "$1" --bind core)
    mpi_opts=(-np "$1" --bind-to core)
  else
    pure_opts=(-n "$1")
    mpi_opts=(-np "$1" --oversubscribe --bind-to none)
  fi
}

# Best (minimum) time per measurement over the rounds; one table per rank
# count, then the issue's targets.
coll_report() {
  local dir=$1 rounds=$2
  awk -v rounds="$rounds" -v cores="$(nproc)" -v transport="$ompi_transport" \
    -v ompi="$(mpirun --version 2>/dev/null | head -n 1)" -v pure_env="$(pure_env_note)" "$awk_report_lib"'
    function size_label(op, b) {
      if (op == "barrier") return "-"
      return label(b) (op == "alltoall" ? "/pair" : "")
    }
    # The median over rounds of Open MPI / Pure within the same round: this
    # VM has slow and fast phases (cache-line costs change up to 5x, for
    # minutes), and the best of each side may come from different phases.
    function paired(n, op, b,   r, c, x) {
      c = 0
      for (r = 1; r <= rounds; ++r) {
        if (!((n, "pure", op, b, r) in val) || !((n, "mpi", op, b, r) in val)) continue
        if (val[n, "pure", op, b, r] <= 0) continue
        x[c++] = val[n, "mpi", op, b, r] / val[n, "pure", op, b, r]
      }
      return median(x, c)
    }
    function target(n, op, b, goal, text,   p, m, q) {
      p = best[n, "pure", op, b]; m = best[n, "mpi", op, b]
      if (p == "" || m == "" || p <= 0) return
      q = paired(n, op, b)
      printf "Target, %d ranks: %s: Pure %.3f us, Open MPI %.3f us, %.2fx (same-round median %.2fx) -> %s\n",
             n, text, p, m, m / p, q, (m / p >= goal && q >= goal ? "met" : "NOT met")
    }
    FNR == 1 {
      f = FILENAME; sub(/.*\//, "", f); split(f, part, ".")  # pure.<ranks>.<round>
      impl = part[1]; n = part[2] + 0; rnd = part[3] + 0
      if (!(n in seen_n)) { seen_n[n] = 1; ns[nn++] = n; rows[n] = 0 }
    }
    /^# open mpi: mpi_yield_when_idle / { yield[n] = $NF }
    /^[a-z]+ [0-9]+ [0-9.]+$/ {
      key = n SUBSEP impl SUBSEP $1 SUBSEP $2
      if (!(key in best) || $3 + 0 < best[key]) best[key] = $3 + 0
      val[n, impl, $1, $2 + 0, rnd] = $3 + 0
      if (!((n, $1, $2) in seen_row)) { seen_row[n, $1, $2] = 1; row_op[n, rows[n]] = $1; row_b[n, rows[n]++] = $2 + 0 }
    }
    END {
      for (i = 1; i < nn; ++i)
        for (j = i; j > 0 && ns[j - 1] > ns[j]; --j) { t = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = t }
      printf "Collectives over MPI_COMM_WORLD. Pure: rank threads in one process%s.\n", pure_env
      printf "Open MPI: %s, processes, %s.\n", ompi, transport
      printf "Time of one call (us): the mean over a batch of back-to-back calls on the slowest rank,\n"
      printf "the minimum over batches, the best of %d alternating rounds. Ratio = Open MPI / Pure,\n", rounds
      printf "> 1 means Pure is faster; \"paired\" is the median over rounds of the ratio within one\n"
      printf "round (this VM has slow and fast phases; the two bests may come from different ones).\n"
      printf "Load average (1, 5, 15 min) %s; %d cores.\n", ENVIRON["load"], cores
      printf "Other work on the cores makes timings noisy.\n"
      for (i = 0; i < nn; ++i) {
        n = ns[i]
        if (n <= cores)
          printf "\n%d ranks, one per core. Pure: purerun -n %d --bind core. Open MPI: mpirun -np %d --bind-to core", n, n, n
        else
          printf "\n%d ranks on %d cores. Pure: purerun -n %d (ranks sharing a core are fibers, PURE_FIBERS=auto).\nOpen MPI: mpirun -np %d --oversubscribe --bind-to none", n, cores, n, n
        printf " (mpi_yield_when_idle %s).\n", (n in yield ? yield[n] : "?")
        printf "| %-9s | %10s | %10s | %10s | %8s | %8s |\n", "op", "size", "Pure", "Open MPI", "ratio", "paired"
        for (k = 0; k < rows[n]; ++k) {
          op = row_op[n, k]; b = row_b[n, k]; p = best[n, "pure", op, b]; m = best[n, "mpi", op, b]
          printf "| %-9s | %10s | %10.3f | %10.3f | %7.2fx | %7.2fx |\n", op, size_label(op, b), p, m,
                 (p > 0 ? m / p : 0), paired(n, op, b)
        }
      }
      printf "\n"
      for (i = 0; i < nn; ++i) {
        n = ns[i]
        if (n <= cores) {
          target(n, "allreduce", 8, 2.5, "8 B allreduce >= 2.5x faster than Open MPI")
          target(n, "barrier", 0, 2.5, "barrier >= 2.5x faster than Open MPI")
          target(n, "allreduce", 1048576, 1, "1 MiB allreduce no slower than Open MPI (>= 1x)")
        } else {
          target(n, "allreduce", 8, 5, "8 B allreduce >= 5x faster than Open MPI")
          target(n, "barrier", 0, 5, "barrier >= 5x faster than Open MPI")
          fast = 0; total = 0; worst = ""
          for (k = 0; k < rows[n]; ++k) {
            if (row_op[n, k] != "allreduce") continue
            b = row_b[n, k]; p = best[n, "pure", "allreduce", b]; m = best[n, "mpi", "allreduce", b]
            if (p <= 0) continue
            ++total; if (m / p >= 5) ++fast
            if (worst == "" || m / p < worst) { worst = m / p; worst_b = b }
          }
          if (total > 0)
            printf "(%d ranks, allreduce at every size: %d of %d sizes >= 5x; the lowest ratio is %.2fx at %s)\n",
                   n, fast, total, worst, label(worst_b)
        }
      }
    }' "$dir"/pure.* "$dir"/mpi.*
}

# The threshold sweep: Pure allreduce from 64 B to 256 KiB with every
# reduction partitioned (PURE_REDUCE_PARTITION=0) and with none (1G), at 2
# ranks (a core each) and at 8 on the 2 cores, alternating the order by round.
# 64 B is the smallest allreduce of doubles that two ranks do not send inline
# whatever the threshold. For each rank count, and for both together, the
# threshold T (a swept size: partition from T on) that costs the least
# against the faster path at every size: the smallest worst slowdown, ties
# broken by the mean.
coll_threshold() {
  local rounds=$1 lo=64 hi=262144 huge=1G
  shift
  local quick=("$@") dir=$results/coll-threshold r n mode setting own shared threads
  local pure_opts mpi_opts modes
  rm -rf "$dir"
  mkdir -p "$dir"
  # What PURE_REDUCE_PARTITION=auto uses now (runtime/collectives/reduce.cpp).
  own=$(sed -n 's/.*kPartitionOwnCores = \([0-9 <]*\);.*/\1/p' "$pure_root/runtime/collectives/reduce.cpp")
  shared=$(sed -n 's/.*kPartitionFibers = \([0-9 <]*\);.*/\1/p' "$pure_root/runtime/collectives/reduce.cpp")
  threads=$(sed -n 's/.*kPartitionSharedCores = \([0-9 <]*\);.*/\1/p' "$pure_root/runtime/collectives/reduce.cpp")
  for ((r = 1; r <= rounds; ++r)); do
    for n in 2 8; do
      coll_launch "$n"
      printf 'bench: round %d/%d, %d ranks:' "$r" "$rounds" "$n" >&2
      modes=(partitioned combined)
      ((r % 2)) || modes=(combined partitioned)
      for mode in "${modes[@]}"; do
        printf ' %s' "$mode" >&2
        setting=$huge
        [ "$mode" = combined ] || setting=0
        run_logged "$dir/$mode.$n.$r" env PURE_REDUCE_PARTITION="$setting" \
          "$pure_root/tools/purerun" "${pure_opts[@]}" "$build/bench/bench_coll_pure" \
          --sweep "$lo" "$hi" "${quick[@]}"
      done
      printf '\n' >&2
    done
  done
  echo >&2
  awk -v rounds="$rounds" -v cores="$(nproc)" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" \
    -v own="$((${own:-0}))" -v shared="$((${shared:-0}))" -v threads="$((${threads:-0}))" "$awk_report_lib"'
    function t_label(k) { return k < nb ? label(sizes[k]) : "never" }
    # Slowdowns of candidate k (partition from sizes[k] on; k == nb: never)
    # over rank counts [a, b] of ns: sets worst and mean.
    function cost(k, a, b,   i, j, n, p, c, fastest, chosen, sum, cnt) {
      worst = 1; sum = 0; cnt = 0
      for (i = a; i <= b; ++i)
        for (j = 0; j < nb; ++j) {
          n = ns[i]; p = best[n, "partitioned", sizes[j]]; c = best[n, "combined", sizes[j]]
          fastest = p < c ? p : c
          if (fastest <= 0) continue
          chosen = j >= k ? p : c
          if (chosen / fastest > worst) worst = chosen / fastest
          sum += log(chosen / fastest); ++cnt
        }
      mean = cnt ? exp(sum / cnt) : 1
    }
    # The best candidate over rank counts [a, b]: sets pick, pick_worst, pick_mean.
    function choose(a, b,   k) {
      pick = -1
      for (k = 0; k <= nb; ++k) {
        cost(k, a, b)
        if (pick < 0 || worst < pick_worst - 1e-9 || (worst < pick_worst + 1e-9 && mean < pick_mean)) {
          pick = k; pick_worst = worst; pick_mean = mean
        }
      }
    }
    FNR == 1 {
      f = FILENAME; sub(/.*\//, "", f); split(f, part, ".")  # <mode>.<ranks>.<round>
      mode = part[1]; n = part[2] + 0
      if (!(n in seen_n)) { seen_n[n] = 1; ns[nn++] = n }
    }
    $1 == "allreduce" && NF == 3 {
      key = n SUBSEP mode SUBSEP $2
      if (!(key in best) || $3 + 0 < best[key]) best[key] = $3 + 0
      if (!($2 in seen_b)) { seen_b[$2] = 1; sizes[nb++] = $2 + 0 }
    }
    END {
      for (i = 1; i < nn; ++i)
        for (j = i; j > 0 && ns[j - 1] > ns[j]; --j) { t = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = t }
      for (i = 1; i < nb; ++i)
        for (j = i; j > 0 && sizes[j - 1] > sizes[j]; --j) { t = sizes[j]; sizes[j] = sizes[j - 1]; sizes[j - 1] = t }
      printf "Pure allreduce (MPI_DOUBLE, MPI_SUM), us per call: the partitioned reducer at every\n"
      printf "size (PURE_REDUCE_PARTITION=0) against leader flat-combining at every size (=1G).\n"
      printf "Best of %d rounds; ratio = combined / partitioned, > 1 means partitioned is faster.\n", rounds
      printf "Load average (1, 5, 15 min) %s after; %d cores.\n", load, cores
      for (i = 0; i < nn; ++i) {
        n = ns[i]
        printf "\n%d ranks%s\n", n, (n > cores ? " on " cores " cores" : ", a core each")
        printf "| %8s | %11s | %10s | %11s | %8s |\n", "size", "partitioned", "combined", "faster", "ratio"
        for (k = 0; k < nb; ++k) {
          b = sizes[k]; p = best[n, "partitioned", b]; c = best[n, "combined", b]
          printf "| %8s | %11.3f | %10.3f | %11s | %7.2fx |\n", label(b), p, c,
                 (p < c ? "partitioned" : "combined"), (p > 0 ? c / p : 0)
        }
        crossover = ""
        for (k = nb - 1; k >= 0 && best[n, "partitioned", sizes[k]] < best[n, "combined", sizes[k]]; --k)
          crossover = sizes[k]
        if (crossover == "")
          printf "Crossover: none up to %s (combining is faster there)\n", label(sizes[nb - 1])
        else if (crossover == sizes[0])
          printf "Crossover: partitioned is faster at every size, from %s\n", label(crossover)
        else
          printf "Crossover: partitioned is faster from %s on\n", label(crossover)
        choose(i, i)
        printf "Best threshold for %d ranks: %s (worst slowdown %.3fx, mean %.3fx)\n", n, t_label(pick), pick_worst, pick_mean
      }
      if (nn > 1) {
        choose(0, nn - 1)
        printf "\nOne threshold for every rank count above: %s (worst slowdown %.3fx, mean %.3fx)\n",
               t_label(pick), pick_worst, pick_mean
      }
      printf "\nPURE_REDUCE_PARTITION=auto now uses %s with a core per rank and %s when ranks\n", label(own), label(shared)
      printf "share cores as fibers, as measured here (%s as threads, PURE_FIBERS=off;\n", label(threads)
      printf "runtime/collectives/reduce.cpp).\n"
    }' "$dir"/partitioned.* "$dir"/combined.* | tee "$dir/report.txt"
  echo
  echo "(raw output of every run: $dir)"
}

cmd_coll() {
  local rounds=5 quick=() threshold=
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) quick=(--quick); rounds=3; shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        rounds=$2; shift 2 ;;
      --threshold) threshold=1; shift ;;
      *) usage >&2; die "coll: unknown option '$1'" ;;
    esac
  done
  build_release
  if [ -n "$threshold" ]; then
    coll_threshold "$rounds" "${quick[@]}"
    return
  fi
  local dir=$results/coll
  rm -rf "$dir"
  mkdir -p "$dir"
  pick_ompi_transport
  ompi_transport+=$(ompi_env_note)
  echo "bench: Open MPI transport: $ompi_transport" >&2

  local r n load_before pure_opts mpi_opts
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 1; r <= rounds; ++r)); do
    for n in 2 8; do
      coll_launch "$n"
      printf 'bench: round %d/%d, %d ranks: Pure' "$r" "$rounds" "$n" >&2
      run_logged "$dir/pure.$n.$r" "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "$build/bench/bench_coll_pure" "${quick[@]}"
      printf ', Open MPI' >&2
      run_logged "$dir/mpi.$n.$r" mpirun "${mpi_opts[@]}" "${ompi_args[@]}" \
        "$build/bench/bench_coll_mpi" "${quick[@]}"
      printf '\n' >&2
    done
  done
  echo >&2
  load="$load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
    coll_report "$dir" "$rounds" | tee "$dir/report.txt"
  echo
  echo "(raw output of every run: $dir)"
}

# ----------------------------------------------------------------- tasks

# apps/rand_stencil (its README.md): one work model, three programs.
stencil_dir=$build/apps/rand_stencil
stencil_versions=(mpi pure tasks)

# Fails unless the three stencil programs are built.
stencil_check_built() {
  local v
  for v in "${stencil_versions[@]}"; do
    [ -x "$stencil_dir/rand_stencil_$v" ] ||
      die "$stencil_dir/rand_stencil_$v is missing (it needs MPI and include/pure/pure.hpp)"
  done
}

# The heavy region for N ranks: rank 0's block, --heavy 1/N. Rank 0 then does
# 1 + (N-1)*X times the mean work and every other rank 1 - X times.
stencil_heavy() {
  awk -v n="$1" 'BEGIN { printf "%g", 1 / n }'
}

# stencil_run VERSION RANKS OUT ARGS...: one run of rand_stencil_VERSION (mpi,
# pure or tasks) at RANKS ranks, launched as coll_launch says, its output in
# OUT. The task version runs with PURE_STATS=1, so OUT also holds every rank's
# chunk counters.
stencil_run() {
  local version=$1 n=$2 out=$3 pure_opts mpi_opts
  shift 3
  coll_launch "$n"
  case $version in
    mpi)
      run_logged "$out" mpirun "${mpi_opts[@]}" "${ompi_args[@]}" \
        "$stencil_dir/rand_stencil_mpi" "$@" ;;
    pure)
      run_logged "$out" "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "${stencil_pure:-$stencil_dir/rand_stencil_pure}" "$@" ;;
    tasks)
      run_logged "$out" env PURE_STATS=1 "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "$stencil_dir/rand_stencil_tasks" "$@" ;;
    *) die "stencil_run: unknown version '$version'" ;;
  esac
}

# stencil_records FILE...: one line per run: the result line's version, ranks,
# imbalance, time, checksum and work, then the task chunks the ranks ran of
# their own tasks and stole from others ("pure: stats:" lines of PURE_STATS=1,
# summed over ranks and helpers; 0 0 without them), then the file. Fails when
# a file has no result line.
stencil_records() {
  awk '
    function emit() {
      if (file == "") return
      if (!("time" in f)) { print "bench: no rand_stencil result line in " file > "/dev/stderr"; bad = 1; return }
      print f["version"], f["ranks"], f["imbalance"], f["time"], f["checksum"], f["work"], own + 0, stolen + 0, file
    }
    FNR == 1 { emit(); file = FILENAME; split("", f); own = 0; stolen = 0 }
    /^rand_stencil: / { for (i = 2; i < NF; i += 2) f[$i] = $(i + 1) }
    /^pure: stats: / {
      for (i = 1; i + 2 <= NF; ++i) {
        if ($(i + 1) == "own" && $(i + 2) ~ /^chunks/) own += $i
        if ($(i + 1) == "stolen" && $(i + 2) ~ /^chunks/) stolen += $i
      }
    }
    END { emit(); exit bad }' "$@"
}

# Best time per version, rank count and imbalance over the rounds; one table
# per rank count, then the issue's target. Fails when two runs of the same
# input disagree on the checksum, or two imbalances on the total work.
tasks_report() {
  local records=$1 rounds=$2 input=$3
  awk -v rounds="$rounds" -v cores="$(nproc)" -v transport="$ompi_transport" \
    -v ompi="$(mpirun --version 2>/dev/null | head -n 1)" -v pure_env="$(pure_env_note)" \
    -v input="$input" '
    {
      v = $1; n = $2 + 0; x = $3; t = $4 + 0
      if (!(n in seen_n)) { seen_n[n] = 1; ns[nn++] = n; nx[n] = 0 }
      if (!((n, x) in seen_x)) { seen_x[n, x] = 1; xs[n, nx[n]++] = x }
      key = n SUBSEP v SUBSEP x
      if (!(key in best) || t < best[key]) { best[key] = t; own[key] = $7; stolen[key] = $8 }
      if (!((n, x) in sum)) { sum[n, x] = $5; sum_file[n, x] = $9 }
      else if (sum[n, x] != $5)
        bad = bad sprintf("checksums differ at %d ranks, imbalance %s: %s (%s), %s (%s)\n", n, x, sum[n, x], sum_file[n, x], $5, $9)
      if (!(n in work)) { work[n] = $6; work_file[n] = $9 }
      else if (work[n] != $6)
        bad = bad sprintf("total work differs at %d ranks: %s (%s), %s (%s)\n", n, work[n], work_file[n], $6, $9)
    }
    END {
      for (i = 1; i < nn; ++i)
        for (j = i; j > 0 && ns[j - 1] > ns[j]; --j) { t = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = t }
      printf "apps/rand_stencil %s: the same total work at every imbalance (the\n", input
      printf "result lines say so); the heavy region is rank 0%ss block (--heavy 1/ranks), so at\n", "\047"
      printf "imbalance X rank 0 does 1+(ranks-1)X times the mean work and the others 1-X times.\n"
      printf "Open MPI: rand_stencil_mpi, processes; %s,\n%s.\n", ompi, transport
      printf "Pure: rand_stencil_pure, the same MPI source against Pure%ss <mpi.h>, rank threads.\n", "\047"
      printf "Pure + tasks: rand_stencil_tasks, each iteration%ss compute loop a PureTask that\n", "\047"
      printf "waiting ranks steal chunks of%s.\n", pure_env
      printf "Time (s): rank 0%ss, barrier to barrier, best of %d alternating rounds. ratio: time /\n", "\047", rounds
      printf "the same version%ss time at imbalance 0. MPI/tasks: Open MPI / Pure + tasks, > 1 means\n", "\047"
      printf "tasks is faster. stolen: task chunks run by a rank other than their owner, of all\n"
      printf "chunks run, in the fastest tasks run (PURE_STATS=1).\n"
      printf "Load average (1, 5, 15 min) %s; %d cores. Other work on the cores makes timings noisy.\n", ENVIRON["load"], cores
      for (i = 0; i < nn; ++i) {
        n = ns[i]
        for (a = 1; a < nx[n]; ++a)
          for (b = a; b > 0 && xs[n, b - 1] + 0 > xs[n, b] + 0; --b) { t = xs[n, b]; xs[n, b] = xs[n, b - 1]; xs[n, b - 1] = t }
        x0 = xs[n, 0]
        if (n <= cores)
          printf "\n%d ranks, one per core: purerun -n %d --bind core; mpirun -np %d --bind-to core.\n", n, n, n
        else
          printf "\n%d ranks on %d cores: purerun -n %d; mpirun -np %d --oversubscribe --bind-to none.\n", n, cores, n, n
        printf "| %9s | %12s | %6s | %8s | %6s | %9s | %6s | %9s | %24s |\n", "imbalance", "Open MPI (s)", "ratio",
               "Pure (s)", "ratio", "tasks (s)", "ratio", "MPI/tasks", "stolen chunks (share)"
        worst[n] = ""
        for (k = 0; k < nx[n]; ++k) {
          x = xs[n, k]; m = best[n, "mpi", x]; p = best[n, "pure", x]; t = best[n, "tasks", x]
          s = stolen[n, "tasks", x]; c = own[n, "tasks", x] + s
          printf "| %9s | %12.3f | %5.2fx | %8.3f | %5.2fx | %9.3f | %5.2fx | %8.2fx | %6d of %6d (%4.1f%%) |\n",
                 x, m, m / best[n, "mpi", x0], p, p / best[n, "pure", x0], t, t / best[n, "tasks", x0],
                 (t > 0 ? m / t : 0), s, c, (c > 0 ? 100 * s / c : 0)
          if (x + 0 > 0 && (worst[n] == "" || t / best[n, "tasks", x0] > worst[n])) { worst[n] = t / best[n, "tasks", x0]; worst_x[n] = x }
        }
      }
      printf "\n"
      for (i = 0; i < nn; ++i) {
        n = ns[i]
        if (worst[n] == "" || xs[n, 0] + 0 != 0) continue
        printf "Target, %d ranks%s: with tasks, imbalanced time \342\211\244 1.10 \303\227 balanced: worst ratio %.3f (imbalance %s) -> %s\n",
               n, (n > cores ? " on " cores " cores" : ""), worst[n], worst_x[n], (worst[n] <= 1.10 ? "met" : "NOT met")
      }
      if (bad != "") { printf "\nWRONG RESULTS:\n%s", bad; exit 1 }
    }' "$records"
}

cmd_tasks() {
  local rounds=5 imbalances=(0 0.25 0.5 0.75 1)
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) rounds=3; imbalances=(0 0.5 1); shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        rounds=$2; shift 2 ;;
      *) usage >&2; die "tasks: unknown option '$1'" ;;
    esac
  done
  build_release
  stencil_check_built
  local dir=$results/tasks
  rm -rf "$dir"
  mkdir -p "$dir"
  pick_ompi_transport
  ompi_transport+=$(ompi_env_note)
  echo "bench: Open MPI transport: $ompi_transport" >&2

  # The README's default input: about 0.36 s at 2 ranks when balanced.
  local input=(--n 65536 --iters 100 --work 64)
  local r n i k v load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 1; r <= rounds; ++r)); do
    for n in 2 8; do
      printf 'bench: round %d/%d, %d ranks, imbalance' "$r" "$rounds" "$n" >&2
      for ((i = 0; i < ${#imbalances[@]}; ++i)); do
        printf ' %s' "${imbalances[i]}" >&2
        # Each version goes first as often as the others.
        for ((k = 0; k < 3; ++k)); do
          v=${stencil_versions[(r + i + k) % 3]}
          stencil_run "$v" "$n" "$dir/$v.$n.$i.$r" "${input[@]}" \
            --heavy "$(stencil_heavy "$n")" --imbalance "${imbalances[i]}"
        done
      done
      printf '\n' >&2
    done
  done
  echo >&2
  stencil_records "$dir"/*.*.*.* >"$dir/records.txt" || die "a run printed no result line"
  load="$load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
    tasks_report "$dir/records.txt" "$rounds" "${input[*]}" | tee "$dir/report.txt" ||
    die "the versions computed different results (see above)"
  echo
  echo "(raw output of every run: $dir)"
}

# ----------------------------------------------------------------- apps

# apps/dt and apps/md (their READMEs): one MPI source each, built for Open MPI
# (APP_mpi) and ported (APP_pure), and a task version (APP_tasks).
apps_dir=$build/apps
app_versions=(mpi pure tasks)

# Fails unless every version of both apps is built.
apps_check_built() {
  local app v
  for app in dt md; do
    for v in "${app_versions[@]}"; do
      [ -x "$apps_dir/$app/${app}_$v" ] ||
        die "$apps_dir/$app/${app}_$v is missing (it needs MPI and include/pure/pure.hpp)"
    done
  done
}

# app_run APP VERSION RANKS OUT ARGS...: one run of APP_VERSION at RANKS
# ranks, launched as coll_launch says, its output in OUT; the Pure versions
# with PURE_STATS=1 (the task chunks each rank ran).
app_run() {
  local app=$1 version=$2 n=$3 out=$4 pure_opts mpi_opts
  shift 4
  coll_launch "$n"
  case $version in
    mpi)
      run_logged "$out" mpirun "${mpi_opts[@]}" "${ompi_args[@]}" "$apps_dir/$app/${app}_mpi" "$@" ;;
    pure | tasks)
      run_logged "$out" env PURE_STATS=1 "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "$apps_dir/$app/${app}_$version" "$@" ;;
    *) die "app_run: unknown version '$version'" ;;
  esac
}

cmd_apps() {
  local rounds=5 steps=40
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) rounds=3; steps=10; shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        rounds=$2; shift 2 ;;
      *) usage >&2; die "apps: unknown option '$1'" ;;
    esac
  done
  build_release
  apps_check_built
  local dir=$results/apps
  rm -rf "$dir"
  mkdir -p "$dir"
  pick_ompi_transport
  ompi_transport+=$(ompi_env_note)
  echo "bench: Open MPI transport: $ompi_transport" >&2

  # APP INPUT RANKS ARGS: DT class A on its three graphs, with as many ranks
  # as the graph has nodes; MD's 32000 atoms filling the box (balanced) or
  # half of a box twice as long (imbalanced), at 2, 8 and 16 ranks.
  local md_balanced="--size 20 --steps $steps --print $steps"
  local md_imbalanced="--nx 40 --ny 20 --nz 20 --fill 0.5 --steps $steps --print $steps"
  local configs=(
    "dt A-BH 21 A BH"
    "dt A-WH 21 A WH"
    "dt A-SH 80 A SH"
    "md balanced 2 $md_balanced"
    "md imbalanced 2 $md_imbalanced"
    "md balanced 8 $md_balanced"
    "md imbalanced 8 $md_imbalanced"
    "md balanced 16 $md_balanced"
    "md imbalanced 16 $md_imbalanced"
  )
  local r i k v app input n args load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d:' "$r" "$rounds" >&2
    for ((i = 0; i < ${#configs[@]}; ++i)); do
      read -r app input n args <<<"${configs[i]}"
      printf ' %s %s@%d' "$app" "$input" "$n" >&2
      # Each version goes first as often as the others.
      for ((k = 0; k < 3; ++k)); do
        v=${app_versions[(r + i + k) % 3]}
        # shellcheck disable=SC2086  # args: words by design
        app_run "$app" "$v" "$n" "$dir/$app.$input.$n.$v.$r" $args
      done
    done
    printf '\n' >&2
  done
  echo >&2
  python3 "$pure_root/tools/bench_apps.py" "$dir" --rounds "$rounds" \
    --load "$load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" \
    --transport "$(mpirun --version 2>/dev/null | head -n 1), $ompi_transport" \
    --plot "$dir/apps.svg" | tee "$dir/report.txt" ||
    die "the versions computed different results (see above)"
  echo
  echo "(raw output of every run: $dir)"
}

# ----------------------------------------------------------------- queue

cmd_floor() {
  local quick=()
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) quick=(--quick); shift ;;
      *) usage >&2; die "floor: unknown option '$1'" ;;
    esac
  done
  build_release
  local dir=$results/floor
  mkdir -p "$dir"
  "$build/bench/hw_floor" "${quick[@]}" | tee "$dir/floor.txt"
}

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

# Sourced (tools/demo.sh): the helpers only.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  return 0
fi

[ $# -gt 0 ] || { usage >&2; exit 2; }
suite=$1
shift
case $suite in
  p2p | internode | coll | tasks | apps | queue | floor) "cmd_$suite" "$@" ;;
  -h | --help) usage ;;
  *) usage >&2; echo "bench: unknown suite '$suite'" >&2; exit 2 ;;
esac
