// Handles: one rank's tables of the objects behind the flat API's integer
// handles (base/handle.h): communicators, groups, user ops, datatypes,
// matched messages, windows, attribute keys, info objects, error handlers;
// and what else a rank keeps per MPI process: datatypes' attributes and the
// error classes and codes it added. Every kind has generations, so a freed handle
// of any kind is recognised.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/attributes.h"
#include "base/handle.h"
#include "base/info.h"
#include "channels/matcher.h"
#include "channels/request.h"
#include "comm/comm.h"
#include "comm/group.h"
#include "onesided/window.h"
#include "pure/pure.h"
#include "types/datatype.h"
#include "types/ops.h"

namespace pure {

// An error handler (pure_comm_create_errhandler, pure_win_create_errhandler).
// It lives while the program holds a handle to it or an object uses it.
struct Errhandler {
  // PURE_Comm and PURE_Win are both int: one function type serves both.
  PURE_Comm_errhandler_function* fn = nullptr;
  bool window = false;  // made for windows (else for communicators)
  int handles = 0;      // handles the program holds: from create and from get
  int uses = 0;         // communicators and windows it is set on
};

// The error classes and codes the program added, per rank as MPI's are per
// process: code -> its class and text.
struct ErrorCodes {
  struct Code {
    int error_class;
    std::string text;
  };
  std::map<int, Code> added;
  int last = PURE_ERR_LASTCODE;  // the value of the PURE_LASTUSEDCODE attribute
};

class Handles {
 public:
  // Predefined: 1 PURE_COMM_WORLD, 2 PURE_COMM_SELF.
  static constexpr int kFirstComm = 3;
  // Predefined: 1 PURE_GROUP_EMPTY.
  static constexpr int kFirstGroup = 2;
  // Predefined: 1 PURE_INFO_ENV.
  static constexpr int kFirstInfo = 2;
  // Predefined: 1 PURE_ERRORS_ARE_FATAL, 2 PURE_ERRORS_RETURN, 3 PURE_ERRORS_ABORT.
  static constexpr int kFirstErrhandler = 4;

  Handles() {
    groups.set(handle_index(PURE_GROUP_EMPTY), std::make_shared<const Group>(std::vector<int>{}));
    infos.set(handle_index(PURE_INFO_ENV), Info{});
    errhandlers.set(handle_index(PURE_ERRORS_ARE_FATAL), Errhandler{});
    errhandlers.set(handle_index(PURE_ERRORS_RETURN), Errhandler{});
    errhandlers.set(handle_index(PURE_ERRORS_ABORT), Errhandler{});
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;

  HandleTable<std::unique_ptr<Comm>> comms{PURE_HANDLE_KIND_COMM, kFirstComm};
  HandleTable<GroupRef> groups{PURE_HANDLE_KIND_GROUP, kFirstGroup};
  HandleTable<UserOp> ops{PURE_HANDLE_KIND_OP, kFirstUserOp};
  // Derived datatypes; the predefined ones live in Datatype::predefined.
  HandleTable<std::shared_ptr<Datatype>> types{PURE_HANDLE_KIND_DATATYPE, kPredefinedTypes};
  // Windows (none is predefined).
  HandleTable<std::unique_ptr<onesided::Window>> wins{PURE_HANDLE_KIND_WIN, 1};
  // Names this rank gave predefined datatypes (pure_type_set_name); the
  // predefined objects themselves are shared by every rank.
  std::unordered_map<PURE_Datatype, std::string> predefined_type_names;
  // Messages taken by matched probes until received. Predefined: 1
  // PURE_MESSAGE_NO_PROC (no object behind it).
  static constexpr int kFirstMessage = 2;
  HandleTable<std::unique_ptr<Unexpected>> messages{PURE_HANDLE_KIND_MESSAGE, kFirstMessage};
  KeyvalTable keyvals{PURE_HANDLE_KIND_KEYVAL, kFirstKeyval};
  HandleTable<Info> infos{PURE_HANDLE_KIND_INFO, kFirstInfo};
  HandleTable<Errhandler> errhandlers{PURE_HANDLE_KIND_ERRHANDLER, kFirstErrhandler};
  // Datatypes' attributes, by handle (a communicator keeps its own).
  std::unordered_map<int, AttributeSet> type_attributes;
  ErrorCodes error_codes;
  int universe_size = 0;  // the value of the PURE_UNIVERSE_SIZE attribute
  // The requests pure_request_c2f numbered: number k is entry k - 1. A
  // request object freed and made again keeps its number, so the table
  // grows only with the request pool.
  std::vector<PURE_Request> fortran_requests;

  Comm* comm(PURE_Comm handle) {
    std::unique_ptr<Comm>* c = comms.find(handle);
    return c ? c->get() : nullptr;
  }

  // The datatype behind a handle (predefined or derived), with a reference
  // that keeps a derived one alive; type nullptr when the handle names none.
  TypeRef type_ref(PURE_Datatype handle) {
    TypeRef ref;
    const int predefined = predefined_type_index(handle);
    if (predefined >= 0) {
      ref.type = Datatype::predefined(predefined);
    } else if (std::shared_ptr<Datatype>* t = types.find(handle)) {
      ref.keep = *t;
      ref.type = t->get();
    }
    return ref;
  }
  const Datatype* type(PURE_Datatype handle) {
    const int predefined = predefined_type_index(handle);
    if (predefined >= 0) return Datatype::predefined(predefined);
    std::shared_ptr<Datatype>* t = types.find(handle);
    return t ? t->get() : nullptr;
  }
  // A derived datatype this rank may change (commit), or nullptr.
  Datatype* derived_type(PURE_Datatype handle) {
    std::shared_ptr<Datatype>* t = types.find(handle);
    return t ? t->get() : nullptr;
  }
};

}  // namespace pure
