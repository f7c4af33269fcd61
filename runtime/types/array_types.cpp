// MPI_Type_create_subarray and MPI_Type_create_darray (MPI 3.1 section
// 4.1.3 and 4.1.4): a section of an n-dimensional array stored in C or
// Fortran order, built one dimension at a time from the fastest varying
// one, each dimension's type repeating the one of the faster dimensions.
// Like the standard's own construction, the result has lower bound 0 and
// the whole array as its extent, so that consecutive elements of the type
// are consecutive arrays.
#include <vector>

#include "types/datatype.h"

namespace pure {

namespace {

// The dimensions from the fastest varying to the slowest.
std::vector<int> fastest_first(int ndims, Datatype::Order order) {
  std::vector<int> dims(static_cast<std::size_t>(ndims));
  for (int k = 0; k < ndims; ++k) dims[static_cast<std::size_t>(k)] =
      order == Datatype::Order::c ? ndims - 1 - k : k;
  return dims;
}

// The ranges of one dimension that a process owns: starts and lengths in
// elements of that dimension.
struct Ranges {
  std::vector<std::int64_t> starts, lengths;
};

Ranges owned(const Datatype::DarrayDim& d, std::int64_t coord) {
  Ranges r;
  switch (d.distribution) {
    case Datatype::Distribution::none:
      r.starts.push_back(0);
      r.lengths.push_back(d.gsize);
      break;
    case Datatype::Distribution::block: {
      // One block per process: the default size spreads the dimension as
      // evenly as ceil() allows; a process past the end owns nothing.
      const std::int64_t b = d.darg > 0 ? d.darg : (d.gsize + d.psize - 1) / d.psize;
      const std::int64_t first = coord * b;
      if (first < d.gsize) {
        r.starts.push_back(first);
        r.lengths.push_back(std::min(b, d.gsize - first));
      }
      break;
    }
    case Datatype::Distribution::cyclic: {
      // Blocks of darg (default 1) dealt round-robin; the last one may be
      // cut short by the end of the dimension.
      const std::int64_t b = d.darg > 0 ? d.darg : 1;
      for (std::int64_t first = coord * b; first < d.gsize; first += b * d.psize) {
        r.starts.push_back(first);
        r.lengths.push_back(std::min(b, d.gsize - first));
      }
      break;
    }
  }
  return r;
}

}  // namespace

std::unique_ptr<Datatype> Datatype::subarray(int ndims, const std::int64_t* sizes,
                                             const std::int64_t* subsizes,
                                             const std::int64_t* starts, Order order,
                                             const Datatype& old) {
  const std::vector<int> dims = fastest_first(ndims, order);
  const int f = dims.front();
  std::unique_ptr<Datatype> t = contiguous(subsizes[f], old);
  // bytes between steps of the next dimension, and where the section's
  // first element lies
  std::ptrdiff_t stride = checked_mul(sizes[f], old.extent(), "subarray extent");
  std::ptrdiff_t first = starts[f] * old.extent();
  for (std::size_t k = 1; k < dims.size(); ++k) {
    const int d = dims[k];
    t = hvector(subsizes[d], 1, stride, *t);
    first += starts[d] * stride;
    stride = checked_mul(stride, sizes[d], "subarray extent");
  }
  const std::int64_t one = 1;
  t = hindexed(1, &one, &first, *t);
  return resized(*t, 0, stride);
}

std::unique_ptr<Datatype> Datatype::darray(int size, int rank, int ndims, const DarrayDim* dims,
                                           Order order, const Datatype& old) {
  (void)size;
  // The process grid is numbered in row-major order whatever the array's
  // order: the last dimension's coordinate varies fastest.
  std::vector<std::int64_t> coords(static_cast<std::size_t>(ndims));
  for (int d = ndims - 1, r = rank; d >= 0; --d) {
    coords[static_cast<std::size_t>(d)] = r % dims[d].psize;
    r /= dims[d].psize;
  }
  std::unique_ptr<Datatype> t;
  const Datatype* inner = &old;
  std::ptrdiff_t stride = old.extent();  // bytes of one element of the next dimension
  for (int d : fastest_first(ndims, order)) {
    Ranges r = owned(dims[d], coords[static_cast<std::size_t>(d)]);
    std::vector<std::ptrdiff_t> displs(r.starts.size());
    for (std::size_t i = 0; i < displs.size(); ++i) displs[i] = r.starts[i] * stride;
    t = hindexed(static_cast<std::int64_t>(displs.size()), r.lengths.data(), displs.data(),
                 *inner);
    stride = checked_mul(stride, dims[d].gsize, "darray extent");
    t = resized(*t, 0, stride);
    inner = t.get();
  }
  return t;
}

}  // namespace pure
