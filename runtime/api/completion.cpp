// Flat API: completing requests of every kind -- point-to-point,
// nonblocking collectives, persistent and generalized requests -- with the
// wait and test calls, freeing, cancelling and starting them, and the
// status helpers.
//
// An inactive persistent request (not started, or finished by a wait or
// test) counts as complete with an empty status for wait, test, waitall
// and testall, and as a null handle for the any/some calls, as MPI says.
#include <cstdio>
#include <string>
#include <vector>

#include "api/call.h"
#include "api/requests.h"
#include "channels/generalized.h"
#include "channels/partitioned.h"
#include "channels/persistent.h"
#include "channels/send_recv.h"

using namespace pure;
using namespace pure::api;

namespace {

Generalized* generalized(Request* r) {
  return r->kind == Request::Kind::operation ? dynamic_cast<Generalized*>(r->op.get()) : nullptr;
}

const PersistentTransfer* persistent_transfer_of(const Request& r) {
  return r.kind == Request::Kind::operation ? dynamic_cast<const PersistentTransfer*>(r.op.get())
                                            : nullptr;
}

// What PURE_TRACE and PURE_STATS see of a request a wait or test finishes:
// the message a receive took -- a plain, persistent or isendrecv one (whose
// send was seen when it left). PURE_PROC_NULL and cancelled receives are
// no messages (observe_recv skips them).
void observe_finished(Rank& rank, const Request& q) {
  if (!q.comm || !observed(rank)) return;
  bool receives = q.kind == Request::Kind::recv;
  if (q.kind == Request::Kind::operation) {
    const PersistentTransfer* p = persistent_transfer_of(q);
    receives = p ? p->args().kind == Request::Kind::recv
                 : dynamic_cast<const SendRecv*>(q.op.get()) != nullptr;
  }
  if (receives) observe_recv(rank, *q.comm, q.status);
}

// A persistent send is seen as it leaves, at each start.
void observe_start(Rank& rank, const Request& q) {
  const PersistentTransfer* p = persistent_transfer_of(q);
  if (!p || !observed(rank)) return;
  const PersistentTransfer::Args& a = p->args();
  if (a.kind == Request::Kind::send && a.peer != PURE_PROC_NULL)
    observe_send(rank, a.peer, *a.comm, a.tag, a.count * a.type.type->size());
}

// Fills `status` with what completed request `q` reports, without
// finishing it; returns its error class, and its description in *why.
int result_of(Request* q, PURE_Status* status, std::string* why) {
  if (q->state == Request::State::inactive) {
    empty_status(status);
    return PURE_SUCCESS;
  }
  int err = PURE_SUCCESS;
  switch (q->kind) {
    case Request::Kind::recv:
      if (status) *status = q->status;
      err = q->error;
      if (err != PURE_SUCCESS && why) *why = describe_error(*q);
      break;
    case Request::Kind::send:
      // A send's status says only whether it was cancelled.
      empty_status(status);
      if (status) status->pure_cancelled = q->status.pure_cancelled;
      break;
    case Request::Kind::operation:
      if (Generalized* g = generalized(q)) {
        PURE_Status st;
        err = g->query(&st);
        if (status) *status = st;
        if (err != PURE_SUCCESS && why)
          *why = "the generalized request's query_fn returned error " + std::to_string(err);
      } else {
        if (status) *status = q->status;
        err = q->error;
        if (err != PURE_SUCCESS && why) *why = q->op->error_text();
      }
      break;
  }
  return err;
}

// Finishes a completed request: copies out its result, then frees it and
// nulls the handle -- or, for a persistent request, makes it inactive and
// keeps the handle. A generalized request's free_fn runs after its
// query_fn, and its error wins. Returns the error class, described in *why.
int finish(Rank& rank, PURE_Request* handle, PURE_Status* status, std::string* why) {
  Request* q = request_of(*handle);
  if (q->state == Request::State::inactive) {
    empty_status(status);
    return PURE_SUCCESS;
  }
  int err = result_of(q, status, why);
  observe_finished(rank, *q);
  if (Generalized* g = generalized(q)) {
    const int freed = g->free_state();
    if (freed != PURE_SUCCESS) {
      err = freed;
      if (why) *why = "the generalized request's free_fn returned error " + std::to_string(err);
    }
  }
  if (q->persistent) {
    q->state = Request::State::inactive;
    return err;
  }
  if (q != completed_send_request()) rank.free_request(q);
  *handle = PURE_REQUEST_NULL;
  return err;
}

Request* req(PURE_Request h) { return request_of(h); }

// A handle that is neither null nor an inactive persistent request.
bool active(PURE_Request h) {
  return h != PURE_REQUEST_NULL && req(h)->state != Request::State::inactive;
}

WaitSite site_of(const char* name, const Request* r) {
  return WaitSite{name, r->peer, r->tag};
}

// Checks an array of request handles up front, so that a stale one is
// reported before anything waits.
void check_array(int count, const PURE_Request* requests) {
  if (count < 0) fail(PURE_ERR_COUNT, "invalid request count %d", count);
  if (count > 0 && !requests) fail(PURE_ERR_REQUEST, "null request array with count %d", count);
  for (int i = 0; i < count; ++i)
    if (requests[i] != PURE_REQUEST_NULL) request_of(requests[i]);
}

// Finishes every non-null request of an array that completed. With a
// statuses array, per-request errors go into MPI_ERROR and the call reports
// PURE_ERR_IN_STATUS, as MPI specifies for multiple completion.
void finish_all(Rank& rank, int count, PURE_Request requests[], PURE_Status statuses[]) {
  int first_error = PURE_SUCCESS;
  std::string why;
  for (int i = 0; i < count; ++i) {
    PURE_Status* st = statuses ? &statuses[i] : nullptr;
    if (requests[i] == PURE_REQUEST_NULL) {
      empty_status(st);
      continue;
    }
    std::string w;
    int err = finish(rank, &requests[i], st, &w);
    if (st) st->MPI_ERROR = err;
    if (err != PURE_SUCCESS && first_error == PURE_SUCCESS) {
      first_error = err;
      why = "request " + std::to_string(i) + ": " + w;
    }
  }
  if (first_error != PURE_SUCCESS)
    throw Error(statuses ? PURE_ERR_IN_STATUS : first_error, why);
}

// Whether requests [*from, count) are all done; *from moves past those
// found done, which stay done until finished, so that a wait asking again
// each round scans each request once rather than the whole array each time.
bool all_done(Endpoint& p2p, int count, PURE_Request requests[], int* from) {
  for (int& i = *from; i < count; ++i)
    if (requests[i] != PURE_REQUEST_NULL && !p2p.test(req(requests[i]))) return false;
  return true;
}

// Index of a completed active request, -1 if none, PURE_UNDEFINED if none
// is active.
int any_done(Endpoint& p2p, int count, PURE_Request requests[]) {
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    if (p2p.test(req(requests[i]))) return i;
  }
  return any_active ? -1 : PURE_UNDEFINED;
}

