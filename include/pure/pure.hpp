// Pure's C++ layer: Pure Tasks (DESIGN.md, "Pure Tasks"), and for C++20 the
// typed API (pure/communicator.hpp, window.hpp, symmetric.hpp; at the end).
//
//   PureTask t = [&](chunk_id_t start, chunk_id_t end, std::optional<void*> args) {
//     auto [lo, hi] = pure_aligned_idx_range<double>(n, start, end);  // inclusive hi
//     for (auto i = lo; i <= hi; ++i) out[i] = f(in[i]);
//   };
//   t.execute();          // or t.execute(&per_execution_args)
//
// A task is split into chunks 0 .. C-1 (C = PURE_MAX_TASK_CHUNKS unless the
// task asks for fewer). execute() publishes the task in the process's
// active-task table; the calling rank runs chunks until none is left, ranks
// of the same process that are blocked in any Pure call (and helper threads,
// PURE_HELPERS) run the others, and execute returns once every chunk has run
// exactly once. The body receives an inclusive range [start, end] of chunk
// ids: a single chunk, or several consecutive ones when PURE_CHUNK_POLICY is
// guided. The first exception thrown by any chunk, on any thread, is
// rethrown by execute on the calling rank; once a chunk failed the chunks
// not yet started are skipped.
//
// Chunks run concurrently on other threads, so a body must not call Pure
// communication functions (a stolen chunk runs on another rank's thread or
// on a helper). execute() inside a chunk runs the inner task serially on the
// calling thread, as one call over all its chunks; so does execute() on a
// rank that is alone in its process without helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "pure/pure.h"

// A chunk id of a task: 0 .. chunks-1.
using chunk_id_t = PURE_Chunk_id;

namespace pure {

inline constexpr std::size_t kCacheLineBytes = 64;

// Elements of T per cache-line-aligned unit: the fewest whole elements that
// fill whole cache lines (8 doubles; 8 elements of 24 bytes, i.e. 3 lines).
template <class T>
constexpr std::int64_t cache_line_grain() {
  return static_cast<std::int64_t>(kCacheLineBytes / std::gcd(kCacheLineBytes, sizeof(T)));
}

// The element range [lo, hi], inclusive, that chunks [start, end] (also
// inclusive) of a task of `chunks` chunks cover among `n` elements, when
// chunk boundaries fall on multiples of `grain` elements. The n elements are
// cut into ceil(n / grain) units and chunk c gets units
// [floor(c * units / chunks), floor((c + 1) * units / chunks)), so over all
// chunks the ranges cover 0 .. n-1 exactly once, in order, and their sizes
// differ by at most one unit. An empty range has hi == lo - 1 (when chunks
// outnumber units). Throws std::out_of_range on an invalid chunk range.
constexpr std::pair<std::int64_t, std::int64_t> chunk_idx_range(std::int64_t n,
                                                                std::int64_t grain,
                                                                chunk_id_t start, chunk_id_t end,
                                                                chunk_id_t chunks) {
  if (n < 0 || grain < 1 || chunks < 1 || chunks > (std::int64_t{1} << 31) || start < 0 ||
      end < start || end >= chunks)
    throw std::out_of_range("pure: invalid chunk range for an index range");
  const std::int64_t units = n / grain + (n % grain != 0);
  // floor(c * units / chunks) without overflow: units = q * chunks + r.
  const std::int64_t q = units / chunks;
  const std::int64_t r = units % chunks;
  auto first_unit = [q, r, chunks](std::int64_t c) { return q * c + (r * c) / chunks; };
  const std::int64_t lo = first_unit(start) * grain;
  const std::int64_t past = first_unit(end + 1) * grain;
  return {lo < n ? lo : n, (past < n ? past : n) - 1};
}

// Plumbing between these templates and the runtime.
namespace detail {
// Runs chunks [start, end] of the type-erased task body `body`.
using ChunkRunner = void (*)(const void* body, chunk_id_t start, chunk_id_t end, void* args,
                             bool has_args);
// Executes a task (see the top of this file). `chunks` <= 0: the default.
void execute_task(ChunkRunner run, const void* body, chunk_id_t chunks, void* args,
                  bool has_args);
// The chunk count of the task whose chunk the calling thread is running;
// throws std::logic_error outside a chunk.
chunk_id_t running_task_chunks();
}  // namespace detail

// Scheduler counters of the calling rank, of rank `rank` of this process, or
// of all helper threads together (PURE_TASK_HELPERS). Throw std::logic_error
// outside a rank thread or for a rank that is not in this process.
using TaskStats = PURE_Task_stats;
TaskStats task_stats();
TaskStats task_stats(int rank);

}  // namespace pure

// [lo, hi] (inclusive) of n elements of T for chunks [start, end] of the
// running task, with every chunk boundary on a cache line relative to
// element 0 (so chunks of different threads never share a line when the
// array starts on one). Call it inside a chunk; the overload with `chunks`
// works anywhere.
template <class T>
std::pair<std::int64_t, std::int64_t> pure_aligned_idx_range(std::int64_t n, chunk_id_t start,
                                                             chunk_id_t end) {
  return pure::chunk_idx_range(n, pure::cache_line_grain<T>(), start, end,
                               pure::detail::running_task_chunks());
}
template <class T>
constexpr std::pair<std::int64_t, std::int64_t> pure_aligned_idx_range(std::int64_t n,
                                                                       chunk_id_t start,
                                                                       chunk_id_t end,
                                                                       chunk_id_t chunks) {
  return pure::chunk_idx_range(n, pure::cache_line_grain<T>(), start, end, chunks);
}

