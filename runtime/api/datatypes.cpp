// Flat API: derived datatypes and their extents and sizes.
//
// Every constructor exists twice, with int counts and as MPI-4's large-count
// (_c) twin with PURE_Count counts and displacements; both are one template
// over the count type. The type records how it was built (types/envelope.h)
// in the form MPI_Type_get_contents returns: an int constructor's counts as
// integers and its byte displacements as addresses, a _c constructor's both
// as large counts.
#include <climits>
#include <memory>
#include <vector>

#include "api/attributes.h"
#include "api/call.h"
#include "types/envelope.h"

using namespace pure;
using namespace pure::api;

namespace {

// Whether a constructor's count type is the large-count one (PURE_Count).
// Only the count types: PURE_Aint is a long too on LP64, so a byte
// displacement cannot tell a _c constructor from its int twin.
constexpr bool is_large(int) { return false; }
constexpr bool is_large(PURE_Count) { return true; }

// Writes the arguments of one constructor into its envelope.
class Recorder {
 public:
  Recorder(TypeEnvelope& e, bool large) : e_(e), large_(large) {}
  void combiner(int c) { e_.combiner = c; }
  // A count or a displacement in extents: an integer, or a large count.
  void count(long long v) {
    if (large_) e_.counts.push_back(v);
    else e_.ints.push_back(static_cast<int>(v));
  }
  // A displacement in bytes: an address, or a large count.
  void address(PURE_Aint v) {
    if (large_) e_.counts.push_back(v);
    else e_.aints.push_back(v);
  }
  void integer(int v) { e_.ints.push_back(v); }
  void type(TypeArg t) { e_.types.push_back(std::move(t)); }

 private:
  TypeEnvelope& e_;
  bool large_;
};

void out_arg(const void* p) {
  if (!p) fail(PURE_ERR_ARG, "null pointer for the new datatype");
}

// A datatype argument of a constructor, kept alive by its envelope.
TypeArg old_arg(Call& c, PURE_Datatype handle) {
  const Datatype& t = any_type_arg(c, handle);
  TypeArg a;
  if (t.predefined()) {
    a.predefined = handle;
  } else {
    a.derived = *c.rank.handles().types.find(handle);
  }
  return a;
}

const Datatype& type_of(const TypeArg& a) {
  return a.derived ? *a.derived : *Datatype::predefined(handle_index(a.predefined));
}

template <class N>
void nonnegative(N v, const char* what) {
  if (v < 0) fail(PURE_ERR_ARG, "invalid %s %lld (must be >= 0)", what, static_cast<long long>(v));
}

template <class N>
std::vector<std::int64_t> lengths_arg(N count, const N* blocklengths) {
  if (count > 0 && !blocklengths)
    fail(PURE_ERR_ARG, "null blocklengths array with count %lld", static_cast<long long>(count));
  std::vector<std::int64_t> out(static_cast<std::size_t>(count));
  for (N i = 0; i < count; ++i) {
    if (blocklengths[i] < 0)
      fail(PURE_ERR_ARG, "invalid blocklength %lld at index %lld (must be >= 0)",
           static_cast<long long>(blocklengths[i]), static_cast<long long>(i));
    out[static_cast<std::size_t>(i)] = blocklengths[i];
  }
  return out;
}

template <class N, class D>
std::vector<D> displs_arg(N count, const D* displs) {
  if (count > 0 && !displs)
    fail(PURE_ERR_ARG, "null displacements array with count %lld", static_cast<long long>(count));
  return std::vector<D>(displs, displs + count);
}

// Runs make(c, recorder) -> unique_ptr<Datatype>, attaches the envelope and
// hands out a handle.
template <class Make>
PURE_Datatype build(Call& c, bool large, Make&& make) {
  auto e = std::make_shared<TypeEnvelope>();
  Recorder rec(*e, large);
  std::unique_ptr<Datatype> t = make(c, rec);
  t->set_envelope(std::move(e));
  return c.rank.handles().types.add(std::shared_ptr<Datatype>(std::move(t)));
}

template <class Make>
int construct(const char* name, bool large, PURE_Datatype* newtype, Make&& make) {
  return call(name, [&](Call& c) {
    out_arg(newtype);
    *newtype = build(c, large, make);
  });
}

template <class N>
int contiguous(const char* name, N count, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_CONTIGUOUS);
    rec.count(count);
    rec.type(old);
    return Datatype::contiguous(count, type_of(old));
  });
}

