#include "process.h"
#include "pure/run.hpp"
#include "rank_exit.h"
#include "topology.h"

namespace pure {

int run(const Config& config, const RankMain& entry, int argc, char** argv) {
  config.validate();
  const int ranks = config.ranks > 0 ? config.ranks : Topology::get().cores();
  Process process(config, ranks);
  return process.run(with_rank_exit(entry), argc, argv);
}

}  // namespace pure
