#include "channels/send_recv.h"

namespace pure {

SendRecv::~SendRecv() {
  // Destroyed with parts running only when the rank unwinds (the job aborts).
  if (send_) p2p_.detach(send_);
  if (recv_) p2p_.detach(recv_);
}

bool SendRecv::advance(Request& r) {
  if (send_ && p2p_.test(send_)) {
    p2p_.free_request(send_);
    send_ = nullptr;
  }
  if (recv_ && p2p_.test(recv_)) {
    r.status = recv_->status;
    r.error = recv_->error;
    r.message_bytes = recv_->message_bytes;
    if (r.error != PURE_SUCCESS) why_ = describe_error(*recv_);
    p2p_.free_request(recv_);
    recv_ = nullptr;
  }
  return !send_ && !recv_;
}

void SendRecv::cancel(Request& r) {
  (void)r;
  if (send_) p2p_.cancel(send_);
  if (recv_) p2p_.cancel(recv_);
}

Request* send_recv(Endpoint& p2p, const Comm& comm, Request* send, Request* recv,
                   std::unique_ptr<char[]> staged) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->comm = &comm;
  // From PURE_PROC_NULL: the status says so, unless the receive sets another.
  r->status.MPI_SOURCE = PURE_PROC_NULL;
  r->status.MPI_TAG = PURE_ANY_TAG;
  r->op = std::make_unique<SendRecv>(p2p, send, recv, std::move(staged));
  p2p.start(r);
  return r;
}

}  // namespace pure
