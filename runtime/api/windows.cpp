// Flat API: windows -- creation, free, attributes, names, groups, error
// handlers, dynamic attachments and shared queries. The communication and
// synchronisation calls are in rma.cpp.
#include <algorithm>
#include <cstring>
#include <string>

#include "api/call.h"
#include "api/windows.h"
#include "net/window_net.h"
#include "onesided/create.h"

using namespace pure;
using namespace pure::api;

namespace pure::api {

onesided::Window& win_arg(Call& c, PURE_Win handle) {
  if (handle == PURE_WIN_NULL) fail(PURE_ERR_WIN, "PURE_WIN_NULL is not a valid window");
  auto& table = c.rank.handles().wins;
  std::unique_ptr<onesided::Window>* w = table.find(handle);
  if (!w) handle_error(PURE_ERR_WIN, "window", table.state(handle), handle);
  c.window = w->get();
  return **w;
}

}  // namespace pure::api

namespace {

void null_info_arg(PURE_Info info) {
  if (info != PURE_INFO_NULL)
    fail(PURE_ERR_ARG,
         "invalid info 0x%x: windows take no info objects yet, pass PURE_INFO_NULL (every "
         "info key keeps its default)",
         static_cast<unsigned>(info));
}

// Creates this rank's window on `comm` and returns its handle.
PURE_Win make_window(Call& c, Comm& comm, const onesided::CreateArgs& args) {
  std::unique_ptr<onesided::Window> w;
  if (comm.spans_processes()) {
    WindowNetMaker maker(c.rank.member(), comm);
    w = onesided::create(c.rank.onesided(), args, comm.context(), comm.group_ref(),
                         comm.local().members(), &maker);
  } else {
    w = onesided::create(c.rank.onesided(), args, comm.context(), comm.group_ref(),
                         comm.members(), nullptr);
  }
  onesided::Window& window = *w;
  const PURE_Win handle = c.rank.handles().wins.add(std::move(w));
  window.set_handle(handle);
  return handle;
}

int create(const char* name, onesided::Flavor flavor, void* base, PURE_Aint size, int disp_unit,
           PURE_Info info, PURE_Comm comm, void* baseptr, PURE_Win* win) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    null_info_arg(info);
    if (!win) fail(PURE_ERR_ARG, "null window pointer");
    if (size < 0) fail(PURE_ERR_SIZE, "invalid window size %td", static_cast<std::ptrdiff_t>(size));
    if (disp_unit <= 0)
      fail(PURE_ERR_DISP, "invalid displacement unit %d (must be > 0)", disp_unit);
    if (flavor == onesided::Flavor::create && size > 0 && !base)
      fail(PURE_ERR_BASE, "null base with a window size of %td bytes",
           static_cast<std::ptrdiff_t>(size));
    if ((flavor == onesided::Flavor::allocate || flavor == onesided::Flavor::shared) && !baseptr)
      fail(PURE_ERR_ARG, "null baseptr");
    onesided::CreateArgs args;
    args.flavor = flavor;
    args.base = base;
    args.size = size;
    args.disp_unit = disp_unit;
    args.call = name;
    *win = make_window(c, cm, args);
    if (baseptr) {
      onesided::Window& w = win_arg(c, *win);
      *static_cast<void**>(baseptr) = w.base_attr();
    }
  });
}

}  // namespace

extern "C" {

PURE_Aint pure_aint_add(PURE_Aint base, PURE_Aint disp) {
  return static_cast<PURE_Aint>(static_cast<std::uintptr_t>(base) +
                                static_cast<std::uintptr_t>(disp));
}

PURE_Aint pure_aint_diff(PURE_Aint addr1, PURE_Aint addr2) {
  return static_cast<PURE_Aint>(static_cast<std::uintptr_t>(addr1) -
                                static_cast<std::uintptr_t>(addr2));
}

int pure_win_create(void* base, PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                    PURE_Win* win) {
  return create("pure_win_create", onesided::Flavor::create, base, size, disp_unit, info, comm,
                nullptr, win);
}

int pure_win_allocate(PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                      void* baseptr, PURE_Win* win) {
  return create("pure_win_allocate", onesided::Flavor::allocate, nullptr, size, disp_unit, info,
                comm, baseptr, win);
}

int pure_win_allocate_shared(PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                             void* baseptr, PURE_Win* win) {
  return create("pure_win_allocate_shared", onesided::Flavor::shared, nullptr, size, disp_unit,
                info, comm, baseptr, win);
}

int pure_win_create_dynamic(PURE_Info info, PURE_Comm comm, PURE_Win* win) {
  return create("pure_win_create_dynamic", onesided::Flavor::dynamic, nullptr, 0, 1, info, comm,
                nullptr, win);
}

int pure_win_shared_query(PURE_Win win, int rank, PURE_Aint* size, int* disp_unit,
                          void* baseptr) {
  return call("pure_win_shared_query", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!size || !disp_unit || !baseptr) fail(PURE_ERR_ARG, "null size, disp_unit or baseptr");
    if (rank != PURE_PROC_NULL && (rank < 0 || rank >= w.size()))
      fail(PURE_ERR_RANK, "invalid rank %d (%s has %d ranks)", rank, w.describe().c_str(),
           w.size());
    w.shared_query(rank, size, disp_unit, static_cast<void**>(baseptr), "pure_win_shared_query");
  });
}

