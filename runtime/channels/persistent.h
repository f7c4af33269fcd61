// A persistent send or receive (pure_send_init, pure_recv_init, ...): the
// arguments are bound once; each pure_start runs one ordinary send or
// receive of the Endpoint with them (the inner request), whose completion
// completes the persistent request. The Endpoint progresses the inner
// request as any other, so the persistent one needs no progress of its
// own; freeing it while active hands the inner one to the Endpoint's
// detached requests.
#pragma once

#include <cstddef>

#include "channels/bsend_buffer.h"
#include "channels/endpoint.h"
#include "channels/request.h"

namespace pure {

class PersistentTransfer final : public Operation {
 public:
  struct Args {
    Request::Kind kind;  // send or recv
    SendMode mode;       // sends
    void* buf;
    std::size_t count;
    TypeRef type;
    int peer;  // world rank, PURE_ANY_SOURCE (receives) or PURE_PROC_NULL
    const Comm* comm;
    int tag;
  };
  // `bsend`: the rank's attached buffer, for buffered sends.
  PersistentTransfer(Endpoint& p2p, BsendBuffer& bsend, Args args)
      : p2p_(p2p), bsend_(bsend), args_(std::move(args)) {}
  ~PersistentTransfer() override;

  void start(Request& r) override;
  bool advance(Request& r) override;
  void cancel(Request& r) override;
  bool needs_progress() const override { return false; }
  bool release_running(Request& r) override;
  std::string error_text() const override { return why_; }
  // The bound arguments (the API observes a send at each start with them).
  const Args& args() const { return args_; }

 private:
  Endpoint& p2p_;
  BsendBuffer& bsend_;
  Args args_;
  Request* inner_ = nullptr;  // the running send or receive
  std::string why_;
};

// A persistent send or receive request, inactive.
Request* persistent_transfer(Endpoint& p2p, BsendBuffer& bsend, PersistentTransfer::Args args);

}  // namespace pure
