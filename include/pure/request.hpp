// The typed C++ API's statuses and requests (C++20).
//
//   pure::request r = comm.irecv(halo, left, 7);
//   ... compute ...
//   pure::status s = r.wait();                 // s.source(), s.tag(), s.count()
//
//   pure::request_pool pool;
//   for (int peer : peers) pool.push(comm.isend(out[peer], peer, 0));
//   pool.wait_all();
//
// A request is move-only. Destroying one that is still active (not waited
// for, tested complete or cancelled and completed) is the program's error:
// the job ends with a report that names the call that made it, as MPI's
// default error handler would; the operation is never silently dropped.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "pure/datatype.hpp"
#include "pure/error.hpp"

namespace pure {

inline constexpr int any_source = PURE_ANY_SOURCE;
inline constexpr int any_tag = PURE_ANY_TAG;
inline constexpr int proc_null = PURE_PROC_NULL;
inline constexpr int undefined = PURE_UNDEFINED;

// How a receive or probe completed.
class status {
 public:
  status() = default;
  status(const PURE_Status& native, PURE_Datatype type) : native_(native), type_(type) {}

  int source() const { return native_.MPI_SOURCE; }
  int tag() const { return native_.MPI_TAG; }
  bool cancelled() const { return native_.pure_cancelled != 0; }
  // Elements of the receive's type (bytes, for a probe's status); and of T.
  // pure::undefined when the data is not a whole number of them.
  long long count() const { return count_of(type_); }
  template <class T>
  long long count() const {
    return count_of(datatype_handle<T>());
  }
  const PURE_Status& native() const { return native_; }

 private:
  long long count_of(PURE_Datatype type) const {
    PURE_Count n = 0;
    detail::check([&] { return pure_get_count_c(&native_, type, &n); });
    return n;
  }
  PURE_Status native_{};
  PURE_Datatype type_ = PURE_BYTE;
};

namespace detail {
// What a nonblocking operation uses until it completes, owned by its request.
struct kept {
  virtual ~kept() = default;
};
template <class X>
struct kept_as final : kept {
  template <class... A>
  explicit kept_as(A&&... args) : value(std::forward<A>(args)...) {}
  X value;
};
}  // namespace detail

class request {
 public:
  request() = default;
  // `made_by` names the flat call, for the report of an abandoned request;
  // `keep` holds what the operation uses until it completes (a user
  // operator, a buffer the call allocated).
  request(PURE_Request native, const char* made_by, PURE_Datatype type,
          std::unique_ptr<detail::kept> keep = {})
      : native_(native), made_by_(made_by), type_(type), keep_(std::move(keep)) {}
  request(request&& other) noexcept
      : native_(std::exchange(other.native_, PURE_REQUEST_NULL)),
        made_by_(other.made_by_),
        type_(other.type_),
        keep_(std::move(other.keep_)) {}
  request& operator=(request&& other) noexcept {
    if (this != &other) {
      if (active()) abandoned();
      native_ = std::exchange(other.native_, PURE_REQUEST_NULL);
      made_by_ = other.made_by_;
      type_ = other.type_;
      keep_ = std::move(other.keep_);
    }
    return *this;
  }
  ~request() {
    if (active()) abandoned();
  }

  bool active() const { return native_ != PURE_REQUEST_NULL; }
  // Waits for completion (an inactive request's status is empty).
  status wait() {
    PURE_Status s{};
    detail::check([&] { return pure_wait(&native_, &s); });
    completed();
    return status(s, type_);
  }
  // The status once complete; std::nullopt while the operation is pending.
  std::optional<status> test() {
    PURE_Status s{};
    int flag = 0;
    detail::check([&] { return pure_test(&native_, &flag, &s); });
    if (!flag) return std::nullopt;
    completed();
    return status(s, type_);
  }
  // Asks for cancellation; the request must still be waited for.
  void cancel() {
    detail::check([&] { return pure_cancel(&native_); });
  }

  PURE_Request& native() { return native_; }
  PURE_Datatype type() const { return type_; }
  // The flat API completed this request (through native()).
  void completed() {
    if (keep_ && !active()) keep_.reset();
  }

 private:
  // Out of line and cold: the string it builds stays out of the loops that
  // move requests around.
  [[gnu::cold, gnu::noinline]] void abandoned() noexcept {
    detail::fatal(PURE_ERR_REQUEST, made_by_,
                  std::string("a pure::request was destroyed while its operation was still "
                              "active; wait for it, test it to completion, or cancel and wait "
                              "for it first"));
  }

