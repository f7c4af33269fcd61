// Flat API: windows -- creation, free, names, groups, info hints, dynamic
// attachments and shared queries. The communication and synchronisation
// calls are in rma.cpp; attributes in attributes.cpp, error handlers in
// errhandlers.cpp, as for communicators.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api/call.h"
#include "base/cpu.h"
#include "api/comms.h"
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

std::unique_ptr<onesided::Window> new_window(Call& c, Comm& comm,
                                             const onesided::CreateArgs& args) {
  if (comm.spans_processes()) {
    WindowNetMaker maker(c.rank.member(), comm);
    return onesided::create(c.rank.onesided(), args, comm.context(), comm.group_ref(),
                            comm.local().members(), &maker);
  }
  return onesided::create(c.rank.onesided(), args, comm.context(), comm.group_ref(),
                          comm.members(), nullptr);
}

}  // namespace pure::api

namespace {

// The hints a window keeps (pure.h), from `info` over `base`: the keys MPI
// defines for windows, each with its default until a valid value is given;
// other keys, and values a key does not take, are ignored, as MPI lets an
// implementation ignore hints.
Info hints_of(const Info& base, const Info* info) {
  struct Key {
    const char* name;
    const char* fallback;
    bool (*valid)(const std::string&);
  };
  static const auto boolean = [](const std::string& v) { return v == "true" || v == "false"; };
  static const auto ordering = [](const std::string& v) {
    if (v == "none") return true;
    std::size_t at = 0;
    while (at <= v.size()) {
      const std::size_t comma = std::min(v.find(',', at), v.size());
      const std::string part = v.substr(at, comma - at);
      if (part != "rar" && part != "raw" && part != "war" && part != "waw") return false;
      at = comma + 1;
    }
    return true;
  };
  static const auto ops = [](const std::string& v) {
    return v == "same_op" || v == "same_op_no_op";
  };
  static const Key kKeys[] = {{"no_locks", "false", boolean},
                              {"accumulate_ordering", "rar,raw,war,waw", ordering},
                              {"accumulate_ops", "same_op_no_op", ops},
                              {"same_size", "false", boolean},
                              {"same_disp_unit", "false", boolean},
                              {"alloc_shared_noncontig", "false", boolean}};
  Info hints = base;
  for (const Key& key : kKeys) {
    if (!hints.find(key.name)) hints.set(key.name, key.fallback);
    const std::string* v = info ? info->find(key.name) : nullptr;
    if (v && key.valid(*v)) hints.set(key.name, *v);
  }
  return hints;
}

// Creates this rank's window on `comm` and returns its handle.
PURE_Win make_window(Call& c, Comm& comm, const onesided::CreateArgs& args) {
  std::unique_ptr<onesided::Window> w = new_window(c, comm, args);
  onesided::Window& window = *w;
  const PURE_Win handle = c.rank.handles().wins.add(std::move(w));
  window.set_handle(handle);
  return handle;
}

// `disp_unit` is 64-bit for the large-count (_c) forms; a window keeps an
// int one, which any real unit fits.
int create(const char* name, onesided::Flavor flavor, void* base, PURE_Aint size,
           PURE_Aint disp_unit, PURE_Info info, PURE_Comm comm, void* baseptr, PURE_Win* win) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const Info* given = info_arg(c, info, true);
    if (!win) fail(PURE_ERR_ARG, "null window pointer");
    if (size < 0) fail(PURE_ERR_SIZE, "invalid window size %td", static_cast<std::ptrdiff_t>(size));
    if (disp_unit <= 0 || disp_unit > INT_MAX)
      fail(PURE_ERR_DISP, "invalid displacement unit %td (must be > 0 and at most %d)",
           static_cast<std::ptrdiff_t>(disp_unit), INT_MAX);
    if (flavor == onesided::Flavor::create && size > 0 && !base)
      fail(PURE_ERR_BASE, "null base with a window size of %td bytes",
           static_cast<std::ptrdiff_t>(size));
    if ((flavor == onesided::Flavor::allocate || flavor == onesided::Flavor::shared) && !baseptr)
      fail(PURE_ERR_ARG, "null baseptr");
    onesided::CreateArgs args;
    args.flavor = flavor;
    args.base = base;
    args.size = size;
    args.disp_unit = static_cast<int>(disp_unit);
    args.call = name;
    *win = make_window(c, cm, args);
    c.rank.handles().wins.find(*win)->get()->set_hints(hints_of(Info{}, given));
    if (baseptr) {
      onesided::Window& w = win_arg(c, *win);
      *static_cast<void**>(baseptr) = w.base_attr();
    }
  });
}