template <class N>
int vector(const char* name, N count, N blocklength, N stride, PURE_Datatype oldtype,
           PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    nonnegative(blocklength, "blocklength");
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_VECTOR);
    rec.count(count);
    rec.count(blocklength);
    rec.count(stride);
    rec.type(old);
    return Datatype::vector(count, blocklength, stride, type_of(old));
  });
}

template <class N, class A>
int hvector(const char* name, N count, N blocklength, A stride, PURE_Datatype oldtype,
            PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    nonnegative(blocklength, "blocklength");
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_HVECTOR);
    rec.count(count);
    rec.count(blocklength);
    rec.address(stride);
    rec.type(old);
    return Datatype::hvector(count, blocklength, stride, type_of(old));
  });
}

template <class N>
int indexed(const char* name, N count, const N* blocklengths, const N* displacements,
            PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    std::vector<std::int64_t> lengths = lengths_arg(count, blocklengths);
    std::vector<N> d = displs_arg(count, displacements);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_INDEXED);
    rec.count(count);
    for (auto v : lengths) rec.count(v);
    for (auto v : d) rec.count(v);
    rec.type(old);
    const std::vector<std::int64_t> displs(d.begin(), d.end());
    return Datatype::indexed(count, lengths.data(), displs.data(), type_of(old));
  });
}

template <class N, class A>
int hindexed(const char* name, N count, const N* blocklengths, const A* displacements,
             PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    std::vector<std::int64_t> lengths = lengths_arg(count, blocklengths);
    std::vector<A> d = displs_arg(count, displacements);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_HINDEXED);
    rec.count(count);
    for (auto v : lengths) rec.count(v);
    for (auto v : d) rec.address(v);
    rec.type(old);
    const std::vector<std::ptrdiff_t> displs(d.begin(), d.end());
    return Datatype::hindexed(count, lengths.data(), displs.data(), type_of(old));
  });
}

template <class N>
int indexed_block(const char* name, N count, N blocklength, const N* displacements,
                  PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    nonnegative(blocklength, "blocklength");
    std::vector<N> d = displs_arg(count, displacements);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_INDEXED_BLOCK);
    rec.count(count);
    rec.count(blocklength);
    for (auto v : d) rec.count(v);
    rec.type(old);
    const std::vector<std::int64_t> displs(d.begin(), d.end());
    return Datatype::indexed_block(count, blocklength, displs.data(), type_of(old));
  });
}

template <class N, class A>
int hindexed_block(const char* name, N count, N blocklength, const A* displacements,
                   PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    nonnegative(blocklength, "blocklength");
    std::vector<A> d = displs_arg(count, displacements);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_HINDEXED_BLOCK);
    rec.count(count);
    rec.count(blocklength);
    for (auto v : d) rec.address(v);
    rec.type(old);
    const std::vector<std::ptrdiff_t> displs(d.begin(), d.end());
    return Datatype::hindexed_block(count, blocklength, displs.data(), type_of(old));
  });
}

