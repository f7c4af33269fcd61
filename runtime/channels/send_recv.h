// A send and a receive behind one request (pure_isendrecv,
// pure_isendrecv_replace): complete when both are, with the receive's
// status. The Endpoint progresses both parts as any others.
#pragma once

#include <memory>
#include <string>

#include "channels/endpoint.h"
#include "channels/request.h"

namespace pure {

class SendRecv final : public Operation {
 public:
  // `send`, `recv`: the parts (nullptr: to or from PURE_PROC_NULL);
  // `staged`: the packed copy a replacing send goes out from.
  SendRecv(Endpoint& p2p, Request* send, Request* recv, std::unique_ptr<char[]> staged)
      : p2p_(p2p), send_(send), recv_(recv), staged_(std::move(staged)) {}
  ~SendRecv() override;

  bool advance(Request& r) override;
  void cancel(Request& r) override;
  bool needs_progress() const override { return false; }
  std::string error_text() const override { return why_; }

 private:
  Endpoint& p2p_;
  Request* send_;
  Request* recv_;
  std::unique_ptr<char[]> staged_;
  std::string why_;
};

// The running request of a send and a receive.
Request* send_recv(Endpoint& p2p, const Comm& comm, Request* send, Request* recv,
                   std::unique_ptr<char[]> staged);

}  // namespace pure
