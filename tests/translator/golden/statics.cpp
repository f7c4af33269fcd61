// C++: namespace globals, static data members (in and out of templates),
// function and lambda statics become thread_local; const and constexpr
// objects stay shared.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace app {
int steps = 0;
std::vector<double> samples;
const std::string title = "app";
constexpr int kMax = 4;

struct Stats {
  static int created;
  static const int limit = 8;
  static inline int inline_total = 0;
  Stats() { ++created; }
};
int Stats::created = 0;

template <class T>
struct Registry {
  static T last;
};
template <class T>
T Registry<T>::last;
}  // namespace app

namespace {
double hidden = 0.5;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto tick = [](int k) {
    static int calls = 0;
    return calls += k;
  };
  app::Stats s;
  app::Registry<int>::last = tick(rank);
  app::samples.push_back(hidden);
  std::printf("%s %d %d %d\n", app::title.c_str(), app::Stats::created, app::kMax,
              app::Registry<int>::last);
  MPI_Finalize();
}
