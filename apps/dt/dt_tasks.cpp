// dt_tasks: NAS DT (dt.c, README.md) written for Pure with tasks. The graph,
// the messages and the arithmetic are those of the MPI version; each node's
// work is cut into PureTasks: the source's feature generation, the
// comparator's zeroing, resampling, filtering and normalising. A rank whose
// node waits for its inputs (in pure_recv) runs chunks of the busy nodes'
// tasks, and so does every rank beyond the graph's nodes (in the final
// barrier).
//
// The filter chains its samples (each choice needs the previous sample's
// result), so its chunks speculate: a chunk that does not start at the first
// sample follows the three possible incoming choices in step until they
// agree, which takes a few samples, and writes from there; the owner then
// finishes each chunk's first few samples in order (FilterTask below). The
// sink's reduction, a sum whose rounding NPB's value depends on, stays one
// sequential loop. Results are bit-identical to the MPI version.
#include <pure/pure.h>
#include <pure/pure.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "dt_graph.h"
#include "dt_kernel.h"
#include "dt_options.h"

namespace {

// Ends the job when a Pure call fails (only reached where the error handler
// returns instead of aborting).
void check(int rc, const char* call) {
  if (rc != PURE_SUCCESS) {
    std::fprintf(stderr, "dt_tasks: %s failed with error %d\n", call, rc);
    pure_abort(PURE_COMM_WORLD, rc);
  }
}

// Values per chunk at least, so that claiming a chunk costs little next to
// running it.
constexpr std::int64_t kMinChunkValues = 4096;

chunk_id_t chunks_for(std::int64_t values) {
  return std::clamp<std::int64_t>(values / kMinChunkValues, 1, 128);
}

constexpr std::size_t kCacheLine = 64;

// A feature array: len doubles (4 per sample), uninitialised until written.
// It starts on a cache line, so that chunks cut on cache-line boundaries
// (pure_aligned_idx_range) never share a line.
struct Array {
  struct Free {
    void operator()(double* p) const { ::operator delete[](p, std::align_val_t{kCacheLine}); }
  };
  int len = 0;
  std::unique_ptr<double[], Free> val;

  static Array of_length(int len) {
    Array a;
    a.len = len;
    a.val.reset(static_cast<double*>(::operator new[](
        static_cast<std::size_t>(len) * sizeof(double), std::align_val_t{kCacheLine})));
    return a;
  }
};

// Runs body(lo, hi) over [0, n) cut into chunks on cache-line boundaries.
template <class Body>
void for_chunks(std::int64_t n, Body&& body) {
  PureTask task(
      [&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        const auto [lo, hi] = pure_aligned_idx_range<double>(n, start, end);
        if (lo <= hi) body(lo, hi + 1);
      },
      chunks_for(n));
  task.execute();
}

Array features(const dt_class& c, int node) {
  const dt_features f = dt_features_of(&c, node);
  Array a = Array::of_length(f.samples * DT_FIELD_DIM);
  // Chunks of whole samples: 4 doubles, two per cache line.
  PureTask task(
      [&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        const auto [lo, hi] = pure_aligned_idx_range<double[DT_FIELD_DIM]>(f.samples, start, end);
        dt_features_fill(&f, a.val.get(), lo, hi + 1);
      },
      chunks_for(a.len));
  task.execute();
  return a;
}

Array zeros(int len) {
  Array a = Array::of_length(len);
  double* val = a.val.get();
  for_chunks(len, [val](std::int64_t lo, std::int64_t hi) { std::fill(val + lo, val + hi, 0.0); });
  return a;
}

// a stretched to len values.
Array resample(const Array& a, int len) {
  Array out = Array::of_length(len);
  const double* in = a.val.get();
  double* val = out.val.get();
  const int n = a.len;
  for_chunks(len,
             [=](std::int64_t lo, std::int64_t hi) { dt_resample_range(in, n, val, len, lo, hi); });
  return out;
}

// The window filter of a with b (same length) into out, out of place: out
// gets a's first and last samples and the filtered samples between.
//
// The filter is cut into pieces; piece c covers samples [lo, hi) of
// 1 .. samples-2. The choice at sample p depends on the choice k at p-1 only
// through the rewritten a[p-1] = weight * b[p-1+k], k in {-1, 0, 1}; a piece
// with lo > 1 follows the three possible k at lo-1 in step until their
// choices agree at some sample (`settled`), and writes out from there (the
// rest of the chain no longer depends on the start). The owner then walks
// the pieces in order and computes [lo, settled) of each from the true
// out[lo-1]; a piece that never settled is computed whole there, so the
// result is exact in every case. The task's chunks share out the pieces.
class FilterTask {
 public:
  FilterTask(const double* a, const double* b, double* out, int samples, double weight)
      : a_(a),
        b_(b),
        out_(out),
        samples_(samples),
        weight_(weight),
        pieces_(chunks_for(static_cast<std::int64_t>(samples) * DT_FIELD_DIM)),
        settled_(static_cast<std::size_t>(pieces_)) {}

