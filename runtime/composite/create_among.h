// Creating a communicator collectively over its members alone, with no
// collective over a parent to meet in: MPI_Comm_create_group, and the
// bridge of an intercommunicator, whose two groups share no communicator.
//
// The first member names the creation: an id unique in the job (its world
// rank and a number from its process's Creations), sent to every other
// member on the runtime's own world communicator with the caller's tag,
// together with a fingerprint of the member list, so that members that
// disagree on the group fail instead of meeting the wrong creation.
//
// The first member also places the creation in the job's order of
// creations by members alone: every member sends it its clock (the order
// of its own last creation) and the creation's order is one past the
// largest, so each rank's creations are ordered as it makes them (a
// Lamport clock). The MPI side's tag grows with that order, because MPI
// libraries run a process's concurrent communicator creations lowest tag
// first: with tags in no particular order, a process could hold back the
// creation that a member in another process is blocked in, while running
// one that member joins only after it (a hang seen with Open MPI). With
// the order, the lowest creation under way has all its members in it.
//
// The
// members in each process then meet in its Creations by that id (context,
// Dropbox); when they span processes, the first member in each process
// makes the MPI side (net/hierarchical.h, create_among) while the others
// wait for it in a bcast on their local view, which also carries its
// failure, if any, to them.
#pragma once

#include "collectives/dropbox.h"
#include "composite/context.h"

namespace pure {

// This rank's share of the new communicator of `members` (world ranks in
// new rank order, the caller among them). Messages between members use
// `tag` on the service communicator: creations that involve the same
// first member and another member at once must use different tags, as MPI
// asks of MPI_Comm_create_group.
NewComm create_among(Context& cx, const GroupRef& members, int tag, const char* call);

}  // namespace pure
