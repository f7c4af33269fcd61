// The type signature of a datatype: the sequence of its basic elements in
// type-map order (MPI 3.1 section 4.1), without their displacements. The
// flattened blocks (datatype.h) say where the bytes are; the signature says
// what they are, which MPI_Get_elements, MPI_Status_set_elements and the
// external32 representation need.
//
// A signature is stored as nested runs, each `repeat` copies of either one
// basic type or an inner signature, so that contiguous(2^30, a struct of an
// int and a float) is two levels of a few runs, not 2^31 entries. Immutable
// once built and shared between the types built from one another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "types/base_type.h"

namespace pure {

class Signature {
 public:
  // One run: `repeat` copies of a basic type (inner == nullptr) or of an
  // inner signature.
  struct Run {
    std::shared_ptr<const Signature> inner;
    BaseType base = BaseType::none;   // the basic type when inner is null
    std::uint64_t item_bytes = 0;     // bytes of one copy
    std::uint64_t item_elements = 0;  // basic elements of one copy
    std::uint64_t repeat = 0;
    std::uint64_t bytes_before = 0;     // bytes of the runs before this one
    std::uint64_t elements_before = 0;  // basic elements of the runs before
  };

  // Appends runs and merges neighbours of the same kind, so that a vector
  // of 1000 blocks of one type is one run.
  class Builder {
   public:
    void add_basic(BaseType base, std::uint64_t bytes, std::uint64_t copies);
    void add(const std::shared_ptr<const Signature>& s, std::uint64_t copies);
    std::shared_ptr<const Signature> finish();

   private:
    std::vector<Run> runs_;
  };

  // The signature of one basic element of `bytes` bytes.
  static std::shared_ptr<const Signature> basic(BaseType base, std::uint64_t bytes);
  // The signature without elements (a type of size 0).
  static std::shared_ptr<const Signature> empty();

  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t elements() const { return elements_; }
  const std::vector<Run>& runs() const { return runs_; }

  // Basic elements in the first `bytes` bytes of back-to-back copies of
  // this signature; nothing when `bytes` ends inside a basic element (MPI:
  // the count is MPI_UNDEFINED then).
  std::optional<std::uint64_t> elements_in(std::uint64_t bytes) const;
  // Bytes of the first `n` basic elements of back-to-back copies (the
  // inverse of elements_in, for MPI_Status_set_elements). elements() must
  // not be 0 unless n is.
  std::uint64_t bytes_of(std::uint64_t n) const;

  // Calls f(base, count) for the basic elements of one copy, in order,
  // runs of one basic type handed over together.
  template <class F>
  void for_each_basic(F&& f) const {
    for (const Run& r : runs_) {
      if (!r.inner) {
        f(r.base, r.repeat);
        continue;
      }
      for (std::uint64_t i = 0; i < r.repeat; ++i) r.inner->for_each_basic(f);
    }
  }

 private:
  std::vector<Run> runs_;
  std::uint64_t bytes_ = 0;
  std::uint64_t elements_ = 0;
};

using SignatureRef = std::shared_ptr<const Signature>;

}  // namespace pure
