// The typed C++ API (C++20): communicators, messages and collectives, with
// datatypes deduced (pure/datatype.hpp), containers as buffers, RAII for
// communicators and requests, function objects and lambdas as reduction
// operators (pure/ops.hpp), and pure::error exceptions (pure/error.hpp).
//
//   auto world = pure::communicator::world();
//   std::vector<double> halo(n);
//   if (world.rank() == 0) world.send(halo, 1, /*tag=*/7);
//   else if (world.rank() == 1) world.recv(halo, 0, 7);       // sized by a probe
//   double total = world.allreduce(local, std::plus<>{});
//
// A buffer is a value of a datatype (sent as one element) or a contiguous
// range of them: std::vector, std::array, std::span, std::string, a C
// array. A receive into a std::vector or std::string resizes it to the
// message (matched probe, then receive: right with wildcards and other
// threads' receives); a receive into anything else fills it and fails with
// PURE_ERR_TRUNCATE when the message is longer.
//
// Every call runs the flat call of the same name (pure_send, ...) with the
// deduced datatype and count, so its checks and messages are the flat
// API's; a failure is thrown as a pure::error whatever the communicator's
// error handler is. Communicators are move-only; one made by split or dup is
// freed when its object is destroyed; world() and self() never are.
#pragma once

#include <climits>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pure/datatype.hpp"
#include "pure/error.hpp"
#include "pure/ops.hpp"
#include "pure/request.hpp"

namespace pure {

namespace detail {

template <class B>
concept contiguous_buffer = requires(B& b) {
  { std::data(b) } -> std::convertible_to<const void*>;
  { std::size(b) } -> std::convertible_to<std::size_t>;
};

// The element type of a buffer: B itself for a value.
template <class B>
struct element {
  using type = B;
};
template <contiguous_buffer B>
struct element<B> {
  using type = std::remove_cvref_t<decltype(*std::data(std::declval<B&>()))>;
};
template <class B>
using element_t = typename element<std::remove_cvref_t<B>>::type;

template <class B>
inline constexpr bool resizable = requires(B& b) { b.resize(std::size_t{1}); };

template <class>
inline constexpr bool always_false = false;

template <class B>
constexpr void require_buffer() {
  using T = std::remove_cvref_t<B>;
  if constexpr (contiguous_buffer<T>) {
    require_datatype<element_t<T>>();
  } else if constexpr (requires(T& b) { std::begin(b); }) {
    static_assert(always_false<T>,
                  "pure: a buffer must be contiguous (std::vector, std::array, std::span, "
                  "std::string); this container (a std::map, std::list, std::set, or "
                  "std::vector<bool>) is not: copy its elements into a std::vector first");
  } else {
    require_datatype<T>();
  }
}

// Where a buffer's elements are, how many, and their datatype.
struct view {
  void* data;
  std::size_t count;
  PURE_Datatype type;
};
template <class B>
view view_of(B& b) {
  require_buffer<B>();
  using T = std::remove_cvref_t<B>;
  if constexpr (contiguous_buffer<T>) {
    return {const_cast<void*>(static_cast<const void*>(std::data(b))),
            static_cast<std::size_t>(std::size(b)), datatype_handle<element_t<T>>()};
  } else if constexpr (requires(T& c) { std::begin(c); }) {
    return {};  // not reached: require_buffer stops the compilation
  } else {
    return {const_cast<void*>(static_cast<const void*>(&b)), 1, datatype_handle<T>()};
  }
}

inline int small_count(std::size_t n) { return n <= INT_MAX ? static_cast<int>(n) : -1; }

}  // namespace detail

class communicator {
 public:
  // No communicator (what split gives a rank that passed pure::undefined).
  communicator() = default;
  // The communicators of every job. Never freed.
  static communicator world() { return communicator(PURE_COMM_WORLD, false); }
  static communicator self() { return communicator(PURE_COMM_SELF, false); }
  // Adopts a flat handle; `owned`: freed with this object.
  communicator(PURE_Comm native, bool owned) : native_(native), owned_(owned) {}

  communicator(communicator&& other) noexcept
      : native_(std::exchange(other.native_, PURE_COMM_NULL)),
        owned_(std::exchange(other.owned_, false)),
        rank_(other.rank_),
        size_(other.size_) {}
  communicator& operator=(communicator&& other) noexcept {
    if (this != &other) {
      release();
      native_ = std::exchange(other.native_, PURE_COMM_NULL);
      owned_ = std::exchange(other.owned_, false);
      rank_ = other.rank_;
      size_ = other.size_;
    }
    return *this;
  }
  ~communicator() { release(); }

