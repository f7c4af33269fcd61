#include "types/external32.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "base/error.h"
#include "pure/pure.h"
#include "types/ops.h"

namespace pure {

namespace {

static_assert(std::numeric_limits<long double>::digits == 64 ||
                  std::numeric_limits<long double>::digits == 113,
              "long double is x87 extended or IEEE binary128 on the machines Pure targets");

enum class Kind { bytes, signed_int, unsigned_int, real, long_double, boolean };

struct Format {
  Kind kind;
  std::size_t external;  // bytes in external32
  int parts;             // 2 for a complex number: real and imaginary part
};

Format format(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::char_: case B::schar: case B::uchar: case B::byte: case B::packed: case B::int8:
    case B::uint8:
      return {Kind::bytes, 1, 1};
    case B::wchar: return {Kind::unsigned_int, 2, 1};
    case B::short_: case B::int16: return {Kind::signed_int, 2, 1};
    case B::ushort: case B::uint16: return {Kind::unsigned_int, 2, 1};
    case B::int_: case B::int32: case B::logical: return {Kind::signed_int, 4, 1};
    case B::uint_: case B::uint32: return {Kind::unsigned_int, 4, 1};
    case B::long_: return {Kind::signed_int, 4, 1};
    case B::ulong_: return {Kind::unsigned_int, 4, 1};
    case B::llong: case B::int64: case B::aint: case B::offset: case B::count:
      return {Kind::signed_int, 8, 1};
    case B::ullong: case B::uint64: return {Kind::unsigned_int, 8, 1};
    case B::float_: return {Kind::real, 4, 1};
    case B::double_: return {Kind::real, 8, 1};
    case B::ldouble: return {Kind::long_double, 16, 1};
    case B::cfloat: return {Kind::real, 4, 2};
    case B::cdouble: return {Kind::real, 8, 2};
    case B::cldouble: return {Kind::long_double, 16, 2};
    case B::c_bool: case B::cxx_bool: return {Kind::boolean, 1, 1};
    default: return {Kind::bytes, 0, 0};
  }
}

// Native bytes of one part (one of the two of a complex number).
std::size_t native_part(BaseType b, const Format& f) { return item_size(b) / f.parts; }

const char* type_name(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::long_: return "long";
    case B::ulong_: return "unsigned long";
    case B::wchar: return "wchar_t";
    default: return "value";
  }
}

__extension__ typedef unsigned __int128 u128;

