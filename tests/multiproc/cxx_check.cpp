// The typed C++ API's checks (tests/cxx_checks.h) in a job of several
// processes: every message and collective among them crosses processes.
// Prints "cxx_check: ok" on rank 0 when every check passed on every rank.
#include <cstdio>

#include "../cxx_checks.h"

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  {
    auto world = pure::communicator::world();
    cxx_checks::deduced_types();
    cxx_checks::sized_by_probe();
    cxx_checks::requests();
    cxx_checks::communicators();
    cxx_checks::reductions();
    cxx_checks::collectives();
    cxx_checks::one_sided();
    cxx_checks::symmetric_heap();
    cxx_checks::tasks();
    cxx_checks::errors();
    world.barrier();
    if (world.rank() == 0) std::printf("cxx_check: ok\n");
  }
  return pure_finalize();
}
