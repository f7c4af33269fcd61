// Flat API: point-to-point messaging: blocking, nonblocking and persistent
// sends and receives, sendrecv, probes. Completing requests:
// completion.cpp; matched probes: matched_probe.cpp. Each call and its
// MPI-4 large-count (_c) twin share one implementation over 64-bit counts.
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "api/call.h"
#include "api/requests.h"
#include "channels/persistent.h"
#include "channels/send_recv.h"

using namespace pure;
using namespace pure::api;

namespace {

struct Message {
  Comm* comm;
  TypeRef type;
  int peer;  // world rank, PURE_ANY_SOURCE or PURE_PROC_NULL
};

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
  Request* r = c.rank.bsend_buffer().send(c.rank.p2p(), buf, static_cast<std::size_t>(count),
                                          *m.type.type, m.peer, *m.comm, tag);
  if (observed(c.rank))
    observe_send(c.rank, m.peer, *m.comm, tag, static_cast<std::size_t>(count) * m.type.type->size());
  return r;
}

int blocking_send(const char* name, SendMode mode, const void* buf, long long count,
                  PURE_Datatype datatype, int dest, int tag, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Message m = check_send(c, buf, count, datatype, dest, tag, comm);
    if (m.peer == PURE_PROC_NULL) return;
    if (observed(c.rank))
      observe_send(c.rank, m.peer, *m.comm, tag, static_cast<std::size_t>(count) * m.type.type->size());
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
    if (observed(c.rank))
      observe_send(c.rank, m.peer, *m.comm, tag, static_cast<std::size_t>(count) * m.type.type->size());
    *request = handle_of(c.rank.p2p().isend(buf, static_cast<std::size_t>(count), m.type, m.peer,
                                            *m.comm, tag, mode));
  });
}

// A persistent send or receive, inactive.
int persistent(const char* name, Request::Kind kind, SendMode mode, const void* buf,
               long long count, PURE_Datatype datatype, int peer, int tag, PURE_Comm comm,
               PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Message m = kind == Request::Kind::send ? check_send(c, buf, count, datatype, peer, tag, comm)
                                           : check_recv(c, buf, count, datatype, peer, tag, comm);
    PersistentTransfer::Args a{kind, mode, const_cast<void*>(buf), static_cast<std::size_t>(count),
                               m.type, m.peer, m.comm, tag};
    *request = handle_of(persistent_transfer(c.rank.p2p(), c.rank.bsend_buffer(), std::move(a)));
  });
}

// A blocking receive, counted and traced when `watch`: also when it ends in
// truncation, since the message was taken (and its status filled) all the same.
// A trace shows what it was posted for while it waits (a deadlock's trace
// ends there).
template <class Receive>
void observed_recv(Rank& rank, bool watch, const Message& posted, int tag, std::size_t bytes,
                   PURE_Status* st, Receive&& receive) {
  if (!watch) return receive();
  const Comm& comm = *posted.comm;
  if (trace::Buffer* traced = rank.waiter().trace())
    traced->note_message(posted.peer, comm.context(), tag, static_cast<std::int64_t>(bytes));
  try {
    receive();
  } catch (const Error& e) {
    if (e.code() == PURE_ERR_TRUNCATE) observe_recv(rank, comm, *st);
    throw;
  }
  observe_recv(rank, comm, *st);
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
    PURE_Status seen;
    const bool watch = observed(c.rank);
    PURE_Status* st = status || !watch ? status : &seen;
    observed_recv(c.rank, watch, m, tag, static_cast<std::size_t>(count) * m.type.type->size(), st, [&] {
      c.rank.p2p().recv(buf, static_cast<std::size_t>(count), m.type, m.peer, *m.comm, tag, st,
                        WaitSite{name, source, tag});
    });
  });
}

