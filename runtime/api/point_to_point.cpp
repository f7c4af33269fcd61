// Flat API: point-to-point messaging and request completion.
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "api/call.h"
#include "api/requests.h"

using namespace pure;
using namespace pure::api;

namespace {

void empty_status(PURE_Status* status) {
  if (!status) return;
  status->MPI_SOURCE = PURE_ANY_SOURCE;
  status->MPI_TAG = PURE_ANY_TAG;
  status->MPI_ERROR = PURE_SUCCESS;
  status->pure_count = 0;
  status->pure_cancelled = 0;
}

// Whole copies of `datatype` in the bytes of `status`; PURE_UNDEFINED when
// they are not a whole number (MPI_Get_count).
long long copies_received(Call& c, const PURE_Status* status, PURE_Datatype datatype) {
  if (!status) fail(PURE_ERR_ARG, "null status pointer");
  const Datatype& t = any_type_arg(c, datatype);
  if (t.size() == 0) return 0;
  if (status->pure_count % t.size() != 0) return PURE_UNDEFINED;
  return static_cast<long long>(status->pure_count / t.size());
}

void proc_null_status(PURE_Status* status) {
  empty_status(status);
  if (status) status->MPI_SOURCE = PURE_PROC_NULL;
}

struct Message {
  Comm* comm;
  TypeRef type;
  int peer;  // world rank, PURE_ANY_SOURCE or PURE_PROC_NULL
};

// Counts are 64-bit from here on: the int calls and their large-count (_c)
// twins share everything below.
Message check_send(Call& c, const void* buf, long long count, PURE_Datatype datatype, int dest,
                   int tag, PURE_Comm comm) {
  Comm& cm = comm_arg(c, comm);
  count_arg(count);
  TypeRef t = type_arg(c, datatype);
  buffer_arg(buf, count, *t.type);
  int peer = dest_arg(cm, dest);
  send_tag_arg(c, tag);
  return {&cm, std::move(t), peer};
}

Message check_recv(Call& c, const void* buf, long long count, PURE_Datatype datatype, int source,
                   int tag, PURE_Comm comm) {
  Comm& cm = comm_arg(c, comm);
  count_arg(count);
  TypeRef t = type_arg(c, datatype);
  buffer_arg(buf, count, *t.type);
  int peer = source_arg(cm, source);
  recv_tag_arg(c, tag);
  return {&cm, std::move(t), peer};
}

// A buffered send: pack into the attached buffer, then send from there.
Request* buffered_send(Call& c, const void* buf, long long count, const Message& m, int tag) {
  const Datatype& t = *m.type.type;
  const std::size_t bytes = static_cast<std::size_t>(count) * t.size();
  BsendBuffer& bb = c.rank.bsend_buffer();
  char* region = bb.reserve(c.rank.p2p(), bytes);
  pack(buf, static_cast<std::size_t>(count), t, 0, region, bytes);
  TypeRef packed = c.rank.type_ref(PURE_PACKED);
  Request* r =
      c.rank.p2p().isend(region, bytes, packed, m.peer, *m.comm, tag, SendMode::standard);
  bb.track(region, r);
  return r;
}

int blocking_send(const char* name, SendMode mode, const void* buf, long long count,
                  PURE_Datatype datatype, int dest, int tag, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Message m = check_send(c, buf, count, datatype, dest, tag, comm);
    if (m.peer == PURE_PROC_NULL) return;
    c.rank.p2p().send(buf, static_cast<std::size_t>(count), m.type, m.peer, *m.comm, tag,
                      mode, WaitSite{name, dest, tag});
  });
}

int nonblocking_send(const char* name, SendMode mode, const void* buf, long long count,
                     PURE_Datatype datatype, int dest, int tag, PURE_Comm comm,
                     PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Message m = check_send(c, buf, count, datatype, dest, tag, comm);
    if (m.peer == PURE_PROC_NULL) {
      *request = handle_of(completed_send_request());
      return;
    }
    if (mode == SendMode::buffered) {
      // The user's request completes at once: the data is in our buffer.
      buffered_send(c, buf, count, m, tag);
      *request = handle_of(completed_send_request());
      return;
    }
    *request = handle_of(c.rank.p2p().isend(buf, static_cast<std::size_t>(count), m.type, m.peer,
                                            *m.comm, tag, mode));
  });
}

