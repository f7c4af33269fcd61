// A generalized request (pure_grequest_start): an operation the program
// carries out itself and reports complete with pure_grequest_complete,
// from any thread (one that is no rank included). The callbacks are
// called as MPI specifies: query_fn when a wait or test (or
// pure_request_get_status) finds it complete, to fill the status; free_fn
// after query_fn when a wait or test finishes it, or -- when the program
// freed it first -- by pure_request_free or pure_grequest_complete,
// whichever comes last; cancel_fn by pure_cancel, told whether it already
// completed.
#pragma once

#include <atomic>

#include "base/parker.h"
#include "channels/request.h"
#include "pure/pure.h"

namespace pure {

class Endpoint;

class Generalized final : public Operation {
 public:
  // `owner`: the Parker of the rank that started it, woken on completion.
  Generalized(PURE_Grequest_query_function* query, PURE_Grequest_free_function* free,
              PURE_Grequest_cancel_function* cancel, void* extra_state, Parker* owner)
      : query_(query), free_(free), cancel_(cancel), extra_(extra_state), owner_(owner) {}

  // Any thread: marks it complete (calling free_fn if the program freed it
  // already). False if it was completed before.
  bool complete();

  bool advance(Request& r) override;  // complete yet? (the status comes from query())
  void cancel(Request& r) override;
  bool needs_progress() const override { return false; }
  bool release_running(Request& r) override;

  // Owner, once complete: query_fn into `status`; its return value.
  int query(PURE_Status* status);
  // Owner, once complete: free_fn; its return value.
  int free_state();

 private:
  // running -> complete (pure_grequest_complete) -> finished by the owner;
  // or running -> freed (pure_request_free first) -> freed_complete.
  enum State : int { running, completed, freed, freed_completed };

  PURE_Grequest_query_function* const query_;
  PURE_Grequest_free_function* const free_;
  PURE_Grequest_cancel_function* const cancel_;
  void* const extra_;
  Parker* const owner_;
  std::atomic<int> state_{running};
};

// A running generalized request of `p2p`'s rank.
Request* generalized_request(Endpoint& p2p, PURE_Grequest_query_function* query,
                             PURE_Grequest_free_function* free,
                             PURE_Grequest_cancel_function* cancel, void* extra_state);

}  // namespace pure