template <class N, class A>
int create_struct(const char* name, N count, const N* blocklengths, const A* displacements,
                  const PURE_Datatype* types, PURE_Datatype* newtype) {
  return construct(name, is_large(count), newtype, [&](Call& c, Recorder& rec) {
    count_arg(count);
    std::vector<std::int64_t> lengths = lengths_arg(count, blocklengths);
    std::vector<A> d = displs_arg(count, displacements);
    if (count > 0 && !types)
      fail(PURE_ERR_ARG, "null types array with count %lld", static_cast<long long>(count));
    rec.combiner(PURE_COMBINER_STRUCT);
    rec.count(count);
    for (auto v : lengths) rec.count(v);
    for (auto v : d) rec.address(v);
    std::vector<const Datatype*> members;
    for (N i = 0; i < count; ++i) {
      TypeArg t = old_arg(c, types[i]);
      members.push_back(&type_of(t));
      rec.type(std::move(t));
    }
    const std::vector<std::ptrdiff_t> displs(d.begin(), d.end());
    return Datatype::create_struct(count, lengths.data(), displs.data(), members.data());
  });
}

Datatype::Order order_arg(int order) {
  if (order == PURE_ORDER_C) return Datatype::Order::c;
  if (order == PURE_ORDER_FORTRAN) return Datatype::Order::fortran;
  fail(PURE_ERR_ARG, "invalid order %d (must be PURE_ORDER_C or PURE_ORDER_FORTRAN)", order);
}

void ndims_arg(int ndims, const void* a, const void* b, const void* c2, const void* d) {
  if (ndims <= 0) fail(PURE_ERR_DIMS, "invalid ndims %d (must be > 0)", ndims);
  if (!a || !b || !c2 || !d) fail(PURE_ERR_ARG, "null array of dimensions");
}

template <class N>
int subarray(const char* name, int ndims, const N* sizes, const N* subsizes, const N* starts,
             int order, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct(name, is_large(N{}), newtype, [&](Call& c, Recorder& rec) {
    ndims_arg(ndims, sizes, subsizes, starts, sizes);
    const Datatype::Order o = order_arg(order);
    std::vector<std::int64_t> n(sizes, sizes + ndims), sub(subsizes, subsizes + ndims),
        first(starts, starts + ndims);
    for (int i = 0; i < ndims; ++i) {
      if (n[i] <= 0)
        fail(PURE_ERR_ARG, "invalid sizes[%d] = %lld (must be > 0)", i,
             static_cast<long long>(n[i]));
      if (sub[i] < 0 || sub[i] > n[i])
        fail(PURE_ERR_ARG, "invalid subsizes[%d] = %lld (must be between 0 and sizes[%d] = %lld)",
             i, static_cast<long long>(sub[i]), i, static_cast<long long>(n[i]));
      if (first[i] < 0 || first[i] > n[i] - sub[i])
        fail(PURE_ERR_ARG,
             "invalid starts[%d] = %lld (must be between 0 and sizes[%d] - subsizes[%d] = %lld)",
             i, static_cast<long long>(first[i]), i, i, static_cast<long long>(n[i] - sub[i]));
    }
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_SUBARRAY);
    rec.integer(ndims);
    for (auto v : n) rec.count(v);
    for (auto v : sub) rec.count(v);
    for (auto v : first) rec.count(v);
    rec.integer(order);
    rec.type(old);
    return Datatype::subarray(ndims, n.data(), sub.data(), first.data(), o, type_of(old));
  });
}