  explicit operator bool() const { return native_ != PURE_COMM_NULL; }
  PURE_Comm native() const { return native_; }

  int rank() const {
    if (rank_ < 0) detail::check([&] { return pure_comm_rank(native_, &rank_); });
    return rank_;
  }
  int size() const {
    if (size_ < 0) detail::check([&] { return pure_comm_size(native_, &size_); });
    return size_;
  }

  // Collective: the ranks that pass the same color, ordered by key (then by
  // rank here); pure::undefined gives no communicator.
  communicator split(int color, int key = 0) const {
    PURE_Comm out = PURE_COMM_NULL;
    detail::check([&] { return pure_comm_split(native_, color, key, &out); });
    return communicator(out, out != PURE_COMM_NULL);
  }
  communicator dup() const {
    PURE_Comm out = PURE_COMM_NULL;
    detail::check([&] { return pure_comm_dup(native_, &out); });
    return communicator(out, true);
  }

  // ---- point to point ----
  template <class B>
  void send(const B& buf, int dest, int tag = 0) const {
    const detail::view v = detail::view_of(buf);
    if (const int n = detail::small_count(v.count); n >= 0)
      detail::check([&] { return pure_send(v.data, n, v.type, dest, tag, native_); });
    else
      detail::check([&] {
        return pure_send_c(v.data, static_cast<PURE_Count>(v.count), v.type, dest, tag, native_);
      });
  }
  template <class B>
  void ssend(const B& buf, int dest, int tag = 0) const {
    const detail::view v = detail::view_of(buf);
    detail::check([&] {
      return pure_ssend_c(v.data, static_cast<PURE_Count>(v.count), v.type, dest, tag, native_);
    });
  }

  // Receives into `buf`; a std::vector or std::string is resized to the
  // message first.
  template <class B>
  status recv(B& buf, int source = any_source, int tag = any_tag) const {
    if constexpr (detail::resizable<B>) {
      return recv_resized(buf, source, tag);
    } else {
      const detail::view v = detail::view_of(buf);
      PURE_Status s{};
      if (const int n = detail::small_count(v.count); n >= 0)
        detail::check([&] { return pure_recv(v.data, n, v.type, source, tag, native_, &s); });
      else
        detail::check([&] {
          return pure_recv_c(v.data, static_cast<PURE_Count>(v.count), v.type, source, tag,
                             native_, &s);
        });
      return status(s, v.type);
    }
  }
  // Receives one value of T.
  template <class T>
  T recv(int source = any_source, int tag = any_tag, status* st = nullptr) const {
    T value{};
    if (st) {
      *st = recv(value, source, tag);
    } else {
      // No status asked for: none is filled in, as a C program would pass
      // PURE_STATUS_IGNORE.
      const PURE_Datatype type = datatype_handle<T>();
      detail::check([&] {
        return pure_recv(&value, 1, type, source, tag, native_, PURE_STATUS_IGNORE);
      });
    }
    return value;
  }

  // Buffers of nonblocking calls must outlive the request: temporaries
  // are refused.
  template <class B>
  [[nodiscard]] request isend(const B& buf, int dest, int tag = 0) const {
    const detail::view v = detail::view_of(buf);
    PURE_Request r = PURE_REQUEST_NULL;
    if (const int n = detail::small_count(v.count); n >= 0)
      detail::check([&] { return pure_isend(v.data, n, v.type, dest, tag, native_, &r); });
    else
      detail::check([&] {
        return pure_isend_c(v.data, static_cast<PURE_Count>(v.count), v.type, dest, tag,
                            native_, &r);
      });
    return request(r, "pure_isend", v.type);
  }
  template <class B>
  request isend(const B&& buf, int dest, int tag = 0) const = delete;
  // Receives into `buf` as it is sized now (a std::vector is not resized).
  template <class B>
  [[nodiscard]] request irecv(B& buf, int source = any_source, int tag = any_tag) const {
    const detail::view v = detail::view_of(buf);
    PURE_Request r = PURE_REQUEST_NULL;
    if (const int n = detail::small_count(v.count); n >= 0)
      detail::check([&] { return pure_irecv(v.data, n, v.type, source, tag, native_, &r); });
    else
      detail::check([&] {
        return pure_irecv_c(v.data, static_cast<PURE_Count>(v.count), v.type, source, tag,
                            native_, &r);
      });
    return request(r, "pure_irecv", v.type);
  }

