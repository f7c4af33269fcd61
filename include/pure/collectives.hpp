// The typed C++ API's collectives: pure::communicator's collective members
// (declared, and documented, in pure/communicator.hpp). A value of a
// predefined datatype with a predefined operator takes the flat call with
// count 1, as a C program would write it.
#pragma once

#include <algorithm>
#include <memory>
#include <numeric>

#include "pure/communicator.hpp"

namespace pure {

namespace detail {
inline PURE_Count big(std::size_t n) { return static_cast<PURE_Count>(n); }

template <class S, class R>
void require_same_element() {
  static_assert(std::is_same_v<element_t<S>, element_t<R>>,
                "pure: the send and receive buffers of a reduction hold the same type");
}

// Throws PURE_ERR_COUNT for buffers of different lengths in `call`.
inline void same_length(std::size_t in, std::size_t out, const char* call) {
  if (in != out)
    throw_error(PURE_ERR_COUNT, call,
                "the send buffer has " + std::to_string(in) +
                    " elements and the receive buffer " + std::to_string(out) +
                    "; a reduction's buffers have one length");
}
}  // namespace detail

inline void communicator::barrier() const {
  detail::check([&] { return pure_barrier(native_); });
}

inline request communicator::ibarrier() const {
  PURE_Request r = PURE_REQUEST_NULL;
  detail::check([&] { return pure_ibarrier(native_, &r); });
  return request(r, "pure_ibarrier", PURE_BYTE);
}

template <class B>
void communicator::bcast(B& buf, int root) const {
  if constexpr (detail::resizable<B>) {
    std::size_t n = std::size(buf);
    detail::check([&] { return pure_bcast(&n, 1, PURE_UNSIGNED_LONG, root, native_); });
    buf.resize(n);
  }
  const detail::view v = detail::view_of(buf);
  if (const int n = detail::small_count(v.count); n >= 0)
    detail::check([&] { return pure_bcast(v.data, n, v.type, root, native_); });
  else
    detail::check([&] { return pure_bcast_c(v.data, detail::big(v.count), v.type, root, native_); });
}

template <class B>
request communicator::ibcast(B& buf, int root) const {
  const detail::view v = detail::view_of(buf);
  PURE_Request r = PURE_REQUEST_NULL;
  detail::check(
      [&] { return pure_ibcast_c(v.data, detail::big(v.count), v.type, root, native_, &r); });
  return request(r, "pure_ibcast", v.type);
}

template <class T, class Op>
T communicator::reduce(const T& x, Op op, int root) const {
  detail::bound_op<T, Op> bound(std::move(op));
  T out{};
  detail::check([&] {
    return pure_reduce(&x, &out, 1, datatype_handle<T>(), bound.handle(), root, native_);
  });
  return out;
}

template <class S, class R, class Op>
void communicator::reduce(const S& in, R& out, Op op, int root) const {
  detail::require_same_element<S, R>();
  detail::bound_op<detail::element_t<S>, Op> bound(std::move(op));
  const detail::view i = detail::view_of(in);
  const detail::view o = detail::view_of(out);
  if (rank() == root) detail::same_length(i.count, o.count, "pure_reduce");
  detail::check([&] {
    return pure_reduce_c(i.data, o.data, detail::big(i.count), i.type, bound.handle(), root,
                         native_);
  });
}

template <class T, class Op>
T communicator::allreduce(const T& x, Op op) const {
  detail::bound_op<T, Op> bound(std::move(op));
  T out{};
  detail::check(
      [&] { return pure_allreduce(&x, &out, 1, datatype_handle<T>(), bound.handle(), native_); });
  return out;
}

template <class S, class R, class Op>
void communicator::allreduce(const S& in, R& out, Op op) const {
  detail::require_same_element<S, R>();
  detail::bound_op<detail::element_t<S>, Op> bound(std::move(op));
  const detail::view i = detail::view_of(in);
  const detail::view o = detail::view_of(out);
  detail::same_length(i.count, o.count, "pure_allreduce");
  detail::check([&] {
    return pure_allreduce_c(i.data, o.data, detail::big(i.count), i.type, bound.handle(),
                            native_);
  });
}

template <class B, class Op>
void communicator::allreduce_in_place(B& buf, Op op) const {
  detail::bound_op<detail::element_t<B>, Op> bound(std::move(op));
  const detail::view v = detail::view_of(buf);
  detail::check([&] {
    return pure_allreduce_c(PURE_IN_PLACE, v.data, detail::big(v.count), v.type, bound.handle(),
                            native_);
  });
}

template <class S, class R, class Op>
request communicator::iallreduce(const S& in, R& out, Op op) const {
  detail::require_same_element<S, R>();
  // The operator lives as long as the request: the runtime combines while
  // the request progresses.
  auto bound = std::make_unique<detail::kept_as<detail::bound_op<detail::element_t<S>, Op>>>(
      std::move(op));
  const detail::view i = detail::view_of(in);
  const detail::view o = detail::view_of(out);
  detail::same_length(i.count, o.count, "pure_iallreduce");
  PURE_Request r = PURE_REQUEST_NULL;
  detail::check([&] {
    return pure_iallreduce_c(i.data, o.data, detail::big(i.count), i.type,
                             bound->value.handle(), native_, &r);
  });
  return request(r, "pure_iallreduce", o.type, std::move(bound));
}

template <class T, class Op>
T communicator::scan(const T& x, Op op) const {
  detail::bound_op<T, Op> bound(std::move(op));
  T out{};
  detail::check(
      [&] { return pure_scan(&x, &out, 1, datatype_handle<T>(), bound.handle(), native_); });
  return out;
}

template <class T, class Op>
T communicator::exscan(const T& x, Op op) const {
  detail::bound_op<T, Op> bound(std::move(op));
  T out{};
  detail::check(
      [&] { return pure_exscan(&x, &out, 1, datatype_handle<T>(), bound.handle(), native_); });
  if (rank() == 0) out = T{};  // MPI leaves rank 0's result undefined
  return out;
}

template <class B>
std::vector<detail::element_t<B>> communicator::gather(const B& mine, int root) const {
  const detail::view v = detail::view_of(mine);
  std::vector<detail::element_t<B>> all(rank() == root ? v.count * size() : 0);
  detail::check([&] {
    return pure_gather_c(v.data, detail::big(v.count), v.type, all.data(), detail::big(v.count),
                         v.type, root, native_);
  });
  return all;
}

template <class B>
std::vector<detail::element_t<B>> communicator::allgather(const B& mine) const {
  const detail::view v = detail::view_of(mine);
  std::vector<detail::element_t<B>> all(v.count * size());
  detail::check([&] {
    return pure_allgather_c(v.data, detail::big(v.count), v.type, all.data(),
                            detail::big(v.count), v.type, native_);
  });
  return all;
}

template <class S, class R>
void communicator::scatter(const S& all, R& mine, int root) const {
  detail::require_same_element<S, R>();
  const detail::view o = detail::view_of(mine);
  if (rank() == root) {
    const detail::view i = detail::view_of(all);
    if (i.count != o.count * size())
      detail::throw_error(PURE_ERR_COUNT, "pure_scatter",
                          "the root's buffer has " + std::to_string(i.count) +
                              " elements, not size() times the receive buffer's " +
                              std::to_string(o.count));
  }
  const void* from = rank() == root ? detail::view_of(all).data : nullptr;
  detail::check([&] {
    return pure_scatter_c(from, detail::big(o.count), o.type, o.data, detail::big(o.count),
                          o.type, root, native_);
  });
}

template <class T>
T communicator::scatter(const std::vector<T>& all, int root) const {
  T mine{};
  std::span<T> one(&mine, 1);
  scatter(all, one, root);
  return mine;
}

template <class T>
std::vector<T> communicator::alltoall(const std::vector<T>& send) const {
  const std::size_t p = static_cast<std::size_t>(size());
  if (send.size() % p != 0)
    detail::throw_error(PURE_ERR_COUNT, "pure_alltoall",
                        "the send vector has " + std::to_string(send.size()) +
                            " elements, not a multiple of the communicator's " +
                            std::to_string(p) + " ranks");
  const std::size_t k = send.size() / p;
  std::vector<T> out(send.size());
  const PURE_Datatype type = datatype_handle<T>();
  detail::check([&] {
    return pure_alltoall_c(send.data(), detail::big(k), type, out.data(), detail::big(k), type,
                           native_);
  });
  return out;
}

template <class T>
std::vector<std::vector<T>> communicator::alltoallv(
    const std::vector<std::vector<T>>& send) const {
  const std::size_t p = static_cast<std::size_t>(size());
  if (send.size() != p)
    detail::throw_error(PURE_ERR_COUNT, "pure_alltoallv",
                        "the send vector holds " + std::to_string(send.size()) +
                            " vectors, not one for each of the communicator's " +
                            std::to_string(p) + " ranks");
  // The counts first, then the data packed end to end.
  std::vector<PURE_Count> send_counts(p), recv_counts(p);
  for (std::size_t r = 0; r < p; ++r) send_counts[r] = detail::big(send[r].size());
  detail::check([&] {
    return pure_alltoall(send_counts.data(), 1, PURE_COUNT, recv_counts.data(), 1, PURE_COUNT,
                         native_);
  });
  std::vector<PURE_Aint> send_displs(p), recv_displs(p);
  std::vector<T> packed;
  packed.reserve(static_cast<std::size_t>(
      std::accumulate(send_counts.begin(), send_counts.end(), PURE_Count{0})));
  for (std::size_t r = 0; r < p; ++r) {
    send_displs[r] = static_cast<PURE_Aint>(packed.size());
    packed.insert(packed.end(), send[r].begin(), send[r].end());
  }
  PURE_Count total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    recv_displs[r] = static_cast<PURE_Aint>(total);
    total += recv_counts[r];
  }
  std::vector<T> incoming(static_cast<std::size_t>(total));
  const PURE_Datatype type = datatype_handle<T>();
  detail::check([&] {
    return pure_alltoallv_c(packed.data(), send_counts.data(), send_displs.data(), type,
                            incoming.data(), recv_counts.data(), recv_displs.data(), type,
                            native_);
  });
  std::vector<std::vector<T>> out(p);
  for (std::size_t r = 0; r < p; ++r) {
    auto first = incoming.begin() + recv_displs[r];
    out[r].assign(first, first + recv_counts[r]);
  }
  return out;
}

}  // namespace pure
