// IntMap: a small open-addressing hash map from non-negative ints to values,
// for per-peer state that exists only for the peers a rank talks to (a rank
// of thousands talks to a few). One thread owns it; no locks. Lookups are a
// multiply, a mask and usually one probe; the table doubles at half load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pure {

template <class V>
class IntMap {
 public:
  IntMap() : slots_(kInitial) {}

  // The value of `key`, or nullptr.
  V* find(int key) {
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == kEmpty) return nullptr;
    }
  }
  const V* find(int key) const { return const_cast<IntMap*>(this)->find(key); }

  // The value of `key`, inserted as V{} when absent.
  V& operator[](int key) {
    if (V* v = find(key)) return *v;
    if (2 * (size_ + 1) > slots_.size()) grow();
    return insert(key, V{});
  }

  std::size_t size() const { return size_; }

  // f(key, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) {
    for (Slot& s : slots_)
      if (s.key != kEmpty) f(s.key, s.value);
  }

 private:
  static constexpr int kEmpty = -1;
  static constexpr std::size_t kInitial = 8;
  struct Slot {
    int key = kEmpty;
    V value{};
  };
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(int key) const {
    // Fibonacci hashing: consecutive ranks spread over the table.
    return static_cast<std::size_t>(static_cast<std::uint32_t>(key) * 2654435769u) & mask();
  }
  V& insert(int key, V value) {
    std::size_t i = home(key);
    while (slots_[i].key != kEmpty) i = (i + 1) & mask();
    slots_[i].key = key;
    slots_[i].value = std::move(value);
    ++size_;
    return slots_[i].value;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (Slot& s : old)
      if (s.key != kEmpty) insert(s.key, std::move(s.value));
  }

  std::vector<Slot> slots_;  // a power of two long
  std::size_t size_ = 0;
};

}  // namespace pure