// Copies out the result of a completed request, frees it and nulls the
// handle. Returns the error class recorded for it, and its description.
int finish(Rank& rank, PURE_Request* handle, PURE_Status* status, std::string* why) {
  Request* q = request_of(*handle);
  int err = PURE_SUCCESS;
  if (q->kind == Request::Kind::recv) {
    if (status) *status = q->status;
    err = q->error;
    if (err == PURE_ERR_TRUNCATE && why) {
      // A receive MPI matched itself (another process) does not learn the
      // whole size: message_bytes is 0 then.
      const std::string what =
          q->message_bytes ? "message of " + std::to_string(q->message_bytes) + " bytes"
                           : std::string("message");
      *why = what + " from rank " + std::to_string(q->status.MPI_SOURCE) + " (tag " +
             std::to_string(q->status.MPI_TAG) + ") does not fit the receive buffer of " +
             std::to_string(q->count * q->type.type->size()) + " bytes";
    }
  } else {
    empty_status(status);
  }
  if (q != completed_send_request()) rank.free_request(q);
  *handle = PURE_REQUEST_NULL;
  return err;
}

Request* req(PURE_Request h) { return request_of(h); }

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

int bsend(const char* name, const void* buf, long long count, PURE_Datatype datatype, int dest,
          int tag, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Message m = check_send(c, buf, count, datatype, dest, tag, comm);
    if (m.peer != PURE_PROC_NULL) buffered_send(c, buf, count, m, tag);
  });
}

int recv(const char* name, void* buf, long long count, PURE_Datatype datatype, int source, int tag,
         PURE_Comm comm, PURE_Status* status) {
  return call(name, [&](Call& c) {
    Message m = check_recv(c, buf, count, datatype, source, tag, comm);
    if (m.peer == PURE_PROC_NULL) return proc_null_status(status);
    c.rank.p2p().recv(buf, static_cast<std::size_t>(count), m.type, m.peer, *m.comm, tag, status,
                      WaitSite{name, source, tag});
  });
}

int irecv(const char* name, void* buf, long long count, PURE_Datatype datatype, int source,
          int tag, PURE_Comm comm, PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Message m = check_recv(c, buf, count, datatype, source, tag, comm);
    if (m.peer == PURE_PROC_NULL) {
      Request* r = c.rank.new_request();
      r->kind = Request::Kind::recv;
      r->state = Request::State::complete;
      r->type = m.type;
      proc_null_status(&r->status);
      *request = handle_of(r);
      return;
    }
    *request = handle_of(c.rank.p2p().irecv(buf, static_cast<std::size_t>(count), m.type, m.peer,
                                            *m.comm, tag));
  });
}

int sendrecv(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             int dest, int sendtag, void* recvbuf, long long recvcount, PURE_Datatype recvtype,
             int source, int recvtag, PURE_Comm comm, PURE_Status* status) {
  return call(name, [&](Call& c) {
    Message s = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, comm);
    Message r = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, comm);
    Endpoint& p2p = c.rank.p2p();
    Request* sent = s.peer == PURE_PROC_NULL
                        ? completed_send_request()
                        : p2p.isend(sendbuf, static_cast<std::size_t>(sendcount), s.type, s.peer,
                                    *s.comm, sendtag, SendMode::standard);
    if (r.peer == PURE_PROC_NULL)
      proc_null_status(status);
    else
      p2p.recv(recvbuf, static_cast<std::size_t>(recvcount), r.type, r.peer, *r.comm, recvtag,
               status, WaitSite{name, source, recvtag});
    c.rank.wait_until([&] { return p2p.test(sent); }, WaitSite{name, dest, sendtag});
    c.rank.free_request(sent);
  });
}