template <class N>
int darray(const char* name, int size, int rank, int ndims, const N* gsizes, const int* distribs,
           const int* dargs, const int* psizes, int order, PURE_Datatype oldtype,
           PURE_Datatype* newtype) {
  return construct(name, is_large(N{}), newtype, [&](Call& c, Recorder& rec) {
    if (size <= 0) fail(PURE_ERR_ARG, "invalid size %d (must be > 0)", size);
    if (rank < 0 || rank >= size)
      fail(PURE_ERR_ARG, "invalid rank %d (must be between 0 and size - 1 = %d)", rank,
           size - 1);
    ndims_arg(ndims, gsizes, distribs, dargs, psizes);
    const Datatype::Order o = order_arg(order);
    std::vector<Datatype::DarrayDim> dims(static_cast<std::size_t>(ndims));
    long long grid = 1;
    for (int i = 0; i < ndims; ++i) {
      Datatype::DarrayDim& d = dims[static_cast<std::size_t>(i)];
      d.gsize = gsizes[i];
      d.darg = dargs[i];
      d.psize = psizes[i];
      if (d.gsize <= 0)
        fail(PURE_ERR_ARG, "invalid gsizes[%d] = %lld (must be > 0)", i,
             static_cast<long long>(d.gsize));
      if (d.psize <= 0) fail(PURE_ERR_ARG, "invalid psizes[%d] = %d (must be > 0)", i, d.psize);
      if (d.darg <= 0 && d.darg != PURE_DISTRIBUTE_DFLT_DARG)
        fail(PURE_ERR_ARG, "invalid dargs[%d] = %d (must be > 0 or PURE_DISTRIBUTE_DFLT_DARG)",
             i, dargs[i]);
      switch (distribs[i]) {
        case PURE_DISTRIBUTE_BLOCK:
          d.distribution = Datatype::Distribution::block;
          if (d.darg > 0 && static_cast<long long>(d.darg) * d.psize < d.gsize)
            fail(PURE_ERR_ARG,
                 "dargs[%d] = %d: blocks of %d elements on %d processes do not cover the %lld "
                 "elements of dimension %d",
                 i, dargs[i], dargs[i], d.psize, static_cast<long long>(d.gsize), i);
          break;
        case PURE_DISTRIBUTE_CYCLIC: d.distribution = Datatype::Distribution::cyclic; break;
        case PURE_DISTRIBUTE_NONE:
          d.distribution = Datatype::Distribution::none;
          if (d.psize != 1)
            fail(PURE_ERR_ARG,
                 "psizes[%d] = %d: a dimension with PURE_DISTRIBUTE_NONE is not distributed and "
                 "needs 1 process",
                 i, d.psize);
          break;
        default:
          fail(PURE_ERR_ARG,
               "invalid distribs[%d] = %d (must be PURE_DISTRIBUTE_BLOCK, _CYCLIC or _NONE)", i,
               distribs[i]);
      }
      grid *= d.psize;
      if (grid > size)
        fail(PURE_ERR_ARG, "the process grid of psizes has more than size = %d processes", size);
    }
    if (grid != size)
      fail(PURE_ERR_ARG, "the process grid of psizes has %lld processes, not size = %d", grid,
           size);
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_DARRAY);
    rec.integer(size);
    rec.integer(rank);
    rec.integer(ndims);
    for (int i = 0; i < ndims; ++i) rec.count(gsizes[i]);
    for (int i = 0; i < ndims; ++i) rec.integer(distribs[i]);
    for (int i = 0; i < ndims; ++i) rec.integer(dargs[i]);
    for (int i = 0; i < ndims; ++i) rec.integer(psizes[i]);
    rec.integer(order);
    rec.type(old);
    return Datatype::darray(size, rank, ndims, dims.data(), o, type_of(old));
  });
}

template <class A>
int resized(const char* name, bool large, PURE_Datatype oldtype, A lb, A extent,
            PURE_Datatype* newtype) {
  return construct(name, large, newtype, [&](Call& c, Recorder& rec) {
    TypeArg old = old_arg(c, oldtype);
    rec.combiner(PURE_COMBINER_RESIZED);
    rec.address(lb);
    rec.address(extent);
    rec.type(old);
    return Datatype::resized(type_of(old), lb, extent);
  });
}

// A value for an int output: MPI sets it to PURE_UNDEFINED when it does not
// fit.
int int_or_undefined(long long v) {
  return v > INT_MAX || v < INT_MIN ? PURE_UNDEFINED : static_cast<int>(v);
}

