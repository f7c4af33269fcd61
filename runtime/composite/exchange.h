// Exchange: one step of point-to-point messages on a hidden communicator,
// for the operations of this layer: post the step's receives and sends,
// then wait for all of them in the wait loop. Peers are world ranks.
//
// Every receive expects exactly its buffer's size, as collectives do: a
// message of another size -- the members' counts or types disagree -- is
// reported once every operation of the step completed, naming both ranks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "channels/request.h"
#include "composite/context.h"

namespace pure {

class Exchange {
 public:
  Exchange(Context& cx, const Comm& comm, const char* call) : cx_(cx), comm_(comm), call_(call) {}
  // Operations left behind by an error are cancelled (receives) or left to
  // finish in the background (sends).
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  void send(int to, const void* buf, std::size_t count, const TypeRef& type, int tag);
  void recv(int from, void* buf, std::size_t count, const TypeRef& type, int tag);
  void send_bytes(int to, const void* buf, std::size_t bytes, int tag);
  void recv_bytes(int from, void* buf, std::size_t bytes, int tag);
  // Completes every operation posted so far.
  void wait();

 private:
  Context& cx_;
  const Comm& comm_;
  const char* call_;
  std::vector<Request*> pending_;
};

// Bytes as a TypeRef (PURE_BYTE), for packed data.
TypeRef byte_ref();

}  // namespace pure
