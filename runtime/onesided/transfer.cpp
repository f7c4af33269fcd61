#include "onesided/transfer.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace pure::onesided {

namespace {

// Whether every memory run of `type` holds whole elements of `item` bytes,
// so that elements can be addressed run by run.
bool whole_items(const Datatype& type, std::size_t item) {
  if (type.contiguous()) return type.size() % item == 0;
  // The runs repeat blocks() (Datatype::reps): one period tells.
  for (const Block& b : type.blocks())
    if (b.length % item != 0) return false;
  return true;
}

// Calls f(run, bytes) for each memory run of (base, count, type) in type-map
// order.
template <class F>
void for_each_run(void* base, std::size_t count, const Datatype& type, F&& f) {
  char* const at = static_cast<char*>(base);
  if (type.contiguous()) {
    if (count != 0) f(at + type.true_lb(), count * type.size());
    return;
  }
  const std::ptrdiff_t extent = type.extent();
  for (std::size_t e = 0; e < count; ++e)
    type.for_each_block(
        [&](const Block& b) { f(at + static_cast<std::ptrdiff_t>(e) * extent + b.offset, b.length); });
}

// Small accumulates keep their packed copies on the stack.
class Scratch {
 public:
  unsigned char* get(std::size_t bytes) {
    if (bytes <= sizeof inline_) return inline_;
    heap_.resize(bytes);
    return heap_.data();
  }

 private:
  alignas(16) unsigned char inline_[256];
  std::vector<unsigned char> heap_;
};

}  // namespace

void copy(const ConstLayout& from, const Layout& to) {
  const std::size_t bytes = from.bytes();
  if (bytes == 0) return;
  if (from.type->contiguous() && to.type->contiguous()) {
    std::memcpy(static_cast<char*>(to.base) + to.type->true_lb(),
                static_cast<const char*>(from.base) + from.type->true_lb(), bytes);
    return;
  }
  copy_range(from.base, from.count, *from.type, to.base, to.count, *to.type, 0, bytes);
}

void accumulate(const ElementOp& op, const ConstLayout& origin, const Layout& target,
                const Layout* result) {
  const std::size_t bytes = target.bytes();
  if (bytes == 0) return;
  const std::size_t item = op.item();
  const std::size_t items = bytes / item;

  // The operands as dense elements: the origin buffer itself when contiguous.
  Scratch in_scratch, out_scratch;
  const unsigned char* operands = nullptr;
  if (op.op() != op_no_op) {
    if (origin.type->contiguous()) {
      operands = static_cast<const unsigned char*>(origin.base) + origin.type->true_lb();
    } else {
      unsigned char* packed = in_scratch.get(bytes);
      pack(origin.base, origin.count, *origin.type, 0, packed, bytes);
      operands = packed;
    }
  }
  // Where the old values go, dense: the result buffer itself when contiguous.
  unsigned char* fetched = nullptr;
  if (result) {
    fetched = result->type->contiguous()
                  ? static_cast<unsigned char*>(result->base) + result->type->true_lb()
                  : out_scratch.get(bytes);
  }
  auto operand = [&](std::size_t k) { return operands ? operands + k * item : nullptr; };
  auto old = [&](std::size_t k) { return fetched ? fetched + k * item : nullptr; };

  if (whole_items(*target.type, item)) {
    std::size_t k = 0;
    for_each_run(target.base, target.count, *target.type, [&](char* run, std::size_t length) {
      op.apply_run(run, operand(k), old(k), length / item);
      k += length / item;
    });
  } else {
    // Elements split over runs (pair types with padding inside): gather
    // each, apply, scatter back, under the element's lock.
    Scratch one;
    unsigned char* value = one.get(item);
    for (std::size_t k = 0; k < items; ++k) {
      void* first = address_of(target.base, target.count, *target.type, k * item);
      std::lock_guard<std::mutex> hold(ElementOp::lock_for(first));
      pack(target.base, target.count, *target.type, k * item, value, item);
      if (fetched) std::memcpy(old(k), value, item);
      if (op.op() == op_no_op) continue;
      op.combine(value, operand(k));
      unpack(value, item, target.base, target.count, *target.type, k * item);
    }
  }
  if (result && !result->type->contiguous())
    unpack(fetched, bytes, result->base, result->count, *result->type, 0);
}

}  // namespace pure::onesided
