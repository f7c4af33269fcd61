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

const char* const kKnownSettings[] = {
    "PURE_RANKS",        "PURE_BIND",         "PURE_EAGER_LIMIT",
    "PURE_QUEUE_SLOTS",  "PURE_WAIT",         "PURE_DEADLOCK_TIMEOUT",
    "PURE_ABORT_GRACE",
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
  if (c.eager_limit < 64 || c.eager_limit > (1u << 20))
    add("PURE_EAGER_LIMIT=" + std::to_string(c.eager_limit) +
        ": must be between 64 bytes and 1M");
  if (c.queue_slots < 2 || c.queue_slots > 1024 || (c.queue_slots & (c.queue_slots - 1)) != 0)
    add("PURE_QUEUE_SLOTS=" + std::to_string(c.queue_slots) +
        ": must be a power of two between 2 and 1024");
  if (c.deadlock_timeout_s < 0)
    add("PURE_DEADLOCK_TIMEOUT=" + std::to_string(c.deadlock_timeout_s) +
        ": must be >= 0 seconds (0 disables the detector)");
  if (c.abort_grace_s <= 0)
    add("PURE_ABORT_GRACE=" + std::to_string(c.abort_grace_s) + ": must be > 0 seconds");
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
  if (const char* v = std::getenv("PURE_WAIT")) {
    if (std::strcmp(v, "auto") == 0) c.wait = WaitMode::automatic;
    else if (std::strcmp(v, "spin") == 0) c.wait = WaitMode::spin;
    else if (std::strcmp(v, "park") == 0) c.wait = WaitMode::park;
    else bad("PURE_WAIT", v, "expected 'auto', 'spin' or 'park'");
  }
  if (const char* v = std::getenv("PURE_DEADLOCK_TIMEOUT")) {
    if (!parse_seconds(v, &c.deadlock_timeout_s)) bad("PURE_DEADLOCK_TIMEOUT", v, "expected seconds, e.g. 10 or 0.5");
  }
  if (const char* v = std::getenv("PURE_ABORT_GRACE")) {
    if (!parse_seconds(v, &c.abort_grace_s)) bad("PURE_ABORT_GRACE", v, "expected seconds, e.g. 5");
  }
  // Range checks on what parsed; values that failed to parse were reported above.
  check(c, &problems);
  if (!problems.empty()) throw ConfigError(problems);
  return c;
}

}  // namespace pure
