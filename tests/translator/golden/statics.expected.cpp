// C++: namespace globals, static data members (in and out of templates),
// function and lambda statics become thread_local; const and constexpr
// objects stay shared.
#include <pure/pure.h>

#include <cstdio>
#include <string>
#include <vector>

namespace app {
thread_local int steps = 0;
thread_local std::vector<double> samples;
const std::string title = "app";
constexpr int kMax = 4;

struct Stats {
  static thread_local int created;
  static const int limit = 8;
  static inline thread_local int inline_total = 0;
  Stats() { ++created; }
};
thread_local int Stats::created = 0;

template <class T>
struct Registry {
  static thread_local T last;
};
template <class T>
thread_local T Registry<T>::last;
}  // namespace app

namespace {
thread_local double hidden = 0.5;
}

extern "C" int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  int rank = 0;
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  auto tick = [](int k) {
    static thread_local int calls = 0;
    return calls += k;
  };
  app::Stats s;
  app::Registry<int>::last = tick(rank);
  app::samples.push_back(hidden);
  std::printf("%s %d %d %d\n", app::title.c_str(), app::Stats::created, app::kMax,
              app::Registry<int>::last);
  pure_finalize();
return 0; }