  PURE_Request native_ = PURE_REQUEST_NULL;
  const char* made_by_ = "";
  PURE_Datatype type_ = PURE_BYTE;
  std::unique_ptr<detail::kept> keep_;
};

namespace detail {
// The flat handles of a range of requests (on the stack for up to 64, the
// usual window), and back into the requests.
template <class Range>
class natives {
 public:
  explicit natives(Range& requests) : requests_(requests) {
    const std::size_t n = static_cast<std::size_t>(std::size(requests));
    if (n > kInline) heap_.resize(n);
    data_ = n > kInline ? heap_.data() : inline_;
    for (request& r : requests) data_[size_++] = r.native();
  }
  natives(const natives&) = delete;
  natives& operator=(const natives&) = delete;
  PURE_Request* data() { return data_; }
  int count() const { return static_cast<int>(size_); }
  std::size_t size() const { return size_; }
  void store() {
    std::size_t i = 0;
    for (request& r : requests_) {
      r.native() = data_[i++];
      r.completed();
    }
  }

 private:
  static constexpr std::size_t kInline = 64;
  Range& requests_;
  PURE_Request inline_[kInline];
  std::vector<PURE_Request> heap_;
  PURE_Request* data_ = nullptr;
  std::size_t size_ = 0;
};
}  // namespace detail

// Waits for every request of a range (vector, array, span of pure::request).
template <class Range>
void wait_all(Range& requests) {
  detail::natives<Range> n(requests);
  detail::check([&] { return pure_waitall(n.count(), n.data(), PURE_STATUSES_IGNORE); });
  n.store();
}
// The same, with their statuses, in order.
template <class Range>
std::vector<status> wait_all_statuses(Range& requests) {
  detail::natives<Range> n(requests);
  std::vector<PURE_Status> s(n.size());
  detail::check([&] { return pure_waitall(n.count(), n.data(), s.data()); });
  std::vector<status> out;
  out.reserve(n.size());
  std::size_t i = 0;
  for (request& r : requests) out.emplace_back(s[i++], r.type());
  n.store();
  return out;
}

// Which request of a range completed, and how; the index is the range's
// size when none was active.
template <class Range>
std::pair<std::size_t, status> wait_any(Range& requests) {
  detail::natives<Range> n(requests);
  PURE_Status s{};
  int index = PURE_UNDEFINED;
  detail::check([&] { return pure_waitany(n.count(), n.data(), &index, &s); });
  n.store();
  if (index == PURE_UNDEFINED) return {n.size(), status()};
  auto it = std::begin(requests);
  std::advance(it, index);
  return {static_cast<std::size_t>(index), status(s, it->type())};
}

// Waits until at least one request of a range completes; the indices and
// statuses of those that did (none when none was active).
template <class Range>
std::vector<std::pair<std::size_t, status>> wait_some(Range& requests) {
  detail::natives<Range> n(requests);
  std::vector<PURE_Status> s(n.size());
  std::vector<int> indices(n.size());
  int done = 0;
  detail::check([&] { return pure_waitsome(n.count(), n.data(), &done, indices.data(), s.data()); });
  n.store();
  std::vector<std::pair<std::size_t, status>> out;
  if (done == PURE_UNDEFINED) return out;
  for (int k = 0; k < done; ++k) {
    auto it = std::begin(requests);
    std::advance(it, indices[static_cast<std::size_t>(k)]);
    out.emplace_back(static_cast<std::size_t>(indices[static_cast<std::size_t>(k)]),
                     status(s[static_cast<std::size_t>(k)], it->type()));
  }
  return out;
}

// Whether every request of a range is complete (and then completes them).
template <class Range>
bool test_all(Range& requests) {
  detail::natives<Range> n(requests);
  int flag = 0;
  detail::check([&] { return pure_testall(n.count(), n.data(), &flag, PURE_STATUSES_IGNORE); });
  if (flag) n.store();
  return flag != 0;
}

// Requests that complete together: push them as they are made, then wait
// for all (or any, or some) of them.
class request_pool {
 public:
  request& push(request r) { return requests_.emplace_back(std::move(r)); }
  std::size_t size() const { return requests_.size(); }
  bool empty() const { return requests_.empty(); }
  request& operator[](std::size_t i) { return requests_[i]; }

  void wait_all() { pure::wait_all(requests_); }
  std::vector<status> wait_all_statuses() { return pure::wait_all_statuses(requests_); }
  std::pair<std::size_t, status> wait_any() { return pure::wait_any(requests_); }
  std::vector<std::pair<std::size_t, status>> wait_some() { return pure::wait_some(requests_); }
  bool test_all() { return pure::test_all(requests_); }
  // Forgets the requests, which must all be complete.
  void clear() { requests_.clear(); }

 private:
  std::vector<request> requests_;
};

}  // namespace pure
