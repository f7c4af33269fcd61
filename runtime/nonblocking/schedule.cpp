#include "nonblocking/schedule.h"

#include <cstring>
#include <new>

#include "base/error.h"
#include "base/handle.h"

namespace pure::nbc {

const TypeRef& bytes_type() {
  static const TypeRef bytes{Datatype::predefined(handle_index(PURE_BYTE)), nullptr};
  return bytes;
}

Schedule::Schedule(Endpoint& p2p, Comm& comm, int tag_ub, const char* call, int tags)
    : p2p_(p2p),
      comm_(comm.schedule_comm()),
      first_(comm.next_schedule()),
      tags_(tags),
      tag_modulus_(static_cast<std::uint64_t>(tag_ub) + 1),
      rank_(comm.rank()),
      size_(comm.size()),
      call_(call) {
  for (int k = 1; k < tags; ++k) comm.next_schedule();
}

int Schedule::tag(int k) const {
  if (k < 0 || k >= tags_)
    throw Error(PURE_ERR_INTERN, std::string(call_) + ": schedule tag " + std::to_string(k) +
                                     " of " + std::to_string(tags_));
  return static_cast<int>((first_ + static_cast<std::uint64_t>(k)) % tag_modulus_);
}

Schedule::~Schedule() {
  // A schedule is destroyed running only when its rank unwinds (the job
  // aborts); its transfers go back to the pool with the rest.
  for (Request* q : inflight_)
    if (q) p2p_.free_request(q);
}

void Schedule::round() { rounds_.push_back(steps_.size()); }

void Schedule::send(int peer, const void* buf, std::size_t count, const TypeRef& type, int tag) {
  steps_.push_back(Step{Step::send, comm_->world_of(peer), this->tag(tag), const_cast<void*>(buf),
                        count, type, {}, {}});
}

void Schedule::recv(int peer, void* buf, std::size_t count, const TypeRef& type, int tag) {
  steps_.push_back(
      Step{Step::recv, comm_->world_of(peer), this->tag(tag), buf, count, type, {}, {}});
}

void Schedule::local(std::function<void()> step) {
  steps_.push_back(Step{Step::local, -1, 0, nullptr, 0, TypeRef{}, std::move(step), {}});
}

void Schedule::wait(std::function<bool()> done) {
  steps_.push_back(Step{Step::wait, -1, 0, nullptr, 0, TypeRef{}, {}, std::move(done)});
}

unsigned char* Schedule::scratch(std::size_t bytes) {
  const std::size_t rounded = (bytes + 63) / 64 * 64 + 64;
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(64, rounded));
  if (!p) throw std::bad_alloc();
  std::memset(p, 0, rounded);
  scratch_.emplace_back(p);
  return p;
}

void Schedule::error(int code, std::string message) {
  if (error_ != PURE_SUCCESS) return;
  error_ = code;
  why_ = std::move(message);
}

void Schedule::start(Request& r) {
  (void)r;
  next_ = 0;
  error_ = PURE_SUCCESS;
  why_.clear();
}

// Whether every transfer of the current round completed; frees those that did.
bool Schedule::round_done() {
  bool all = true;
  for (Request*& q : inflight_) {
    if (!q) continue;
    if (!p2p_.test(q)) {
      all = false;
      continue;
    }
    if (q->kind == Request::Kind::recv && q->error != PURE_SUCCESS)
      error(q->error, "a message of " + std::to_string(q->message_bytes) + " bytes from rank " +
                          std::to_string(q->status.MPI_SOURCE) + " does not fit the " +
                          std::to_string(q->count * q->type.type->size()) +
                          " bytes this rank expects (the ranks' counts or types disagree)");
    p2p_.free_request(q);
    q = nullptr;
  }
  if (all) inflight_.clear();
  for (std::size_t i = 0; i < waits_.size();) {
    if ((*waits_[i])()) {
      waits_[i] = waits_.back();
      waits_.pop_back();
    } else {
      all = false;
      ++i;
    }
  }
  return all;
}

void Schedule::run_round(std::size_t k) {
  const std::size_t end = k + 1 < rounds_.size() ? rounds_[k + 1] : steps_.size();
  // Local steps first: they use what the previous round received, and may
  // fill what this round sends.
  for (std::size_t i = rounds_[k]; i < end; ++i) {
    Step& s = steps_[i];
    if (s.kind != Step::local) continue;
    try {
      s.fn();
    } catch (const Error& e) {
      error(e.code(), e.what());
    }
  }
  for (std::size_t i = rounds_[k]; i < end; ++i) {
    Step& s = steps_[i];
    if (s.kind == Step::send)
      inflight_.push_back(
          p2p_.isend(s.buf, s.count, s.type, s.peer, *comm_, s.tag, SendMode::standard));
    else if (s.kind == Step::recv)
      inflight_.push_back(p2p_.irecv(s.buf, s.count, s.type, s.peer, *comm_, s.tag));
    else if (s.kind == Step::wait)
      waits_.push_back(&s.done);
  }
}

bool Schedule::advance(Request& r) {
  for (;;) {
    if (!round_done()) return false;
    if (next_ == rounds_.size()) break;
    run_round(next_++);
  }
  finish(r);
  return true;
}

void Schedule::finish(Request& r) {
  r.status = PURE_Status{};
  r.status.MPI_SOURCE = PURE_ANY_SOURCE;
  r.status.MPI_TAG = PURE_ANY_TAG;
  r.status.MPI_ERROR = error_;
  r.error = error_;
  r.message_bytes = 0;
}

Request* start(Endpoint& p2p, Comm& comm, std::unique_ptr<Schedule> schedule) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->collective = true;
  r->comm = &comm;
  r->op = std::move(schedule);
  p2p.start(r);
  return r;
}

Request* persistent(Endpoint& p2p, Comm& comm, std::unique_ptr<Schedule> schedule) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->collective = true;
  r->persistent = true;
  r->state = Request::State::inactive;
  r->comm = &comm;
  r->op = std::move(schedule);
  return r;
}

}  // namespace pure::nbc