// Little-endian machine word of n bytes <-> big-endian bytes.
void store_big(unsigned char* out, std::uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[n - 1 - i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint64_t load_big(const unsigned char* in, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | in[i];
  return v;
}
std::uint64_t load_native(const unsigned char* in, std::size_t n) {
  std::uint64_t v = 0;
  std::memcpy(&v, in, n);  // little-endian: the low bytes
  return v;
}
void store_native(unsigned char* out, std::uint64_t v, std::size_t n) { std::memcpy(out, &v, n); }

// x87 extended precision (a 64-bit significand with an explicit integer
// bit, 15-bit exponent) <-> IEEE binary128 (112-bit fraction, the same
// exponent and bias): exact one way, rounded to nearest even the other.
u128 x87_to_binary128(const unsigned char* in) {
  std::uint64_t mantissa;
  std::uint16_t top;
  std::memcpy(&mantissa, in, 8);
  std::memcpy(&top, in + 8, 2);
  std::uint32_t exponent = top & 0x7FFFu;
  const u128 sign = static_cast<u128>(top >> 15) << 127;
  if (exponent == 0 && (mantissa >> 63) != 0) exponent = 1;  // a pseudo-denormal
  const u128 fraction = static_cast<u128>(mantissa & 0x7FFFFFFFFFFFFFFFull) << 49;
  return sign | static_cast<u128>(exponent) << 112 | fraction;
}

void binary128_to_x87(u128 v, unsigned char* out) {
  const std::uint16_t sign = static_cast<std::uint16_t>(v >> 127);
  std::uint32_t exponent = static_cast<std::uint32_t>(v >> 112) & 0x7FFFu;
  const u128 fraction = v & ((static_cast<u128>(1) << 112) - 1);
  std::uint64_t mantissa = static_cast<std::uint64_t>(fraction >> 49);
  const std::uint64_t dropped = static_cast<std::uint64_t>(fraction) & ((1ull << 49) - 1);
  if (exponent == 0x7FFF) {  // infinity, or a NaN that must stay one
    if (fraction != 0 && mantissa == 0) mantissa = 1ull << 62;
    mantissa |= 1ull << 63;
  } else {
    if (exponent != 0) mantissa |= 1ull << 63;
    const std::uint64_t half = 1ull << 48;
    if (dropped > half || (dropped == half && (mantissa & 1) != 0)) {
      ++mantissa;
      if (mantissa == 0) {  // carried out of the significand: next binade
        mantissa = 1ull << 63;
        ++exponent;
      } else if (exponent == 0 && (mantissa >> 63) != 0) {
        exponent = 1;  // a subnormal rounded up to the smallest normal
      }
    }
  }
  const std::uint16_t top = static_cast<std::uint16_t>(sign << 15 | exponent);
  std::memset(out, 0, sizeof(long double));
  std::memcpy(out, &mantissa, 8);
  std::memcpy(out + 8, &top, 2);
}

void store_u128_big(unsigned char* out, u128 v) {
  store_big(out, static_cast<std::uint64_t>(v >> 64), 8);
  store_big(out + 8, static_cast<std::uint64_t>(v), 8);
}
u128 load_u128_big(const unsigned char* in) {
  return static_cast<u128>(load_big(in, 8)) << 64 | load_big(in + 8, 8);
}

// n basic elements of `b`: native -> external32.
void encode(BaseType b, std::uint64_t n, const unsigned char*& from, unsigned char*& to) {
  const Format f = format(b);
  const std::size_t native = native_part(b, f);
  const std::uint64_t parts = n * static_cast<std::uint64_t>(f.parts);
  for (std::uint64_t i = 0; i < parts; ++i, from += native, to += f.external) {
    switch (f.kind) {
      case Kind::bytes: std::memcpy(to, from, f.external); break;
      case Kind::boolean: *to = *from != 0; break;
      case Kind::real: store_big(to, load_native(from, native), native); break;
      case Kind::long_double:
        if (std::numeric_limits<long double>::digits == 64) {
          store_u128_big(to, x87_to_binary128(from));
        } else {
          u128 v;
          std::memcpy(&v, from, 16);
          store_u128_big(to, v);
        }
        break;
      case Kind::signed_int:
      case Kind::unsigned_int: {
        const std::uint64_t v = load_native(from, native);
        if (native > f.external) {  // narrowing: the value must fit
          const int bits = static_cast<int>(8 * f.external);
          const std::int64_t sv = static_cast<std::int64_t>(v << (64 - 8 * native)) >>
                                  (64 - 8 * native);
          const bool fits = f.kind == Kind::signed_int
                                ? sv >= -(std::int64_t{1} << (bits - 1)) &&
                                      sv < (std::int64_t{1} << (bits - 1))
                                : v < (std::uint64_t{1} << bits);
          if (!fits) {
            if (f.kind == Kind::signed_int)
              fail(PURE_ERR_CONVERSION, "the %s %lld does not fit the %zu bytes external32 gives it",
                   type_name(b), static_cast<long long>(sv), f.external);
            fail(PURE_ERR_CONVERSION, "the %s %llu does not fit the %zu bytes external32 gives it",
                 type_name(b), static_cast<unsigned long long>(v), f.external);
          }
        }
        store_big(to, v, f.external);
        break;
      }
    }
  }
}

// n basic elements of `b`: external32 -> native.
void decode(BaseType b, std::uint64_t n, const unsigned char*& from, unsigned char*& to) {
  const Format f = format(b);
  const std::size_t native = native_part(b, f);
  const std::uint64_t parts = n * static_cast<std::uint64_t>(f.parts);
  for (std::uint64_t i = 0; i < parts; ++i, from += f.external, to += native) {
    switch (f.kind) {
      case Kind::bytes: std::memcpy(to, from, f.external); break;
      case Kind::boolean: *to = *from != 0; break;  // any non-zero byte is true
      case Kind::real: store_native(to, load_big(from, native), native); break;
      case Kind::long_double:
        if (std::numeric_limits<long double>::digits == 64) {
          binary128_to_x87(load_u128_big(from), to);
        } else {
          const u128 v = load_u128_big(from);
          std::memcpy(to, &v, 16);
        }
        break;
      case Kind::signed_int:
      case Kind::unsigned_int: {
        std::uint64_t v = load_big(from, f.external);
        if (f.kind == Kind::signed_int && native > f.external) {  // sign-extend
          const int shift = static_cast<int>(64 - 8 * f.external);
          v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift);
        }
        store_native(to, v, native);
        break;
      }
    }
  }
}

std::uint64_t signature_external_size(const Signature& s) {
  std::uint64_t bytes = 0;
  for (const Signature::Run& r : s.runs())
    bytes += r.repeat * (r.inner ? signature_external_size(*r.inner)
                                 : static_cast<std::uint64_t>(external32_size(r.base)));
  return bytes;
}

// Converts `count` elements' worth of basic elements, in type-map order.
template <class Step>
void walk(const Datatype& type, std::uint64_t count, Step&& step) {
  const auto& runs = type.signature().runs();
  if (runs.size() == 1 && !runs.front().inner) {  // one basic type: one step
    step(runs.front().base, runs.front().repeat * count);
    return;
  }
  for (std::uint64_t i = 0; i < count; ++i) type.signature().for_each_basic(step);
}

// Elements per batch: the native data of a batch goes through a scratch
// buffer of about this many bytes.
constexpr std::size_t kBatchBytes = 64 * 1024;

std::uint64_t batch_elements(const Datatype& type) {
  return std::max<std::uint64_t>(1, kBatchBytes / std::max<std::size_t>(1, type.size()));
}

}  // namespace

