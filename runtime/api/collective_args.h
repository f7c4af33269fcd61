// The arguments of the collectives as the flat API checks them and hands
// them over: ops, roots, buffers (PURE_IN_PLACE, PURE_BOTTOM), and the counts
// and displacements of the v-collectives, from int or large-count calls.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "api/call.h"

namespace pure::api {

inline bool in_place(const void* p) { return p == PURE_IN_PLACE; }

OpRef op_arg(Call& c, PURE_Op op);
void root_arg(const Comm& comm, int root);
// A send or receive buffer that is not PURE_IN_PLACE.
void data_arg(const void* buf, long long count, const Datatype& type, const char* which);
// A root's (or an all- collective's) whole receive or send buffer: null is
// PURE_BOTTOM, which needs a type at absolute addresses.
void whole_buffer_arg(const void* buf, const Datatype& type, const char* which);

// The counts and displacements of a v-collective as the collectives carry
// them, ints: the int call's own arrays, or a large-count call's copied
// when every value fits (PURE_ERR_COUNT naming the first that does not).
class IntArray {
 public:
  IntArray(const int* values, int) : data_(values) {}
  template <class N>
  IntArray(const N* values, int n, const char* what, long long min) {
    own_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const long long v = values[i];
      if (v < min || v > INT_MAX)
        fail(PURE_ERR_COUNT,
             "%s[%d] = %lld is beyond what the v-collectives carry (%lld to %d per rank)", what,
             i, v, min, INT_MAX);
      own_[static_cast<std::size_t>(i)] = static_cast<int>(v);
    }
    data_ = own_.data();
  }
  const int* data() const { return data_; }

 private:
  std::vector<int> own_;
  const int* data_;
};

template <class N>
IntArray counts_of(const N* counts, int n, const char* what) {
  if constexpr (std::is_same_v<N, int>) return IntArray(counts, n);
  else return IntArray(counts, n, what, 0);
}
template <class D>
IntArray displs_of(const D* displs, int n, const char* what) {
  if constexpr (std::is_same_v<D, int>) return IntArray(displs, n);
  else return IntArray(displs, n, what, INT_MIN);
}

template <class N, class D>
void counts_arg(const N* counts, const D* displs, int n, const char* which) {
  if (!counts || !displs) fail(PURE_ERR_ARG, "null %s counts or displacements", which);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0)
      fail(PURE_ERR_COUNT, "invalid %s count %lld at index %d", which,
           static_cast<long long>(counts[i]), i);
}

// Counts and displacements of equal blocks (gather, scatter, allgather,
// alltoall), or PURE_ERR_COUNT when the last block starts beyond an int.
struct Blocks {
  std::vector<int> counts, displs;
  Blocks(int n, long long count);
};

// PURE_BOTTOM in a collective. The collectives read a null buffer as
// PURE_IN_PLACE, so data at absolute addresses goes in as a buffer at the
// lowest of them with a copy of the type shifted down by as much: buffer
// plus displacement is the same address either way, for every buffer of
// that type. The shifted types live as long as this object.
class Bottom {
 public:
  // When `buf` is PURE_BOTTOM with a type at absolute addresses: points
  // `type` at a shifted copy and returns the shift; 0 otherwise.
  std::ptrdiff_t shift(const void* buf, const Datatype*& type);
  // A buffer of a shifted type moved by the shift (PURE_IN_PLACE stays).
  template <class P>
  static P* moved(P* buf, std::ptrdiff_t by) {
    if (by == 0 || in_place(buf)) return buf;
    return reinterpret_cast<P*>(reinterpret_cast<std::uintptr_t>(buf) +
                                static_cast<std::uintptr_t>(by));
  }
  // (buf, type) in place: the one buffer of a type.
  template <class P>
  void rebase(P*& buf, const Datatype*& type) {
    buf = moved(buf, shift(buf, type));
  }

 private:
  std::vector<std::unique_ptr<Datatype>> shifted_;
};

// The two sides of a data movement as the collectives take them: a
// PURE_BOTTOM buffer rebased (Bottom), PURE_IN_PLACE as a null buffer.
struct Sides {
  Bottom bottom;
  const void* send;
  const Datatype* stype;
  void* recv;
  const Datatype* rtype;
  Sides(const void* sendbuf, const Datatype* st, void* recvbuf, const Datatype* rt)
      : stype(st), rtype(rt) {
    send = Bottom::moved(sendbuf, bottom.shift(sendbuf, stype));
    recv = Bottom::moved(recvbuf, bottom.shift(recvbuf, rtype));
    if (in_place(send)) send = nullptr;
    if (in_place(recv)) recv = nullptr;
  }
};

}  // namespace pure::api
