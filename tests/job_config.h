// The configuration every in-process test job runs with.
#pragma once

#include <cstdlib>
#include <string>

#include "pure/run.hpp"

namespace pure_testing {

// PURE_FIBERS=off in the environment makes ranks that share cores plain
// threads in every job (tools/test.sh runs the concurrency tests both ways:
// as fibers, ranks of one core never run at the same time).
inline pure::Config job_config(pure::Config base) {
  const char* fibers = std::getenv("PURE_FIBERS");
  if (fibers && std::string(fibers) == "off") base.fibers = false;
  // PURE_TRACE=path traces every job (each overwrites the file): the suites
  // then run with every trace hook live (tests/CMakeLists.txt, *_traced).
  const char* trace = std::getenv("PURE_TRACE");
  if (trace && *trace && base.trace_path.empty()) base.trace_path = trace;
  return base;
}

}  // namespace pure_testing
