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

# bench.sh's helpers: build, results, pick_ompi_transport (the Open MPI
# transport, from a short probe), stencil_run (launches one version as
# bench.sh tasks does), stencil_records (parses the result lines).
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
ompi_transport+=$(ompi_env_note)
echo "demo: Open MPI transport: $ompi_transport"

# One rank per core. The heavy region is rank 0's block (--heavy 1/ranks): at
# imbalance 0.8 rank 0 does 1 + 0.8*(ranks-1) times the mean work and the
# others 0.2 times. About 1 s per version: 75 iterations per rank.
ranks=$(nproc)
imbalance=0.8
rounds=3
input=(--n 65536 --iters $((75 * ranks)) --work 64 --heavy "$(stencil_heavy "$ranks")")
runs=(mpi pure tasks balanced)
declare -A label=([mpi]="Open MPI" [pure]=Pure [tasks]="Pure + tasks" [balanced]="balanced")

# The time on a run's result line.
run_time() {
  awk '/^rand_stencil: / { for (i = 2; i < NF; i += 2) if ($i == "time") printf "%.3f\n", $(i + 1) }' "$1"
}

echo "demo: rand_stencil ${input[*]} --imbalance $imbalance, $ranks ranks, best of $rounds rounds"
for ((r = 1; r <= rounds; ++r)); do
  printf 'demo: round %d/%d:' "$r" "$rounds"
  # Each run goes first in turn.
  for ((k = 0; k < ${#runs[@]}; ++k)); do
    run=${runs[(r - 1 + k) % ${#runs[@]}]}
    out=$dir/$run.$r
    if [ "$run" = balanced ]; then
      stencil_run tasks "$ranks" "$out" "${input[@]}" --imbalance 0
    else
      stencil_run "$run" "$ranks" "$out" "${input[@]}" --imbalance "$imbalance"
    fi
    [ "$k" -eq 0 ] || printf ','
    printf ' %s %s s' "${label[$run]}" "$(run_time "$out")"
  done
  printf '\n'
done
echo

stencil_records "$dir"/*.[0-9]* >"$dir/records.txt" || die "a run printed no result line"
report_status=0
awk -v ranks="$ranks" -v imbalance="$imbalance" -v rounds="$rounds" -v cores="$(nproc)" \
  -v input="${input[*]}" '
  {
    run = $9; sub(/.*\//, "", run); sub(/\..*/, "", run)
    t = $4 + 0
    if (!(run in best) || t < best[run]) { best[run] = t; own[run] = $7; stolen[run] = $8 }
    if (!(run in sum)) sum[run] = $5
    else if (sum[run] != $5) bad = bad sprintf("%s printed checksum %s in one round and %s in another\n", run, sum[run], $5)
    if (work == "") work = $6
    else if (work != $6) bad = bad sprintf("%s executed %s inner iterations, another run %s\n", run, $6, work)
  }
  END {
    split(input, arg, " ")
    for (i = 1; i in arg; i += 2) opt[arg[i]] = arg[i + 1]
    printf "rand_stencil (apps/rand_stencil): a 1-D stencil, %d cells, %d iterations with a halo\n", opt["--n"], opt["--iters"]
    printf "exchange each, whose work per cell is random (%d inner iterations per cell and iteration\n", opt["--work"]
    printf "on average, %s in every run). --imbalance %s piles it on rank 0%ss block: rank 0\n", work, imbalance, "\047"
    printf "does %.2fx the mean work, every other rank %.2fx. %d ranks on %d cores, one per core.\n",
           1 + imbalance * (ranks - 1), 1 - imbalance, ranks, cores
    printf "Time: rank 0%ss, barrier to barrier, best of %d rounds alternating the four runs.\n\n", "\047", rounds
    printf "| %-28s | %-20s | %8s | %19s | %-18s |\n", "version", "ranks are", "time (s)", "speedup vs Open MPI", "checksum"
    printf "|%s|%s|%s|%s|%s|\n", "------------------------------", "----------------------", "----------",
           "---------------------", "--------------------"
    row("mpi", "Open MPI", ranks " processes", 1)
    row("pure", "Pure", ranks " threads", 1)
    row("tasks", "Pure + tasks", ranks " threads, stealing", 1)
    row("balanced", "Pure + tasks, --imbalance 0", ranks " threads, stealing", 0)
    printf "\n"
    if (sum["mpi"] == sum["pure"] && sum["pure"] == sum["tasks"])
      printf "Checksums: identical for Open MPI, Pure and Pure + tasks (the balanced input computes\nother values, with the same total work).\n"
    else
      bad = bad sprintf("the versions disagree: Open MPI %s, Pure %s, Pure + tasks %s\n", sum["mpi"], sum["pure"], sum["tasks"])
    if (best["balanced"] > 0) {
      c = own["tasks"] + stolen["tasks"]
      printf "With tasks, imbalanced vs balanced: %.3f s / %.3f s = %.2fx (the target is <= 1.10x).\n",
             best["tasks"], best["balanced"], best["tasks"] / best["balanced"]
      printf "Waiting ranks ran %d of the %d task chunks of the imbalanced run (%.1f%%) for\n", stolen["tasks"], c, (c > 0 ? 100 * stolen["tasks"] / c : 0)
      printf "their owners; Pure alone is %.2fx and Open MPI %.2fx the balanced time.\n",
             best["pure"] / best["balanced"], best["mpi"] / best["balanced"]
    }
    if (bad != "") { printf "\nWRONG RESULTS:\n%s", bad; exit 1 }
  }
  function row(run, name, how, vs) {
    printf "| %-28s | %-20s | %8.3f | %19s | %-18s |\n", name, how, best[run],
           (vs && best[run] > 0 ? sprintf("%.2fx", best["mpi"] / best[run]) : "-"), sum[run]
  }' "$dir/records.txt" | tee "$dir/report.txt" || report_status=$?

cat <<EOF

How each version is built and run:
  Open MPI      apps/rand_stencil/rand_stencil.c, built with Open MPI (CMake's MPI::MPI_C);
                mpirun -np $ranks --bind-to core ${ompi_args[*]}
                ($ompi_transport)
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
# (Pure: fibers; Open MPI: 21 processes, oversubscribed). Launched as
# tools/bench.sh apps does (app_run).
dt_ranks=21
dt_versions=(mpi pure tasks)
echo
echo "demo: NAS DT class A BH (apps/dt), $dt_ranks ranks on $(nproc) cores, best of $rounds rounds"
for ((r = 1; r <= rounds; ++r)); do
  printf 'demo: round %d/%d:' "$r" "$rounds"
  # Each version goes first in turn.
  for ((k = 0; k < 3; ++k)); do
    run=${dt_versions[(r - 1 + k) % 3]}
    app_run dt "$run" "$dt_ranks" "$dir/dt.$run.$r" A BH
    [ "$k" -eq 0 ] || printf ','
    printf ' %s %s s' "${label[$run]}" "$(sed -n 's/^DT .* time_s=//p' "$dir/dt.$run.$r")"
  done
  printf '\n'
done
echo
dt_status=0
awk '
  FNR == 1 { run = FILENAME; sub(/.*\/dt\./, "", run); sub(/\..*/, "", run) }
  /^DT / {
    split($0, f, /[ =]/)  # DT, graph.class, l2, value, verified, yes|no, time_s, seconds
    t = f[8] + 0
    if (!(run in best) || t < best[run]) best[run] = t
    if (l2 == "") l2 = f[4]
    else if (f[4] != l2) bad = bad sprintf("%s printed L2 norm %s, another run %s\n", run, f[4], l2)
    if (f[6] != "yes") bad = bad sprintf("%s: verified=%s\n", run, f[6])
    found[run] = 1
  }
  END {
    printf "| %-14s | %8s | %19s |\n", "version", "time (s)", "speedup vs Open MPI"
    printf "|%s|%s|%s|\n", "----------------", "----------", "---------------------"
    split("mpi pure tasks", order, " ")
    split("Open MPI|Pure|Pure + tasks", name, "|")
    for (i = 1; i <= 3; ++i) {
      v = order[i]
      if (!(v in found)) { bad = bad "no result line from " v "\n"; continue }
      printf "| %-14s | %8.3f | %19s |\n", name[i], best[v],
             (i > 1 && best[v] > 0 ? sprintf("%.2fx", best["mpi"] / best[v]) : "-")
    }
    printf "\nL2 norm %s, verified against NPB%ss value for class A BH (17809491) by every run.\n", l2, "\047"
    if (bad != "") { printf "\nWRONG RESULTS:\n%s", bad; exit 1 }
  }' "$dir"/dt.*.[0-9]* | tee "$dir/dt-report.txt" || dt_status=$?

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