// The unaligned variant: boundaries anywhere, chunk sizes differ by at most 1.
inline std::pair<std::int64_t, std::int64_t> pure_idx_range(std::int64_t n, chunk_id_t start,
                                                            chunk_id_t end) {
  return pure::chunk_idx_range(n, 1, start, end, pure::detail::running_task_chunks());
}
constexpr std::pair<std::int64_t, std::int64_t> pure_idx_range(std::int64_t n, chunk_id_t start,
                                                               chunk_id_t end,
                                                               chunk_id_t chunks) {
  return pure::chunk_idx_range(n, 1, start, end, chunks);
}

// A chunked task. Copyable; execute() may be called any number of times, and
// by several ranks at once (the body is only read).
class PureTask {
 public:
  using Body = std::function<void(chunk_id_t start, chunk_id_t end, std::optional<void*> args)>;

  // `chunks`: how many chunks to cut the task into; 0 (the default) means
  // PURE_MAX_TASK_CHUNKS, and larger counts are capped at it.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, PureTask> &&
                                              std::is_invocable_v<const std::decay_t<F>&, chunk_id_t,
                                                                  chunk_id_t, std::optional<void*>>>>
  PureTask(F&& body, chunk_id_t chunks = 0)  // NOLINT: implicit, as in `PureTask t = lambda;`
      : body_(std::forward<F>(body)), chunks_(chunks) {}

  // Runs every chunk exactly once; the body gets std::nullopt as args.
  void execute() const { pure::detail::execute_task(&run_chunks, &body_, chunks_, nullptr, false); }
  // The same, with `args` handed to every chunk of this execution.
  void execute(void* args) const {
    pure::detail::execute_task(&run_chunks, &body_, chunks_, args, true);
  }

 private:
  static void run_chunks(const void* body, chunk_id_t start, chunk_id_t end, void* args,
                         bool has_args) {
    (*static_cast<const Body*>(body))(start, end,
                                      has_args ? std::optional<void*>(args) : std::nullopt);
  }

  Body body_;
  chunk_id_t chunks_;
};

namespace pure {

// Indices [begin, end).
struct index_range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end > begin ? end - begin : 0; }
};

// Calls body(i) for every i in [begin, end) as a task: the caller and idle
// ranks share the iterations, with no chunk arithmetic in user code. Chunk
// boundaries fall on multiples of cache_line_grain<T>() iterations from
// `begin`: with the default T (bytes) on multiples of 64, which keeps the
// chunks of an array of any element type of at most 64 bytes (a power of
// two) on separate cache lines; name the element type for finer chunks.
template <class T = std::byte, class Body>
void parallel_for(std::int64_t begin, std::int64_t end, Body&& body) {
  if (end <= begin) return;
  struct Loop {
    std::remove_reference_t<Body>& body;
    std::int64_t begin;
    std::int64_t n;
  } loop{body, begin, end - begin};
  const std::int64_t grain = cache_line_grain<T>();
  const chunk_id_t units = loop.n / grain + (loop.n % grain != 0);
  detail::execute_task(
      [](const void* p, chunk_id_t start, chunk_id_t last, void*, bool) {
        const Loop& l = *static_cast<const Loop*>(p);
        const auto [lo, hi] = pure_aligned_idx_range<T>(l.n, start, last);
        for (std::int64_t i = lo; i <= hi; ++i) l.body(l.begin + i);
      },
      &loop, units, nullptr, false);
}

// The same over a range, with the body called either for every index,
// body(i), or once for each run of consecutive indices a chunk covers,
// body(index_range): the form for loops that carry state from one index to
// the next, or that sum into a local before publishing once.
template <class T = std::byte, class Body>
void parallel_for(index_range range, Body&& body) {
  if constexpr (std::is_invocable_v<Body&, index_range>) {
    if (range.size() == 0) return;
    struct Loop {
      std::remove_reference_t<Body>& body;
      index_range range;
    } loop{body, range};
    const std::int64_t grain = cache_line_grain<T>();
    const std::int64_t n = range.size();
    detail::execute_task(
        [](const void* p, chunk_id_t start, chunk_id_t last, void*, bool) {
          const Loop& l = *static_cast<const Loop*>(p);
          const auto [lo, hi] = pure_aligned_idx_range<T>(l.range.size(), start, last);
          if (hi >= lo) l.body(index_range{l.range.begin + lo, l.range.begin + hi + 1});
        },
        &loop, n / grain + (n % grain != 0), nullptr, false);
  } else {
    parallel_for<T>(range.begin, range.end, std::forward<Body>(body));
  }
}

}  // namespace pure

// The typed C++ API (communicators, messages, collectives), for C++20 and
// later: pure/communicator.hpp.
#if __cplusplus >= 202002L
#include "pure/communicator.hpp"
#include "pure/symmetric.hpp"
#include "pure/window.hpp"
#endif
