// Flat API: matched probes (MPI-3). A matched probe takes the message out
// of matching (Endpoint::improbe) and hands it to the program as a
// PURE_Message handle, which only pure_mrecv or pure_imrecv receives.
#include <memory>
#include <string>

#include "api/call.h"
#include "api/requests.h"

using namespace pure;
using namespace pure::api;

namespace {

struct Probe {
  Comm* comm;
  int peer;  // world rank, PURE_ANY_SOURCE or PURE_PROC_NULL
};

Probe check_probe(Call& c, int source, int tag, PURE_Comm comm, PURE_Message* message) {
  Comm& cm = comm_arg(c, comm);
  if (!message) fail(PURE_ERR_ARG, "null message pointer");
  const int peer = source_arg(cm, source);
  recv_tag_arg(c, tag);
  return {&cm, peer};
}

// One matched probe; true and the message's handle in *message when found.
bool try_probe(Call& c, const Probe& p, int tag, PURE_Message* message, PURE_Status* status) {
  auto taken = std::make_unique<Unexpected>();
  if (!c.rank.p2p().improbe(p.peer, *p.comm, tag, status, taken.get())) return false;
  *message = c.rank.handles().messages.add(std::move(taken));
  return true;
}

// The message behind a handle a receive was given: throws naming the
// handle when it is null, stale or no message at all.
Unexpected& message_arg(Call& c, PURE_Message handle) {
  if (handle == PURE_MESSAGE_NULL)
    fail(PURE_ERR_REQUEST, "PURE_MESSAGE_NULL is not a message (it was received already?)");
  auto& table = c.rank.handles().messages;
  std::unique_ptr<Unexpected>* m = table.find(handle);
  if (!m) handle_error(PURE_ERR_REQUEST, "message", table.state(handle), handle);
  return **m;
}

// Receives message *message into (buf, count, type) as receive `r`; the
// handle becomes PURE_MESSAGE_NULL. PURE_TRACE and PURE_STATS see the
// message here, also when truncated (it was taken all the same).
void receive(Call& c, Request* r, void* buf, long long count, PURE_Datatype datatype,
             PURE_Message* message) {
  Unexpected& m = message_arg(c, *message);
  count_arg(count);
  TypeRef t = type_arg(c, datatype);
  buffer_arg(buf, count, *t.type);
  r->kind = Request::Kind::recv;
  r->buf = buf;
  r->count = static_cast<std::size_t>(count);
  r->type = std::move(t);
  r->peer = m.envelope.sender;
  r->tag = m.envelope.tag;
  const Envelope envelope = m.envelope;
  c.rank.p2p().receive_matched(r, m);
  c.rank.handles().messages.remove(*message);
  *message = PURE_MESSAGE_NULL;
  if (observed(c.rank)) observe_recv(c.rank, envelope.sender, envelope.context, r->status);
}

int mrecv(const char* name, void* buf, long long count, PURE_Datatype datatype,
          PURE_Message* message, PURE_Status* status) {
  return call(name, [&](Call& c) {
    if (!message) fail(PURE_ERR_ARG, "null message pointer");
    if (*message == PURE_MESSAGE_NO_PROC) {
      *message = PURE_MESSAGE_NULL;
      return proc_null_status(status);
    }
    Request r;
    receive(c, &r, buf, count, datatype, message);
    // A payload still in another process's MPI send comes in here.
    if (!r.complete())
      c.rank.wait_until([&] { return c.rank.p2p().test(&r); },
                        WaitSite{"pure_mrecv", r.status.MPI_SOURCE, r.status.MPI_TAG, true});
    if (status) *status = r.status;
    if (r.error != PURE_SUCCESS) throw Error(r.error, describe_error(r));
  });
}

int imrecv(const char* name, void* buf, long long count, PURE_Datatype datatype,
           PURE_Message* message, PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!message) fail(PURE_ERR_ARG, "null message pointer");
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Request* r = c.rank.new_request();
    r->kind = Request::Kind::recv;
    r->state = Request::State::complete;
    if (*message == PURE_MESSAGE_NO_PROC) {
      *message = PURE_MESSAGE_NULL;
      r->type = c.rank.type_ref(PURE_BYTE);
      proc_null_status(&r->status);
      *request = handle_of(r);
      return;
    }
    try {
      // The message is here, or (a payload still in another process's MPI
      // send) on its way: its request reports it, and any truncation, when
      // waited for.
      receive(c, r, buf, count, datatype, message);
    } catch (...) {
      c.rank.free_request(r);
      throw;
    }
    *request = handle_of(r);
  });
}

}  // namespace

extern "C" {

int pure_improbe(int source, int tag, PURE_Comm comm, int* flag, PURE_Message* message,
                 PURE_Status* status) {
  return call("pure_improbe", [&](Call& c) {
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    Probe p = check_probe(c, source, tag, comm, message);
    if (p.peer == PURE_PROC_NULL) {
      *flag = 1;
      *message = PURE_MESSAGE_NO_PROC;
      return proc_null_status(status);
    }
    c.rank.progress(true);  // drain full queues, as pure_iprobe does
    *flag = try_probe(c, p, tag, message, status);
    if (!*flag) {
      *message = PURE_MESSAGE_NULL;
      c.rank.poll_missed();
    }
  });
}

int pure_mprobe(int source, int tag, PURE_Comm comm, PURE_Message* message, PURE_Status* status) {
  return call("pure_mprobe", [&](Call& c) {
    Probe p = check_probe(c, source, tag, comm, message);
    if (p.peer == PURE_PROC_NULL) {
      *message = PURE_MESSAGE_NO_PROC;
      return proc_null_status(status);
    }
    WaitSite site{"pure_mprobe", source, tag};
    c.rank.wait_until([&] { return try_probe(c, p, tag, message, status); }, site);
  });
}

int pure_mrecv(void* buf, int count, PURE_Datatype datatype, PURE_Message* message,
               PURE_Status* status) {
  return mrecv("pure_mrecv", buf, count, datatype, message, status);
}
int pure_mrecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, PURE_Message* message,
                 PURE_Status* status) {
  return mrecv("pure_mrecv_c", buf, count, datatype, message, status);
}

int pure_imrecv(void* buf, int count, PURE_Datatype datatype, PURE_Message* message,
                PURE_Request* request) {
  return imrecv("pure_imrecv", buf, count, datatype, message, request);
}
int pure_imrecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, PURE_Message* message,
                  PURE_Request* request) {
  return imrecv("pure_imrecv_c", buf, count, datatype, message, request);
}

}  // extern "C"
