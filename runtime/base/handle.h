// Handles: the integers behind PURE_Comm, PURE_Datatype, PURE_Op, PURE_Group
// and PURE_Errhandler. One layout for every kind (pure.h names the kinds):
//
//   kind (bits 24..31) | generation (bits 16..23) | index (bits 0..15)
//
// Predefined objects have generation 0 and the indices below a table's
// first dynamic index; objects created at run time get the others. A freed
// slot is reused with the next generation, and freed slots are reused
// oldest first, so a handle kept after its object was freed is recognised
// as stale instead of silently naming whatever took the slot (until one
// slot has been reused 256 times while the stale handle was kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pure {

constexpr int kHandleKindMask = static_cast<int>(0xFF000000u);
constexpr int kHandleIndexMask = 0xFFFF;

constexpr int handle_kind(int handle) { return handle & kHandleKindMask; }
constexpr int handle_index(int handle) { return handle & kHandleIndexMask; }
constexpr unsigned handle_generation(int handle) {
  return static_cast<unsigned>(handle >> 16) & 0xFFu;
}
// The handle of a predefined object of `kind` at `index`.
constexpr int predefined_handle(int kind, int index) { return kind | index; }
// The index of a predefined handle of `kind`, or -1 when `handle` is not one
// (another kind, or an object created at run time) or is at or above `limit`.
constexpr int predefined_index(int handle, int kind, int limit) {
  return handle_kind(handle) == kind && (handle & 0x00FF0000) == 0 && handle_index(handle) < limit
             ? handle_index(handle)
             : -1;
}

enum class HandleState { live, freed, invalid };

// One rank's table of objects of one kind. Only the owning rank's thread
// touches it.
template <class T>
class HandleTable {
 public:
  // Indices below `first_dynamic` are reserved for predefined objects.
  HandleTable(int kind, int first_dynamic) : kind_(kind), first_dynamic_(first_dynamic) {}

  int kind() const { return kind_; }

  // Installs a predefined object at `index` (generation 0).
  void set(int index, T value) {
    if (static_cast<std::size_t>(index) >= entries_.size())
      entries_.resize(static_cast<std::size_t>(index) + 1);
    Entry& e = entries_[static_cast<std::size_t>(index)];
    e.value = std::move(value);
    e.live = true;
  }

  // Stores `value` under a new handle: the slot freed longest ago, or a new one.
  int add(T value) {
    std::size_t i;
    if (free_head_ != kNone) {
      i = free_head_;
      free_head_ = entries_[i].next_free;
      if (free_head_ == kNone) free_tail_ = kNone;
    } else {
      if (entries_.size() < static_cast<std::size_t>(first_dynamic_))
        entries_.resize(static_cast<std::size_t>(first_dynamic_));
      i = entries_.size();
      entries_.emplace_back();
      entries_[i].gen = 0;
    }
    Entry& e = entries_[i];
    e.value = std::move(value);
    e.live = true;
    e.gen = static_cast<std::uint8_t>(e.gen + 1);
    return kind_ | (static_cast<int>(e.gen) << 16) | static_cast<int>(i);
  }

  // The object behind a live handle, or nullptr.
  T* find(int handle) {
    Entry* e = entry(handle);
    return e && e->live && e->gen == handle_generation(handle) ? &e->value : nullptr;
  }

  // Live, freed (names a slot of this table whose object was freed, though
  // the slot may hold a newer one), or invalid (anything else).
  HandleState state(int handle) {
    Entry* e = entry(handle);
    if (!e) return HandleState::invalid;
    if (e->live && e->gen == handle_generation(handle)) return HandleState::live;
    const bool was_issued = handle_index(handle) >= first_dynamic_ &&
                            static_cast<std::uint8_t>(e->gen - handle_generation(handle)) < 0x80u &&
                            handle_generation(handle) != 0;
    return was_issued ? HandleState::freed : HandleState::invalid;
  }

  bool predefined(int handle) const { return handle_index(handle) < first_dynamic_; }

  // Drops the object; later finds of this handle fail.
  void remove(int handle) {
    if (!find(handle)) return;
    const std::size_t i = static_cast<std::size_t>(handle_index(handle));
    Entry& e = entries_[i];
    e.value = T{};
    e.live = false;
    if (static_cast<int>(i) < first_dynamic_) return;  // predefined: never reused
    e.next_free = kNone;
    if (free_tail_ == kNone)
      free_head_ = i;
    else
      entries_[free_tail_].next_free = i;
    free_tail_ = i;
  }

  // Calls f(handle, value) for every live object created at run time.
  template <class F>
  void for_each_dynamic(F&& f) {
    for (std::size_t i = static_cast<std::size_t>(first_dynamic_); i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (e.live) f(kind_ | (static_cast<int>(e.gen) << 16) | static_cast<int>(i), e.value);
    }
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};
  struct Entry {
    T value{};
    bool live = false;
    std::uint8_t gen = 0;
    std::size_t next_free = kNone;
  };
  Entry* entry(int handle) {
    if (handle_kind(handle) != kind_) return nullptr;
    const std::size_t i = static_cast<std::size_t>(handle_index(handle));
    return i < entries_.size() ? &entries_[i] : nullptr;
  }

  const int kind_;
  const int first_dynamic_;
  std::vector<Entry> entries_;
  std::size_t free_head_ = kNone;  // freed slots, oldest first
  std::size_t free_tail_ = kNone;
};

}  // namespace pure
