// pure_comm_idup as a schedule: one member per process (the first, the
// leader) makes the new communicator's shared pieces -- a context, a
// Dropbox, and across processes the MPI side (net/comm_dup.h), polled in
// a round of its own -- and hands every other member in its process a
// pointer to them in a message on the parent's hidden twin. Each member
// installs its communicator when its schedule completes (`install`, given
// by the flat API, which owns the handle tables).
#pragma once

#include <functional>

#include "channels/endpoint.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "comm/comm.h"

namespace pure::nbc {

Request* idup(Endpoint& p2p, coll::Shared& shared, Comm& comm, int tag_ub,
              std::function<void(const NewComm&)> install);

}  // namespace pure::nbc
