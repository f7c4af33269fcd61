// C++: every use of a mutable global, static member or static local becomes
// PURE_RANK(x). Objects whose bytes cannot simply be copied per rank (class
// types with a real constructor or destructor, templates' dependent types)
// become ::pure::RankGlobal<T>, constructed by each rank, in every
// declaration; function-local statics initialised at run time become
// ::pure::RankLocal<T>; copyable globals initialised at run time are
// initialised by each rank (::pure::rank_init). Const and constexpr objects
// stay shared.
#include <mpi.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace app {
int steps = 0;
std::vector<double> samples;
std::map<std::string, int> totals = {{"start", 1}};
std::string names[2] = {"left", "right"};
const std::string title = "app";
constexpr int kMax = 4;
int limit = static_cast<int>(title.size()) + kMax;
int* cursor = &steps;
int& steps_ref = steps;

struct Stats {
  static int created;
  static const int limit = 8;
  static inline int inline_total = 0;
  static std::vector<int> history;
  Stats() { ++created; }
};
int Stats::created = 0;
std::vector<int> Stats::history(3, 7);

template <class T>
struct Registry {
  static T last;
  static void set(T value) { last = value; }
};
template <class T>
T Registry<T>::last;
}  // namespace app

namespace {
double hidden = 0.5;
}

static std::string label(int rank) {
  static std::string prefix = app::title + "-";
  static int calls;
  static const char* const kinds[] = {"even", "odd"};
  ++calls;
  return prefix + kinds[rank % 2] + std::to_string(calls);
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
  app::Registry<int>::set(tick(rank));
  app::samples.push_back(hidden);
  app::Stats::history.push_back(static_cast<int>(sizeof(app::samples)));
  decltype(app::steps) copy = *app::cursor + app::steps_ref;
  std::printf("%s %s %d %d %d %d %d %zu\n", label(rank).c_str(), app::names[1].c_str(),
              app::Stats::created, app::kMax, app::Registry<int>::last, app::limit + copy,
              app::totals["start"], app::Stats::history.size());
  MPI_Finalize();
}
