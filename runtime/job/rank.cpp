#include "job/rank.h"

#include "collectives/dropbox.h"
#include "collectives/rank_state.h"
#include "job/process.h"
#include "sched/scheduler.h"

namespace pure {

namespace {
// The one thread_local of the runtime: which rank the calling thread is,
// and its scheduler state (helper threads have only the latter).
struct ThreadContext {
  Rank* rank = nullptr;
  sched::Worker* worker = nullptr;
};
thread_local ThreadContext t_current;

constexpr int kHandleIndexMask = 0x00FFFFFF;
constexpr int kHandleKindMask = ~kHandleIndexMask;
constexpr int kFirstDerivedType = 256;
}  // namespace

Rank* Rank::current() { return t_current.rank; }
void Rank::set_current(Rank* rank) {
  t_current.rank = rank;
  t_current.worker = rank ? &rank->process().scheduler().worker(rank->index()) : nullptr;
}
sched::Worker* Rank::current_worker() { return t_current.worker; }
void Rank::set_current_worker(sched::Worker* worker) { t_current.worker = worker; }

Rank::Rank(Process& process, int index)
    : process_(process),
      index_(index),
      world_(process.world_rank(index)),
      fibers_(process.fibers()),
      policy_(process.backoff()) {
  // A rank that spins long before it parks parks rarely: its notifiers can
  // skip their fence, and its rare parks pay for a process-wide barrier
  // (parker.h). Ranks sharing cores park all the time and keep the fences.
  parker_.set_asymmetric(own_core());
  std::vector<int> world(static_cast<size_t>(process.world_size()));
  for (int i = 0; i < process.world_size(); ++i) world[static_cast<size_t>(i)] = i;
  auto world_comm = std::make_unique<Comm>(0, std::move(world), world_, "PURE_COMM_WORLD");
  if (process.world_net()) {
    // Across processes the world's Dropbox serves its local view.
    const std::vector<int>& here = process.map().ranks_of(process.proc());
    auto local = std::make_unique<Comm>(kLocalContextBit, here, world_, "PURE_COMM_WORLD (local)");
    local->set_dropbox(process.world_dropbox());
    world_comm->set_net(process.world_net(), std::move(local));
  } else {
    world_comm->set_dropbox(process.world_dropbox());
  }
  auto self_comm = std::make_unique<Comm>(1, std::vector<int>{world_}, world_, "PURE_COMM_SELF");
  self_comm->set_dropbox(std::make_shared<Dropbox>(1));
  comms_.set(PURE_COMM_WORLD & 0xFFFF, std::move(world_comm));
  comms_.set(PURE_COMM_SELF & 0xFFFF, std::move(self_comm));
  collectives_ = std::make_unique<RankCollectives>();
  endpoint_ = std::make_unique<Endpoint>(*this, process);
}

Rank::~Rank() = default;

Comm* Rank::comm(PURE_Comm handle) {
  std::unique_ptr<Comm>* c = comms_.find(handle);
  return c ? c->get() : nullptr;
}

PURE_Comm Rank::add_comm(std::unique_ptr<Comm> comm) { return comms_.add(std::move(comm)); }

void Rank::free_comm(PURE_Comm handle) { comms_.remove(handle); }

const Datatype* Rank::type(PURE_Datatype handle) {
  if ((handle & kHandleKindMask) != PURE_HANDLE_KIND_DATATYPE) return nullptr;
  int i = handle & kHandleIndexMask;
  if (i < kFirstDerivedType) return Datatype::predefined(i);
  size_t d = static_cast<size_t>(i - kFirstDerivedType);
  return d < types_.size() ? types_[d].get() : nullptr;
}

TypeRef Rank::type_ref(PURE_Datatype handle) {
  TypeRef ref;
  if ((handle & kHandleKindMask) != PURE_HANDLE_KIND_DATATYPE) return ref;
  int i = handle & kHandleIndexMask;
  if (i < kFirstDerivedType) {
    ref.type = type(handle);
  } else {
    size_t d = static_cast<size_t>(i - kFirstDerivedType);
    if (d < types_.size()) {
      ref.keep = types_[d];
      ref.type = ref.keep.get();
    }
  }
  return ref;
}

Datatype* Rank::mutable_derived_type(PURE_Datatype handle) {
  if ((handle & kHandleKindMask) != PURE_HANDLE_KIND_DATATYPE) return nullptr;
  int i = handle & kHandleIndexMask;
  if (i < kFirstDerivedType) return nullptr;
  size_t d = static_cast<size_t>(i - kFirstDerivedType);
  return d < types_.size() ? types_[d].get() : nullptr;
}

PURE_Datatype Rank::add_type(std::unique_ptr<Datatype> type) {
  // Reuse a freed slot so long-running codes that create and free types in a
  // loop do not grow the table.
  for (size_t d = 0; d < types_.size(); ++d) {
    if (!types_[d]) {
      types_[d] = std::move(type);
      return PURE_HANDLE_KIND_DATATYPE | static_cast<int>(d + kFirstDerivedType);
    }
  }
  types_.push_back(std::move(type));
  return PURE_HANDLE_KIND_DATATYPE | static_cast<int>(types_.size() - 1 + kFirstDerivedType);
}

void Rank::free_type(PURE_Datatype handle) {
  int i = handle & kHandleIndexMask;
  size_t d = static_cast<size_t>(i - kFirstDerivedType);
  if (i >= kFirstDerivedType && d < types_.size()) types_[d].reset();
}

Request* Rank::new_request() {
  if (!free_requests_) {
    request_storage_.push_back(std::make_unique<Request>());
    return request_storage_.back().get();
  }
  Request* r = free_requests_;
  free_requests_ = r->next_free;
  r->reset();
  return r;
}

void Rank::free_request(Request* r) {
  if (r == completed_send_request()) return;
  r->type = TypeRef{};  // drop the datatype reference now, not at reuse
  r->next_free = free_requests_;
  free_requests_ = r;
}

bool Rank::aborted() const { return process_.aborted(); }

bool Rank::steal() {
  sched::Scheduler& scheduler = process_.scheduler();
  return scheduler.steal(scheduler.worker(index_));
}

void Rank::enter_wait(const WaitSite& site, bool remote) {
  wait_call.store(site.call, std::memory_order_relaxed);
  wait_peer.store(site.peer, std::memory_order_relaxed);
  wait_tag.store(site.tag, std::memory_order_relaxed);
  wait_remote.store(remote, std::memory_order_relaxed);
  // Release: the watchdog that sees in_wait also sees where we wait.
  in_wait.store(true, std::memory_order_release);
}

void Rank::leave_wait() {
  in_wait.store(false, std::memory_order_relaxed);
  // Only this thread writes the counter: a plain increment, no locked RMW.
  waits_done.store(waits_done.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace pure
