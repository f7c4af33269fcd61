// What every flat-API call that makes or frees a communicator does besides
// the creation itself: install the new Comm under a handle with the
// parent's error handler (MPI: inherited), run the attribute copy and
// delete callbacks, and keep count of who uses a user error handler.
#pragma once

#include <memory>

#include "api/call.h"

namespace pure::api {

// The handle of this rank's new communicator (PURE_COMM_NULL for nullptr),
// with `parent`'s error handler.
PURE_Comm install(Call& c, const Comm& parent, std::unique_ptr<Comm> comm);
// MPI_Comm_dup's second half: the new communicator (`copy`, installed)
// gets `old`'s attributes through their copy callbacks, and its hints. If
// a callback fails, the new communicator is freed, *copy becomes
// PURE_COMM_NULL and the callback's error is thrown.
void copy_cached(Call& c, Comm& old, PURE_Comm* copy);
// Frees a communicator the program made: its attributes' delete callbacks
// (a failure is thrown and the communicator stays), then the rest.
void free_comm(Call& c, PURE_Comm handle);

// A communicator starts or stops using an error handler.
void use_errhandler(Rank& rank, PURE_Errhandler handler);
void drop_errhandler(Rank& rank, PURE_Errhandler handler);

}  // namespace pure::api