std::size_t external32_size(BaseType base) {
  const Format f = format(base);
  return f.external * static_cast<std::size_t>(f.parts);
}

std::uint64_t external32_size(const Datatype& type) {
  return signature_external_size(type.signature());
}

void pack_external32(const void* src, std::uint64_t count, const Datatype& type, void* out) {
  std::vector<unsigned char> native;
  auto* to = static_cast<unsigned char*>(out);
  const std::uint64_t batch = batch_elements(type);
  for (std::uint64_t done = 0; done < count;) {
    const std::uint64_t n = std::min(batch, count - done);
    native.resize(n * type.size());
    pack(src, count, type, done * type.size(), native.data(), native.size());
    const unsigned char* from = native.data();
    walk(type, n, [&](BaseType b, std::uint64_t k) { encode(b, k, from, to); });
    done += n;
  }
}

void unpack_external32(const void* in, void* dst, std::uint64_t count, const Datatype& type) {
  std::vector<unsigned char> native;
  const auto* from = static_cast<const unsigned char*>(in);
  const std::uint64_t batch = batch_elements(type);
  for (std::uint64_t done = 0; done < count;) {
    const std::uint64_t n = std::min(batch, count - done);
    native.resize(n * type.size());
    unsigned char* to = native.data();
    walk(type, n, [&](BaseType b, std::uint64_t k) { decode(b, k, from, to); });
    unpack(native.data(), native.size(), dst, count, type, done * type.size());
    done += n;
  }
}

}  // namespace pure
