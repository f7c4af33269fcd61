// Creations: communicators created by their members alone, with no
// collective over a parent to meet in (MPI_Comm_create_group, an
// intercommunicator's bridge; composite/create_among.h). Every member
// learns the creation's id, unique in the job, from its first member; the
// members in one process then find each other's share here by that id: the
// first to arrive takes a context and makes the Dropbox of the members in
// this process, the others copy them, and the last one removes the entry.
// Any rank thread may call; one mutex, held only to look up or insert,
// never across a wait (creating a communicator is rare).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "base/peers.h"
#include "collectives/dropbox.h"

namespace pure::coll {

class Shared;

class Creations {
 public:
  struct Joined {
    NewComm share;
    // A Dropbox of the members here for the creation's own steps, so that
    // the new communicator's starts unused.
    std::shared_ptr<Dropbox> setup;
  };
  // This member's share of creation `id` of `members` (world ranks, in new
  // rank order), of which `here` live in this process. With `remote_slot`
  // the share gets a RemoteSlot and a setup Dropbox, for the MPI side of a
  // communicator that spans processes.
  Joined join(Shared& shared, std::uint64_t id, const GroupRef& members, const GroupRef& here,
              bool remote_slot);
  // A number for the next creation whose first member lives in this process.
  std::uint32_t next_number() {
    std::lock_guard<std::mutex> lock(mutex_);
    return numbers_++;
  }

 private:
  struct Pending {
    Joined joined;
    int left;  // members here that have not joined yet
  };
  std::mutex mutex_;
  std::map<std::uint64_t, Pending> pending_;
  std::uint32_t numbers_ = 0;
};

}  // namespace pure::coll