template <class Out>
int extent_query(const char* name, PURE_Datatype datatype, Out* lb, Out* extent, bool true_bounds) {
  return call(name, [&](Call& c) {
    if (!lb || !extent) fail(PURE_ERR_ARG, "null lb or extent pointer");
    const Datatype& t = any_type_arg(c, datatype);
    *lb = true_bounds ? t.true_lb() : t.lb();
    *extent = true_bounds ? t.true_extent() : t.extent();
  });
}

template <class Out>
int size_query(const char* name, PURE_Datatype datatype, Out* size) {
  return call(name, [&](Call& c) {
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = static_cast<Out>(any_type_arg(c, datatype).size());
  });
}

// MPI-1's bound queries: one bound of the type, through one pointer.
int bound_query(const char* name, PURE_Datatype datatype, PURE_Aint* out, int which) {
  return call(name, [&](Call& c) {
    if (!out) fail(PURE_ERR_ARG, "null result pointer");
    const Datatype& t = any_type_arg(c, datatype);
    *out = which < 0 ? t.lb() : which > 0 ? t.lb() + t.extent() : t.extent();
  });
}

}  // namespace

extern "C" {

int pure_type_contiguous(int count, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return contiguous("pure_type_contiguous", count, oldtype, newtype);
}
int pure_type_contiguous_c(PURE_Count count, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return contiguous("pure_type_contiguous_c", count, oldtype, newtype);
}

int pure_type_vector(int count, int blocklength, int stride, PURE_Datatype oldtype,
                     PURE_Datatype* newtype) {
  return vector("pure_type_vector", count, blocklength, stride, oldtype, newtype);
}
int pure_type_vector_c(PURE_Count count, PURE_Count blocklength, PURE_Count stride,
                       PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return vector("pure_type_vector_c", count, blocklength, stride, oldtype, newtype);
}

int pure_type_create_hvector(int count, int blocklength, PURE_Aint stride, PURE_Datatype oldtype,
                             PURE_Datatype* newtype) {
  return hvector("pure_type_create_hvector", count, blocklength, stride, oldtype, newtype);
}
int pure_type_hvector(int count, int blocklength, PURE_Aint stride, PURE_Datatype oldtype,
                      PURE_Datatype* newtype) {
  return hvector("pure_type_hvector", count, blocklength, stride, oldtype, newtype);
}
int pure_type_create_hvector_c(PURE_Count count, PURE_Count blocklength, PURE_Count stride,
                               PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return hvector("pure_type_create_hvector_c", count, blocklength, stride, oldtype, newtype);
}

int pure_type_indexed(int count, const int blocklengths[], const int displacements[],
                      PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return indexed("pure_type_indexed", count, blocklengths, displacements, oldtype, newtype);
}
int pure_type_indexed_c(PURE_Count count, const PURE_Count blocklengths[],
                        const PURE_Count displacements[], PURE_Datatype oldtype,
                        PURE_Datatype* newtype) {
  return indexed("pure_type_indexed_c", count, blocklengths, displacements, oldtype, newtype);
}

int pure_type_create_hindexed(int count, const int blocklengths[], const PURE_Aint displacements[],
                              PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return hindexed("pure_type_create_hindexed", count, blocklengths, displacements, oldtype,
                  newtype);
}
int pure_type_hindexed(int count, const int blocklengths[], const PURE_Aint displacements[],
                       PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return hindexed("pure_type_hindexed", count, blocklengths, displacements, oldtype, newtype);
}
int pure_type_create_hindexed_c(PURE_Count count, const PURE_Count blocklengths[],
                                const PURE_Count displacements[], PURE_Datatype oldtype,
                                PURE_Datatype* newtype) {
  return hindexed("pure_type_create_hindexed_c", count, blocklengths, displacements, oldtype,
                  newtype);
}

int pure_type_create_indexed_block(int count, int blocklength, const int displacements[],
                                   PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return indexed_block("pure_type_create_indexed_block", count, blocklength, displacements,
                       oldtype, newtype);
}
int pure_type_create_indexed_block_c(PURE_Count count, PURE_Count blocklength,
                                     const PURE_Count displacements[], PURE_Datatype oldtype,
                                     PURE_Datatype* newtype) {
  return indexed_block("pure_type_create_indexed_block_c", count, blocklength, displacements,
                       oldtype, newtype);
}

int pure_type_create_hindexed_block(int count, int blocklength, const PURE_Aint displacements[],
                                    PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return hindexed_block("pure_type_create_hindexed_block", count, blocklength, displacements,
                        oldtype, newtype);
}
int pure_type_create_hindexed_block_c(PURE_Count count, PURE_Count blocklength,
                                      const PURE_Count displacements[], PURE_Datatype oldtype,
                                      PURE_Datatype* newtype) {
  return hindexed_block("pure_type_create_hindexed_block_c", count, blocklength, displacements,
                        oldtype, newtype);
}

int pure_type_create_struct(int count, const int blocklengths[], const PURE_Aint displacements[],
                            const PURE_Datatype types[], PURE_Datatype* newtype) {
  return create_struct("pure_type_create_struct", count, blocklengths, displacements, types,
                       newtype);
}
int pure_type_struct(int count, const int blocklengths[], const PURE_Aint displacements[],
                     const PURE_Datatype types[], PURE_Datatype* newtype) {
  return create_struct("pure_type_struct", count, blocklengths, displacements, types, newtype);
}
int pure_type_create_struct_c(PURE_Count count, const PURE_Count blocklengths[],
                              const PURE_Count displacements[], const PURE_Datatype types[],
                              PURE_Datatype* newtype) {
  return create_struct("pure_type_create_struct_c", count, blocklengths, displacements, types,
                       newtype);
}

int pure_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                              const int starts[], int order, PURE_Datatype oldtype,
                              PURE_Datatype* newtype) {
  return subarray("pure_type_create_subarray", ndims, sizes, subsizes, starts, order, oldtype,
                  newtype);
}
int pure_type_create_subarray_c(int ndims, const PURE_Count sizes[], const PURE_Count subsizes[],
                                const PURE_Count starts[], int order, PURE_Datatype oldtype,
                                PURE_Datatype* newtype) {
  return subarray("pure_type_create_subarray_c", ndims, sizes, subsizes, starts, order, oldtype,
                  newtype);
}

