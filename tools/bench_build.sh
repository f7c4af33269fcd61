# shellcheck shell=bash
# tools/bench.sh build: building programs with purecc against mpicc.
# Sourced by tools/bench.sh, whose helpers (suite_options, build_release,
# fresh_results, bench_run, show_report, die) it uses; the report is
# tools/bench_build.py.

# build_cmake_project DIR PREFIX KIND: a one-file CMake project in DIR that
# links the hello world with Pure (KIND=pure: find_package(Pure) from
# PREFIX, Pure::main) or with MPI (KIND=mpi: find_package(MPI), MPI::MPI_C),
# configured with Ninja; prints nothing.
build_cmake_project() {
  local dir=$1 prefix=$2 kind=$3
  mkdir -p "$dir"
  cp "$pure_root/bench/build_suite/hello.c" "$dir/"
  if [ "$kind" = pure ]; then
    cat >"$dir/CMakeLists.txt" <<'EOF_CMAKE'
cmake_minimum_required(VERSION 3.21)
project(hello C CXX)
find_package(Pure REQUIRED)
add_executable(hello hello.c)
target_compile_definitions(hello PRIVATE main=pure_main)
target_include_directories(hello BEFORE PRIVATE ${Pure_INCLUDE_DIR})
target_link_libraries(hello PRIVATE Pure::main)
EOF_CMAKE
  else
    cat >"$dir/CMakeLists.txt" <<'EOF_CMAKE'
cmake_minimum_required(VERSION 3.21)
project(hello C)
find_package(MPI REQUIRED COMPONENTS C)
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE MPI::MPI_C)
EOF_CMAKE
  fi
  local pure_args=()
  [ "$kind" != pure ] || pure_args=(-DCMAKE_PREFIX_PATH="$prefix" -DPure_INCLUDE_DIR="$prefix/include/pure")
  cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${pure_args[@]}" >/dev/null
  cmake --build "$dir/build" >/dev/null
}

# A command line that runs CMD N times, as bench_run's one command: "${times[@]}"
# N CMD... (standard output dropped; fails when CMD does). PREP, if set in
# the environment, runs before each time (a shell command).
times=(bash -c 'n=$1; shift; for ((i = 0; i < n; ++i)); do
  [ -z "${PREP:-}" ] || eval "$PREP"; "$@" >/dev/null || exit 1; done' times)

cmd_build() {
  local rounds quick plot threshold
  suite_options build 5 3 quick rounds -- "$@"
  local dir r reps=20 order w cc
  [ -z "$quick" ] || reps=10
  build_release
  dir=$(fresh_results build)
  "${report[@]}" begin "$dir" --suite build --rounds "$rounds" --set "reps=$reps" \
    --set "purecc=$pure_root/tools/purecc" --set "mpicc=$(command -v mpicc)"
  export PURECC_BUILD_DIR=$build
  local purecc=$pure_root/tools/purecc work=$dir/work
  mkdir -p "$work"
  /usr/bin/python3 "$pure_root/bench/build_suite/gen_programs.py" "$work/programs" >/dev/null
  cp "$pure_root/bench/build_suite/hello.c" "$work/"
  # find_package(Pure) needs an installed Pure: this tree's, in the results.
  cmake --install "$build" --prefix "$work/prefix" >/dev/null
  build_cmake_project "$work/cmake-pure" "$work/prefix" pure
  build_cmake_project "$work/cmake-mpi" "" mpi
  for ((r = 1; r <= rounds; ++r)); do
    order=(mpicc purecc)
    ((r % 2)) || order=(purecc mpicc)
    printf 'bench: round %d/%d:' "$r" "$rounds" >&2
    for w in "${order[@]}"; do
      cc=$(command -v mpicc)
      [ "$w" = mpicc ] || cc=$purecc
      printf ' %s' "$w" >&2
      make -C "$work/programs" clean >/dev/null
      bench_run "$dir" "make.$w.$r" impl="$w" what=make programs=40 "round=$r" -- \
        make -C "$work/programs" -j2 "CC=$cc"
      bench_run "$dir" "hello.$w.$r" impl="$w" what=hello "reps=$reps" "round=$r" -- \
        "${times[@]}" "$reps" "$cc" -O2 -o "$work/hello.$w" "$work/hello.c"
      "$cc" -O2 -c -o "$work/hello.$w.o" "$work/hello.c"
      bench_run "$dir" "link.$w.$r" impl="$w" what=link "reps=$reps" "round=$r" -- \
        "${times[@]}" "$reps" "$cc" -o "$work/hello.$w" "$work/hello.$w.o"
      local project=$work/cmake-mpi
      [ "$w" = mpicc ] || project=$work/cmake-pure
      bench_run "$dir" "cmake.$w.$r" impl="$w" what=cmake "reps=$reps" "round=$r" -- \
        env PREP="rm -f '$project/build/hello'" "${times[@]}" "$reps" cmake --build "$project/build"
    done
    printf '\n' >&2
  done
  # Each program must run and check its own result: 3 ranks, as threads.
  local p bad=0
  for p in "$work"/programs/p*.c; do
    p=${p%.c}
    "$pure_root/tools/purerun" -n 3 "$p" >>"$dir/programs.log" 2>&1 || { echo "bench: $p failed" >&2; bad=1; }
  done
  [ "$bad" = 0 ] || die "a program built by purecc failed (see $dir/programs.log)"
  show_report "$dir"
}