// pure_win_shared_query and its _c twin (`Unit`: int or PURE_Aint).
template <class Unit>
int shared_query(const char* name, PURE_Win win, int rank, PURE_Aint* size, Unit* disp_unit,
                 void* baseptr) {
  return call(name, [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!size || !disp_unit || !baseptr) fail(PURE_ERR_ARG, "null size, disp_unit or baseptr");
    if (rank != PURE_PROC_NULL && (rank < 0 || rank >= w.size()))
      fail(PURE_ERR_RANK, "invalid rank %d (%s has %d ranks)", rank, w.describe().c_str(),
           w.size());
    int unit = 0;
    w.shared_query(rank, size, &unit, static_cast<void**>(baseptr), name);
    *disp_unit = unit;
  });
}

}  // namespace

extern "C" {

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

int pure_win_create_c(void* base, PURE_Aint size, PURE_Aint disp_unit, PURE_Info info,
                      PURE_Comm comm, PURE_Win* win) {
  return create("pure_win_create_c", onesided::Flavor::create, base, size, disp_unit, info, comm,
                nullptr, win);
}

int pure_win_allocate_c(PURE_Aint size, PURE_Aint disp_unit, PURE_Info info, PURE_Comm comm,
                        void* baseptr, PURE_Win* win) {
  return create("pure_win_allocate_c", onesided::Flavor::allocate, nullptr, size, disp_unit,
                info, comm, baseptr, win);
}

int pure_win_allocate_shared_c(PURE_Aint size, PURE_Aint disp_unit, PURE_Info info,
                               PURE_Comm comm, void* baseptr, PURE_Win* win) {
  return create("pure_win_allocate_shared_c", onesided::Flavor::shared, nullptr, size, disp_unit,
                info, comm, baseptr, win);
}

int pure_win_create_dynamic(PURE_Info info, PURE_Comm comm, PURE_Win* win) {
  return create("pure_win_create_dynamic", onesided::Flavor::dynamic, nullptr, 0, 1, info, comm,
                nullptr, win);
}

int pure_win_shared_query(PURE_Win win, int rank, PURE_Aint* size, int* disp_unit,
                          void* baseptr) {
  return shared_query("pure_win_shared_query", win, rank, size, disp_unit, baseptr);
}

int pure_win_shared_query_c(PURE_Win win, int rank, PURE_Aint* size, PURE_Aint* disp_unit,
                            void* baseptr) {
  return shared_query("pure_win_shared_query_c", win, rank, size, disp_unit, baseptr);
}

int pure_alloc_mem(PURE_Aint size, PURE_Info info, void* baseptr) {
  return call("pure_alloc_mem", [&](Call& c) {
    info_arg(c, info, true);  // no hint changes how memory is allocated here
    if (!baseptr) fail(PURE_ERR_ARG, "null baseptr");
    if (size < 0) fail(PURE_ERR_SIZE, "invalid size %td", static_cast<std::ptrdiff_t>(size));
    void* p = nullptr;
    // One byte at least, so that every success is a pointer pure_free_mem takes.
    if (posix_memalign(&p, kCacheLine, size > 0 ? static_cast<std::size_t>(size) : 1) != 0)
      fail(PURE_ERR_NO_MEM, "cannot allocate %td bytes", static_cast<std::ptrdiff_t>(size));
    *static_cast<void**>(baseptr) = p;
  });
}

int pure_free_mem(void* base) {
  return call("pure_free_mem", [&](Call&) { std::free(base); });
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
    // The attributes' delete callbacks first, while the window is whole
    // (MPI: at free); a failure leaves the window as it was.
    w.check_free("pure_win_free");
    const int err = delete_attributes(c.rank.handles().keyvals, w.attributes(), *win);
    if (err != PURE_SUCCESS)
      throw Error(err, "an attribute delete callback of " + w.describe() + " returned error " +
                           std::to_string(err) + "; the window was not freed");
    w.free("pure_win_free");
    drop_errhandler(c.rank, w.errhandler());
    c.window = nullptr;  // the window is about to go
    c.rank.handles().wins.remove(*win);
    *win = PURE_WIN_NULL;
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

int pure_win_set_info(PURE_Win win, PURE_Info info) {
  return call("pure_win_set_info", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    const Info* given = info_arg(c, info, false);
    w.set_hints(hints_of(w.hints(), given));
  });
}

int pure_win_get_info(PURE_Win win, PURE_Info* info_used) {
  return call("pure_win_get_info", [&](Call& c) {
    onesided::Window& w = win_arg(c, win);
    if (!info_used) fail(PURE_ERR_ARG, "null info pointer");
    *info_used = c.rank.handles().infos.add(w.hints());
  });
}

}  // extern "C"
