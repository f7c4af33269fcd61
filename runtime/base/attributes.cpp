#include "base/attributes.h"

#include <algorithm>

#include "pure/pure.h"

namespace pure {

namespace {

// A copy of the keyval's callbacks: a callback may create keyvals, which
// may move the table's storage.
Keyval callbacks(KeyvalTable& keyvals, int keyval) {
  const Keyval* k = keyvals.find(keyval);
  return k ? *k : Keyval{};
}

void hold(KeyvalTable& keyvals, int keyval) {
  if (Keyval* k = keyvals.find(keyval)) ++k->uses;
}

void release(KeyvalTable& keyvals, int keyval) {
  Keyval* k = keyvals.find(keyval);
  if (!k) return;
  --k->uses;
  if (k->freed && k->uses == 0) keyvals.remove(keyval);
}

// Runs the delete callback of the value `keyval` has in `set`.
int run_delete(KeyvalTable& keyvals, const AttributeSet& set, int handle, int keyval) {
  void* const* value = set.find(keyval);
  const Keyval k = callbacks(keyvals, keyval);
  if (!value || !k.del) return PURE_SUCCESS;
  return k.del(handle, keyval, *value, k.extra_state);
}

}  // namespace

int set_attribute(KeyvalTable& keyvals, AttributeSet& set, int handle, int keyval, void* value) {
  if (set.find(keyval)) {
    if (const int err = run_delete(keyvals, set, handle, keyval)) return err;
    // The callback may have deleted or set the attribute itself.
    for (auto& e : set.entries_)
      if (e.first == keyval) {
        e.second = value;
        return PURE_SUCCESS;
      }
  }
  set.entries_.emplace_back(keyval, value);
  hold(keyvals, keyval);
  return PURE_SUCCESS;
}

int delete_attribute(KeyvalTable& keyvals, AttributeSet& set, int handle, int keyval) {
  if (!set.find(keyval)) return PURE_SUCCESS;
  if (const int err = run_delete(keyvals, set, handle, keyval)) return err;
  auto& v = set.entries_;
  auto it = std::find_if(v.begin(), v.end(), [&](const AttributeSet::Entry& e) { return e.first == keyval; });
  if (it != v.end()) {
    v.erase(it);
    release(keyvals, keyval);
  }
  return PURE_SUCCESS;
}

int copy_attributes(KeyvalTable& keyvals, const AttributeSet& from, int old_handle,
                    AttributeSet& to) {
  // A copy: a callback may change the old object's attributes.
  const std::vector<AttributeSet::Entry> entries = from.entries();
  for (const auto& [keyval, value] : entries) {
    const Keyval k = callbacks(keyvals, keyval);
    if (!k.copy) continue;
    void* out = nullptr;
    int flag = 0;
    if (const int err = k.copy(old_handle, keyval, k.extra_state, value, &out, &flag)) return err;
    if (!flag) continue;
    to.entries_.emplace_back(keyval, out);
    hold(keyvals, keyval);
  }
  return PURE_SUCCESS;
}

int delete_attributes(KeyvalTable& keyvals, AttributeSet& set, int handle) {
  while (!set.entries_.empty()) {
    const int keyval = set.entries_.back().first;
    if (const int err = delete_attribute(keyvals, set, handle, keyval)) return err;
  }
  return PURE_SUCCESS;
}

void free_keyval(KeyvalTable& keyvals, int keyval) {
  Keyval* k = keyvals.find(keyval);
  if (!k) return;
  k->freed = true;
  if (k->uses == 0) keyvals.remove(keyval);
}

}  // namespace pure
