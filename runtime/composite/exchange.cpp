#include "composite/exchange.h"

#include "base/error.h"
#include "base/handle.h"

namespace pure {

TypeRef byte_ref() {
  TypeRef t;
  t.type = Datatype::predefined(handle_index(PURE_BYTE));
  return t;
}

Exchange::~Exchange() {
  for (Request* r : pending_) {
    if (r == completed_send_request()) continue;
    if (r->kind == Request::Kind::recv && !r->complete()) cx_.p2p.cancel(r);
    if (r->complete())
      cx_.p2p.free_request(r);
    else
      cx_.p2p.detach(r);
  }
}

void Exchange::send(int to, const void* buf, std::size_t count, const TypeRef& type, int tag) {
  pending_.push_back(cx_.p2p.isend(buf, count, type, to, comm_, tag, SendMode::standard));
}

void Exchange::recv(int from, void* buf, std::size_t count, const TypeRef& type, int tag) {
  pending_.push_back(cx_.p2p.irecv(buf, count, type, from, comm_, tag));
}

void Exchange::send_bytes(int to, const void* buf, std::size_t bytes, int tag) {
  send(to, buf, bytes, byte_ref(), tag);
}

void Exchange::recv_bytes(int from, void* buf, std::size_t bytes, int tag) {
  recv(from, buf, bytes, byte_ref(), tag);
}

void Exchange::wait() {
  Endpoint& p2p = cx_.p2p;
  auto all_done = [&] {
    for (Request* r : pending_)
      if (!p2p.test(r)) return false;
    return true;
  };
  if (!all_done())
    cx_.member.wait_until(all_done, WaitSite{call_, -1, -1, comm_.spans_processes()});
  std::string error;
  for (Request* r : pending_) {
    if (r == completed_send_request()) continue;
    const std::size_t expected = r->count * r->type.type->size();
    if (r->kind == Request::Kind::recv && error.empty() &&
        (r->error != PURE_SUCCESS || r->status.pure_count != expected)) {
      const bool truncated = r->error != PURE_SUCCESS;
      const std::string sent = truncated && r->message_bytes == 0
                                   ? std::string("more")  // MPI matched it and did not say
                                   : std::to_string(truncated ? r->message_bytes
                                                              : r->status.pure_count) +
                                         " bytes";
      error = "rank " + std::to_string(r->peer) + " sent " + sent + " where rank " +
              std::to_string(cx_.world) + " expected " + std::to_string(expected) +
              " (ranks of PURE_COMM_WORLD; the members' counts and types must match)";
    }
    p2p.free_request(r);
  }
  pending_.clear();
  if (!error.empty()) fail(PURE_ERR_TRUNCATE, "%s", error.c_str());
}

}  // namespace pure
