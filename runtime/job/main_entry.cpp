// Pure::main: the process entry point of a Pure application. It reads the
// configuration from the environment, starts the ranks and calls the
// application's pure_main on each; the exit status is the job's.
#include <cstdio>

#include "pure/run.hpp"

extern "C" int pure_main(int argc, char** argv);

// job/thread_start.cpp: the threads a rank starts share its globals. Nothing
// calls it by name (libgomp and libstdc++ reach its pthread_create through
// the dynamic linker), so the read in main is what links it.
extern "C" const char pure_thread_start_wrappers;

int main(int argc, char** argv) {
  (void)*static_cast<const volatile char*>(&pure_thread_start_wrappers);
  try {
    pure::Config config = pure::Config::from_env();
    return pure::run(config, pure_main, argc, argv);
  } catch (const pure::ConfigError& e) {
    // A problem found once MPI is up was reported by one process already
    // (cluster.cpp, fail_config); every process gets an empty message.
    if (*e.what()) std::fprintf(stderr, "pure: invalid configuration:\n%s", e.what());
    return 2;
  }
}
