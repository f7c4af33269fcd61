// Validation of the run-time configuration: one place, one clear line per bad
// value, unknown PURE_* names included (a misspelt setting must not be
// silently ignored).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pure/run.hpp"

extern char** environ;

namespace pure {
namespace {

constexpr int kMaxRanks = 4096;
constexpr int kMaxTaskChunks = 1 << 24;
constexpr int kMaxHelpers = 1024;
constexpr std::size_t kMaxReducePartition = std::size_t{1} << 30;

const char* const kKnownSettings[] = {
    "PURE_RANKS",        "PURE_BIND",         "PURE_EAGER_LIMIT",
    "PURE_QUEUE_SLOTS",  "PURE_WAIT",         "PURE_DEADLOCK_TIMEOUT",
    "PURE_ABORT_GRACE",  "PURE_REDUCE_PARTITION",
    "PURE_CHUNK_POLICY", "PURE_STEAL_POLICY", "PURE_MAX_TASK_CHUNKS",
    "PURE_HELPERS",      "PURE_STATS",        "PURE_PROCS",
    "PURE_RANK_MAP",     "PURE_FIBERS",
    "PURE_MPIRUN",  // purerun's, not the runtime's: the mpirun it starts processes with
};

bool parse_long(const std::string& text, long long* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = value;
  return true;
}

// Byte sizes accept a K, M or G suffix (powers of 1024).
bool parse_bytes(const std::string& text, long long* out) {
  if (text.empty()) return false;
  std::string digits = text;
  long long scale = 1;
  switch (digits.back()) {
    case 'k': case 'K': scale = 1LL << 10; digits.pop_back(); break;
    case 'm': case 'M': scale = 1LL << 20; digits.pop_back(); break;
    case 'g': case 'G': scale = 1LL << 30; digits.pop_back(); break;
    default: break;
  }
  long long value = 0;
  if (!parse_long(digits, &value) || value < 0) return false;
  *out = value * scale;
  return true;
}

bool parse_seconds(const std::string& text, double* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

void check(const Config& c, std::string* problems) {
  auto add = [&](const std::string& line) { *problems += line + "\n"; };
  if (c.ranks < 0 || c.ranks > kMaxRanks)
    add("PURE_RANKS=" + std::to_string(c.ranks) + ": must be between 1 and " +
        std::to_string(kMaxRanks) + " (or unset for one rank per core)");
  if (c.procs < 1 || c.procs > kMaxRanks)
    add("PURE_PROCS=" + std::to_string(c.procs) + ": must be between 1 and " +
        std::to_string(kMaxRanks));
  else if (c.procs > 1 && c.ranks == 0)
    add("PURE_PROCS=" + std::to_string(c.procs) +
        ": a job of several processes needs PURE_RANKS (the ranks of the whole job)");
  else if (c.procs > 1 && c.ranks < c.procs)
    add("PURE_PROCS=" + std::to_string(c.procs) + ": more processes than the " +
        std::to_string(c.ranks) + " ranks of PURE_RANKS (every process needs a rank)");
  if (!c.rank_map.empty() && c.procs == 1)
    add("PURE_RANK_MAP=" + c.rank_map + ": a rank map needs several processes (PURE_PROCS > 1)");
  if (c.eager_limit < 64 || c.eager_limit > (1u << 20))
    add("PURE_EAGER_LIMIT=" + std::to_string(c.eager_limit) +
        ": must be between 64 bytes and 1M");
  if (c.queue_slots < 2 || c.queue_slots > 1024 || (c.queue_slots & (c.queue_slots - 1)) != 0)
    add("PURE_QUEUE_SLOTS=" + std::to_string(c.queue_slots) +
        ": must be a power of two between 2 and 1024");
  if (c.reduce_partition != kReducePartitionAuto && c.reduce_partition > kMaxReducePartition)
    add("PURE_REDUCE_PARTITION=" + std::to_string(c.reduce_partition) +
        ": must be 'auto' or between 0 (every reduction partitioned) and 1G");
  if (c.deadlock_timeout_s < 0)
    add("PURE_DEADLOCK_TIMEOUT=" + std::to_string(c.deadlock_timeout_s) +
        ": must be >= 0 seconds (0 disables the detector)");
  if (c.abort_grace_s <= 0)
    add("PURE_ABORT_GRACE=" + std::to_string(c.abort_grace_s) + ": must be > 0 seconds");
  if (c.max_task_chunks < 1 || c.max_task_chunks > kMaxTaskChunks)
    add("PURE_MAX_TASK_CHUNKS=" + std::to_string(c.max_task_chunks) + ": must be between 1 and " +
        std::to_string(kMaxTaskChunks));
  if (c.helpers < 0 || c.helpers > kMaxHelpers)
    add("PURE_HELPERS=" + std::to_string(c.helpers) + ": must be between 0 and " +
        std::to_string(kMaxHelpers));
}

}  // namespace

void Config::validate() const {
  std::string problems;
  check(*this, &problems);
  if (!problems.empty()) throw ConfigError(problems);
}

Config Config::from_env() {
  Config c;
  std::string problems;
  auto bad = [&](const char* name, const char* value, const char* expected) {
    problems += std::string(name) + "=" + value + ": " + expected + "\n";
  };

  for (char** e = environ; e && *e; ++e) {
    if (std::strncmp(*e, "PURE_", 5) != 0) continue;
    std::string name(*e, std::strcspn(*e, "="));
    bool known = false;
    for (const char* k : kKnownSettings) known = known || name == k;
    if (!known) problems += name + ": unknown setting (misspelt?)\n";
  }

  if (const char* v = std::getenv("PURE_RANKS")) {
    long long n = 0;
    if (!parse_long(v, &n) || n < 1 || n > kMaxRanks)
      bad("PURE_RANKS", v, "expected a rank count between 1 and 4096");
    else
      c.ranks = static_cast<int>(n);
  }
  if (const char* v = std::getenv("PURE_PROCS")) {
    long long n = 0;
    if (!parse_long(v, &n) || n < 1 || n > kMaxRanks)
      bad("PURE_PROCS", v, "expected a process count between 1 and 4096");
    else
      c.procs = static_cast<int>(n);
  }
  if (const char* v = std::getenv("PURE_RANK_MAP")) {
    if (*v == '\0') bad("PURE_RANK_MAP", v, "expected the path of a rank-map file");
    else c.rank_map = v;
  }
  if (const char* v = std::getenv("PURE_BIND")) {
    if (std::strcmp(v, "core") == 0) c.bind = Bind::core;
    else if (std::strcmp(v, "none") == 0) c.bind = Bind::none;
    else bad("PURE_BIND", v, "expected 'core' or 'none'");
  }
  if (const char* v = std::getenv("PURE_EAGER_LIMIT")) {
    long long n = 0;
    if (!parse_bytes(v, &n)) bad("PURE_EAGER_LIMIT", v, "expected a byte count such as 8192 or 8K");
    else c.eager_limit = static_cast<std::size_t>(n);
  }
  if (const char* v = std::getenv("PURE_QUEUE_SLOTS")) {
    long long n = 0;
    if (!parse_long(v, &n)) bad("PURE_QUEUE_SLOTS", v, "expected a power of two between 2 and 1024");
    else c.queue_slots = static_cast<int>(n);
  }
  if (const char* v = std::getenv("PURE_REDUCE_PARTITION")) {
    long long n = 0;
    if (std::strcmp(v, "auto") == 0) c.reduce_partition = kReducePartitionAuto;
    else if (!parse_bytes(v, &n))
      bad("PURE_REDUCE_PARTITION", v, "expected 'auto' or a byte count such as 2048 or 2K");
    else c.reduce_partition = static_cast<std::size_t>(n);
  }
  if (const char* v = std::getenv("PURE_WAIT")) {
    if (std::strcmp(v, "auto") == 0) c.wait = WaitMode::automatic;
    else if (std::strcmp(v, "spin") == 0) c.wait = WaitMode::spin;
    else if (std::strcmp(v, "park") == 0) c.wait = WaitMode::park;
    else bad("PURE_WAIT", v, "expected 'auto', 'spin' or 'park'");
  }
  if (const char* v = std::getenv("PURE_FIBERS")) {
    if (std::strcmp(v, "auto") == 0) c.fibers = true;
    else if (std::strcmp(v, "off") == 0) c.fibers = false;
    else bad("PURE_FIBERS", v, "expected 'auto' or 'off'");
  }
  if (const char* v = std::getenv("PURE_DEADLOCK_TIMEOUT")) {
    if (!parse_seconds(v, &c.deadlock_timeout_s)) bad("PURE_DEADLOCK_TIMEOUT", v, "expected seconds, e.g. 10 or 0.5");
  }
  if (const char* v = std::getenv("PURE_ABORT_GRACE")) {
    if (!parse_seconds(v, &c.abort_grace_s)) bad("PURE_ABORT_GRACE", v, "expected seconds, e.g. 5");
  }
  if (const char* v = std::getenv("PURE_CHUNK_POLICY")) {
    if (std::strcmp(v, "single") == 0) c.chunk_policy = ChunkPolicy::single;
    else if (std::strcmp(v, "guided") == 0) c.chunk_policy = ChunkPolicy::guided;
    else bad("PURE_CHUNK_POLICY", v, "expected 'single' or 'guided'");
  }
  if (const char* v = std::getenv("PURE_STEAL_POLICY")) {
    if (std::strcmp(v, "random") == 0) c.steal_policy = StealPolicy::random;
    else if (std::strcmp(v, "numa") == 0) c.steal_policy = StealPolicy::numa;
    else if (std::strcmp(v, "sticky") == 0) c.steal_policy = StealPolicy::sticky;
    else bad("PURE_STEAL_POLICY", v, "expected 'random', 'numa' or 'sticky'");
  }
  if (const char* v = std::getenv("PURE_MAX_TASK_CHUNKS")) {
    long long n = 0;
    if (!parse_long(v, &n) || n < 1 || n > kMaxTaskChunks)
      bad("PURE_MAX_TASK_CHUNKS", v, "expected a chunk count between 1 and 16777216");
    else
      c.max_task_chunks = static_cast<int>(n);
  }
  if (const char* v = std::getenv("PURE_HELPERS")) {
    long long n = 0;
    if (!parse_long(v, &n) || n < 0 || n > kMaxHelpers)
      bad("PURE_HELPERS", v, "expected a thread count between 0 and 1024");
    else
      c.helpers = static_cast<int>(n);
  }
  if (const char* v = std::getenv("PURE_STATS")) {
    if (std::strcmp(v, "1") == 0) c.stats = true;
    else if (std::strcmp(v, "0") == 0) c.stats = false;
    else bad("PURE_STATS", v, "expected 0 or 1");
  }
  // Range checks on what parsed; values that failed to parse were reported above.
  check(c, &problems);
  if (!problems.empty()) throw ConfigError(problems);
  return c;
}

}  // namespace pure
