// Flat API: attribute caching on communicators and datatypes (keyvals,
// set/get/delete, the predefined callbacks, MPI-1's names), with the
// predefined attributes of every communicator. The machinery is
// base/attributes.h.
#include "api/attributes.h"

#include <string>

using namespace pure;
using namespace pure::api;

namespace {

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::comm: return "communicator";
    case AttrKind::type: return "datatype";
    case AttrKind::win: return "window";
  }
  return "?";
}

const char* predefined_name(int keyval) {
  switch (keyval) {
    case PURE_TAG_UB: return "PURE_TAG_UB";
    case PURE_WTIME_IS_GLOBAL: return "PURE_WTIME_IS_GLOBAL";
    case PURE_HOST: return "PURE_HOST";
    case PURE_IO: return "PURE_IO";
    case PURE_APPNUM: return "PURE_APPNUM";
    case PURE_UNIVERSE_SIZE: return "PURE_UNIVERSE_SIZE";
    case PURE_LASTUSEDCODE: return "PURE_LASTUSEDCODE";
    default: return nullptr;
  }
}

// Whether a call may name a keyval the program freed while attributes still
// hold it: reading or deleting such an attribute may (its delete callback
// gets the keyval and may look at the attribute it deletes, as MPI lets a
// freed key live until its last attribute goes), setting one may not.
enum class FreedKeyval { refused, allowed };

// A keyval the program may set, get or delete on an object of `kind`.
void keyval_arg(Call& c, int keyval, AttrKind kind, FreedKeyval freed = FreedKeyval::refused) {
  if (keyval == PURE_KEYVAL_INVALID)
    fail(PURE_ERR_KEYVAL, "PURE_KEYVAL_INVALID is not a valid keyval");
  if (const char* name = predefined_name(keyval))
    fail(PURE_ERR_KEYVAL, "%s is a predefined attribute: it cannot be set or deleted", name);
  KeyvalTable& table = c.rank.handles().keyvals;
  const Keyval* k = table.find(keyval);
  if (!k) handle_error(PURE_ERR_KEYVAL, "keyval", table.state(keyval), keyval);
  if (k->freed && freed == FreedKeyval::refused)
    fail(PURE_ERR_KEYVAL, "keyval handle 0x%x was freed (attributes still hold it, so they "
                          "can be read and deleted, but no attribute can be set with it)",
         static_cast<unsigned>(keyval));
  if (k->kind != kind)
    fail(PURE_ERR_KEYVAL, "keyval 0x%x is a %s keyval; this call needs a %s keyval",
         static_cast<unsigned>(keyval), kind_name(k->kind), kind_name(kind));
}

int create_keyval(const char* name, AttrKind kind, AttrCopyFn copy, AttrDeleteFn del,
                  int* keyval, void* extra_state) {
  return call(name, [&](Call& c) {
    if (!keyval) fail(PURE_ERR_ARG, "null keyval pointer");
    Keyval k;
    k.kind = kind;
    k.copy = copy;
    k.del = del;
    k.extra_state = extra_state;
    *keyval = c.rank.handles().keyvals.add(k);
  });
}

int free_keyval_call(const char* name, AttrKind kind, int* keyval) {
  return call(name, [&](Call& c) {
    if (!keyval) fail(PURE_ERR_ARG, "null keyval pointer");
    keyval_arg(c, *keyval, kind);
    free_keyval(c.rank.handles().keyvals, *keyval);
    *keyval = PURE_KEYVAL_INVALID;
  });
}

// A callback's failure, thrown with its own code.
void callback_result(int err, const char* what, int keyval) {
  if (err != PURE_SUCCESS)
    throw Error(err, std::string("the ") + what + " callback of keyval " +
                         std::to_string(keyval) + " returned error " + std::to_string(err));
}

// ---- communicators ----

int comm_set(const char* name, PURE_Comm comm, int keyval, void* value) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    keyval_arg(c, keyval, AttrKind::comm);
    callback_result(set_attribute(c.rank.handles().keyvals, cm.attributes(), comm, keyval, value),
                    "delete", keyval);
  });
}

