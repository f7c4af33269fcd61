// What the flat API's window calls share (windows.cpp, rma.cpp).
#pragma once

#include "api/call.h"
#include "onesided/window.h"

namespace pure::api {

// The window behind a handle; its error handler applies to the call from
// now on.
onesided::Window& win_arg(Call& c, PURE_Win handle);

}  // namespace pure::api