int pure_type_create_darray(int size, int rank, int ndims, const int gsizes[],
                            const int distribs[], const int dargs[], const int psizes[],
                            int order, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return darray("pure_type_create_darray", size, rank, ndims, gsizes, distribs, dargs, psizes,
                order, oldtype, newtype);
}
int pure_type_create_darray_c(int size, int rank, int ndims, const PURE_Count gsizes[],
                              const int distribs[], const int dargs[], const int psizes[],
                              int order, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return darray("pure_type_create_darray_c", size, rank, ndims, gsizes, distribs, dargs, psizes,
                order, oldtype, newtype);
}

int pure_type_create_resized(PURE_Datatype oldtype, PURE_Aint lb, PURE_Aint extent,
                             PURE_Datatype* newtype) {
  return resized("pure_type_create_resized", false, oldtype, lb, extent, newtype);
}
int pure_type_create_resized_c(PURE_Datatype oldtype, PURE_Count lb, PURE_Count extent,
                               PURE_Datatype* newtype) {
  return resized("pure_type_create_resized_c", true, oldtype, lb, extent, newtype);
}

int pure_type_dup(PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return call("pure_type_dup", [&](Call& c) {
    out_arg(newtype);
    *newtype = build(c, false, [&](Call& c2, Recorder& rec) {
      TypeArg old = old_arg(c2, oldtype);
      rec.combiner(PURE_COMBINER_DUP);
      rec.type(old);
      return Datatype::dup(type_of(old));
    });
    copy_type_attributes(c, oldtype, newtype);
  });
}

