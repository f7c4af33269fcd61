// Reading and validating the run-time configuration: one place, one clear
// line per bad value, unknown PURE_* names included (a misspelt setting must
// not be silently ignored). What each setting is and how it reads is in the
// one table of settings.cpp; what is left here is what involves several.
#include <cstdlib>
#include <cstring>
#include <string>

#include "job/settings.h"
#include "pure/run.hpp"

extern char** environ;

namespace pure {
namespace {

// Range checks of every field, then the checks between settings.
void check(const Config& c, std::string* problems) {
  for (const settings::Setting& s : settings::table()) {
    const std::string problem = s.check(c);
    if (!problem.empty()) *problems += s.name + problem + "\n";
  }
  if (c.procs > 1 && c.ranks == 0)
    *problems += "PURE_PROCS=" + std::to_string(c.procs) +
                 ": a job of several processes needs PURE_RANKS (the ranks of the whole job)\n";
  else if (c.procs > 1 && c.ranks < c.procs)
    *problems += "PURE_PROCS=" + std::to_string(c.procs) + ": more processes than the " +
                 std::to_string(c.ranks) + " ranks of PURE_RANKS (every process needs a rank)\n";
  if (!c.rank_map.empty() && c.procs == 1)
    *problems += "PURE_RANK_MAP=" + c.rank_map +
                 ": a rank map needs several processes (PURE_PROCS > 1)\n";
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
  for (char** e = environ; e && *e; ++e) {
    if (std::strncmp(*e, "PURE_", 5) != 0) continue;
    const std::string name(*e, std::strcspn(*e, "="));
    if (!settings::find(name))
      problems += name + " (purerun " + settings::option_of(name.c_str()) +
                  "): unknown setting (misspelt?)\n";
  }
  for (const settings::Setting& s : settings::table()) {
    const char* value = std::getenv(s.name);
    if (!value) continue;
    const std::string expected = s.read(value, c);
    if (!expected.empty()) problems += std::string(s.name) + "=" + value + ": " + expected + "\n";
  }
  // Range checks on what parsed; values that failed to parse were reported
  // above and left their field at its default.
  check(c, &problems);
  if (!problems.empty()) throw ConfigError(problems);
  return c;
}

}  // namespace pure
