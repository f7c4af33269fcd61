// HandleTable: one rank's table of objects behind integer handles of one
// kind (communicators, groups, ops). A handle is
//   kind (top byte) | generation (bits 16..23) | index (bits 0..15).
// A freed slot is reused with the next generation, so a handle kept after
// its object was freed is recognised as stale ("was freed") instead of
// silently naming whatever took the slot (until 256 reuses of one slot).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pure {

template <class T>
class HandleTable {
 public:
  // Indices below `first_dynamic` are reserved for predefined objects.
  HandleTable(int kind, int first_dynamic) : kind_(kind), first_dynamic_(first_dynamic) {}

  // Installs a predefined object at `index` (generation 0).
  void set(int index, T value) {
    grow(index);
    Entry& e = entries_[static_cast<std::size_t>(index)];
    e.value = std::move(value);
    e.live = true;
  }

  int add(T value) {
    for (std::size_t i = static_cast<std::size_t>(first_dynamic_); i < entries_.size(); ++i) {
      if (!entries_[i].live) return install(i, std::move(value));
    }
    grow(static_cast<int>(std::max<std::size_t>(entries_.size(), first_dynamic_)));
    return install(entries_.size() - 1, std::move(value));
  }

  // The object behind a live handle, or nullptr.
  T* find(int handle) {
    Entry* e = entry(handle);
    return e && e->live && e->gen == generation(handle) ? &e->value : nullptr;
  }

  // True when `handle` has this table's kind and names a slot whose object
  // was freed (the slot may since hold a newer object).
  bool freed(int handle) {
    Entry* e = entry(handle);
    return e && (!e->live || e->gen != generation(handle)) &&
           (handle & kIndexMask) >= first_dynamic_;
  }

  // Drops the object; later finds of this handle fail.
  void remove(int handle) {
    if (T* v = find(handle)) {
      *v = T{};
      entry(handle)->live = false;
    }
  }

  static bool is_predefined(int handle, int first_dynamic) {
    return (handle & kIndexMask) < first_dynamic;
  }

 private:
  static constexpr int kIndexMask = 0xFFFF;
  struct Entry {
    T value{};
    bool live = false;
    std::uint8_t gen = 0;
  };
  static std::uint8_t generation(int handle) {
    return static_cast<std::uint8_t>((handle >> 16) & 0xFF);
  }
  Entry* entry(int handle) {
    if ((handle & ~0x00FFFFFF) != kind_) return nullptr;
    std::size_t i = static_cast<std::size_t>(handle & kIndexMask);
    return i < entries_.size() ? &entries_[i] : nullptr;
  }
  void grow(int index) {
    if (static_cast<std::size_t>(index) >= entries_.size())
      entries_.resize(static_cast<std::size_t>(index) + 1);
  }
  int install(std::size_t i, T value) {
    Entry& e = entries_[i];
    e.value = std::move(value);
    e.live = true;
    e.gen = static_cast<std::uint8_t>(e.gen + 1);
    return kind_ | (static_cast<int>(e.gen) << 16) | static_cast<int>(i);
  }

  int kind_;
  int first_dynamic_;
  std::vector<Entry> entries_;
};

}  // namespace pure
