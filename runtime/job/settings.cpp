#include "job/settings.h"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace pure::settings {

namespace {

constexpr int kMaxRanks = 4096;
constexpr long long kMaxTaskChunks = 1 << 24;
constexpr long long kMaxHelpers = 1024;
constexpr long long kMaxEagerLimit = 1 << 20;
constexpr std::size_t kMinSymHeap = std::size_t{1} << 20;
constexpr std::size_t kMaxSymHeap = std::size_t{1} << 40;
constexpr long long kMaxReducePartition = 1LL << 30;
constexpr long long kMaxTraceLimit = 1LL << 26;

bool parse_long(const char* text, long long* out) {
  if (*text == '\0') return false;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = value;
  return true;
}

// Byte sizes accept a K, M or G suffix (powers of 1024).
bool parse_bytes(const char* text, long long* out) {
  std::string digits = text;
  if (digits.empty()) return false;
  long long scale = 1;
  switch (digits.back()) {
    case 'k': case 'K': scale = 1LL << 10; digits.pop_back(); break;
    case 'm': case 'M': scale = 1LL << 20; digits.pop_back(); break;
    case 'g': case 'G': scale = 1LL << 30; digits.pop_back(); break;
    default: break;
  }
  long long value = 0;
  // At most 2^50 bytes after scaling: no overflow, and beyond any setting.
  if (!parse_long(digits.c_str(), &value) || value < 0 || value > (1LL << 50) / scale)
    return false;
  *out = value * scale;
  return true;
}

bool parse_seconds(const char* text, double* out) {
  if (*text == '\0') return false;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

std::string number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// A count read into `field` (range checks are the Setting's check).
template <class T>
std::string read_count(const char* text, T& field, long long low, long long high,
                       const char* expected) {
  long long n = 0;
  if (!parse_long(text, &n) || n < low || n > high) return expected;
  field = static_cast<T>(n);
  return {};
}

std::string range(const std::string& value, const std::string& rule) {
  return "=" + value + ": " + rule;
}

// A file the job will write when it ends: its directory must exist and be
// writable now, so that a bad path is an error at start, not a lost result.
std::string writable(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (access(dir.c_str(), W_OK | X_OK) == 0) return {};
  return range(path, "cannot write a file in " + dir + " (" + std::strerror(errno) + ")");
}

}  // namespace

const std::vector<Setting>& table() {
  static const std::vector<Setting> rows = {
      {"PURE_RANKS", "1 to 4096", "cores in the process's cpuset",
       "number of rank threads of the whole job (purerun -n)",
       [](const char* v, Config& c) {
         return read_count(v, c.ranks, 1, kMaxRanks, "expected a rank count between 1 and 4096");
       },
       [](const Config& c) -> std::string {
         if (c.ranks >= 0 && c.ranks <= kMaxRanks) return {};
         return range(std::to_string(c.ranks),
                      "must be between 1 and 4096 (or unset for one rank per core)");
       }},
      {"PURE_BIND", "core, none", "core",
       "core: pin one rank per core, round-robin when ranks outnumber cores (not across "
       "processes: ranks of several processes that outnumber a node's cores are left to the "
       "kernel); none: no pinning",
       [](const char* v, Config& c) -> std::string {
         if (std::strcmp(v, "core") == 0) c.bind = Bind::core;
         else if (std::strcmp(v, "none") == 0) c.bind = Bind::none;
         else return "expected 'core' or 'none'";
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_EAGER_LIMIT", "64 to 1M bytes; K, M, G suffixes", "8K",
       "messages smaller than this many bytes go through the eager queue, larger ones by "
       "single-copy rendezvous",
       [](const char* v, Config& c) -> std::string {
         long long n = 0;
         if (!parse_bytes(v, &n)) return "expected a byte count such as 8192 or 8K";
         c.eager_limit = static_cast<std::size_t>(n);
         return {};
       },
       [](const Config& c) -> std::string {
         if (c.eager_limit >= 64 && c.eager_limit <= kMaxEagerLimit) return {};
         return range(std::to_string(c.eager_limit), "must be between 64 bytes and 1M");
       }},
      {"PURE_QUEUE_SLOTS", "a power of two from 2 to 1024", "16",
       "slots of each sender-to-receiver eager queue",
       [](const char* v, Config& c) {
         return read_count(v, c.queue_slots, -(1LL << 30), 1LL << 30,
                           "expected a power of two between 2 and 1024");
       },
       [](const Config& c) -> std::string {
         const int s = c.queue_slots;
         if (s >= 2 && s <= 1024 && (s & (s - 1)) == 0) return {};
         return range(std::to_string(s), "must be a power of two between 2 and 1024");
       }},
      {"PURE_REDUCE_PARTITION", "auto, or 0 to 1G bytes; K, M, G suffixes", "auto",
       "reduce and allreduce (predefined ops) of at least this many bytes use the partitioned "
       "reducer, where every rank folds a slice of all inputs; smaller ones are folded by one "
       "rank (flat combining), except an allreduce of two ranks up to 2 KiB, where both ranks "
       "exchange their inputs and each folds them. auto: the thresholds measured with "
       "tools/bench.sh coll --threshold, which depend on whether ranks have cores of their own "
       "or share them as fibers or as threads (PURE_STATS=1 prints the one in effect)",
       [](const char* v, Config& c) -> std::string {
         long long n = 0;
         if (std::strcmp(v, "auto") == 0) c.reduce_partition = kReducePartitionAuto;
         else if (!parse_bytes(v, &n)) return "expected 'auto' or a byte count such as 2048 or 2K";
         else c.reduce_partition = static_cast<std::size_t>(n);
         return {};
       },
       [](const Config& c) -> std::string {
         if (c.reduce_partition == kReducePartitionAuto ||
             c.reduce_partition <= static_cast<std::size_t>(kMaxReducePartition))
           return {};
         return range(std::to_string(c.reduce_partition),
                      "must be 'auto' or between 0 (every reduction partitioned) and 1G");
       }},
      {"PURE_WAIT", "auto, spin, park", "auto",
       "how a blocked rank waits: auto (spin while every rank has a core; when ranks share "
       "cores as fibers, switch to another rank every round, then, when no other rank is "
       "waiting to run, as below; as threads, a few spin rounds, a few yields, then park, "
       "so a waiting rank hands its core to the ranks it waits for), spin, park (these two apply "
       "to a fiber when no other rank is waiting to run)",
       [](const char* v, Config& c) -> std::string {
         if (std::strcmp(v, "auto") == 0) c.wait = WaitMode::automatic;
         else if (std::strcmp(v, "spin") == 0) c.wait = WaitMode::spin;
         else if (std::strcmp(v, "park") == 0) c.wait = WaitMode::park;
         else return "expected 'auto', 'spin' or 'park'";
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_FIBERS", "auto, on, off", "auto",
       "auto (or on): when ranks outnumber cores, ranks are fibers taking turns on one kernel "
       "thread per core, moving to a core with nothing to run (x86-64 Linux, one process; "
       "where the kernel hides FSGSBASE each switch is an arch_prctl system call); off: they "
       "are threads the kernel switches",
       [](const char* v, Config& c) -> std::string {
         if (std::strcmp(v, "auto") == 0 || std::strcmp(v, "on") == 0) c.fibers = true;
         else if (std::strcmp(v, "off") == 0) c.fibers = false;
         else return "expected 'auto', 'on' or 'off'";
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_DEADLOCK_TIMEOUT", "seconds, 0 or more", "10",
       "seconds with every running rank blocked and no progress anywhere before the job ends "
       "with a report of what each rank waits on; 0 disables",
       [](const char* v, Config& c) -> std::string {
         if (!parse_seconds(v, &c.deadlock_timeout_s)) return "expected seconds, e.g. 10 or 0.5";
         return {};
       },
       [](const Config& c) -> std::string {
         if (c.deadlock_timeout_s >= 0) return {};
         return range(number(c.deadlock_timeout_s),
                      "must be >= 0 seconds (0 disables the detector)");
       }},
      {"PURE_ABORT_GRACE", "seconds, more than 0", "5",
       "seconds that still-running ranks get to notice an abort before the process exits on "
       "its own",
       [](const char* v, Config& c) -> std::string {
         if (!parse_seconds(v, &c.abort_grace_s)) return "expected seconds, e.g. 5";
         return {};
       },
       [](const Config& c) -> std::string {
         if (c.abort_grace_s > 0) return {};
         return range(number(c.abort_grace_s), "must be > 0 seconds");
       }},
      {"PURE_CHUNK_POLICY", "single, guided", "single",
       "how many chunks of a task one claim takes: single (one), guided (guided "
       "self-scheduling: what is left divided by the ranks and helpers of the process)",
       [](const char* v, Config& c) -> std::string {
         if (std::strcmp(v, "single") == 0) c.chunk_policy = ChunkPolicy::single;
         else if (std::strcmp(v, "guided") == 0) c.chunk_policy = ChunkPolicy::guided;
         else return "expected 'single' or 'guided'";
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_STEAL_POLICY", "random, numa, sticky", "random",
       "where a waiting rank looks for a chunk: random (every other rank, from a random one "
       "on), numa (ranks on its own NUMA node first), sticky (the rank it last stole from "
       "first, then at random)",
       [](const char* v, Config& c) -> std::string {
         if (std::strcmp(v, "random") == 0) c.steal_policy = StealPolicy::random;
         else if (std::strcmp(v, "numa") == 0) c.steal_policy = StealPolicy::numa;
         else if (std::strcmp(v, "sticky") == 0) c.steal_policy = StealPolicy::sticky;
         else return "expected 'random', 'numa' or 'sticky'";
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_MAX_TASK_CHUNKS", "1 to 16777216", "128",
       "chunks per task, and the cap on a count a task asks for itself",
       [](const char* v, Config& c) {
         return read_count(v, c.max_task_chunks, 1, kMaxTaskChunks,
                           "expected a chunk count between 1 and 16777216");
       },
       [](const Config& c) -> std::string {
         if (c.max_task_chunks >= 1 && c.max_task_chunks <= kMaxTaskChunks) return {};
         return range(std::to_string(c.max_task_chunks), "must be between 1 and 16777216");
       }},
      {"PURE_HELPERS", "0 to 1024", "0",
       "extra threads that only steal task chunks, pinned to cores the ranks leave free "
       "(unpinned when there are none)",
       [](const char* v, Config& c) {
         return read_count(v, c.helpers, 0, kMaxHelpers, "expected a thread count between 0 and 1024");
       },
       [](const Config& c) -> std::string {
         if (c.helpers >= 0 && c.helpers <= kMaxHelpers) return {};
         return range(std::to_string(c.helpers), "must be between 0 and 1024");
       }},
      {"PURE_SYM_HEAP", "1M to 1T bytes; K, M, G suffixes", "64M",
       "bytes of each rank's part of the symmetric heap (pure_sym_malloc); address space is "
       "reserved, pages are committed when touched",
       [](const char* v, Config& c) -> std::string {
         long long n = 0;
         if (!parse_bytes(v, &n)) return "expected a byte count such as 67108864 or 64M";
         c.sym_heap = static_cast<std::size_t>(n);
         return {};
       },
       [](const Config& c) -> std::string {
         if (c.sym_heap >= kMinSymHeap && c.sym_heap <= kMaxSymHeap) return {};
         return range(std::to_string(c.sym_heap), "must be between 1M and 1T bytes");
       }},
      {"PURE_STATS", "0, 1, json:PATH", "0",
       "1: when the job ends, print the settings in effect (what auto chose included) and a "
       "table of every rank's counters: messages and bytes sent and received within the "
       "process and to other processes, time blocked, collectives, task chunks run of its own "
       "tasks and stolen; the totals; and the ranks blocked longest. json:PATH writes the same "
       "as JSON to PATH instead. When a job of several processes aborts, crashes or "
       "deadlocks, each process prints (or writes to PATH.N) its own part, labelled as that "
       "process's alone",
       [](const char* v, Config& c) -> std::string {
         c.stats_path.clear();
         if (std::strcmp(v, "1") == 0) {
           c.stats = true;
         } else if (std::strcmp(v, "0") == 0) {
           c.stats = false;
         } else if (std::strncmp(v, "json:", 5) == 0 && v[5] != '\0') {
           c.stats = true;
           c.stats_path = v + 5;
         } else {
           return "expected 0, 1 or json:PATH";
         }
         return {};
       },
       [](const Config& c) { return c.stats_path.empty() ? std::string() : writable(c.stats_path); }},
      {"PURE_TRACE", "a file", "none",
       "write a timeline of the job to this file when it ends (also when it aborts, crashes "
       "or deadlocks; then a job of several processes leaves one file per process, named "
       "FILE.N for process N, each saying it is that process's part): Chrome "
       "trace-event JSON, which ui.perfetto.dev and chrome://tracing open. One track per rank "
       "(and helper thread), grouped by process: a slice per call with its peer, tag, bytes, "
       "communicator and how it waited; waits; tasks and chunks, stolen chunks with an arrow "
       "from their owner; an arrow from every send to its receive; counters of parked ranks "
       "and queued messages",
       [](const char* v, Config& c) -> std::string {
         if (*v == '\0') return "expected the path of the trace file to write";
         c.trace_path = v;
         return {};
       },
       [](const Config& c) { return c.trace_path.empty() ? std::string() : writable(c.trace_path); }},
      {"PURE_TRACE_LIMIT", "1 to 67108864", "200000",
       "events a trace keeps per thread: beyond it the oldest are dropped (the trace says how "
       "many); each event takes 64 bytes of memory while the job runs",
       [](const char* v, Config& c) {
         return read_count(v, c.trace_limit, 1, kMaxTraceLimit,
                           "expected an event count between 1 and 67108864");
       },
       [](const Config& c) -> std::string {
         if (c.trace_limit >= 1 && c.trace_limit <= static_cast<std::size_t>(kMaxTraceLimit))
           return {};
         return range(std::to_string(c.trace_limit), "must be between 1 and 67108864");
       }},
      {"PURE_PROCS", "1 to 4096", "1",
       "processes of the job, set by purerun --procs or --ranks-per-proc; above 1 every "
       "process initialises MPI and PURE_RANKS counts the ranks of the whole job",
       [](const char* v, Config& c) {
         return read_count(v, c.procs, 1, kMaxRanks, "expected a process count between 1 and 4096");
       },
       [](const Config& c) -> std::string {
         if (c.procs >= 1 && c.procs <= kMaxRanks) return {};
         return range(std::to_string(c.procs), "must be between 1 and 4096");
       }},
      {"PURE_RANK_MAP", "a file", "SMP-style: rank r in process r / ceil(ranks / processes)",
       "a file placing every rank on a process: whitespace-separated process numbers, the i-th "
       "being rank i's, # comments; needs several processes",
       [](const char* v, Config& c) -> std::string {
         if (*v == '\0') return "expected the path of a rank-map file";
         c.rank_map = v;
         return {};
       },
       [](const Config&) { return std::string(); }},
      {"PURE_MPIRUN", "a program", "that of the MPI the program links",
       "the mpirun that purerun starts the processes of a job with",
       [](const char*, Config&) { return std::string(); },  // purerun's alone
       [](const Config&) { return std::string(); }},
  };
  return rows;
}

const Setting* find(const std::string& name) {
  for (const Setting& s : table())
    if (name == s.name) return &s;
  return nullptr;
}

std::string option_of(const char* name) {
  std::string option = "--";
  for (const char* p = name + std::strlen("PURE_"); *p; ++p)
    option += *p == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  return option;
}

}  // namespace pure::settings