int sendrecv_replace(const char* name, void* buf, long long count, PURE_Datatype datatype,
                     int dest, int sendtag, int source, int recvtag, PURE_Comm comm,
                     PURE_Status* status) {
  return call(name, [&](Call& c) {
    Message s = check_send(c, buf, count, datatype, dest, sendtag, comm);
    Message r = check_recv(c, buf, count, datatype, source, recvtag, comm);
    // The outgoing data is packed aside first, since the receive overwrites it.
    const std::size_t bytes = static_cast<std::size_t>(count) * s.type.type->size();
    std::vector<char> staged(bytes);
    pack(buf, static_cast<std::size_t>(count), *s.type.type, 0, staged.data(), bytes);
    Endpoint& p2p = c.rank.p2p();
    TypeRef packed = c.rank.type_ref(PURE_PACKED);
    Request* sent = s.peer == PURE_PROC_NULL
                        ? completed_send_request()
                        : p2p.isend(staged.data(), bytes, packed, s.peer, *s.comm, sendtag,
                                    SendMode::standard);
    if (r.peer == PURE_PROC_NULL)
      proc_null_status(status);
    else
      p2p.recv(buf, static_cast<std::size_t>(count), r.type, r.peer, *r.comm, recvtag, status,
               WaitSite{name, source, recvtag});
    c.rank.wait_until([&] { return p2p.test(sent); }, WaitSite{name, dest, sendtag});
    c.rank.free_request(sent);
  });
}

int buffer_attach(const char* name, void* buffer, long long size) {
  return call(name, [&](Call& c) {
    if (size < 0) fail(PURE_ERR_ARG, "invalid buffer size %lld", size);
    c.rank.bsend_buffer().attach(buffer, static_cast<std::size_t>(size));
  });
}

template <class S>
int buffer_detach(const char* name, void* buffer_addr, S* size) {
  return call(name, [&](Call& c) {
    if (!buffer_addr || !size) fail(PURE_ERR_ARG, "null buffer address or size pointer");
    auto [base, bytes] = c.rank.bsend_buffer().detach(c.rank.p2p());
    *static_cast<void**>(buffer_addr) = base;
    *size = static_cast<S>(bytes);
  });
}

}  // namespace

extern "C" {

int pure_send(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
              PURE_Comm comm) {
  return blocking_send("pure_send", SendMode::standard, buf, count, datatype, dest, tag, comm);
}
int pure_send_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm) {
  return blocking_send("pure_send_c", SendMode::standard, buf, count, datatype, dest, tag, comm);
}
int pure_send_msg(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm) {
  return blocking_send("pure_send_msg", SendMode::standard, buf, count, datatype, dest, tag, comm);
}
int pure_ssend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm) {
  return blocking_send("pure_ssend", SendMode::synchronous, buf, count, datatype, dest, tag, comm);
}
int pure_ssend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm) {
  return blocking_send("pure_ssend_c", SendMode::synchronous, buf, count, datatype, dest, tag,
                       comm);
}
int pure_rsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm) {
  return blocking_send("pure_rsend", SendMode::ready, buf, count, datatype, dest, tag, comm);
}
int pure_rsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm) {
  return blocking_send("pure_rsend_c", SendMode::ready, buf, count, datatype, dest, tag, comm);
}

int pure_bsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm) {
  return bsend("pure_bsend", buf, count, datatype, dest, tag, comm);
}
int pure_bsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm) {
  return bsend("pure_bsend_c", buf, count, datatype, dest, tag, comm);
}

int pure_buffer_attach(void* buffer, int size) {
  return buffer_attach("pure_buffer_attach", buffer, size);
}
int pure_buffer_attach_c(void* buffer, PURE_Count size) {
  return buffer_attach("pure_buffer_attach_c", buffer, size);
}
int pure_buffer_detach(void* buffer_addr, int* size) {
  return buffer_detach("pure_buffer_detach", buffer_addr, size);
}
int pure_buffer_detach_c(void* buffer_addr, PURE_Count* size) {
  return buffer_detach("pure_buffer_detach_c", buffer_addr, size);
}