  template <class S, class R>
  status sendrecv(const S& sendbuf, int dest, int sendtag, R& recvbuf, int source,
                  int recvtag) const {
    const detail::view out = detail::view_of(sendbuf);
    const detail::view in = detail::view_of(recvbuf);
    PURE_Status s{};
    detail::check([&] {
      return pure_sendrecv_c(out.data, static_cast<PURE_Count>(out.count), out.type, dest,
                             sendtag, in.data, static_cast<PURE_Count>(in.count), in.type, source,
                             recvtag, native_, &s);
    });
    return status(s, in.type);
  }

  // A message that has arrived (its count() is in bytes; count<T>() in T's).
  status probe(int source = any_source, int tag = any_tag) const {
    PURE_Status s{};
    detail::check([&] { return pure_probe(source, tag, native_, &s); });
    return status(s, PURE_BYTE);
  }
  std::optional<status> iprobe(int source = any_source, int tag = any_tag) const {
    PURE_Status s{};
    int flag = 0;
    detail::check([&] { return pure_iprobe(source, tag, native_, &flag, &s); });
    if (!flag) return std::nullopt;
    return status(s, PURE_BYTE);
  }

  // ---- collectives (pure/collectives.hpp) ----
  void barrier() const;
  [[nodiscard]] request ibarrier() const;
  // From root to every rank; a std::vector or std::string is resized to
  // the root's first.
  template <class B>
  void bcast(B& buf, int root) const;
  template <class B>
  [[nodiscard]] request ibcast(B& buf, int root) const;

  // Op over every rank's x; the result on root (others get T{}).
  template <class T, class Op>
  T reduce(const T& x, Op op, int root) const;
  // Element-wise over buffers of one size; out is written on root only.
  template <class S, class R, class Op>
  void reduce(const S& in, R& out, Op op, int root) const;
  template <class T, class Op>
  T allreduce(const T& x, Op op) const;
  template <class S, class R, class Op>
  void allreduce(const S& in, R& out, Op op) const;
  template <class B, class Op>
  void allreduce_in_place(B& buf, Op op) const;
  template <class S, class R, class Op>
  [[nodiscard]] request iallreduce(const S& in, R& out, Op op) const;
  // Op over ranks 0..rank (scan) and 0..rank-1 (exscan; rank 0 gets T{}).
  template <class T, class Op>
  T scan(const T& x, Op op) const;
  template <class T, class Op>
  T exscan(const T& x, Op op) const;

  // Every rank's value (or equal-sized buffer), in rank order: on root only
  // (others get an empty vector), or on every rank.
  template <class B>
  std::vector<detail::element_t<B>> gather(const B& mine, int root) const;
  template <class B>
  std::vector<detail::element_t<B>> allgather(const B& mine) const;
  // Rank r gets elements [r*k, (r+1)*k) of root's `all`, k = mine's size.
  template <class S, class R>
  void scatter(const S& all, R& mine, int root) const;
  // Rank r gets all[r] of root's `all` (size() elements).
  template <class T>
  T scatter(const std::vector<T>& all, int root) const;
  // send holds k elements for each rank (k * size() in all); returns k
  // from each, in rank order.
  template <class T>
  std::vector<T> alltoall(const std::vector<T>& send) const;
  // send[r] goes to rank r; returns what rank r sent here, at [r].
  template <class T>
  std::vector<std::vector<T>> alltoallv(const std::vector<std::vector<T>>& send) const;

 private:
  template <class B>
  status recv_resized(B& buf, int source, int tag) const {
    using T = detail::element_t<B>;
    const PURE_Datatype type = datatype_handle<T>();
    PURE_Message m = PURE_MESSAGE_NULL;
    PURE_Status s{};
    detail::check([&] { return pure_mprobe(source, tag, native_, &m, &s); });
    PURE_Count n = 0;
    detail::check([&] { return pure_get_count_c(&s, type, &n); });
    if (n == PURE_UNDEFINED)
      detail::throw_error(PURE_ERR_TRUNCATE, "pure_mrecv",
                          "the message is not a whole number of the vector's elements");
    buf.resize(static_cast<std::size_t>(n));
    detail::check([&] { return pure_mrecv_c(std::data(buf), n, type, &m, &s); });
    return status(s, type);
  }
  void release() noexcept {
    if (owned_ && native_ != PURE_COMM_NULL) pure_comm_free(&native_);
    native_ = PURE_COMM_NULL;
    owned_ = false;
  }

  PURE_Comm native_ = PURE_COMM_NULL;
  bool owned_ = false;
  mutable int rank_ = -1;
  mutable int size_ = -1;
};

}  // namespace pure

#include "pure/collectives.hpp"