int comm_get(const char* name, PURE_Comm comm, int keyval, void* value, int* flag) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!value || !flag) fail(PURE_ERR_ARG, "null attribute or flag pointer");
    // The predefined attributes: a pointer to the int, as MPI gives them.
    static const int wtime_is_global = 1;
    static const int host = PURE_PROC_NULL;
    static const int io = PURE_ANY_SOURCE;
    static const int appnum = 0;
    Handles& h = c.rank.handles();
    const int* predefined = nullptr;
    switch (keyval) {
      case PURE_TAG_UB: predefined = &c.rank.process().tag_ub(); break;  // lives as long as the job
      case PURE_WTIME_IS_GLOBAL: predefined = &wtime_is_global; break;
      case PURE_HOST: predefined = &host; break;
      case PURE_IO: predefined = &io; break;
      case PURE_APPNUM: predefined = &appnum; break;
      case PURE_UNIVERSE_SIZE: predefined = &h.universe_size; break;
      case PURE_LASTUSEDCODE: predefined = &h.error_codes.last; break;
      default: break;
    }
    if (predefined) {
      *static_cast<const int**>(value) = predefined;
      *flag = 1;
      return;
    }
    keyval_arg(c, keyval, AttrKind::comm, FreedKeyval::allowed);
    void* const* v = cm.attributes().find(keyval);
    *flag = v != nullptr;
    if (v) *static_cast<void**>(value) = *v;
  });
}

int comm_delete(const char* name, PURE_Comm comm, int keyval) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    keyval_arg(c, keyval, AttrKind::comm, FreedKeyval::allowed);
    callback_result(delete_attribute(c.rank.handles().keyvals, cm.attributes(), comm, keyval),
                    "delete", keyval);
  });
}

}  // namespace

namespace pure::api {

void copy_type_attributes(Call& c, PURE_Datatype old, PURE_Datatype* copy) {
  Handles& h = c.rank.handles();
  auto it = h.type_attributes.find(old);
  if (it == h.type_attributes.end()) return;
  const AttributeSet from = it->second;  // the map may grow below
  AttributeSet to;
  const int err = copy_attributes(h.keyvals, from, old, to);
  if (err != PURE_SUCCESS) {
    delete_attributes(h.keyvals, to, *copy);
    h.types.remove(*copy);
    *copy = PURE_DATATYPE_NULL;
    callback_result(err, "copy", 0);
  }
  if (!to.empty()) h.type_attributes[*copy] = std::move(to);
}

void delete_type_attributes(Call& c, PURE_Datatype type) {
  Handles& h = c.rank.handles();
  auto it = h.type_attributes.find(type);
  if (it == h.type_attributes.end()) return;
  // Deleted in place: a callback may look at the attributes left.
  const int err = delete_attributes(h.keyvals, h.type_attributes[type], type);
  callback_result(err, "delete", 0);
  h.type_attributes.erase(type);
}

}  // namespace pure::api

