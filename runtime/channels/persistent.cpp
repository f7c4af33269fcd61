#include "channels/persistent.h"

namespace pure {

PersistentTransfer::~PersistentTransfer() {
  // Freed while running only when the rank unwinds (the job aborts).
  if (inner_) p2p_.detach(inner_);
}

void PersistentTransfer::start(Request& r) {
  why_.clear();
  r.status = PURE_Status{};
  r.error = PURE_SUCCESS;
  if (args_.peer == PURE_PROC_NULL) return;
  if (args_.kind == Request::Kind::recv) {
    inner_ = p2p_.irecv(args_.buf, args_.count, args_.type, args_.peer, *args_.comm, args_.tag);
  } else if (args_.mode == SendMode::buffered) {
    // The data is in the attached buffer once this returns: the send is
    // complete for the user, and the buffer tracks the rest.
    bsend_.send(p2p_, args_.buf, args_.count, *args_.type.type, args_.peer, *args_.comm, args_.tag);
  } else {
    inner_ = p2p_.isend(args_.buf, args_.count, args_.type, args_.peer, *args_.comm, args_.tag,
                        args_.mode);
  }
}

bool PersistentTransfer::advance(Request& r) {
  if (!inner_) {
    // PURE_PROC_NULL or a buffered send: done at start.
    r.status = PURE_Status{};
    r.status.MPI_SOURCE = args_.peer == PURE_PROC_NULL && args_.kind == Request::Kind::recv
                              ? PURE_PROC_NULL
                              : PURE_ANY_SOURCE;
    r.status.MPI_TAG = PURE_ANY_TAG;
    return true;
  }
  if (!p2p_.test(inner_)) return false;
  r.status = inner_->status;
  r.error = inner_->error;
  r.message_bytes = inner_->message_bytes;
  if (args_.kind == Request::Kind::send) {
    // A send's status says only whether it was cancelled.
    const int cancelled = inner_->status.pure_cancelled;
    r.status = PURE_Status{};
    r.status.MPI_SOURCE = PURE_ANY_SOURCE;
    r.status.MPI_TAG = PURE_ANY_TAG;
    r.status.pure_cancelled = cancelled;
  }
  if (r.error != PURE_SUCCESS) why_ = describe_error(*inner_);
  p2p_.free_request(inner_);
  inner_ = nullptr;
  return true;
}

void PersistentTransfer::cancel(Request& r) {
  (void)r;
  if (inner_) p2p_.cancel(inner_);
}

bool PersistentTransfer::release_running(Request& r) {
  (void)r;
  if (inner_) p2p_.detach(inner_);
  inner_ = nullptr;
  return true;
}

Request* persistent_transfer(Endpoint& p2p, BsendBuffer& bsend, PersistentTransfer::Args args) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->persistent = true;
  r->state = Request::State::inactive;
  r->comm = args.comm;
  r->peer = args.peer;
  r->tag = args.tag;
  r->op = std::make_unique<PersistentTransfer>(p2p, bsend, std::move(args));
  return r;
}

}  // namespace pure
