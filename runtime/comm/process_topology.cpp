#include "comm/process_topology.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdint>

#include "pure/pure.h"

namespace pure {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

std::shared_ptr<const ProcessTopology> ProcessTopology::cart(std::vector<int> dims, std::vector<int> periods) {
  auto t = std::shared_ptr<ProcessTopology>(new ProcessTopology(Kind::cart));
  t->dims_ = std::move(dims);
  t->periods_ = std::move(periods);
  for (int& p : t->periods_) p = p != 0;
  return t;
}

std::shared_ptr<const ProcessTopology> ProcessTopology::graph(std::vector<int> index, std::vector<int> edges) {
  auto t = std::shared_ptr<ProcessTopology>(new ProcessTopology(Kind::graph));
  t->index_ = std::move(index);
  t->edges_ = std::move(edges);
  return t;
}

std::shared_ptr<const ProcessTopology> ProcessTopology::dist_graph(std::vector<int> sources,
                                                     std::vector<int> source_weights,
                                                     std::vector<int> destinations,
                                                     std::vector<int> dest_weights,
                                                     bool weighted) {
  auto t = std::shared_ptr<ProcessTopology>(new ProcessTopology(Kind::dist_graph));
  t->sources_ = std::move(sources);
  t->source_weights_ = std::move(source_weights);
  t->destinations_ = std::move(destinations);
  t->dest_weights_ = std::move(dest_weights);
  t->weighted_ = weighted;
  return t;
}

int ProcessTopology::cart_size() const {
  int n = 1;
  for (int d : dims_) n *= d;
  return n;
}

void ProcessTopology::coords(int rank, int* out) const {
  for (int d = ndims() - 1; d >= 0; --d) {
    out[d] = rank % dims_[at(d)];
    rank /= dims_[at(d)];
  }
}

int ProcessTopology::rank_at(const int* coords, int* bad) const {
  int rank = 0;
  for (int d = 0; d < ndims(); ++d) {
    const int n = dims_[at(d)];
    int c = coords[d];
    if (c < 0 || c >= n) {
      if (!periods_[at(d)]) {
        if (bad) *bad = d;
        return -1;
      }
      c = ((c % n) + n) % n;
    }
    rank = rank * n + c;
  }
  return rank;
}

std::pair<int, int> ProcessTopology::shift(int rank, int dim, int disp) const {
  std::vector<int> c(dims_.size());
  coords(rank, c.data());
  const int here = c[at(dim)];
  auto moved = [&](long long to) {
    const int n = dims_[at(dim)];
    if (!periods_[at(dim)] && (to < 0 || to >= n)) return PURE_PROC_NULL;
    c[at(dim)] = static_cast<int>(((to % n) + n) % n);
    const int r = rank_at(c.data(), nullptr);
    c[at(dim)] = here;
    return r;
  };
  return {moved(static_cast<long long>(here) - disp), moved(static_cast<long long>(here) + disp)};
}

int ProcessTopology::degree(int rank) const {
  return index_[at(rank)] - (rank == 0 ? 0 : index_[at(rank - 1)]);
}

const int* ProcessTopology::neighbors(int rank) const {
  return edges_.data() + (rank == 0 ? 0 : index_[at(rank - 1)]);
}

void ProcessTopology::neighbourhood(int rank, std::vector<int>& in, std::vector<int>& out) const {
  in.clear();
  out.clear();
  switch (kind_) {
    case Kind::cart:
      for (int d = 0; d < ndims(); ++d) {
        auto [behind, ahead] = shift(rank, d, 1);
        in.push_back(behind);
        in.push_back(ahead);
      }
      out = in;
      return;
    case Kind::graph:
      in.assign(neighbors(rank), neighbors(rank) + degree(rank));
      out = in;
      return;
    case Kind::dist_graph:
      in = sources_;
      out = destinations_;
      return;
  }
}

namespace {

// The best non-increasing factorisation of m into k factors (dims_create).
class Factoriser {
 public:
  Factoriser(int m, int k) : k_(k) {
    for (int d = 1; static_cast<long long>(d) * d <= m; ++d)
      if (m % d == 0) {
        divisors_.push_back(d);
        if (d != m / d) divisors_.push_back(m / d);
      }
    std::sort(divisors_.begin(), divisors_.end(), std::greater<int>());
    seq_.resize(static_cast<std::size_t>(k));
    search(m, 0, m);
  }
  const std::vector<int>& best() const { return best_; }

 private:
  // The k-th root of x, rounded up: the least r with r^k >= x.
  static long long root_up(long long x, int k) {
    long long r = static_cast<long long>(std::pow(static_cast<double>(x), 1.0 / k));
    if (r < 1) r = 1;
    while (r > 1 && pow_at_least(r - 1, k, x)) --r;
    while (!pow_at_least(r, k, x)) ++r;
    return r;
  }
  static bool pow_at_least(long long r, int k, long long x) {
    long long p = 1;
    for (int i = 0; i < k; ++i) {
      p *= r;
      if (p >= x) return true;
    }
    return p >= x;
  }
  // Better: smaller spread, then lexicographically smaller.
  bool better(const std::vector<int>& s) const {
    if (best_.empty()) return true;
    const int spread = s.front() - s.back(), best_spread = best_.front() - best_.back();
    if (spread != best_spread) return spread < best_spread;
    return s < best_;
  }
  // Position i onwards multiplies to `rest`, each factor at most `cap`.
  void search(int rest, int i, int cap) {
    const int left = k_ - i;
    if (left == 1) {
      if (rest > cap) return;
      seq_[at(i)] = rest;
      if (better(seq_)) best_ = seq_;
      return;
    }
    // The factor here is at least the left-th root of rest (the later ones
    // are no larger), and the spread is at least first - that root.
    const long long low = root_up(rest, left);
    for (int d : divisors_) {
      if (d > cap || rest % d != 0) continue;
      if (d < low) break;
      if (!best_.empty()) {
        const int spread = best_.front() - best_.back();
        // Later factors are at most d: the spread only grows from here on.
        if (i > 0 && seq_[0] - d > spread) break;
        // The smallest factor is at most the root of what the others make.
        if (i == 0 && d - root_up(rest / d, left - 1) > spread) continue;
      }
      seq_[at(i)] = d;
      search(rest / d, i + 1, d);
    }
  }

  int k_;
  std::vector<int> divisors_;
  std::vector<int> seq_, best_;
};

}  // namespace

bool dims_create(int nnodes, int ndims, int* dims) {
  long long fixed = 1;
  int free = 0;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] > 0) fixed *= dims[d];
    else ++free;
  }
  if (fixed == 0 || nnodes % fixed != 0) return false;
  const int m = static_cast<int>(nnodes / fixed);
  if (free == 0) return m == 1;
  Factoriser f(m, free);
  int next = 0;
  for (int d = 0; d < ndims; ++d)
    if (dims[d] == 0) dims[d] = f.best()[at(next++)];
  return true;
}

}  // namespace pure