extern "C" {

// ---- the predefined callbacks ----

int pure_comm_null_copy_fn(PURE_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return PURE_SUCCESS;
}
int pure_comm_dup_fn(PURE_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return PURE_SUCCESS;
}
int pure_comm_null_delete_fn(PURE_Comm, int, void*, void*) { return PURE_SUCCESS; }
int pure_type_null_copy_fn(PURE_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return PURE_SUCCESS;
}
int pure_type_dup_fn(PURE_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return PURE_SUCCESS;
}
int pure_type_null_delete_fn(PURE_Datatype, int, void*, void*) { return PURE_SUCCESS; }

// ---- communicators ----

int pure_comm_create_keyval(PURE_Comm_copy_attr_function* comm_copy_attr_fn,
                            PURE_Comm_delete_attr_function* comm_delete_attr_fn,
                            int* comm_keyval, void* extra_state) {
  return create_keyval("pure_comm_create_keyval", AttrKind::comm, comm_copy_attr_fn,
                       comm_delete_attr_fn, comm_keyval, extra_state);
}
int pure_comm_free_keyval(int* comm_keyval) {
  return free_keyval_call("pure_comm_free_keyval", AttrKind::comm, comm_keyval);
}
int pure_comm_set_attr(PURE_Comm comm, int comm_keyval, void* attribute_val) {
  return comm_set("pure_comm_set_attr", comm, comm_keyval, attribute_val);
}
int pure_comm_get_attr(PURE_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return comm_get("pure_comm_get_attr", comm, comm_keyval, attribute_val, flag);
}
int pure_comm_delete_attr(PURE_Comm comm, int comm_keyval) {
  return comm_delete("pure_comm_delete_attr", comm, comm_keyval);
}

int pure_keyval_create(PURE_Copy_function* copy_fn, PURE_Delete_function* delete_fn, int* keyval,
                       void* extra_state) {
  return create_keyval("pure_keyval_create", AttrKind::comm, copy_fn, delete_fn, keyval,
                       extra_state);
}
int pure_keyval_free(int* keyval) {
  return free_keyval_call("pure_keyval_free", AttrKind::comm, keyval);
}
int pure_attr_put(PURE_Comm comm, int keyval, void* attribute_val) {
  return comm_set("pure_attr_put", comm, keyval, attribute_val);
}
int pure_attr_get(PURE_Comm comm, int keyval, void* attribute_val, int* flag) {
  return comm_get("pure_attr_get", comm, keyval, attribute_val, flag);
}
int pure_attr_delete(PURE_Comm comm, int keyval) {
  return comm_delete("pure_attr_delete", comm, keyval);
}

// ---- datatypes ----

int pure_type_create_keyval(PURE_Type_copy_attr_function* type_copy_attr_fn,
                            PURE_Type_delete_attr_function* type_delete_attr_fn,
                            int* type_keyval, void* extra_state) {
  return create_keyval("pure_type_create_keyval", AttrKind::type, type_copy_attr_fn,
                       type_delete_attr_fn, type_keyval, extra_state);
}
int pure_type_free_keyval(int* type_keyval) {
  return free_keyval_call("pure_type_free_keyval", AttrKind::type, type_keyval);
}

int pure_type_set_attr(PURE_Datatype datatype, int type_keyval, void* attribute_val) {
  return call("pure_type_set_attr", [&](Call& c) {
    any_type_arg(c, datatype);
    keyval_arg(c, type_keyval, AttrKind::type);
    Handles& h = c.rank.handles();
    callback_result(set_attribute(h.keyvals, h.type_attributes[datatype], datatype, type_keyval,
                                  attribute_val),
                    "delete", type_keyval);
  });
}

int pure_type_get_attr(PURE_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  return call("pure_type_get_attr", [&](Call& c) {
    any_type_arg(c, datatype);
    keyval_arg(c, type_keyval, AttrKind::type, FreedKeyval::allowed);
    if (!attribute_val || !flag) fail(PURE_ERR_ARG, "null attribute or flag pointer");
    Handles& h = c.rank.handles();
    auto it = h.type_attributes.find(datatype);
    void* const* v = it == h.type_attributes.end() ? nullptr : it->second.find(type_keyval);
    *flag = v != nullptr;
    if (v) *static_cast<void**>(attribute_val) = *v;
  });
}

int pure_type_delete_attr(PURE_Datatype datatype, int type_keyval) {
  return call("pure_type_delete_attr", [&](Call& c) {
    any_type_arg(c, datatype);
    keyval_arg(c, type_keyval, AttrKind::type, FreedKeyval::allowed);
    Handles& h = c.rank.handles();
    auto it = h.type_attributes.find(datatype);
    if (it == h.type_attributes.end()) return;
    callback_result(delete_attribute(h.keyvals, it->second, datatype, type_keyval), "delete",
                    type_keyval);
  });
}

}  // extern "C"
