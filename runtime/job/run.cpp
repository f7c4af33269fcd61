#include <cstdio>

#include "net/cluster.h"
#include "base/error.h"
#include "job/process.h"
#include "pure/run.hpp"
#include "job/rank_exit.h"
#include "base/topology.h"

namespace pure {

RankMain with_rank_exit(RankMain entry) {
  return [entry = std::move(entry)](int argc, char** argv) {
    try {
      return entry(argc, argv);
    } catch (const RankExit&) {
      // exit(0): from here on the same as returning 0 from pure_main, so the
      // runtime's check that pure_finalize was called still applies.
      return 0;
    }
  };
}

int run(const Config& config, const RankMain& entry, int argc, char** argv) {
  config.validate();
  if (config.procs > 1) {
    // One process of several: MPI carries what crosses processes. The
    // Process (and every MPI communicator it holds) is gone before
    // MPI_Finalize.
    Cluster& cluster = Cluster::start(config);
    int code = 0;
    try {
      Process process(config, cluster.map(), cluster.me(), &cluster);
      code = process.run(with_rank_exit(entry), argc, argv);
    } catch (const Error& e) {
      // An MPI call failed while the process set up its communicators: the
      // other processes wait for this one, so the whole job ends.
      std::fprintf(stderr, "pure: process %d: starting the ranks failed: %s\n", cluster.me(),
                   e.what());
      cluster.abort(e.code());
    }
    cluster.finalize();
    return code;
  }
  const int ranks = config.ranks > 0 ? config.ranks : Topology::get().cores();
  Process process(config, RankMap::single(ranks), 0, nullptr);
  return process.run(with_rank_exit(entry), argc, argv);
}

}  // namespace pure

// Pure::main's body (job/main_entry.cpp), kept here so that the part of the
// program's link that is Pure's own, libpure_main.a, needs nothing of the
// C++ runtime: a C program links with cc as it would with mpicc.
extern "C" int pure_run_main(int argc, char** argv, int (*entry)(int, char**)) {
  try {
    pure::Config config = pure::Config::from_env();
    return pure::run(config, entry, argc, argv);
  } catch (const pure::ConfigError& e) {
    // A problem found once MPI is up was reported by one process already
    // (cluster.cpp, fail_config); every process gets an empty message.
    if (*e.what()) std::fprintf(stderr, "pure: invalid configuration:\n%s", e.what());
    return 2;
  }
}