int pure_isend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_isend", SendMode::standard, buf, count, datatype, dest, tag, comm,
                          request);
}
int pure_isend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_isend_c", SendMode::standard, buf, count, datatype, dest, tag,
                          comm, request);
}
int pure_issend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_issend", SendMode::synchronous, buf, count, datatype, dest, tag, comm,
                          request);
}
int pure_issend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_issend_c", SendMode::synchronous, buf, count, datatype, dest, tag,
                          comm, request);
}
int pure_irsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_irsend", SendMode::ready, buf, count, datatype, dest, tag, comm,
                          request);
}
int pure_irsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_irsend_c", SendMode::ready, buf, count, datatype, dest, tag, comm,
                          request);
}
int pure_ibsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_ibsend", SendMode::buffered, buf, count, datatype, dest, tag, comm,
                          request);
}
int pure_ibsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request) {
  return nonblocking_send("pure_ibsend_c", SendMode::buffered, buf, count, datatype, dest, tag,
                          comm, request);
}

int pure_recv(void* buf, int count, PURE_Datatype datatype, int source, int tag, PURE_Comm comm,
              PURE_Status* status) {
  return recv("pure_recv", buf, count, datatype, source, tag, comm, status);
}
int pure_recv_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                PURE_Comm comm, PURE_Status* status) {
  return recv("pure_recv_c", buf, count, datatype, source, tag, comm, status);
}
int pure_recv_msg(void* buf, int count, PURE_Datatype datatype, int source, int tag,
                  PURE_Comm comm, PURE_Status* status) {
  return recv("pure_recv_msg", buf, count, datatype, source, tag, comm, status);
}

int pure_irecv(void* buf, int count, PURE_Datatype datatype, int source, int tag, PURE_Comm comm,
               PURE_Request* request) {
  return irecv("pure_irecv", buf, count, datatype, source, tag, comm, request);
}
int pure_irecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                 PURE_Comm comm, PURE_Request* request) {
  return irecv("pure_irecv_c", buf, count, datatype, source, tag, comm, request);
}

