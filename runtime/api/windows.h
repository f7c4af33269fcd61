// What the flat API's window calls share (windows.cpp, rma.cpp), and what
// finalize asks of the PGAS calls (pgas.cpp).
#pragma once

#include <memory>

#include "api/call.h"
#include "onesided/create.h"
#include "onesided/window.h"

namespace pure::api {

// The window behind a handle; its error handler applies to the call from
// now on.
onesided::Window& win_arg(Call& c, PURE_Win handle);

// This rank's Window of a new window on `comm` (collective over it), with
// the MPI side when `comm` spans processes; no handle yet.
std::unique_ptr<onesided::Window> new_window(Call& c, Comm& comm,
                                             const onesided::CreateArgs& args);

// At finalize, before its barrier: this rank's active messages are handled
// (pure_am_quiet). Handlers this rank runs afterwards (while it waits in the
// barrier) may still send requests; one whose target has finalized already
// is never run. Programs quiet their own traffic before finalize, as
// OpenSHMEM asks.
void finish_pgas(Call& c);

}  // namespace pure::api
