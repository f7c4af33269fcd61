// Building a rank's Comm for a new communicator, and the creations this
// layer composes its communicators of.
#pragma once

#include <memory>
#include <string>

#include "collectives/dropbox.h"
#include "comm/comm.h"
#include "composite/context.h"

namespace pure {

// This rank's share of a new communicator (collectives/dropbox.h) as its
// Comm; nullptr when it got none (context -1).
std::unique_ptr<Comm> make_comm(const NewComm& share, int world, std::string name);

// Collective over `comm`, inside the process or across processes: the
// communicator of the members with this colour, ordered by (key, rank), or
// nullptr for PURE_UNDEFINED; and a duplicate.
std::unique_ptr<Comm> split_comm(Context& cx, Comm& comm, const char* call, int color, int key,
                                 std::string name);
std::unique_ptr<Comm> dup_comm(Context& cx, Comm& comm, const char* call, std::string name);

}  // namespace pure