int pure_sendrecv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, int dest,
                  int sendtag, void* recvbuf, int recvcount, PURE_Datatype recvtype, int source,
                  int recvtag, PURE_Comm comm, PURE_Status* status) {
  return sendrecv("pure_sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}
int pure_sendrecv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                    int source, int recvtag, PURE_Comm comm, PURE_Status* status) {
  return sendrecv("pure_sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}

int pure_sendrecv_replace(void* buf, int count, PURE_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, PURE_Comm comm, PURE_Status* status) {
  return sendrecv_replace("pure_sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}
int pure_sendrecv_replace_c(void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, PURE_Comm comm,
                            PURE_Status* status) {
  return sendrecv_replace("pure_sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

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

}  // extern "C"

namespace {

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
    if (err != PURE_SUCCESS && first_error == PURE_SUCCESS) {
      first_error = err;
      why = "request " + std::to_string(i) + ": " + w;
    }
  }
  if (first_error != PURE_SUCCESS)
    throw Error(statuses ? PURE_ERR_IN_STATUS : first_error, why);
}

bool all_done(Endpoint& p2p, int count, PURE_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != PURE_REQUEST_NULL && !p2p.test(req(requests[i]))) return false;
  return true;
}

// Index of a completed request, -1 if none, PURE_UNDEFINED if all are null.
int any_done(Endpoint& p2p, int count, PURE_Request requests[]) {
  bool active = false;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == PURE_REQUEST_NULL) continue;
    active = true;
    if (p2p.test(req(requests[i]))) return i;
  }
  return active ? -1 : PURE_UNDEFINED;
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
  bool active = false;
  for (int i = 0; i < incount; ++i) {
    if (requests[i] == PURE_REQUEST_NULL) continue;
    active = true;
    if (!p2p.test(req(requests[i]))) continue;
    PURE_Status* st = statuses ? &statuses[n] : nullptr;
    std::string w;
    int err = finish(rank, &requests[i], st, &w);
    if (err != PURE_SUCCESS && first_error == PURE_SUCCESS) {
      first_error = err;
      why = "request " + std::to_string(i) + ": " + w;
    }
    indices[n++] = i;
  }
  *outcount = active ? n : PURE_UNDEFINED;
  if (first_error != PURE_SUCCESS)
    throw Error(statuses ? PURE_ERR_IN_STATUS : first_error, why);
}

}  // namespace

extern "C" {

int pure_waitall(int count, PURE_Request requests[], PURE_Status statuses[]) {
  return call("pure_waitall", [&](Call& c) {
    check_array(count, requests);
    c.errors = comm_of_first(count, requests);
    Endpoint& p2p = c.rank.p2p();
    c.rank.wait_until([&] { return all_done(p2p, count, requests); },
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
    *flag = all_done(c.rank.p2p(), count, requests);
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

int pure_request_free(PURE_Request* request) {
  return call("pure_request_free", [&](Call& c) {
    if (!request || *request == PURE_REQUEST_NULL)
      fail(PURE_ERR_REQUEST, "cannot free PURE_REQUEST_NULL");
    Request* r = req(*request);
    if (r != completed_send_request()) {
      if (r->complete())
        c.rank.free_request(r);
      else
        c.rank.p2p().detach(r);
    }
    *request = PURE_REQUEST_NULL;
  });
}

int pure_cancel(PURE_Request* request) {
  return call("pure_cancel", [&](Call& c) {
    if (!request || *request == PURE_REQUEST_NULL)
      fail(PURE_ERR_REQUEST, "cannot cancel PURE_REQUEST_NULL");
    Request* r = req(*request);
    if (r->kind != Request::Kind::recv)
      fail(PURE_ERR_REQUEST, "only receive requests can be cancelled; this is a send request");
    c.rank.p2p().cancel(r);  // a receive that already matched simply completes
  });
}

int pure_test_cancelled(const PURE_Status* status, int* flag) {
  if (!status || !flag) return PURE_ERR_ARG;
  *flag = status->pure_cancelled;
  return PURE_SUCCESS;
}

int pure_iprobe(int source, int tag, PURE_Comm comm, int* flag, PURE_Status* status) {
  return call("pure_iprobe", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    int peer = source_arg(cm, source);
    recv_tag_arg(c, tag);
    if (peer == PURE_PROC_NULL) {
      *flag = 1;
      return proc_null_status(status);
    }
    c.rank.progress(true);  // drain full queues, as pure_test does
    *flag = c.rank.p2p().iprobe(peer, cm, tag, status);
    if (!*flag) c.rank.poll_missed();
  });
}

int pure_probe(int source, int tag, PURE_Comm comm, PURE_Status* status) {
  return call("pure_probe", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    int peer = source_arg(cm, source);
    recv_tag_arg(c, tag);
    if (peer == PURE_PROC_NULL) return proc_null_status(status);
    Endpoint& p2p = c.rank.p2p();
    c.rank.wait_until([&] { return p2p.iprobe(peer, cm, tag, status); },
                      WaitSite{"pure_probe", source, tag});
  });
}

int pure_get_count(const PURE_Status* status, PURE_Datatype datatype, int* count) {
  return call("pure_get_count", [&](Call& c) {
    if (!count) fail(PURE_ERR_ARG, "null count pointer");
    const long long n = copies_received(c, status, datatype);
    *count = n > INT_MAX ? PURE_UNDEFINED : static_cast<int>(n);
  });
}
int pure_get_count_c(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count) {
  return call("pure_get_count_c", [&](Call& c) {
    if (!count) fail(PURE_ERR_ARG, "null count pointer");
    *count = copies_received(c, status, datatype);
  });
}

}  // extern "C"
