#!/usr/bin/env bash
# The demo: installs what is missing, builds the Release tree, then runs the
# load-imbalanced stencil (apps/rand_stencil) three ways on this machine's
# cores -- Open MPI, Pure, Pure with tasks -- and prints them side by side,
# with a balanced run of the task version for reference; then NAS DT
# (apps/dt, class A BH: 21 ranks) the same three ways. It fails when the
# versions compute different results. About a minute on 2 cores.
#
# tools/bench.sh tasks sweeps the imbalance; tools/bench.sh apps runs DT and
# the MD proxy; tools/bench.sh p2p and coll compare messaging with Open MPI.
set -euo pipefail
# shellcheck source=tools/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
echo "demo: building Release in ${BUILD_DIR:-$pure_root/build}"
# shellcheck disable=SC2119  # no --verbose: quiet unless the build fails
pure_build_release || { echo "demo: the Release build failed" >&2; exit 1; }

# bench.sh's helpers: build, report (tools/bench_report.py), pick_ompi_transport
# (the Open MPI transport, from a short probe), stencil_run (launches one
# version as bench.sh tasks does and notes the run for the report).
# shellcheck source=tools/bench.sh
source "$pure_root/tools/bench.sh"

die() {
  echo "demo: $*" >&2
  exit 1
}

# A tree configured without the benchmarks (the probe) or the apps gets them.
if [ ! -x "$build/bench/bench_p2p_mpi" ] || [ ! -x "$stencil_dir/rand_stencil_mpi" ] ||
  [ ! -x "$stencil_dir/rand_stencil_tasks" ] || [ ! -x "$apps_dir/dt/dt_mpi" ] ||
  [ ! -x "$apps_dir/dt/dt_tasks" ]; then
  build_release
fi
stencil_check_built
apps_check_built

dir=$build/demo-results
rm -rf "$dir"
mkdir -p "$dir"

# The Pure version is the MPI source ported live: purecc translates it
# (tools/mpi2pure: MPI names, <mpi.h>, main, thread-local globals) and
# compiles the result against Pure, as `make CC=purecc` would.
source_file=$pure_root/apps/rand_stencil/rand_stencil.c
port=$dir/port
mkdir -p "$port"
echo "demo: porting apps/rand_stencil/rand_stencil.c with tools/purecc"
if ! PURECC_BUILD_DIR=$build "$pure_root/tools/purecc" --keep -O2 -std=c11 -ffp-contract=off \
  -o "$port/rand_stencil_pure" "$source_file" >"$port/purecc.log" 2>&1; then
  cat "$port/purecc.log" >&2
  die "purecc could not port rand_stencil.c"
fi
kept=$(sed -n 's/^purecc: translated sources kept in //p' "$port/purecc.log")
translated=$kept$source_file
if [ -f "$translated" ]; then
  echo "demo: a few of the lines the translator changed (< MPI source, > Pure):"
  diff "$source_file" "$translated" | grep -E '^[<>]' | grep -vE '^> #line' | head -n 10 | sed 's/^/  /' || true
fi
stencil_pure=$port/rand_stencil_pure
pick_ompi_transport
transport=$ompi_transport$(ompi_env_note)
echo "demo: Open MPI transport: $transport"

# One rank per core. The heavy region is rank 0's block (--heavy 1/ranks): at
# imbalance 0.8 rank 0 does 1 + 0.8*(ranks-1) times the mean work and the
# others 0.2 times. About 1 s per version: 75 iterations per rank.
ranks=$(nproc)
imbalance=0.8
rounds=3
input=(--n 65536 --iters $((75 * ranks)) --work 64 --heavy "$(stencil_heavy "$ranks")")
runs=(mpi pure tasks balanced)
declare -A label=([mpi]="Open MPI" [pure]=Pure [tasks]="Pure + tasks" [balanced]="balanced")

# The time of a run, from its JSON result (the time is a plain number).
run_time() {
  LC_ALL=C printf '%.3f' "$(grep -o '"time":[0-9.]*' "$dir/$1.jsonl" | cut -d: -f2)"
}

echo "demo: rand_stencil ${input[*]} --imbalance $imbalance, $ranks ranks, best of $rounds rounds"
"${report[@]}" begin "$dir" --suite demo --rounds "$rounds" --transport "$ompi_transport" \
  --set "input=${input[*]}" --set "ranks=$ranks" --set "imbalance=$imbalance"
