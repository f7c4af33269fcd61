// CommDup: the MPI side of a communicator duplicated without blocking
// (pure_comm_idup): made by each process's leader of a communicator that
// spans processes and advanced by polling (nonblocking/idup.cpp); the
// layout is the parent's (the members are the same). comm_dup.cpp says how
// the MPI communicators are made. No <mpi.h> here: the layers above the
// net layer see only this interface.
#pragma once

#include <memory>

#include "comm/comm.h"

namespace pure {

class CommDup {
 public:
  virtual ~CommDup() = default;
  // Advances the MPI calls; true once the new MPI side is ready.
  virtual bool test() = 0;
  // The new communicator's MPI side (its remote Part), once test() said so.
  virtual std::shared_ptr<Comm::Part> result() = 0;
};

// Starts duplicating the MPI side of `comm` (which spans processes).
std::unique_ptr<CommDup> start_comm_dup(const Comm& comm);

}  // namespace pure
