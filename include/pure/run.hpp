// Starting a Pure job from C++: the run-time configuration and pure::run.
//
// Every setting comes from the environment (PURE_*) or from purerun flags and
// is validated in one place (Config::from_env); nothing is fixed at compile
// time. Tests and tools embed jobs with pure::run, which may be called any
// number of times in one process.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pure {

enum class Bind { core, none };

// How a blocked rank waits. `automatic` spins when every rank has a core of
// its own and spins briefly, yields, then parks when ranks outnumber cores.
enum class WaitMode { automatic, spin, park };

// Pure Tasks (runtime/sched). How many chunks one claim takes: always one, or
// guided self-scheduling (a claim takes ceil(remaining / workers) chunks, so
// claims shrink as the task drains).
enum class ChunkPolicy { single, guided };
// Where a waiting rank looks for a chunk first: at a random rank, at ranks on
// its own NUMA node, or at the rank it last stole from (then at random).
enum class StealPolicy { random, numa, sticky };

// Config::reduce_partition's default, PURE_REDUCE_PARTITION=auto: the runtime
// uses the threshold measured for how the job's ranks share cores.
inline constexpr std::size_t kReducePartitionAuto = ~std::size_t{0};

struct Config {
  int ranks = 0;                     // PURE_RANKS: ranks of the whole job; 0 = cores in the
                                     // process's cpuset (single process only)
  int procs = 1;                     // PURE_PROCS: processes of the job (purerun sets it); above
                                     // 1 every process initialises MPI and must run under mpirun
  std::string rank_map;              // PURE_RANK_MAP: file naming the process of every rank;
                                     // empty = SMP-style (rank r in process r / ceil(ranks/procs))
  Bind bind = Bind::core;            // PURE_BIND = core | none
  std::size_t eager_limit = 8192;    // PURE_EAGER_LIMIT bytes (K/M suffix allowed)
  int queue_slots = 16;              // PURE_QUEUE_SLOTS per sender-receiver pair
  std::size_t reduce_partition = kReducePartitionAuto;  // PURE_REDUCE_PARTITION = auto or
                                     // bytes (K/M suffix allowed): reductions from this size
                                     // on are partitioned, smaller ones leader-combined
  WaitMode wait = WaitMode::automatic;  // PURE_WAIT = auto | spin | park
  bool fibers = true;                // PURE_FIBERS = auto | on | off: ranks sharing cores take
                                     // turns on one thread per core (runtime/base/fiber.h)
  double deadlock_timeout_s = 10.0;  // PURE_DEADLOCK_TIMEOUT; 0 disables the detector
  double abort_grace_s = 5.0;        // PURE_ABORT_GRACE: after an abort, how long
                                     // running ranks get to notice before the
                                     // process exits on its own
  ChunkPolicy chunk_policy = ChunkPolicy::single;  // PURE_CHUNK_POLICY = single | guided
  StealPolicy steal_policy = StealPolicy::random;  // PURE_STEAL_POLICY = random | numa | sticky
  int max_task_chunks = 128;         // PURE_MAX_TASK_CHUNKS: chunks per task (and the
                                     // cap on a count a task asks for itself)
  int helpers = 0;                   // PURE_HELPERS: extra threads that only steal chunks
  std::size_t sym_heap = std::size_t{64} << 20;  // PURE_SYM_HEAP: bytes of each rank's part of
                                     // the symmetric heap (K/M/G/T suffix allowed)
  bool stats = false;                // PURE_STATS = 0 | 1 | json:PATH: per-rank counters at
  std::string stats_path;            // exit, as a table on stderr, or as JSON in stats_path
  std::string trace_path;            // PURE_TRACE: write a timeline trace (Chrome JSON) here
  std::size_t trace_limit = 200000;  // PURE_TRACE_LIMIT: events kept per thread (the oldest
                                     // are dropped)

  // Reads and validates every PURE_* variable. Throws ConfigError whose
  // message has one line per bad value (including unknown PURE_* names).
  static Config from_env();
  // Checks the values already set (for configs built in code).
  void validate() const;
};

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The entry point of every rank: (argc, argv) with a private copy of argv.
using RankMain = std::function<int(int, char**)>;

// Runs one job: starts the rank threads, calls `entry` on each, joins them.
// Returns the job's exit code: the first non-zero rank result, or the abort
// code when a rank aborted, threw, or hit a fatal error (a message naming the
// rank has then been printed to stderr).
int run(const Config& config, const RankMain& entry, int argc = 0, char** argv = nullptr);

}  // namespace pure
