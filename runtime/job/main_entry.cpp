// Pure::main: the process entry point of a Pure application. It reads the
// configuration from the environment, starts the ranks and calls the
// application's pure_main on each; the exit status is the job's.
#include <cstdio>

#include "pure/run.hpp"

extern "C" int pure_main(int argc, char** argv);

int main(int argc, char** argv) {
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
