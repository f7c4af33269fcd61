#include <pure/compat.h>
// C++: every use of a mutable global, static member or static local becomes
// PURE_RANK(x). Objects whose bytes cannot simply be copied per rank (class
// types with a real constructor or destructor, templates' dependent types)
// become ::pure::RankGlobal<T>, constructed by each rank, in every
// declaration; function-local statics initialised at run time become
// ::pure::RankLocal<T>; copyable globals initialised at run time are
// initialised by each rank (::pure::rank_init). Const and constexpr objects
// stay shared.
#include <pure/pure.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace app {
int steps = 0;
::pure::RankGlobal<std::vector<double>> samples{[](void* pure_at) { ::new (pure_at) typename decltype(samples)::type; }};
::pure::RankGlobal<std::map<std::string, int>> totals{[](void* pure_at) { ::new (pure_at) typename decltype(totals)::type{{"start", 1}}; }};
::pure::RankGlobal<std::string[2]> names{[](void* pure_at) { ::new (pure_at) typename decltype(names)::type{"left", "right"}; }};
const std::string title = "app";
constexpr int kMax = 4;
int limit = ::pure::rank_init(&limit, [](void* pure_at) { ::new (pure_at) decltype(limit)(static_cast<int>(title.size()) + kMax); });
int* cursor = &steps; static void pure_rank_relocate_cursor(void) __attribute__((constructor)); static void pure_rank_relocate_cursor(void) { pure_rank_relocate(&cursor, sizeof cursor); }
int& steps_ref = steps;

struct Stats {
  static int created;
  static const int limit = 8;
  static inline int inline_total = 0;
  static ::pure::RankGlobal<std::vector<int>> history;
  Stats() { ++PURE_RANK(created); }
};
int Stats::created = 0;
::pure::RankGlobal<std::vector<int>> Stats::history{[](void* pure_at) { ::new (pure_at) typename decltype(history)::type(3, 7); }};

template <class T>
struct Registry {
  static ::pure::RankGlobal<T> last;
  static void set(T value) { PURE_RANK_OBJECT(last) = value; }
};
template <class T>
::pure::RankGlobal<T> Registry<T>::last{[](void* pure_at) { ::new (pure_at) typename decltype(last)::type; }};
}  // namespace app

namespace {
double hidden = 0.5;
}

static std::string label(int rank) {
  static ::pure::RankLocal<std::string> prefix; PURE_RANK(prefix).once([&](void* pure_at) { ::new (pure_at) typename decltype(prefix)::type(app::title + "-"); });
  static int calls;
  static const char* const kinds[] = {"even", "odd"};
  ++PURE_RANK(calls);
  return PURE_RANK_OBJECT(prefix) + kinds[rank % 2] + std::to_string(PURE_RANK(calls));
}

extern "C" int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  int rank = 0;
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  auto tick = [](int k) {
    static int calls = 0;
    return PURE_RANK(calls) += k;
  };
  app::Stats s;
  app::Registry<int>::set(tick(rank));
  PURE_RANK_OBJECT(app::samples).push_back(PURE_RANK(hidden));
  PURE_RANK_OBJECT(app::Stats::history).push_back(static_cast<int>(sizeof(app::samples)));
  decltype(app::steps) copy = *PURE_RANK(app::cursor) + PURE_RANK(app::steps_ref);
  pure_printf("%s %s %d %d %d %d %d %zu\n", label(rank).c_str(), PURE_RANK_OBJECT(app::names)[1].c_str(),
              PURE_RANK(app::Stats::created), app::kMax, PURE_RANK_OBJECT(app::Registry<int>::last), PURE_RANK(app::limit) + copy,
              PURE_RANK_OBJECT(app::totals)["start"], PURE_RANK_OBJECT(app::Stats::history).size());
  pure_finalize();
return 0; }