const Comm* comm_of_first(int count, PURE_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != PURE_REQUEST_NULL) return req(requests[i])->comm;
  return nullptr;
}

void finish_some(Rank& rank, int incount, PURE_Request requests[], int* outcount, int indices[],
                 PURE_Status statuses[]) {
  Endpoint& p2p = rank.p2p();
  int n = 0;
  int first_error = PURE_SUCCESS;
  std::string why;
  bool any_active = false;
  for (int i = 0; i < incount; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    if (!p2p.test(req(requests[i]))) continue;
    PURE_Status* st = statuses ? &statuses[n] : nullptr;
    std::string w;
    int err = finish(rank, &requests[i], st, &w);
    if (st) st->MPI_ERROR = err;
    if (err != PURE_SUCCESS && first_error == PURE_SUCCESS) {
      first_error = err;
      why = "request " + std::to_string(i) + ": " + w;
    }
    indices[n++] = i;
  }
  *outcount = any_active ? n : PURE_UNDEFINED;
  if (first_error != PURE_SUCCESS)
    throw Error(statuses ? PURE_ERR_IN_STATUS : first_error, why);
}

// The request behind a handle that must not be null, for `what` ("free", ...).
Request* named_request(PURE_Request* request, const char* what) {
  if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
  if (*request == PURE_REQUEST_NULL) fail(PURE_ERR_REQUEST, "cannot %s PURE_REQUEST_NULL", what);
  return req(*request);
}

