#include "cluster.h"
#include "process.h"
#include "pure/run.hpp"
#include "rank_exit.h"
#include "topology.h"

namespace pure {

int run(const Config& config, const RankMain& entry, int argc, char** argv) {
  config.validate();
  if (config.procs > 1) {
    // One process of several: MPI carries what crosses processes. The
    // Process (and every MPI communicator it holds) is gone before
    // MPI_Finalize.
    Cluster& cluster = Cluster::start(config);
    int code = 0;
    {
      Process process(config, cluster.map(), cluster.me(), &cluster);
      code = process.run(with_rank_exit(entry), argc, argv);
    }
    cluster.finalize();
    return code;
  }
  const int ranks = config.ranks > 0 ? config.ranks : Topology::get().cores();
  Process process(config, RankMap::single(ranks), 0, nullptr);
  return process.run(with_rank_exit(entry), argc, argv);
}

}  // namespace pure
