#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "registry.hpp"

namespace {
int local_counter = 0;
const int kRounds = 3;
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  auto record = [rank](int round) {
    static int seen = 0;
    ++seen;
    sim::events.push_back(rank * 100 + round);
    sim::Registry::add(round % 2 ? "odd" : "even", rank + round);
    return seen;
  };
  int seen = 0;
  for (int round = 0; round < kRounds + rank; ++round) seen = record(round);
  sim::generation += rank;
  local_counter += static_cast<int>(sim::events.size());

  std::string line = "rank " + std::to_string(rank) + ": " + sim::Registry::summary() +
                     " seen=" + std::to_string(seen) + " events=" +
                     std::to_string(std::accumulate(sim::events.begin(), sim::events.end(), 0)) +
                     " gen=" + std::to_string(sim::generation) +
                     " counter=" + std::to_string(local_counter);
  char text[256] = {};
  std::copy_n(line.c_str(), std::min<size_t>(line.size(), 255), text);
  std::vector<char> all(static_cast<size_t>(size) * 256);
  MPI_Gather(text, 256, MPI_CHAR, all.data(), 256, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) std::printf("%s\n", &all[static_cast<size_t>(r) * 256]);
  MPI_Finalize();
  return 0;
}