  void run() {
    const std::int64_t inner = samples_ - 2;
    if (inner <= 0) {
      std::copy(a_, a_ + samples_ * DT_FIELD_DIM, out_);
      return;
    }
    PureTask task(
        [this, inner](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
          // The task may have fewer chunks than asked (PURE_MAX_TASK_CHUNKS):
          // its chunks share out this object's pieces.
          const auto [first, last] = pure_idx_range(pieces_, start, end);
          for (std::int64_t c = first; c <= last; ++c) {
            const auto [lo, hi] = pure_idx_range(inner, c, c, pieces_);
            settled_[static_cast<std::size_t>(c)] = speculate(lo + 1, hi + 2);
          }
        },
        pieces_);
    task.execute();
    std::copy(a_, a_ + DT_FIELD_DIM, out_);
    const std::int64_t last = (samples_ - 1) * DT_FIELD_DIM;
    std::copy(a_ + last, a_ + last + DT_FIELD_DIM, out_ + last);
    for (chunk_id_t c = 0; c < pieces_; ++c) {
      const auto [lo, hi] = pure_idx_range(inner, c, c, pieces_);
      chain(lo + 1, settled_[static_cast<std::size_t>(c)]);
    }
  }

 private:
  // The filtered samples [lo, hi) in order, out[lo-1] final (or, for lo = 1,
  // a's first sample, which the filter leaves as it is).
  void chain(std::int64_t lo, std::int64_t hi) const {
    for (std::int64_t p = lo; p < hi; ++p) {
      const double* previous = p == 1 ? a_ : &out_[(p - 1) * DT_FIELD_DIM];
      write(p, dt_filter_choice(a_, b_, previous, p));
    }
  }

  void write(std::int64_t p, int k) const {
    const double* src = &b_[(p + k) * DT_FIELD_DIM];
    double* dst = &out_[p * DT_FIELD_DIM];
    for (int d = 0; d < DT_FIELD_DIM; ++d) dst[d] = weight_ * src[d];
  }

  // Samples [lo, hi) of one piece: returns the first sample written (hi when
  // the three starts never agreed).
  std::int64_t speculate(std::int64_t lo, std::int64_t hi) const {
    if (lo >= hi) return hi;
    if (lo == 1) {
      chain(lo, hi);
      return lo;
    }
    int k[3] = {-1, 0, 1};  // the choice at p-1 under each start
    std::int64_t p = lo;
    for (; p < hi; ++p) {
      for (int& choice : k) {
        double previous[DT_FIELD_DIM];
        const double* src = &b_[(p - 1 + choice) * DT_FIELD_DIM];
        for (int d = 0; d < DT_FIELD_DIM; ++d) previous[d] = weight_ * src[d];
        choice = dt_filter_choice(a_, b_, previous, p);
      }
      if (k[0] == k[1] && k[1] == k[2]) break;
    }
    if (p == hi) return hi;
    write(p, k[0]);
    chain(p + 1, hi);
    return p;
  }

