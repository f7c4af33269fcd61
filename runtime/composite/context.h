// Context: what a rank brings to the operations of this layer -- its
// point-to-point Endpoint, its collective Member, the job's Cluster (nullptr
// in a one-process job) and the runtime's own world communicator, a hidden
// copy of PURE_COMM_WORLD whose point-to-point traffic the runtime uses to
// coordinate ranks that share no other communicator, and the rank's
// creation clock (composite/create_among.h). The job builds it
// (Rank::context); the layers below see only what they need of it.
#pragma once

#include <cstdint>

#include "channels/endpoint.h"
#include "collectives/member.h"
#include "comm/comm.h"

namespace pure {

class Cluster;

struct Context {
  Endpoint& p2p;
  coll::Member& member;
  const Cluster* cluster;
  const Comm& service;
  int world;  // this rank
  // The order of this rank's last creation by members alone; only this
  // rank's thread touches it.
  std::uint32_t& creation_clock;
};

}  // namespace pure
