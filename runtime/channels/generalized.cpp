#include "channels/generalized.h"

#include "channels/endpoint.h"

namespace pure {

bool Generalized::complete() {
  // Everything read below was written before the request handle reached
  // this thread (the program handed it over), and stays until the owner
  // sees the new state: the exchange (acq_rel) is the hand-back. Its
  // release pairs with the owner's acquire loads in advance() and cancel()
  // and with the failure (acquire) side of release_running()'s exchange;
  // when it fails, its acquire reads release_running()'s release of
  // `freed`, so free_fn below sees what the program did before freeing.
  Parker* owner = owner_;
  int expected = running;
  if (state_.compare_exchange_strong(expected, completed, std::memory_order_acq_rel)) {
    owner->notify();
    return true;
  }
  if (expected != freed) return false;
  // Freed by the program already: this is the last of the two, so it frees.
  if (free_) free_(extra_);
  // Release pairs with advance()'s acquire in the Endpoint's detached list,
  // which then deletes this object: free_fn and our reads of it
  // happen-before that.
  state_.store(freed_completed, std::memory_order_release);
  owner->notify();
  return true;
}

bool Generalized::advance(Request& r) {
  (void)r;
  // Acquire pairs with complete()'s exchange or its store of
  // freed_completed: the completer's writes happen-before query_fn and
  // free_fn here, and before this object is deleted.
  const int s = state_.load(std::memory_order_acquire);
  return s == completed || s == freed_completed;
}

void Generalized::cancel(Request& r) {
  (void)r;
  // Acquire pairs with complete()'s exchange: when told it completed,
  // cancel_fn sees what the completer wrote.
  if (cancel_) cancel_(extra_, state_.load(std::memory_order_acquire) != running);
}

bool Generalized::release_running(Request& r) {
  (void)r;
  int expected = running;
  // Still running: pure_grequest_complete will call free_fn; the request
  // stays until then (the Endpoint's detached list frees it). On success
  // the release pairs with complete()'s failed exchange, so free_fn there
  // sees our writes; on failure the acquire reads complete()'s release, so
  // free_fn here sees the completer's.
  if (state_.compare_exchange_strong(expected, freed, std::memory_order_acq_rel)) return false;
  // Completed already: freeing is the last of the two.
  free_state();
  return true;
}

int Generalized::query(PURE_Status* status) {
  *status = PURE_Status{};
  status->MPI_SOURCE = PURE_ANY_SOURCE;
  status->MPI_TAG = PURE_ANY_TAG;
  return query_ ? query_(extra_, status) : PURE_SUCCESS;
}

int Generalized::free_state() { return free_ ? free_(extra_) : PURE_SUCCESS; }

Request* generalized_request(Endpoint& p2p, PURE_Grequest_query_function* query,
                             PURE_Grequest_free_function* free,
                             PURE_Grequest_cancel_function* cancel, void* extra_state) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->op = std::make_unique<Generalized>(query, free, cancel, extra_state, &p2p.waiter().parker());
  r->state = Request::State::running;
  return r;
}

}  // namespace pure
