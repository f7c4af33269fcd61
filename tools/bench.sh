#!/usr/bin/env bash
# Builds the Release tree (build/, or $BUILD_DIR) and runs one benchmark suite:
# it chooses Open MPI's transport, alternates the runs, and keeps every run's
# output in a results directory; tools/bench_report.py reads that directory
# and prints the report (and draws the figures of --plot). A benchmark is
# never a test: nothing here passes or fails on a time.
#
# A results directory: context.json (the launch, written by the report's
# `begin` and `end`), runs.jsonl (one line per run: its name and what the
# launcher knows of it), and per run NAME.jsonl (the program's JSON Lines)
# and NAME.log (its standard error).
#
# Adding a suite: write cmd_<name>, a report in tools/bench_report.py, and
# list it in usage(). tools/demo.sh sources this file for its helpers;
# sourced, it runs no suite.
set -euo pipefail
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"

build=${BUILD_DIR:-$pure_root/build}
results=$build/bench-results
# Debian's interpreter, which python3-matplotlib (deps.sh) is installed for,
# even when another python3 comes first in PATH.
report=(/usr/bin/python3 "$pure_root/tools/bench_report.py")

usage() {
  cat <<'EOF'
usage: tools/bench.sh SUITE [options]

suites:
  p2p [--quick] [--rounds N] [--plot]
                              ping-pong latency and windowed bandwidth, 1 B to 4 MiB:
                              Pure (2 rank threads) against Open MPI (2 processes,
                              mpirun --bind-to core), alternating within one run
  internode [--quick] [--rounds N] [--plot]
                              the p2p benchmark between two processes: Pure with one
                              rank in each of 2 processes (purerun -n 2
                              --ranks-per-proc 1, its messages over Open MPI with
                              the same transport) against Open MPI (2 processes);
                              and the 8 B message rate of 4 pairs across 2
                              processes of 4 ranks, and the barrier and 8 B and
                              1 KiB allreduce over them, against Open MPI's 8
                              processes; the same collectives over 2
                              processes x 2 ranks against 4 ranks in one
                              process; and, where MPICH is installed, the pairs,
                              rate and collectives over MPICH against MPICH
                              (build-mpich/, benchmarks built there)
  coll [--quick] [--rounds N] [--plot]
                              allreduce (8 B to 1 MiB), barrier, bcast, reduce and
                              alltoall: Pure against Open MPI, alternating within one
                              run, at 2 ranks (one per core; mpirun --bind-to core)
                              and at 8 ranks on 2 cores (mpirun --oversubscribe
                              --bind-to none)
  coll --threshold [--quick] [--rounds N] [--plot]
                              Pure allreduce 64 B to 256 KiB with every reduction
                              partitioned (PURE_REDUCE_PARTITION=0) and with none
                              (=1G), at 2 and 8 ranks: where the partitioned
                              reducer starts to win, and the threshold to choose
  tasks [--quick] [--rounds N] [--plot]
                              apps/rand_stencil with --imbalance 0, 0.25, 0.5, 0.75
                              and 1 (--quick: 0, 0.5, 1): Open MPI, Pure and Pure
                              with tasks, alternating within one run, at 2 ranks
                              and at 8 ranks on 2 cores; times, each version's
                              ratio to its balanced run, chunks stolen
  apps [--quick] [--rounds N] [--plot]
                              apps/dt (NAS DT class A: BH and WH at 21 ranks, SH at
                              80) and apps/md (balanced and imbalanced, at 2 ranks
                              with a core each and at 8 and 16 ranks on 2 cores):
                              Open MPI, Pure (the same MPI source, ported) and Pure
                              with tasks, alternating within one run; fails when
                              the versions compute different results
  scale [--quick] [--rounds N] [--plot]
                              bench/scale.c at 256, 1024 and 4096 ranks (--quick:
                              256 and 1024) in one Pure process: peak resident
                              memory and the run's wall time against the rank
                              count, beside Open MPI at 2 and 8 processes
  overlap [--quick] [--rounds N]
                              an MPI_Iallreduce of 64 KiB to 4 MiB at 2 ranks (a core
                              each) with computation between it and its wait, with
                              and without MPI_Test calls in the computation: the
                              share of the allreduce's time hidden, Pure against
                              Open MPI, alternating within one run
  rma [--quick] [--rounds N]  one-sided latency (bench/rma.c: put, get and
                              fetch_and_op, each completed by a flush, under
                              lock_all): Pure in one process and across two,
                              Open MPI (osc/ucx) and MPICH, two processes each;
                              and the PGAS calls (bench/pgas.c: put, get,
                              fetch-add, active-message round trip); and the
                              PGAS example apps/hist against its MPI twin
  queue [--quick]             eager-queue micro-benchmarks against
                              boost::lockfree::spsc_queue
  build [--quick] [--rounds N]
                              building programs with purecc against mpicc (Open
                              MPI's), alternating within one run: make -j2 of 40
                              small MPI programs (bench/build_suite, translation
                              included), a hello world compiled and linked, its
                              link alone, and the link of a find_package(Pure)
                              program against a CMake program's link with MPI
  floor [--quick]             the machine's floors under the targets: a cache
                              line's one-way trip between two cores, a two-sided
                              exchange, a context switch between threads sharing
                              a core; run it beside p2p/coll (they vary by run
                              on a shared virtual machine)

  --quick     fewer rounds and iterations
  --rounds N  rounds of alternating runs (default 5, --quick 3; scale: 3 and 1)
  --plot      also draw PNG figures next to the report (matplotlib): latency and
              bandwidth against size, collectives per op, the imbalance sweep,
              memory and start-up against ranks

Results and report: build/bench-results/SUITE/ (report.txt, *.png, every run's
output); tools/bench_report.py show DIR [--plot] renders a report again.

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

# Options of a suite: suite_options SUITE ROUNDS QUICK_ROUNDS ALLOWED... --
# ARGS... sets quick (1 or empty), rounds (--rounds N, else ROUNDS, or
# QUICK_ROUNDS with --quick), plot (an array: --plot or nothing) and threshold
# (1 or empty) in the caller's locals; ALLOWED are the options the suite takes.
suite_options() {
  local name=$1 given='' allowed=" "
  rounds=$2
  local quick_rounds=$3
  shift 3
  while [ "$1" != -- ]; do allowed+="$1 "; shift; done
  shift
  quick=''
  plot=()
  threshold=''
  while [ $# -gt 0 ]; do
    [[ $1 == --* && $allowed == *" ${1#--} "* ]] || { usage >&2; die "$name: unknown option '$1'"; }
    case $1 in
      --quick) quick=1; shift ;;
      --plot) plot=(--plot); shift ;;
      --threshold) threshold=1; shift ;;
      --rounds)
        [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--rounds needs a positive integer"
        given=$2; shift 2 ;;
    esac
  done
  [ -z "$quick" ] || rounds=$quick_rounds
  rounds=${given:-$rounds}
}

