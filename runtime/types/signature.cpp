#include "types/signature.h"

#include <algorithm>

namespace pure {

void Signature::Builder::add_basic(BaseType base, std::uint64_t bytes, std::uint64_t copies) {
  if (copies == 0) return;
  if (!runs_.empty() && !runs_.back().inner && runs_.back().base == base) {
    runs_.back().repeat += copies;
    return;
  }
  Run r;
  r.base = base;
  r.item_bytes = bytes;
  r.item_elements = 1;
  r.repeat = copies;
  runs_.push_back(std::move(r));
}

void Signature::Builder::add(const std::shared_ptr<const Signature>& s, std::uint64_t copies) {
  if (copies == 0 || s->elements_ == 0) return;
  // A signature of one run stands for its run repeated: flatten it, so that
  // nesting only grows where a type mixes basic types.
  if (s->runs_.size() == 1) {
    const Run& only = s->runs_.front();
    if (!only.inner) {
      add_basic(only.base, only.item_bytes, only.repeat * copies);
    } else {
      add(only.inner, only.repeat * copies);
    }
    return;
  }
  if (!runs_.empty() && runs_.back().inner == s) {
    runs_.back().repeat += copies;
    return;
  }
  Run r;
  r.inner = s;
  r.item_bytes = s->bytes_;
  r.item_elements = s->elements_;
  r.repeat = copies;
  runs_.push_back(std::move(r));
}

std::shared_ptr<const Signature> Signature::Builder::finish() {
  auto s = std::make_shared<Signature>();
  for (Run& r : runs_) {
    r.bytes_before = s->bytes_;
    r.elements_before = s->elements_;
    s->bytes_ += r.item_bytes * r.repeat;
    s->elements_ += r.item_elements * r.repeat;
  }
  s->runs_ = std::move(runs_);
  runs_.clear();
  return s;
}

std::shared_ptr<const Signature> Signature::basic(BaseType base, std::uint64_t bytes) {
  Builder b;
  b.add_basic(base, bytes, 1);
  return b.finish();
}

std::shared_ptr<const Signature> Signature::empty() {
  static const std::shared_ptr<const Signature> none = Builder().finish();
  return none;
}

std::optional<std::uint64_t> Signature::elements_in(std::uint64_t bytes) const {
  if (bytes_ == 0) return bytes == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
  std::uint64_t result = bytes / bytes_ * elements_;
  const std::uint64_t rest = bytes % bytes_;
  if (rest == 0) return result;
  // The run holding byte `rest`: the last one starting at or before it.
  auto it = std::upper_bound(runs_.begin(), runs_.end(), rest,
                             [](std::uint64_t b, const Run& r) { return b < r.bytes_before; });
  const Run& r = *(it - 1);
  const std::uint64_t within = rest - r.bytes_before;
  result += r.elements_before + within / r.item_bytes * r.item_elements;
  const std::uint64_t partial = within % r.item_bytes;
  if (partial == 0) return result;
  if (!r.inner) return std::nullopt;  // ends inside a basic element
  const std::optional<std::uint64_t> inner = r.inner->elements_in(partial);
  if (!inner) return std::nullopt;
  return result + *inner;
}

std::uint64_t Signature::bytes_of(std::uint64_t n) const {
  if (elements_ == 0) return 0;
  std::uint64_t result = n / elements_ * bytes_;
  const std::uint64_t rest = n % elements_;
  if (rest == 0) return result;
  auto it = std::upper_bound(runs_.begin(), runs_.end(), rest,
                             [](std::uint64_t e, const Run& r) { return e < r.elements_before; });
  const Run& r = *(it - 1);
  const std::uint64_t within = rest - r.elements_before;
  result += r.bytes_before + within / r.item_elements * r.item_bytes;
  const std::uint64_t partial = within % r.item_elements;
  if (partial != 0) result += r.inner->bytes_of(partial);
  return result;
}

}  // namespace pure
