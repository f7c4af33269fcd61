// ProcessTopology: a communicator's process topology (MPI 3.1 chapter 7) -- a
// Cartesian grid, a graph, or a distributed graph -- with what the
// topology calls compute from it, and each rank's neighbourhood for the
// neighbourhood collectives. Immutable once built; a communicator's
// duplicates share it. Ranks are the communicator's.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace pure {

class ProcessTopology {
 public:
  enum class Kind { cart, graph, dist_graph };

  // A grid of dims[0] x ... (row-major: the last dimension varies fastest).
  static std::shared_ptr<const ProcessTopology> cart(std::vector<int> dims, std::vector<int> periods);
  // Node r's neighbours are edges[index[r-1] .. index[r]) (index[-1] = 0).
  static std::shared_ptr<const ProcessTopology> graph(std::vector<int> index, std::vector<int> edges);
  // One rank's in- and out-neighbours, with their weights when `weighted`.
  static std::shared_ptr<const ProcessTopology> dist_graph(std::vector<int> sources,
                                                    std::vector<int> source_weights,
                                                    std::vector<int> destinations,
                                                    std::vector<int> dest_weights,
                                                    bool weighted);

  Kind kind() const { return kind_; }

  // ---- Cartesian ----
  int ndims() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  const std::vector<int>& periods() const { return periods_; }
  // Ranks in the grid: the product of dims (1 for no dimensions).
  int cart_size() const;
  void coords(int rank, int* out) const;
  // The rank at `coords` (wrapped in periodic dimensions), or -1 when one
  // is outside a non-periodic dimension; *bad names that dimension.
  int rank_at(const int* coords, int* bad) const;
  // MPI_Cart_shift: the ranks `disp` steps behind and ahead of `rank` in
  // dimension `dim`; -2 (PURE_PROC_NULL) past a non-periodic edge.
  std::pair<int, int> shift(int rank, int dim, int disp) const;

  // ---- graph ----
  int nnodes() const { return static_cast<int>(index_.size()); }
  const std::vector<int>& index() const { return index_; }
  const std::vector<int>& edges() const { return edges_; }
  int degree(int rank) const;
  const int* neighbors(int rank) const;

  // ---- distributed graph (this rank's view) ----
  const std::vector<int>& sources() const { return sources_; }
  const std::vector<int>& source_weights() const { return source_weights_; }
  const std::vector<int>& destinations() const { return destinations_; }
  const std::vector<int>& dest_weights() const { return dest_weights_; }
  bool weighted() const { return weighted_; }

  // ---- neighbourhood collectives ----
  // The ranks `rank` receives block i from (in) and sends block j to (out),
  // -2 (PURE_PROC_NULL) for a missing neighbour of a non-periodic grid
  // edge. For a grid, per dimension: the rank behind, then the one ahead.
  void neighbourhood(int rank, std::vector<int>& in, std::vector<int>& out) const;
  // The tag that tells a receiver which of its blocks a message is, when
  // one rank may be a neighbour twice: in a grid, what this rank sends
  // ahead arrives as the receiver's block from behind and the other way
  // round, so block j goes out with tag j ^ 1 and block i is received with
  // tag i (a dimension of 1 or 2 periodic ranks then still pairs each block
  // with its slot). In graphs, repeated edges pair in order: one tag.
  int send_tag(int j) const { return kind_ == Kind::cart ? j ^ 1 : 0; }
  int recv_tag(int i) const { return kind_ == Kind::cart ? i : 0; }
  // How many of those tags there are.
  int tags() const { return kind_ == Kind::cart && ndims() > 0 ? 2 * ndims() : 1; }

 private:
  explicit ProcessTopology(Kind kind) : kind_(kind) {}
  Kind kind_;
  std::vector<int> dims_, periods_;
  std::vector<int> index_, edges_;
  std::vector<int> sources_, source_weights_, destinations_, dest_weights_;
  bool weighted_ = false;
};

// MPI_Dims_create: fills the zero entries of dims[0..ndims) with the most
// balanced factorisation of nnodes / (product of the others): the least
// difference between the largest and the smallest factor, then the least
// largest factor, then the next; written in non-increasing order. False
// when the given entries do not divide nnodes.
bool dims_create(int nnodes, int ndims, int* dims);

}  // namespace pure