# ------------------------------------------------------------------ results

# fresh_results NAME: an empty results directory for a suite; prints its path.
fresh_results() {
  local dir=$results/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$dir"
}

# note_run DIR KEY=VALUE...: appends the launcher's side of one run to
# DIR/runs.jsonl as one JSON object. Values are numbers or plain words, so
# they need no escaping; anything else is refused.
note_run() {
  local dir=$1 kv key value line=
  shift
  for kv in "$@"; do
    key=${kv%%=*} value=${kv#*=}
    if [[ $value =~ ^-?(0|[1-9][0-9]*)(\.[0-9]+)?$ ]]; then
      line+=",\"$key\":$value"
    elif [[ $value =~ ^[A-Za-z0-9_.-]+$ ]]; then
      line+=",\"$key\":\"$value\""
    else
      die "note_run: '$kv' is neither a number nor a plain word"
    fi
  done
  printf '{%s}\n' "${line#,}" >>"$dir/runs.jsonl"
}

# bench_run DIR NAME KEY=VALUE... -- CMD...: runs CMD with its standard output
# (the benchmark's JSON Lines) in DIR/NAME.jsonl and its standard error in
# DIR/NAME.log, then notes it with its wall time in microseconds; on failure
# shows both and stops.
bench_run() {
  local dir=$1 name=$2 notes=() start end
  shift 2
  while [ "$1" != -- ]; do notes+=("$1"); shift; done
  shift
  start=$(date +%s%N)
  if ! timeout 600 "$@" >"$dir/$name.jsonl" 2>"$dir/$name.log"; then
    cat "$dir/$name.jsonl" "$dir/$name.log" >&2
    die "failed: $*"
  fi
  end=$(date +%s%N)
  note_run "$dir" "run=$name" "${notes[@]}" "wall_us=$(((end - start) / 1000))"
}

# show_report DIR [--plot]: records the load after the runs, prints the
# report (DIR/report.txt) and says where the raw output is. Fails when the
# report finds wrong results.
show_report() {
  local status=0
  echo >&2
  "${report[@]}" end "$1"
  "${report[@]}" show "$@" || status=$?
  echo
  echo "(raw output of every run: $1)"
  return "$status"
}

# ------------------------------------------- Open MPI, shared by the suites

# Open MPI refuses root unless told; benchmark containers often run as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

ompi_args=()
ompi_env=()
ompi_transport=

# Runs the MPI benchmark briefly with the given transport options; succeeds
# when it finishes cleanly and every size up to 1 MiB (single-copy territory)
# reported.
ompi_probe() {
  local log=$results/ompi-probe.log
  mkdir -p "$results"
  timeout 120 mpirun -np 2 --bind-to core "$@" "$build/bench/bench_p2p_mpi" \
    --quick --batches 1 --max-bytes 1048576 >"$log" 2>&1 &&
    grep -q '"kind":"bw","bytes":1048576,' "$log" &&
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

# ompi_args' --mca options as OMPI_MCA_* variables (ompi_env), for Pure's
# runs across processes: purerun runs mpirun itself.
ompi_env_of_args() {
  local i
  ompi_env=()
  for ((i = 0; i + 2 < ${#ompi_args[@]} + 1; ++i)); do
    if [ "${ompi_args[i]}" = --mca ]; then
      ompi_env+=("OMPI_MCA_${ompi_args[i + 1]}=${ompi_args[i + 2]}")
      i=$((i + 2))
    fi
  done
}

# Says which OMPI_MCA_* variables also shape the Open MPI runs, if any.
ompi_env_note() {
  local vars
  vars=$(env | grep -o '^OMPI_MCA_[A-Za-z0-9_]*' | tr '\n' ' ')
  [ -z "$vars" ] || echo " (and from the environment: ${vars% })"
}

# begin_with_ompi DIR SUITE [bench_report.py begin options]: picks Open MPI's
# transport and records the launch.
begin_with_ompi() {
  local dir=$1 suite=$2
  shift 2
  pick_ompi_transport
  ompi_env_of_args
  echo "bench: Open MPI transport: $ompi_transport$(ompi_env_note)" >&2
  "${report[@]}" begin "$dir" --suite "$suite" --transport "$ompi_transport" "$@"
}

# How each implementation runs N ranks (sets pure_opts and mpi_opts). Up to
# one per core: one per core, both bound. More ranks than cores: Pure with
# its defaults (ranks pinned round-robin; sharing a core as fibers) and Open
# MPI oversubscribed and unbound, which is where Open MPI turns
# mpi_yield_when_idle on by itself (bench_coll records what it got).
coll_launch() {
  if [ "$1" -le "$(nproc)" ]; then
    pure_opts=(-n "$1" --bind core)
    mpi_opts=(-np "$1" --bind-to core)
  else
    pure_opts=(-n "$1")
    mpi_opts=(-np "$1" --oversubscribe --bind-to none)
  fi
}

# ------------------------------------------------------------------ p2p

# The benchmarks built against MPICH (build-mpich/, as tools/test.sh makes it,
# with the benchmarks on): Pure over MPICH and MPICH itself. Sets mpich_build,
# or leaves it empty (with a note) where MPICH is not installed.
build_mpich_bench() {
  mpich_build=
  if ! command -v mpicc.mpich >/dev/null || ! command -v mpiexec.mpich >/dev/null; then
    echo "bench: MPICH is not installed: its runs are left out" >&2
    return
  fi
  local dir=$pure_root/build-mpich
  echo "bench: building the benchmarks against MPICH in $dir" >&2
  # The tree's own settings but the benchmarks (tools/test.sh's mpich_build):
  # no link-time optimisation of the runtime, so Pure's side here is a little
  # slower than the Release tree's.
  if ! pure_build_step "" cmake -S "$pure_root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPURE_MPI=mpich -DPURE_BUILD_BENCH=ON -DPURE_BUILD_APPS=OFF -DPURE_BUILD_TRANSLATOR=OFF \
    -DPURE_LTO=OFF ||
    ! pure_build_step "" cmake --build "$dir" -j2 --target bench_p2p_pure bench_p2p_mpi \
      bench_msgrate_pure bench_msgrate_mpi bench_coll_pure bench_coll_mpi; then
    die "building the benchmarks against MPICH failed"
  fi
  mpich_build=$dir
}

# p2p_suite NAME INTER [options]: the point-to-point benchmark, Pure and Open
# MPI alternating. INTER=0: Pure's 2 ranks are threads of one process;
# INTER=1: one rank in each of 2 processes, so its messages go through Open
# MPI too, with the same transport (mpirun's --mca options passed on as
# OMPI_MCA_* variables, since purerun runs mpirun itself).
p2p_suite() {
  local name=$1 inter=$2 rounds quick plot threshold mpich_build=
  shift 2
  suite_options "$name" 5 3 quick rounds plot -- "$@"
  local args=() dir
  [ -z "$quick" ] || args=(--quick)
  build_release
  dir=$(fresh_results "$name")
  begin_with_ompi "$dir" "$name" --rounds "$rounds"
  local pure=("$pure_root/tools/purerun" -n 2 --bind core) r
  if [ "$inter" = 1 ]; then
    pure=(env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 2 --ranks-per-proc 1 --bind core)
    build_mpich_bench
  fi
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    bench_run "$dir" "pure.$r" impl=pure "round=$r" -- \
      "${pure[@]}" "$build/bench/bench_p2p_pure" "${args[@]}"
    printf ', Open MPI' >&2
    bench_run "$dir" "mpi.$r" impl=mpi "round=$r" -- \
      mpirun -np 2 --bind-to core "${ompi_args[@]}" "$build/bench/bench_p2p_mpi" "${args[@]}"
    if [ "$inter" = 0 ]; then
      printf ', typed C++ against flat' >&2
      bench_run "$dir" "typed.$r" impl=typed ranks=2 "round=$r" -- \
        "${pure[@]}" "$build/bench/bench_typed" "${args[@]}"
    else
      # The message rate of 4 pairs, each spanning the processes: Pure's 2
      # processes of 4 ranks against Open MPI's 8 processes.
      printf ', message rate: Pure' >&2
      bench_run "$dir" "rate-pure.$r" impl=pure bench=msgrate ranks=8 "round=$r" -- \
        env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 8 --ranks-per-proc 4 \
        "$build/bench/bench_msgrate_pure" "${args[@]}"
      printf ', Open MPI' >&2
      bench_run "$dir" "rate-mpi.$r" impl=mpi bench=msgrate ranks=8 "round=$r" -- \
        mpirun -np 8 --oversubscribe --bind-to none "${ompi_args[@]}" \
        "$build/bench/bench_msgrate_mpi" "${args[@]}"
      # Barrier and small allreduces over the same 8 ranks.
      printf ', collectives: Pure' >&2
      bench_run "$dir" "coll-pure.$r" impl=pure bench=coll ranks=8 "round=$r" -- \
        env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 8 --ranks-per-proc 4 \
        "$build/bench/bench_coll_pure" --small "${args[@]}"
      printf ', Open MPI' >&2
      bench_run "$dir" "coll-mpi.$r" impl=mpi bench=coll ranks=8 "round=$r" -- \
        mpirun -np 8 --oversubscribe --bind-to none "${ompi_args[@]}" \
        "$build/bench/bench_coll_mpi" --small "${args[@]}"
      # What crossing processes costs a collective on one host: 4 ranks
      # as 2 processes x 2, against the same 4 in one process.
      printf ', 2 x 2 against 1 x 4' >&2
      bench_run "$dir" "split-procs.$r" impl=procs bench=coll-split ranks=4 "round=$r" -- \
        env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 4 --ranks-per-proc 2 \
        "$build/bench/bench_coll_pure" --small "${args[@]}"
      bench_run "$dir" "split-one.$r" impl=one bench=coll-split ranks=4 "round=$r" -- \
        "$pure_root/tools/purerun" -n 4 "$build/bench/bench_coll_pure" --small "${args[@]}"
      if [ -n "$mpich_build" ]; then
        # The same pairs over MPICH: Pure on MPICH against MPICH itself.
        printf ', over MPICH: Pure' >&2
        bench_run "$dir" "mpich-pure.$r" impl=pure mpi=mpich "round=$r" -- \
          "$pure_root/tools/purerun" -n 2 --ranks-per-proc 1 --bind core \
          "$mpich_build/bench/bench_p2p_pure" "${args[@]}"
        bench_run "$dir" "mpich-rate-pure.$r" impl=pure mpi=mpich bench=msgrate ranks=8 \
          "round=$r" -- "$pure_root/tools/purerun" -n 8 --ranks-per-proc 4 \
          "$mpich_build/bench/bench_msgrate_pure" "${args[@]}"
        bench_run "$dir" "mpich-coll-pure.$r" impl=pure mpi=mpich bench=coll ranks=8 \
          "round=$r" -- "$pure_root/tools/purerun" -n 8 --ranks-per-proc 4 \
          "$mpich_build/bench/bench_coll_pure" --small "${args[@]}"
        printf ', MPICH' >&2
        bench_run "$dir" "mpich.$r" impl=mpi mpi=mpich "round=$r" -- \
          mpiexec.mpich -n 2 -bind-to core "$mpich_build/bench/bench_p2p_mpi" "${args[@]}"
        bench_run "$dir" "mpich-rate.$r" impl=mpi mpi=mpich bench=msgrate ranks=8 "round=$r" -- \
          mpiexec.mpich -n 8 "$mpich_build/bench/bench_msgrate_mpi" "${args[@]}"
        bench_run "$dir" "mpich-coll.$r" impl=mpi mpi=mpich bench=coll ranks=8 "round=$r" -- \
          mpiexec.mpich -n 8 "$mpich_build/bench/bench_coll_mpi" --small "${args[@]}"
      fi
    fi
    printf '\n' >&2
  done
  show_report "$dir" "${plot[@]}"
}

cmd_p2p() { p2p_suite p2p 0 "$@"; }
cmd_internode() { p2p_suite internode 1 "$@"; }

# ----------------------------------------------------------------- coll

cmd_coll() {
  local rounds quick plot threshold
  suite_options coll 5 3 quick rounds plot threshold -- "$@"
  local args=() dir r n pure_opts mpi_opts
  [ -z "$quick" ] || args=(--quick)
  build_release
  if [ -n "$threshold" ]; then
    coll_threshold "$rounds" "${args[@]}"
    return
  fi
  dir=$(fresh_results coll)
  begin_with_ompi "$dir" coll --rounds "$rounds"
  for ((r = 1; r <= rounds; ++r)); do
    for n in 2 8; do
      coll_launch "$n"
      printf 'bench: round %d/%d, %d ranks: Pure' "$r" "$rounds" "$n" >&2
      bench_run "$dir" "pure.$n.$r" impl=pure "ranks=$n" "round=$r" -- \
        "$pure_root/tools/purerun" "${pure_opts[@]}" "$build/bench/bench_coll_pure" "${args[@]}"
      printf ', Open MPI' >&2
      bench_run "$dir" "mpi.$n.$r" impl=mpi "ranks=$n" "round=$r" -- \
        mpirun "${mpi_opts[@]}" "${ompi_args[@]}" "$build/bench/bench_coll_mpi" "${args[@]}"
      printf ', typed C++ against flat' >&2
      bench_run "$dir" "typed.$n.$r" impl=typed "ranks=$n" "round=$r" -- \
        "$pure_root/tools/purerun" "${pure_opts[@]}" "$build/bench/bench_typed" "${args[@]}"
      printf '\n' >&2
    done
  done
  show_report "$dir" "${plot[@]}"
}

# The threshold sweep: Pure allreduce from 64 B to 256 KiB with every
# reduction partitioned (PURE_REDUCE_PARTITION=0) and with none (1G), at 2
# ranks (a core each) and at 8 on the 2 cores, alternating the order by round.
# 64 B is the smallest allreduce of doubles that two ranks do not send inline
# whatever the threshold. PURE_STATS=1 makes every run print the thresholds
# PURE_REDUCE_PARTITION=auto would use, which the report shows beside the
# measured ones.
coll_threshold() {
  local rounds=$1 lo=64 hi=262144 huge=1G
  shift
  local args=("$@") dir r n mode setting modes pure_opts mpi_opts
  dir=$(fresh_results coll-threshold)
  "${report[@]}" begin "$dir" --suite coll-threshold --rounds "$rounds"
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
        bench_run "$dir" "$mode.$n.$r" impl=pure "partition=$mode" "ranks=$n" "round=$r" -- \
          env PURE_REDUCE_PARTITION="$setting" PURE_STATS=1 "$pure_root/tools/purerun" \
          "${pure_opts[@]}" "$build/bench/bench_coll_pure" --sweep "$lo" "$hi" "${args[@]}"
      done
      printf '\n' >&2
    done
  done
  show_report "$dir" "${plot[@]}"
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

# The heavy region for N ranks: rank 0's block, --heavy 1/N (printed as %g
# prints it, from N's reciprocal in units of 1e-9). Rank 0 then does
# 1 + (N-1)*X times the mean work and every other rank 1 - X times.
stencil_heavy() {
  LC_ALL=C printf '%g' "$((1000000000 / $1))e-9"
}

# stencil_run DIR NAME VERSION RANKS KEY=VALUE... -- ARGS...: one run of
# rand_stencil_VERSION (mpi, pure or tasks) at RANKS ranks, launched as
# coll_launch says, as bench_run NAME with impl=VERSION, ranks and the notes
# given. The task version runs with PURE_STATS=1, so its log also holds
# every rank's chunk counters.
stencil_run() {
  local dir=$1 name=$2 version=$3 n=$4 notes=() pure_opts mpi_opts
  shift 4
  while [ "$1" != -- ]; do notes+=("$1"); shift; done
  shift
  coll_launch "$n"
  local launch=(bench_run "$dir" "$name" "impl=$version" "ranks=$n" "${notes[@]}" --)
  case $version in
    mpi)
      "${launch[@]}" mpirun "${mpi_opts[@]}" "${ompi_args[@]}" \
        "$stencil_dir/rand_stencil_mpi" "$@" --format json ;;
    pure)
      "${launch[@]}" "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "${stencil_pure:-$stencil_dir/rand_stencil_pure}" "$@" --format json ;;
    tasks)
      "${launch[@]}" env PURE_STATS=1 "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "$stencil_dir/rand_stencil_tasks" "$@" --format json ;;
    *) die "stencil_run: unknown version '$version'" ;;
  esac
}

cmd_tasks() {
  local rounds quick plot threshold imbalances=(0 0.25 0.5 0.75 1)
  suite_options tasks 5 3 quick rounds plot -- "$@"
  [ -z "$quick" ] || imbalances=(0 0.5 1)
  build_release
  stencil_check_built
  # The README's default input: about 0.36 s at 2 ranks when balanced.
  local input=(--n 65536 --iters 100 --work 64) dir r n i k v
  dir=$(fresh_results tasks)
  begin_with_ompi "$dir" tasks --rounds "$rounds" --set "input=${input[*]}"
  for ((r = 1; r <= rounds; ++r)); do
    for n in 2 8; do
      printf 'bench: round %d/%d, %d ranks, imbalance' "$r" "$rounds" "$n" >&2
      for ((i = 0; i < ${#imbalances[@]}; ++i)); do
        printf ' %s' "${imbalances[i]}" >&2
        # Each version goes first as often as the others.
        for ((k = 0; k < 3; ++k)); do
          v=${stencil_versions[(r + i + k) % 3]}
          stencil_run "$dir" "$v.$n.$i.$r" "$v" "$n" "imbalance=${imbalances[i]}" "round=$r" -- \
            "${input[@]}" --heavy "$(stencil_heavy "$n")" --imbalance "${imbalances[i]}"
        done
      done
      printf '\n' >&2
    done
  done
  show_report "$dir" "${plot[@]}" || die "the versions computed different results (see above)"
}

# ----------------------------------------------------------------- scale

# Memory and start-up against the rank count: bench/scale.c under Pure, one
# process of N rank threads, and under Open MPI at a few processes for its
# per-process cost (thousands of processes would not fit this machine).
cmd_scale() {
  local rounds quick plot threshold counts=(256 1024 4096) mpi_counts=(2 8)
  suite_options scale 3 1 quick rounds plot -- "$@"
  [ -z "$quick" ] || counts=(256 1024)
  build_release
  local dir r n
  dir=$(fresh_results scale)
  begin_with_ompi "$dir" scale --rounds "$rounds"
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    for n in "${counts[@]}"; do
      printf ' %d' "$n" >&2
      bench_run "$dir" "pure.$n.$r" impl=pure "ranks=$n" procs=1 "round=$r" -- \
        "$pure_root/tools/purerun" -n "$n" "$build/bench/bench_scale_pure" --json
    done
    printf ', Open MPI' >&2
    for n in "${mpi_counts[@]}"; do
      printf ' %d' "$n" >&2
      bench_run "$dir" "mpi.$n.$r" impl=mpi "ranks=$n" "procs=$n" "round=$r" -- \
        mpirun -np "$n" --oversubscribe --bind-to none "${ompi_args[@]}" \
        "$build/bench/bench_scale_mpi" --json
    done
    printf '\n' >&2
  done
  show_report "$dir" "${plot[@]}"
}

# ----------------------------------------------------------------- apps

# apps/dt and apps/md (their READMEs): one MPI source each, built for Open MPI
# (APP_mpi) and ported (APP_pure), and a task version (APP_tasks). They print
# text, not JSON: the report (tools/bench_apps.py) reads their result lines.
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

# app_run DIR APP VERSION RANKS ROUND INPUT ARGS...: one run of APP_VERSION
# at RANKS ranks, launched as coll_launch says; the Pure versions with
# PURE_STATS=1 (the task chunks each rank ran).
app_run() {
  local dir=$1 app=$2 version=$3 n=$4 r=$5 input=$6 pure_opts mpi_opts
  shift 6
  coll_launch "$n"
  local notes=("app=$app" "input=$input" "ranks=$n" "impl=$version" "round=$r")
  case $version in
    mpi)
      bench_run "$dir" "$app.$input.$n.$version.$r" "${notes[@]}" -- \
        mpirun "${mpi_opts[@]}" "${ompi_args[@]}" "$apps_dir/$app/${app}_mpi" "$@" ;;
    pure | tasks)
      bench_run "$dir" "$app.$input.$n.$version.$r" "${notes[@]}" -- \
        env PURE_STATS=1 "$pure_root/tools/purerun" "${pure_opts[@]}" \
        "$apps_dir/$app/${app}_$version" "$@" ;;
    *) die "app_run: unknown version '$version'" ;;
  esac
}

cmd_apps() {
  local rounds quick plot threshold steps=40
  suite_options apps 5 3 quick rounds plot -- "$@"
  [ -z "$quick" ] || steps=10
  build_release
  apps_check_built
  local dir
  dir=$(fresh_results apps)
  begin_with_ompi "$dir" apps --rounds "$rounds"
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
  local r i k app input n args
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d:' "$r" "$rounds" >&2
    for ((i = 0; i < ${#configs[@]}; ++i)); do
      read -r app input n args <<<"${configs[i]}"
      printf ' %s %s@%d' "$app" "$input" "$n" >&2
      # Each version goes first as often as the others.
      for ((k = 0; k < 3; ++k)); do
        # shellcheck disable=SC2086  # args: words by design
        app_run "$dir" "$app" "${app_versions[(r + i + k) % 3]}" "$n" "$r" "$input" $args
      done
    done
    printf '\n' >&2
  done
  show_report "$dir" "${plot[@]}" || die "the versions computed different results (see above)"
}

# ----------------------------------------------------------------- queue, floor

cmd_floor() {
  local rounds quick plot threshold args=() dir
  suite_options floor 1 1 quick -- "$@"
  [ -z "$quick" ] || args=(--quick)
  build_release
  dir=$(fresh_results floor)
  "${report[@]}" begin "$dir" --suite floor
  bench_run "$dir" floor impl=none -- "$build/bench/hw_floor" "${args[@]}"
  show_report "$dir"
}

cmd_queue() {
  local rounds quick plot threshold min_time=0.1 reps=10 dir
  suite_options queue 1 1 quick -- "$@"
  [ -z "$quick" ] || { min_time=0.05; reps=4; }
  build_release
  dir=$(fresh_results queue)
  "${report[@]}" begin "$dir" --suite queue --set "reps=$reps"
  # Google Benchmark's console table as it goes; its JSON file for the report.
  "$build/bench/eager_queue_bench" --benchmark_min_time="$min_time" \
    --benchmark_repetitions="$reps" --benchmark_display_aggregates_only=true \
    --benchmark_out="$dir/queue.json" --benchmark_out_format=json
  show_report "$dir"
}

# ---------------------------------------------------------------- build

# The build suite (cmd_build) lives beside this file: it shares the helpers
# above and nothing else.
# shellcheck source=tools/bench_build.sh
source "$pure_root/tools/bench_build.sh"

# -------------------------------------------------------------- overlap

# bench/overlap.c at 2 ranks, one per core: Pure and Open MPI alternating.
cmd_overlap() {
  local rounds quick plot threshold
  suite_options overlap 3 2 quick rounds -- "$@"
  local args=() dir r pure_opts mpi_opts
  [ -z "$quick" ] || args=(--quick)
  build_release
  dir=$(fresh_results overlap)
  begin_with_ompi "$dir" overlap --rounds "$rounds"
  coll_launch 2
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    bench_run "$dir" "pure.$r" impl=pure ranks=2 "round=$r" -- \
      "$pure_root/tools/purerun" "${pure_opts[@]}" "$build/bench/bench_overlap_pure" "${args[@]}"
    printf ', Open MPI' >&2
    bench_run "$dir" "mpi.$r" impl=mpi ranks=2 "round=$r" -- \
      mpirun "${mpi_opts[@]}" "${ompi_args[@]}" "$build/bench/bench_overlap_mpi" "${args[@]}"
    printf '\n' >&2
  done
  show_report "$dir"
}

# ------------------------------------------------------------------ rma

# One-sided latency (bench/rma.c): Pure with 2 rank threads, Pure with one
# rank in each of 2 processes, Open MPI (osc/ucx, the component that runs
# passive target here) and MPICH (its mpicc builds rma.c; left out, with a
# note, where MPICH is not installed), alternating; and Pure's PGAS calls
# (bench/pgas.c) in the same two layouts.
cmd_rma() {
  local rounds quick plot threshold
  suite_options rma 3 1 quick rounds plot -- "$@"
  local args=() dir r mpich=$build/bench/bench_rma_mpich hist_input="--keys 4000000 --bins 65536"
  [ -z "$quick" ] || { args=(--quick); hist_input="--keys 1000000 --bins 65536"; }
  build_release
  if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
    mpicc.mpich -O2 -o "$mpich" "$pure_root/bench/rma.c" || die "building rma.c with MPICH failed"
  else
    echo "bench: MPICH is not installed: its runs are left out" >&2
    mpich=
  fi
  dir=$(fresh_results rma)
  begin_with_ompi "$dir" rma --rounds "$rounds"
  for ((r = 1; r <= rounds; ++r)); do
    printf 'bench: round %d/%d: Pure' "$r" "$rounds" >&2
    bench_run "$dir" "pure.$r" impl=pure "round=$r" -- \
      "$pure_root/tools/purerun" -n 2 --bind core "$build/bench/bench_rma_pure" "${args[@]}"
    printf ', Pure across processes' >&2
    bench_run "$dir" "pure-procs.$r" impl=pure-procs "round=$r" -- \
      env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 2 --ranks-per-proc 1 --bind core \
      "$build/bench/bench_rma_pure" "${args[@]}"
    printf ', PGAS' >&2
    bench_run "$dir" "pgas.$r" impl=pgas "round=$r" -- \
      "$pure_root/tools/purerun" -n 2 --bind core "$build/bench/bench_pgas_pure" "${args[@]}"
    printf ', PGAS across processes' >&2
    bench_run "$dir" "pgas-procs.$r" impl=pgas-procs "round=$r" -- \
      env "${ompi_env[@]}" "$pure_root/tools/purerun" -n 2 --ranks-per-proc 1 --bind core \
      "$build/bench/bench_pgas_pure" "${args[@]}"
    printf ', Open MPI' >&2
    bench_run "$dir" "mpi.$r" impl=mpi "round=$r" -- \
      mpirun -np 2 --bind-to core "${ompi_args[@]}" --mca osc ucx "$build/bench/bench_rma_mpi" \
      "${args[@]}"
    if [ -n "$mpich" ]; then
      printf ', MPICH' >&2
      bench_run "$dir" "mpich.$r" impl=mpich "round=$r" -- \
        mpiexec.mpich -n 2 -bind-to core "$mpich" "${args[@]}"
    fi
    # The PGAS example and its MPI one-sided twin (apps/hist), each version
    # in turn going first, at 2 ranks and at 8 on the 2 cores.
    local n k versions=(mpi pure pgas-atomics pgas-am)
    for n in 2 8; do
      printf ', hist@%d' "$n" >&2
      for ((k = 0; k < 4; ++k)); do
        hist_run "$dir" "${versions[(r + k) % 4]}" "$n" "$r" $hist_input
      done
    done
    printf '\n' >&2
  done
  show_report "$dir" "${plot[@]}"
}

# hist_run DIR VERSION RANKS ROUND ARGS...: one run of apps/hist's VERSION
# (mpi: hist.c under Open MPI; pure: the same source ported; pgas-atomics,
# pgas-am: hist_pgas.c's two modes), launched as coll_launch says.
hist_run() {
  local dir=$1 version=$2 n=$3 r=$4 pure_opts mpi_opts
  shift 4
  coll_launch "$n"
  local notes=("app=hist" "ranks=$n" "impl=hist-$version" "round=$r")
  case $version in
    mpi)
      bench_run "$dir" "hist.$n.$version.$r" "${notes[@]}" -- \
        mpirun "${mpi_opts[@]}" "${ompi_args[@]}" "$apps_dir/hist/hist_mpi" "$@" ;;
    pure)
      bench_run "$dir" "hist.$n.$version.$r" "${notes[@]}" -- \
        "$pure_root/tools/purerun" "${pure_opts[@]}" "$apps_dir/hist/hist_pure" "$@" ;;
    pgas-*)
      bench_run "$dir" "hist.$n.$version.$r" "${notes[@]}" -- \
        "$pure_root/tools/purerun" "${pure_opts[@]}" "$apps_dir/hist/hist_pgas" "$@" \
        --mode "${version#pgas-}" ;;
    *) die "hist_run: unknown version '$version'" ;;
  esac
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
  p2p | internode | coll | overlap | tasks | apps | scale | rma | queue | floor | build) "cmd_$suite" "$@" ;;
  -h | --help) usage ;;
  *) usage >&2; echo "bench: unknown suite '$suite'" >&2; exit 2 ;;
esac
