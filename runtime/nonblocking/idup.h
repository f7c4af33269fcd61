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

// pure_comm_idup of an intercommunicator (composite/intercomm.h has its
// parts): three duplicates made by idup above side by side -- the bridge
// (for the new bridge), the group's own communicator, and the bridge again
// (the context of the program's messages). The returned request, on the
// bridge's schedule twin, completes once all three have, and then
// `install` gets them in that order.
using InterParts = std::function<void(const NewComm& bridge, const NewComm& group,
                                      const NewComm& messages)>;
Request* idup_inter(Endpoint& p2p, coll::Shared& shared, Comm& inter, int tag_ub,
                    InterParts install);

}  // namespace pure::nbc