int pure_type_commit(PURE_Datatype* datatype) {
  return call("pure_type_commit", [&](Call& c) {
    if (!datatype) fail(PURE_ERR_ARG, "null datatype pointer");
    any_type_arg(c, *datatype);
    if (Datatype* t = c.rank.handles().derived_type(*datatype)) t->commit();
  });
}

int pure_type_free(PURE_Datatype* datatype) {
  return call("pure_type_free", [&](Call& c) {
    if (!datatype) fail(PURE_ERR_ARG, "null datatype pointer");
    const Datatype& t = any_type_arg(c, *datatype);
    if (t.predefined()) fail(PURE_ERR_TYPE, "cannot free the predefined datatype %s", t.name());
    delete_type_attributes(c, *datatype);
    c.rank.handles().types.remove(*datatype);
    *datatype = PURE_DATATYPE_NULL;
  });
}

int pure_type_get_extent(PURE_Datatype datatype, PURE_Aint* lb, PURE_Aint* extent) {
  return extent_query("pure_type_get_extent", datatype, lb, extent, false);
}
int pure_type_get_extent_x(PURE_Datatype datatype, PURE_Count* lb, PURE_Count* extent) {
  return extent_query("pure_type_get_extent_x", datatype, lb, extent, false);
}
int pure_type_get_extent_c(PURE_Datatype datatype, PURE_Count* lb, PURE_Count* extent) {
  return extent_query("pure_type_get_extent_c", datatype, lb, extent, false);
}
int pure_type_get_true_extent(PURE_Datatype datatype, PURE_Aint* true_lb, PURE_Aint* true_extent) {
  return extent_query("pure_type_get_true_extent", datatype, true_lb, true_extent, true);
}
int pure_type_get_true_extent_x(PURE_Datatype datatype, PURE_Count* true_lb,
                                PURE_Count* true_extent) {
  return extent_query("pure_type_get_true_extent_x", datatype, true_lb, true_extent, true);
}
int pure_type_get_true_extent_c(PURE_Datatype datatype, PURE_Count* true_lb,
                                PURE_Count* true_extent) {
  return extent_query("pure_type_get_true_extent_c", datatype, true_lb, true_extent, true);
}

int pure_type_extent(PURE_Datatype datatype, PURE_Aint* extent) {
  return bound_query("pure_type_extent", datatype, extent, 0);
}
int pure_type_lb(PURE_Datatype datatype, PURE_Aint* displacement) {
  return bound_query("pure_type_lb", datatype, displacement, -1);
}
int pure_type_ub(PURE_Datatype datatype, PURE_Aint* displacement) {
  return bound_query("pure_type_ub", datatype, displacement, 1);
}

int pure_type_size(PURE_Datatype datatype, int* size) {
  return call("pure_type_size", [&](Call& c) {
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = int_or_undefined(static_cast<long long>(any_type_arg(c, datatype).size()));
  });
}
int pure_type_size_x(PURE_Datatype datatype, PURE_Count* size) {
  return size_query("pure_type_size_x", datatype, size);
}
int pure_type_size_c(PURE_Datatype datatype, PURE_Count* size) {
  return size_query("pure_type_size_c", datatype, size);
}

// Addresses are plain integers (PURE_Aint is ptrdiff_t), so these are
// arithmetic; MPI has them for machines where they are not.
int pure_address(const void* location, PURE_Aint* address) {
  return pure_get_address(location, address);
}
PURE_Aint pure_aint_add(PURE_Aint base, PURE_Aint disp) {
  return static_cast<PURE_Aint>(static_cast<std::uintptr_t>(base) +
                                static_cast<std::uintptr_t>(disp));
}
PURE_Aint pure_aint_diff(PURE_Aint addr1, PURE_Aint addr2) {
  return static_cast<PURE_Aint>(static_cast<std::uintptr_t>(addr1) -
                                static_cast<std::uintptr_t>(addr2));
}

}  // extern "C"