int pure_win_attach(PURE_Win win, void* base, PURE_Aint size) {
  return call("pure_win_attach", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!base && size > 0) fail(PURE_ERR_BASE, "null base");
    w.attach(base, size, "pure_win_attach");
  });
}

int pure_win_detach(PURE_Win win, const void* base) {
  return call("pure_win_detach", [&](Call& c) {
    win_arg(c, win).detach(base, "pure_win_detach");
  });
}

int pure_win_free(PURE_Win* win) {
  return collective("pure_win_free", [&](Call& c) {
    if (!win) fail(PURE_ERR_ARG, "null window pointer");
    onesided::Window& w = win_arg(c, *win);
    w.free("pure_win_free");
    c.window = nullptr;  // the window is about to go
    c.rank.handles().wins.remove(*win);
    *win = PURE_WIN_NULL;
  });
}

int pure_win_get_attr(PURE_Win win, int win_keyval, void* attribute_val, int* flag) {
  return call("pure_win_get_attr", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!attribute_val || !flag) fail(PURE_ERR_ARG, "null attribute or flag pointer");
    // As in MPI: the base itself, and pointers to the other values, which
    // live as long as the window.
    *flag = 1;
    switch (win_keyval) {
      case PURE_WIN_BASE: *static_cast<void**>(attribute_val) = w.base_attr(); break;
      case PURE_WIN_SIZE: *static_cast<const PURE_Aint**>(attribute_val) = &w.size_attr(); break;
      case PURE_WIN_DISP_UNIT: *static_cast<const int**>(attribute_val) = &w.disp_unit_attr(); break;
      case PURE_WIN_CREATE_FLAVOR: *static_cast<const int**>(attribute_val) = &w.flavor_attr(); break;
      case PURE_WIN_MODEL: *static_cast<const int**>(attribute_val) = &w.model_attr(); break;
      default: *flag = 0; break;
    }
  });
}

int pure_win_get_group(PURE_Win win, PURE_Group* group) {
  return call("pure_win_get_group", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!group) fail(PURE_ERR_ARG, "null group pointer");
    *group = add_group(c.rank, w.group());
  });
}

int pure_win_set_name(PURE_Win win, const char* win_name) {
  return call("pure_win_set_name", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!win_name) fail(PURE_ERR_ARG, "null name");
    w.set_name(std::string(win_name, strnlen(win_name, PURE_MAX_OBJECT_NAME - 1)));
  });
}

int pure_win_get_name(PURE_Win win, char* win_name, int* resultlen) {
  return call("pure_win_get_name", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!win_name || !resultlen) fail(PURE_ERR_ARG, "null name or length pointer");
    const std::string& name = w.name();
    const std::size_t n = std::min<std::size_t>(name.size(), PURE_MAX_OBJECT_NAME - 1);
    std::memcpy(win_name, name.data(), n);
    win_name[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int pure_win_set_errhandler(PURE_Win win, PURE_Errhandler errhandler) {
  return call("pure_win_set_errhandler", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (errhandler != PURE_ERRORS_ARE_FATAL && errhandler != PURE_ERRORS_RETURN)
      fail(PURE_ERR_ARG, "invalid error handler 0x%x", static_cast<unsigned>(errhandler));
    w.set_errhandler(errhandler);
  });
}

int pure_win_get_errhandler(PURE_Win win, PURE_Errhandler* errhandler) {
  return call("pure_win_get_errhandler", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!errhandler) fail(PURE_ERR_ARG, "null errhandler pointer");
    *errhandler = w.errhandler();
  });
}

}  // extern "C"