int irecv(const char* name, void* buf, long long count, PURE_Datatype datatype, int source, int tag,
          PURE_Comm comm, PURE_Request* request) {
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
    const bool watch = observed(c.rank);
    if (watch && s.peer != PURE_PROC_NULL)
      observe_send(c.rank, s.peer, *s.comm, sendtag,
                   static_cast<std::size_t>(sendcount) * s.type.type->size());
    Request* sent = s.peer == PURE_PROC_NULL
                        ? completed_send_request()
                        : p2p.isend(sendbuf, static_cast<std::size_t>(sendcount), s.type, s.peer,
                                    *s.comm, sendtag, SendMode::standard);
    PURE_Status seen;
    PURE_Status* st = status || !watch ? status : &seen;
    if (r.peer == PURE_PROC_NULL) {
      proc_null_status(status);
    } else {
      observed_recv(c.rank, watch, r, recvtag, static_cast<std::size_t>(recvcount) * r.type.type->size(), st, [&] {
        p2p.recv(recvbuf, static_cast<std::size_t>(recvcount), r.type, r.peer, *r.comm, recvtag,
                 st, WaitSite{name, source, recvtag});
      });
    }
    c.rank.wait_until([&] { return p2p.test(sent); }, WaitSite{name, dest, sendtag});
    c.rank.free_request(sent);
  });
}

int sendrecv_replace(const char* name, void* buf, long long count, PURE_Datatype datatype, int dest,
                     int sendtag, int source, int recvtag, PURE_Comm comm, PURE_Status* status) {
  return call(name, [&](Call& c) {
    Message s = check_send(c, buf, count, datatype, dest, sendtag, comm);
    Message r = check_recv(c, buf, count, datatype, source, recvtag, comm);
    // The outgoing data is packed aside first, since the receive overwrites it.
    const std::size_t bytes = static_cast<std::size_t>(count) * s.type.type->size();
    std::vector<char> staged(bytes);
    pack(buf, static_cast<std::size_t>(count), *s.type.type, 0, staged.data(), bytes);
    Endpoint& p2p = c.rank.p2p();
    TypeRef packed = c.rank.type_ref(PURE_PACKED);
    const bool watch = observed(c.rank);
    if (watch && s.peer != PURE_PROC_NULL) observe_send(c.rank, s.peer, *s.comm, sendtag, bytes);
    Request* sent = s.peer == PURE_PROC_NULL
                        ? completed_send_request()
                        : p2p.isend(staged.data(), bytes, packed, s.peer, *s.comm, sendtag,
                                    SendMode::standard);
    PURE_Status seen;
    PURE_Status* st = status || !watch ? status : &seen;
    if (r.peer == PURE_PROC_NULL) {
      proc_null_status(status);
    } else {
      observed_recv(c.rank, watch, r, recvtag, static_cast<std::size_t>(count) * r.type.type->size(), st, [&] {
        p2p.recv(buf, static_cast<std::size_t>(count), r.type, r.peer, *r.comm, recvtag, st,
                 WaitSite{name, source, recvtag});
      });
    }
    c.rank.wait_until([&] { return p2p.test(sent); },
                      WaitSite{name, dest, sendtag});
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

// Whole copies of `datatype` in the bytes of `status`; PURE_UNDEFINED when
// they are not a whole number (MPI_Get_count).
long long copies_received(Call& c, const PURE_Status* status, PURE_Datatype datatype) {
  if (!status) fail(PURE_ERR_ARG, "null status pointer");
  const Datatype& t = any_type_arg(c, datatype);
  if (t.size() == 0) return 0;
  if (status->pure_count % t.size() != 0) return PURE_UNDEFINED;
  return static_cast<long long>(status->pure_count / t.size());
}

int isendrecv(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              int dest, int sendtag, void* recvbuf, long long recvcount, PURE_Datatype recvtype,
              int source, int recvtag, PURE_Comm comm, PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Message s = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, comm);
    Message r = check_recv(c, recvbuf, recvcount, recvtype, source, recvtag, comm);
    Endpoint& p2p = c.rank.p2p();
    // The send is seen as it leaves; the receive when a wait or test
    // finishes the request (completion.cpp).
    if (s.peer != PURE_PROC_NULL && observed(c.rank))
      observe_send(c.rank, s.peer, *s.comm, sendtag,
                   static_cast<std::size_t>(sendcount) * s.type.type->size());
    Request* sent = s.peer == PURE_PROC_NULL
                        ? nullptr
                        : p2p.isend(sendbuf, static_cast<std::size_t>(sendcount), s.type, s.peer,
                                    *s.comm, sendtag, SendMode::standard);
    Request* got = r.peer == PURE_PROC_NULL
                       ? nullptr
                       : p2p.irecv(recvbuf, static_cast<std::size_t>(recvcount), r.type, r.peer,
                                   *r.comm, recvtag);
    *request = handle_of(send_recv(p2p, *s.comm, sent, got, nullptr));
  });
}

