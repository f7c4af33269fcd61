// Attribute caching (MPI's keyvals): one machinery for every kind of object
// that caches attributes -- communicators, datatypes, and windows when they
// come. A Keyval is one rank's key, with the program's copy and delete
// callbacks; an AttributeSet is one object's attributes, in the order they
// were set. The functions below run the callbacks as MPI specifies: the
// delete callback before a value is replaced or deleted, the copy callbacks
// when the object is duplicated, every delete callback, the last set first,
// when it is freed.
//
// Callbacks are the program's code and may call back into the runtime --
// read or set attributes of the same object, free the keyval -- so nothing
// here keeps a pointer into a table across a callback.
//
// Only the owning rank's thread touches a KeyvalTable or an AttributeSet.
#pragma once

#include <utility>
#include <vector>

#include "base/handle.h"

namespace pure {

enum class AttrKind { comm, type, win };

// The callbacks of a keyval. The object's handle is an int for every kind
// (PURE_Comm, PURE_Datatype, ... are all int), so one signature serves all.
using AttrCopyFn = int (*)(int handle, int keyval, void* extra_state, void* value_in,
                           void* value_out, int* flag);
using AttrDeleteFn = int (*)(int handle, int keyval, void* value, void* extra_state);

struct Keyval {
  AttrKind kind = AttrKind::comm;
  AttrCopyFn copy = nullptr;  // nullptr: never copied
  AttrDeleteFn del = nullptr;  // nullptr: nothing to call
  void* extra_state = nullptr;
  int uses = 0;        // attributes that hold it
  bool freed = false;  // the program freed its handle; it lives while used
};

// The keyvals of one rank. Predefined keyvals (the attributes MPI defines,
// pure.h's PURE_TAG_UB ...) are below kFirstKeyval and live in no table.
constexpr int kFirstKeyval = 8;
using KeyvalTable = HandleTable<Keyval>;

class AttributeSet {
 public:
  using Entry = std::pair<int, void*>;  // keyval, value

  // The value of `keyval`, or nullptr when the object has none.
  void* const* find(int keyval) const {
    for (const Entry& e : entries_)
      if (e.first == keyval) return &e.second;
    return nullptr;
  }
  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  friend int set_attribute(KeyvalTable&, AttributeSet&, int, int, void*);
  friend int delete_attribute(KeyvalTable&, AttributeSet&, int, int);
  friend int copy_attributes(KeyvalTable&, const AttributeSet&, int, AttributeSet&);
  friend int delete_attributes(KeyvalTable&, AttributeSet&, int);
  std::vector<Entry> entries_;
};

// Each returns PURE_SUCCESS or the error a callback returned. `keyval` is a
// live keyval of the right kind (the caller checked); `handle` is the
// object's, passed to the callbacks.
//
// Sets the attribute: an old value is deleted first (its delete callback
// runs; if that fails, the old value stays and its error is returned).
int set_attribute(KeyvalTable& keyvals, AttributeSet& set, int handle, int keyval, void* value);
// Deletes the attribute (nothing when absent); if the callback fails, the
// attribute stays.
int delete_attribute(KeyvalTable& keyvals, AttributeSet& set, int handle, int keyval);
// Duplication: `to` gets the attributes of `from` (object `old_handle`)
// whose copy callbacks ask for it, in the order they were set. On a
// callback's error, `to` holds what was copied so far and the error is
// returned: the caller frees the new object as the program would
// (delete_attributes), which runs their delete callbacks.
int copy_attributes(KeyvalTable& keyvals, const AttributeSet& from, int old_handle,
                    AttributeSet& to);
// Freeing: every attribute is deleted, the last set first; stops at the
// first callback that fails (that attribute and those set before it stay).
int delete_attributes(KeyvalTable& keyvals, AttributeSet& set, int handle);

// The program frees a keyval: it goes once no attribute holds it.
void free_keyval(KeyvalTable& keyvals, int keyval);

}  // namespace pure
