// Handles: one rank's tables of the objects behind the flat API's integer
// handles (base/handle.h): communicators, groups, user ops, datatypes. Every
// kind has generations, so a freed handle of any kind is recognised.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "base/handle.h"
#include "channels/request.h"
#include "comm/comm.h"
#include "comm/group.h"
#include "pure/pure.h"
#include "types/datatype.h"
#include "types/ops.h"

namespace pure {

class Handles {
 public:
  // Predefined: 1 PURE_COMM_WORLD, 2 PURE_COMM_SELF.
  static constexpr int kFirstComm = 3;
  // Predefined: 1 PURE_GROUP_EMPTY.
  static constexpr int kFirstGroup = 2;

  Handles() {
    groups.set(handle_index(PURE_GROUP_EMPTY), std::make_shared<const Group>(std::vector<int>{}));
  }
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;

  HandleTable<std::unique_ptr<Comm>> comms{PURE_HANDLE_KIND_COMM, kFirstComm};
  HandleTable<GroupRef> groups{PURE_HANDLE_KIND_GROUP, kFirstGroup};
  HandleTable<UserOp> ops{PURE_HANDLE_KIND_OP, kFirstUserOp};
  // Derived datatypes; the predefined ones live in Datatype::predefined.
  HandleTable<std::shared_ptr<Datatype>> types{PURE_HANDLE_KIND_DATATYPE, kPredefinedTypes};
  // Names this rank gave predefined datatypes (pure_type_set_name); the
  // predefined objects themselves are shared by every rank.
  std::unordered_map<PURE_Datatype, std::string> predefined_type_names;

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