void startable(Request* r, int index) {
  const std::string which = index < 0 ? std::string("request") : "request " + std::to_string(index);
  if (!r->persistent)
    fail(PURE_ERR_REQUEST, "%s is not persistent (only requests made by a *_init call start)",
         which.c_str());
  if (r->state != Request::State::inactive)
    fail(PURE_ERR_REQUEST, "%s is active: it may start again once a wait or test finished it",
         which.c_str());
}

}  // namespace

extern "C" {

int pure_wait(PURE_Request* request, PURE_Status* status) {
  return call("pure_wait", [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    if (*request == PURE_REQUEST_NULL) return empty_status(status);
    Request* r = req(*request);
    c.errors = r->comm;
    Endpoint& p2p = c.rank.p2p();
    c.rank.wait_until([&] { return p2p.test(r); }, site_of("pure_wait", r));
    std::string why;
    int err = finish(c.rank, request, status, &why);
    if (err != PURE_SUCCESS) throw Error(err, why);
  });
}

int pure_test(PURE_Request* request, int* flag, PURE_Status* status) {
  return call("pure_test", [&](Call& c) {
    if (!request || !flag) fail(PURE_ERR_ARG, "null request or flag pointer");
    if (*request == PURE_REQUEST_NULL) {
      *flag = 1;
      return empty_status(status);
    }
    Request* r = req(*request);
    c.errors = r->comm;
    // A program may poll with test (or iprobe) and never block, so every
    // poll must also drain full incoming queues (progress(true)): otherwise a
    // sender stuck on a queue full of messages we have not asked for yet
    // never gets to send the one we poll for (MPI's progress rule).
    c.rank.progress(true);
    *flag = c.rank.p2p().test(r);
    if (!*flag) return c.rank.poll_missed();
    std::string why;
    int err = finish(c.rank, request, status, &why);
    if (err != PURE_SUCCESS) throw Error(err, why);
  });
}

int pure_waitall(int count, PURE_Request requests[], PURE_Status statuses[]) {
  return call("pure_waitall", [&](Call& c) {
    check_array(count, requests);
    c.errors = comm_of_first(count, requests);
    Endpoint& p2p = c.rank.p2p();
    int from = 0;
    c.rank.wait_until([&] { return all_done(p2p, count, requests, &from); },
                      WaitSite{"pure_waitall", -1, -1});
    finish_all(c.rank, count, requests, statuses);
  });
}

int pure_testall(int count, PURE_Request requests[], int* flag, PURE_Status statuses[]) {
  return call("pure_testall", [&](Call& c) {
    check_array(count, requests);
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    c.errors = comm_of_first(count, requests);
    c.rank.progress(true);
    int from = 0;
    *flag = all_done(c.rank.p2p(), count, requests, &from);
    if (*flag) finish_all(c.rank, count, requests, statuses);
    else c.rank.poll_missed();
  });
}

int pure_waitany(int count, PURE_Request requests[], int* index, PURE_Status* status) {
  return call("pure_waitany", [&](Call& c) {
    check_array(count, requests);
    if (!index) fail(PURE_ERR_ARG, "null index pointer");
    c.errors = comm_of_first(count, requests);
    Endpoint& p2p = c.rank.p2p();
    int i = -1;
    c.rank.wait_until([&] { return (i = any_done(p2p, count, requests)) != -1; },
                      WaitSite{"pure_waitany", -1, -1});
    *index = i;
    if (i == PURE_UNDEFINED) return empty_status(status);
    c.errors = req(requests[i])->comm;
    std::string why;
    int err = finish(c.rank, &requests[i], status, &why);
    if (err != PURE_SUCCESS) throw Error(err, why);
  });
}

int pure_testany(int count, PURE_Request requests[], int* index, int* flag, PURE_Status* status) {
  return call("pure_testany", [&](Call& c) {
    check_array(count, requests);
    if (!index || !flag) fail(PURE_ERR_ARG, "null index or flag pointer");
    c.errors = comm_of_first(count, requests);
    c.rank.progress(true);
    int i = any_done(c.rank.p2p(), count, requests);
    *index = i == -1 ? PURE_UNDEFINED : i;
    *flag = i != -1;
    if (i == -1) c.rank.poll_missed();
    if (i == -1 || i == PURE_UNDEFINED) return empty_status(i == -1 ? nullptr : status);
    std::string why;
    int err = finish(c.rank, &requests[i], status, &why);
    if (err != PURE_SUCCESS) throw Error(err, why);
  });
}

int pure_waitsome(int incount, PURE_Request requests[], int* outcount, int indices[],
                  PURE_Status statuses[]) {
  return call("pure_waitsome", [&](Call& c) {
    check_array(incount, requests);
    if (!outcount || (incount > 0 && !indices)) fail(PURE_ERR_ARG, "null outcount or indices");
    c.errors = comm_of_first(incount, requests);
    Endpoint& p2p = c.rank.p2p();
    c.rank.wait_until([&] { return any_done(p2p, incount, requests) != -1; },
                      WaitSite{"pure_waitsome", -1, -1});
    finish_some(c.rank, incount, requests, outcount, indices, statuses);
  });
}

int pure_testsome(int incount, PURE_Request requests[], int* outcount, int indices[],
                  PURE_Status statuses[]) {
  return call("pure_testsome", [&](Call& c) {
    check_array(incount, requests);
    if (!outcount || (incount > 0 && !indices)) fail(PURE_ERR_ARG, "null outcount or indices");
    c.errors = comm_of_first(incount, requests);
    c.rank.progress(true);
    finish_some(c.rank, incount, requests, outcount, indices, statuses);
    if (*outcount == 0) c.rank.poll_missed();
  });
}

int pure_request_get_status(PURE_Request request, int* flag, PURE_Status* status) {
  return call("pure_request_get_status", [&](Call& c) {
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    if (request == PURE_REQUEST_NULL) {
      *flag = 1;
      return empty_status(status);
    }
    Request* r = req(request);
    c.errors = r->comm;
    c.rank.progress(true);  // as pure_test
    *flag = c.rank.p2p().test(r);
    if (!*flag) return c.rank.poll_missed();
    // The request stays as it is; its error goes into the status only.
    const int err = result_of(r, status, nullptr);
    if (status) status->MPI_ERROR = err;
  });
}

int pure_request_free(PURE_Request* request) {
  return call("pure_request_free", [&](Call& c) {
    Request* r = named_request(request, "free");
    c.errors = r->comm;
    if (r->collective && r->state != Request::State::inactive && !r->complete())
      fail(PURE_ERR_REQUEST,
           "the request of an active collective cannot be freed (MPI forbids it): wait for it");
    if (is_partitioned(*r) && r->state != Request::State::inactive && !r->complete())
      fail(PURE_ERR_REQUEST,
           "an active partitioned request cannot be freed (MPI forbids it): wait for it");
    if (Generalized* g = generalized(r); g && r->complete()) {
      // Found complete by a test that did not finish it: freeing is the last step.
      g->free_state();
      c.rank.free_request(r);
    } else if (r != completed_send_request()) {
      if (r->complete() || r->state == Request::State::inactive)
        c.rank.free_request(r);
      else
        c.rank.p2p().detach(r);
    }
    *request = PURE_REQUEST_NULL;
  });
}

int pure_cancel(PURE_Request* request) {
  return call("pure_cancel", [&](Call& c) {
    Request* r = named_request(request, "cancel");
    c.errors = r->comm;
    if (r->collective)
      fail(PURE_ERR_REQUEST, "the request of a collective cannot be cancelled (MPI forbids it)");
    if (is_partitioned(*r))
      fail(PURE_ERR_REQUEST,
           "a partitioned request cannot be cancelled (MPI forbids it): wait for it");
    // Whatever matched already simply completes; an inactive request has
    // nothing to cancel.
    c.rank.p2p().cancel(r);
  });
}

int pure_test_cancelled(const PURE_Status* status, int* flag) {
  if (!status || !flag) return PURE_ERR_ARG;
  *flag = status->pure_cancelled;
  return PURE_SUCCESS;
}

int pure_start(PURE_Request* request) {
  return call("pure_start", [&](Call& c) {
    Request* r = named_request(request, "start");
    c.errors = r->comm;
    startable(r, -1);
    observe_start(c.rank, *r);
    c.rank.p2p().start(r);
  });
}

int pure_startall(int count, PURE_Request array_of_requests[]) {
  return call("pure_startall", [&](Call& c) {
    if (count < 0) fail(PURE_ERR_COUNT, "invalid request count %d", count);
    if (count > 0 && !array_of_requests)
      fail(PURE_ERR_REQUEST, "null request array with count %d", count);
    // All are checked before any starts.
    for (int i = 0; i < count; ++i) {
      if (array_of_requests[i] == PURE_REQUEST_NULL)
        fail(PURE_ERR_REQUEST, "request %d is PURE_REQUEST_NULL", i);
      Request* r = req(array_of_requests[i]);
      if (i == 0) c.errors = r->comm;
      startable(r, i);
    }
    for (int i = 0; i < count; ++i) {
      Request* r = req(array_of_requests[i]);
      observe_start(c.rank, *r);
      c.rank.p2p().start(r);
    }
  });
}

// ---- generalized requests ----

int pure_grequest_start(PURE_Grequest_query_function* query_fn,
                        PURE_Grequest_free_function* free_fn,
                        PURE_Grequest_cancel_function* cancel_fn, void* extra_state,
                        PURE_Request* request) {
  return call("pure_grequest_start", [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    if (!query_fn || !free_fn || !cancel_fn)
      fail(PURE_ERR_ARG, "null %s function", !query_fn ? "query" : !free_fn ? "free" : "cancel");
    *request =
        handle_of(generalized_request(c.rank.p2p(), query_fn, free_fn, cancel_fn, extra_state));
  });
}

int pure_grequest_complete(PURE_Request request) {
  auto body = [&] {
    if (request == PURE_REQUEST_NULL) fail(PURE_ERR_REQUEST, "cannot complete PURE_REQUEST_NULL");
    Request* r = req(request);
    Generalized* g = generalized(r);
    if (!g) fail(PURE_ERR_REQUEST, "request %p is not a generalized request", static_cast<void*>(request));
    if (!g->complete())
      fail(PURE_ERR_REQUEST, "generalized request %p was completed already",
           static_cast<void*>(request));
  };
  // Any thread may complete a generalized request, also one that is no
  // rank: there, errors are printed and returned.
  if (Rank::current()) return call("pure_grequest_complete", [&](Call&) { body(); });
  try {
    body();
    return PURE_SUCCESS;
  } catch (const Error& e) {
    std::fprintf(stderr, "pure: pure_grequest_complete (from a thread that is no rank): %s\n",
                 e.what());
    return e.code();
  }
}

int pure_status_set_cancelled(PURE_Status* status, int flag) {
  return call("pure_status_set_cancelled", [&](Call&) {
    if (!status) fail(PURE_ERR_ARG, "null status pointer");
    status->pure_cancelled = flag != 0;
  });
}

}  // extern "C"