for ((r = 1; r <= rounds; ++r)); do
  printf 'demo: round %d/%d:' "$r" "$rounds"
  # Each run goes first in turn.
  for ((k = 0; k < ${#runs[@]}; ++k)); do
    run=${runs[(r - 1 + k) % ${#runs[@]}]}
    if [ "$run" = balanced ]; then
      stencil_run "$dir" "$run.$r" tasks "$ranks" case=balanced "round=$r" -- \
        "${input[@]}" --imbalance 0
    else
      stencil_run "$dir" "$run.$r" "$run" "$ranks" "case=$run" "round=$r" -- \
        "${input[@]}" --imbalance "$imbalance"
    fi
    [ "$k" -eq 0 ] || printf ','
    printf ' %s %s s' "${label[$run]}" "$(run_time "$run.$r")"
  done
  printf '\n'
done
echo

"${report[@]}" end "$dir"
report_status=0
"${report[@]}" show "$dir" || report_status=$?
cat <<EOF

How each version is built and run:
  Open MPI      apps/rand_stencil/rand_stencil.c, built with Open MPI (CMake's MPI::MPI_C);
                mpirun -np $ranks --bind-to core ${ompi_args[*]}
                ($transport)
  Pure          the same MPI source, unchanged, ported just now by the translator:
                tools/purecc -O2 -std=c11 -ffp-contract=off -o $port/rand_stencil_pure
                apps/rand_stencil/rand_stencil.c; tools/purerun -n $ranks $port/rand_stencil_pure
  Pure + tasks  apps/rand_stencil/rand_stencil_tasks.cpp: the same computation with each
                iteration's compute loop a PureTask; a rank waiting for its halo steals
                chunks of it. tools/purerun -n $ranks build/apps/rand_stencil/rand_stencil_tasks
EOF
[ "$report_status" -eq 0 ] || die "FAILED: the versions computed different results (see above)"

# NAS DT class A on the black-hole graph: 16 sources funnel through 4
# comparators into one sink, a node per rank, so 21 ranks share the cores
# (Pure: fibers; Open MPI: 21 processes, oversubscribed). Launched and
# reported as tools/bench.sh apps does (app_run, tools/bench_apps.py).
dt_ranks=21
dt_dir=$dir/dt
mkdir -p "$dt_dir"
echo
echo "demo: NAS DT class A BH (apps/dt), $dt_ranks ranks on $(nproc) cores, best of $rounds rounds"
"${report[@]}" begin "$dt_dir" --suite apps --rounds "$rounds" --transport "$ompi_transport"
for ((r = 1; r <= rounds; ++r)); do
  printf 'demo: round %d/%d:' "$r" "$rounds"
  # Each version goes first in turn.
  for ((k = 0; k < 3; ++k)); do
    run=${app_versions[(r - 1 + k) % 3]}
    app_run "$dt_dir" dt "$run" "$dt_ranks" "$r" A-BH A BH
    [ "$k" -eq 0 ] || printf ','
    printf ' %s %s s' "${label[$run]}" "$(sed -n 's/^DT .* time_s=//p' "$dt_dir/dt.A-BH.$dt_ranks.$run.$r.jsonl")"
  done
  printf '\n'
done
echo
"${report[@]}" end "$dt_dir"
dt_status=0
"${report[@]}" show "$dt_dir" || dt_status=$?

cat <<EOF

  Open MPI      apps/dt/dt.c built with Open MPI; mpirun -np $dt_ranks --oversubscribe --bind-to none
  Pure          the same source ported by purecc (build/apps/dt/dt_pure); purerun -n $dt_ranks
                (more ranks than cores: fibers)
  Pure + tasks  apps/dt/dt_tasks.cpp: each graph node's work in PureTasks, whose chunks the
                ranks waiting for their inputs run

Every run's output: $dir. Next: tools/bench.sh tasks (the imbalance
sweep), tools/bench.sh apps (DT and the MD proxy), tools/bench.sh p2p and
coll (messaging against Open MPI).
EOF
[ "$dt_status" -eq 0 ] || die "FAILED: the DT versions computed different results (see above)"