int isendrecv_replace(const char* name, void* buf, long long count, PURE_Datatype datatype,
                      int dest, int sendtag, int source, int recvtag, PURE_Comm comm,
                      PURE_Request* request) {
  return call(name, [&](Call& c) {
    if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
    Message s = check_send(c, buf, count, datatype, dest, sendtag, comm);
    Message r = check_recv(c, buf, count, datatype, source, recvtag, comm);
    // The outgoing data is packed aside first, since the receive overwrites it.
    const std::size_t bytes = static_cast<std::size_t>(count) * s.type.type->size();
    std::unique_ptr<char[]> staged(new char[bytes ? bytes : 1]);
    pack(buf, static_cast<std::size_t>(count), *s.type.type, 0, staged.get(), bytes);
    Endpoint& p2p = c.rank.p2p();
    if (s.peer != PURE_PROC_NULL && observed(c.rank))
      observe_send(c.rank, s.peer, *s.comm, sendtag, bytes);
    Request* sent = s.peer == PURE_PROC_NULL
                        ? nullptr
                        : p2p.isend(staged.get(), bytes, c.rank.type_ref(PURE_PACKED), s.peer,
                                    *s.comm, sendtag, SendMode::standard);
    Request* got = r.peer == PURE_PROC_NULL ? nullptr
                                            : p2p.irecv(buf, static_cast<std::size_t>(count),
                                                        r.type, r.peer, *r.comm, recvtag);
    *request = handle_of(send_recv(p2p, *s.comm, sent, got, std::move(staged)));
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

int pure_isendrecv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, int dest,
                   int sendtag, void* recvbuf, int recvcount, PURE_Datatype recvtype, int source,
                   int recvtag, PURE_Comm comm, PURE_Request* request) {
  return isendrecv("pure_isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                   recvcount, recvtype, source, recvtag, comm, request);
}
int pure_isendrecv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, int dest,
                     int sendtag, void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                     int source, int recvtag, PURE_Comm comm, PURE_Request* request) {
  return isendrecv("pure_isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                   recvcount, recvtype, source, recvtag, comm, request);
}

int pure_isendrecv_replace(void* buf, int count, PURE_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, PURE_Comm comm, PURE_Request* request) {
  return isendrecv_replace("pure_isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}
int pure_isendrecv_replace_c(void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, PURE_Comm comm,
                             PURE_Request* request) {
  return isendrecv_replace("pure_isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}

int pure_send_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                   PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_send_init", Request::Kind::send, SendMode::standard, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_send_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                     PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_send_init_c", Request::Kind::send, SendMode::standard, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_bsend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_bsend_init", Request::Kind::send, SendMode::buffered, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_bsend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                      PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_bsend_init_c", Request::Kind::send, SendMode::buffered, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_ssend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_ssend_init", Request::Kind::send, SendMode::synchronous, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_ssend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                      PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_ssend_init_c", Request::Kind::send, SendMode::synchronous, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_rsend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_rsend_init", Request::Kind::send, SendMode::ready, buf, count,
                    datatype, dest, tag, comm, request);
}

int pure_rsend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                      PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_rsend_init_c", Request::Kind::send, SendMode::ready, buf, count, datatype,
                    dest, tag, comm, request);
}

int pure_recv_init(void* buf, int count, PURE_Datatype datatype, int source, int tag,
                   PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_recv_init", Request::Kind::recv, SendMode::standard, buf, count,
                    datatype, source, tag, comm, request);
}

int pure_recv_init_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                     PURE_Comm comm, PURE_Request* request) {
  return persistent("pure_recv_init_c", Request::Kind::recv, SendMode::standard, buf, count,
                    datatype, source, tag, comm, request);
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