  const double* a_;
  const double* b_;
  double* out_;
  std::int64_t samples_;
  double weight_;
  chunk_id_t pieces_;
  std::vector<std::int64_t> settled_;  // per piece; each written by its piece's runner only
};

void send_array(const Array& a, int rank, int tag) {
  check(pure_send(&a.len, 1, PURE_INT, rank, tag, PURE_COMM_WORLD), "pure_send");
  check(pure_send(a.val.get(), a.len, PURE_DOUBLE, rank, tag, PURE_COMM_WORLD), "pure_send");
}

Array recv_array(int rank, int tag) {
  int len = 0;
  check(pure_recv(&len, 1, PURE_INT, rank, tag, PURE_COMM_WORLD, PURE_STATUS_IGNORE), "pure_recv");
  Array a = Array::of_length(len);
  check(pure_recv(a.val.get(), len, PURE_DOUBLE, rank, tag, PURE_COMM_WORLD, PURE_STATUS_IGNORE),
        "pure_recv");
  return a;
}

void send_outputs(const dt_node& n, const Array& a) {
  for (int o = 0; o < n.outputs; ++o) send_array(a, n.out[o].node, n.out[o].arc);
}

void run_comparator(const dt_class& c, const dt_node& n, int v) {
  Array result = zeros(c.samples * DT_FIELD_DIM);
  for (int i = 0; i < n.inputs; ++i) {
    Array input = recv_array(n.in[i].node, n.in[i].arc);
    if (result.len < input.len) result = resample(result, input.len);
    if (result.len > input.len) input = resample(input, result.len);
    Array filtered = Array::of_length(result.len);
    FilterTask(result.val.get(), input.val.get(), filtered.val.get(), result.len / DT_FIELD_DIM,
               dt_filter_weight(v))
        .run();
    result = std::move(filtered);
  }
  double* val = result.val.get();
  const int inputs = n.inputs;
  for_chunks(result.len, [val, inputs](std::int64_t lo, std::int64_t hi) {
    dt_normalize_range(val, lo, hi, inputs);
  });
  send_outputs(n, result);
}

double run_sink(const dt_node& n, int v) {
  double measures = 0.0;
  for (int i = 0; i < n.inputs; ++i) {
    const Array input = recv_array(n.in[i].node, n.in[i].arc);
    measures += dt_reduce(input.val.get(), input.len, v + 1);
  }
  return dt_sink_checksum(measures, n.inputs, v);
}

}  // namespace

int pure_main(int argc, char** argv) {
  int rank = 0, ranks = 0;
  check(pure_init(&argc, &argv), "pure_init");
  check(pure_comm_rank(PURE_COMM_WORLD, &rank), "pure_comm_rank");
  check(pure_comm_size(PURE_COMM_WORLD, &ranks), "pure_comm_size");

  dt_options options{};
  char error[256] = "";
  int parsed = dt_parse_options(argc, argv, &options, error, sizeof error);
  auto graph = std::make_unique<dt_graph>();
  if (parsed == 0) {
    dt_graph_build(graph.get(), options.graph, &options.cls);
    if (graph->nodes > ranks) {
      std::snprintf(error, sizeof error, "graph %s.%c has %d nodes, more than the %d ranks",
                    dt_graph_name(options.graph), options.cls.name, graph->nodes, ranks);
      parsed = 2;
    }
  }
  if (parsed != 0) {
    if (rank == 0 && parsed == 2) std::fprintf(stderr, "dt_tasks: %s\n%s", error, DT_USAGE);
    if (rank == 0 && parsed == 1) std::printf("%s", DT_USAGE);
    check(pure_finalize(), "pure_finalize");
    return parsed == 1 ? 0 : 2;
  }

  check(pure_barrier(PURE_COMM_WORLD), "pure_barrier");
  const double began = pure_wtime();
  if (rank < graph->nodes) {
    const dt_node& n = graph->node[rank];
    if (n.kind == DT_SOURCE) {
      send_outputs(n, features(options.cls, rank));
    } else if (n.kind == DT_COMPARATOR) {
      run_comparator(options.cls, n, rank);
    } else {
      // checksums travel on tags past the arcs'
      const double checksum = run_sink(n, rank);
      check(pure_send(&checksum, 1, PURE_DOUBLE, 0, graph->arcs + rank, PURE_COMM_WORLD),
            "pure_send");
    }
  }
  double l2 = 0.0;
  if (rank == 0) {
    for (int v = 0; v < graph->nodes; ++v) {
      if (graph->node[v].kind != DT_SINK) continue;
      double checksum = 0.0;
      check(pure_recv(&checksum, 1, PURE_DOUBLE, v, graph->arcs + v, PURE_COMM_WORLD,
                      PURE_STATUS_IGNORE),
            "pure_recv");
      l2 += checksum;
    }
  }
  check(pure_barrier(PURE_COMM_WORLD), "pure_barrier");
  const double seconds = pure_wtime() - began;
  if (rank == 0) dt_print_result(&options, l2, seconds);

  check(pure_finalize(), "pure_finalize");
  return 0;
}
