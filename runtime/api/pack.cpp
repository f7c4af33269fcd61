// Flat API: pack and unpack, in Pure's own representation (the machine's
// bytes in type-map order) and in MPI's portable "external32"; each with
// its large-count (_c) twin, one template over the count types.
#include <climits>
#include <cstring>
#include <limits>

#include "api/call.h"
#include "types/external32.h"

using namespace pure;
using namespace pure::api;

namespace {

// A byte count for an output of type Out, or PURE_ERR_COUNT naming it.
template <class Out>
Out fitting(std::uint64_t v, const char* what) {
  if (v > static_cast<std::uint64_t>(std::numeric_limits<Out>::max()))
    fail(PURE_ERR_COUNT, "%s of %llu bytes does not fit the call's %zu-byte integer", what,
         static_cast<unsigned long long>(v), sizeof(Out));
  return static_cast<Out>(v);
}

// The bytes of `count` elements of `per_element` bytes, or an error naming
// the count when the product overflows.
std::uint64_t total_bytes(long long count, std::uint64_t per_element) {
  std::uint64_t bytes;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(count), per_element, &bytes))
    fail(PURE_ERR_COUNT, "count %lld of %llu-byte elements overflows a size", count,
         static_cast<unsigned long long>(per_element));
  return bytes;
}

// The byte range [*position, *position + bytes) of a buffer of `size`
// bytes; PURE_ERR_TRUNCATE when it does not fit.
template <class P>
void range_arg(const P* position, P size, std::uint64_t bytes, const char* what) {
  if (!position) fail(PURE_ERR_ARG, "null position pointer");
  const long long at = static_cast<long long>(*position);
  const long long limit = static_cast<long long>(size);
  if (at < 0 || limit < 0 || static_cast<std::uint64_t>(at) > static_cast<std::uint64_t>(limit) ||
      bytes > static_cast<std::uint64_t>(limit - at))
    fail(PURE_ERR_TRUNCATE, "%s %llu bytes at position %lld: the buffer has %lld bytes", what,
         static_cast<unsigned long long>(bytes), at, limit);
}

void datarep_arg(const char* datarep) {
  if (!datarep) fail(PURE_ERR_ARG, "null data representation");
  if (std::strcmp(datarep, "external32") != 0)
    fail(PURE_ERR_ARG, "unsupported data representation \"%s\" (Pure has \"external32\")",
         datarep);
}

template <class N, class P>
int pack_native(const char* name, const void* inbuf, N incount, PURE_Datatype datatype,
                void* outbuf, P outsize, P* position, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    comm_arg(c, comm);
    count_arg(incount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(inbuf, incount, *t.type);
    const std::uint64_t bytes = total_bytes(incount, t.type->size());
    range_arg(position, outsize, bytes, "packing");
    if (bytes > 0 && !outbuf) fail(PURE_ERR_BUFFER, "null output buffer");
    pack(inbuf, static_cast<std::size_t>(incount), *t.type, 0,
         static_cast<char*>(outbuf) + *position, bytes);
    *position += static_cast<P>(bytes);
  });
}

template <class N, class P>
int unpack_native(const char* name, const void* inbuf, P insize, P* position, void* outbuf,
                  N outcount, PURE_Datatype datatype, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    comm_arg(c, comm);
    count_arg(outcount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(outbuf, outcount, *t.type);
    const std::uint64_t bytes = total_bytes(outcount, t.type->size());
    range_arg(position, insize, bytes, "unpacking");
    if (bytes > 0 && !inbuf) fail(PURE_ERR_BUFFER, "null input buffer");
    unpack(static_cast<const char*>(inbuf) + *position, bytes, outbuf,
           static_cast<std::size_t>(outcount), *t.type, 0);
    *position += static_cast<P>(bytes);
  });
}

template <class N, class S>
int pack_size(const char* name, N incount, PURE_Datatype datatype, PURE_Comm comm, S* size) {
  return call(name, [&](Call& c) {
    comm_arg(c, comm);
    count_arg(incount);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = fitting<S>(total_bytes(incount, any_type_arg(c, datatype).size()), "pack size");
  });
}

template <class N, class P>
int pack_external(const char* name, const char* datarep, const void* inbuf, N incount,
                  PURE_Datatype datatype, void* outbuf, P outsize, P* position) {
  return call(name, [&](Call& c) {
    datarep_arg(datarep);
    count_arg(incount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(inbuf, incount, *t.type);
    const std::uint64_t bytes = total_bytes(incount, external32_size(*t.type));
    range_arg(position, outsize, bytes, "packing");
    if (bytes > 0 && !outbuf) fail(PURE_ERR_BUFFER, "null output buffer");
    pack_external32(inbuf, static_cast<std::uint64_t>(incount), *t.type,
                    static_cast<char*>(outbuf) + *position);
    *position += static_cast<P>(bytes);
  });
}

template <class N, class P>
int unpack_external(const char* name, const char* datarep, const void* inbuf, P insize,
                    P* position, void* outbuf, N outcount, PURE_Datatype datatype) {
  return call(name, [&](Call& c) {
    datarep_arg(datarep);
    count_arg(outcount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(outbuf, outcount, *t.type);
    const std::uint64_t bytes = total_bytes(outcount, external32_size(*t.type));
    range_arg(position, insize, bytes, "unpacking");
    if (bytes > 0 && !inbuf) fail(PURE_ERR_BUFFER, "null input buffer");
    unpack_external32(static_cast<const char*>(inbuf) + *position, outbuf,
                      static_cast<std::uint64_t>(outcount), *t.type);
    *position += static_cast<P>(bytes);
  });
}

template <class N, class S>
int pack_external_size(const char* name, const char* datarep, N incount,
                       PURE_Datatype datatype, S* size) {
  return call(name, [&](Call& c) {
    datarep_arg(datarep);
    count_arg(incount);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = fitting<S>(total_bytes(incount, external32_size(any_type_arg(c, datatype))),
                       "external32 size");
  });
}

}  // namespace

extern "C" {

int pure_pack(const void* inbuf, int incount, PURE_Datatype datatype, void* outbuf, int outsize,
              int* position, PURE_Comm comm) {
  return pack_native("pure_pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
int pure_pack_c(const void* inbuf, PURE_Count incount, PURE_Datatype datatype, void* outbuf,
                PURE_Count outsize, PURE_Count* position, PURE_Comm comm) {
  return pack_native("pure_pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int pure_unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                PURE_Datatype datatype, PURE_Comm comm) {
  return unpack_native("pure_unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
int pure_unpack_c(const void* inbuf, PURE_Count insize, PURE_Count* position, void* outbuf,
                  PURE_Count outcount, PURE_Datatype datatype, PURE_Comm comm) {
  return unpack_native("pure_unpack_c", inbuf, insize, position, outbuf, outcount, datatype,
                       comm);
}

int pure_pack_size(int incount, PURE_Datatype datatype, PURE_Comm comm, int* size) {
  return pack_size("pure_pack_size", incount, datatype, comm, size);
}
int pure_pack_size_c(PURE_Count incount, PURE_Datatype datatype, PURE_Comm comm,
                     PURE_Count* size) {
  return pack_size("pure_pack_size_c", incount, datatype, comm, size);
}

int pure_pack_external(const char datarep[], const void* inbuf, int incount,
                       PURE_Datatype datatype, void* outbuf, PURE_Aint outsize,
                       PURE_Aint* position) {
  return pack_external("pure_pack_external", datarep, inbuf, incount, datatype, outbuf, outsize,
                       position);
}
int pure_pack_external_c(const char datarep[], const void* inbuf, PURE_Count incount,
                         PURE_Datatype datatype, void* outbuf, PURE_Count outsize,
                         PURE_Count* position) {
  return pack_external("pure_pack_external_c", datarep, inbuf, incount, datatype, outbuf,
                       outsize, position);
}

int pure_unpack_external(const char datarep[], const void* inbuf, PURE_Aint insize,
                         PURE_Aint* position, void* outbuf, int outcount,
                         PURE_Datatype datatype) {
  return unpack_external("pure_unpack_external", datarep, inbuf, insize, position, outbuf,
                         outcount, datatype);
}
int pure_unpack_external_c(const char datarep[], const void* inbuf, PURE_Count insize,
                           PURE_Count* position, void* outbuf, PURE_Count outcount,
                           PURE_Datatype datatype) {
  return unpack_external("pure_unpack_external_c", datarep, inbuf, insize, position, outbuf,
                         outcount, datatype);
}

int pure_pack_external_size(const char datarep[], int incount, PURE_Datatype datatype,
                            PURE_Aint* size) {
  return pack_external_size("pure_pack_external_size", datarep, incount, datatype, size);
}
int pure_pack_external_size_c(const char datarep[], PURE_Count incount, PURE_Datatype datatype,
                              PURE_Count* size) {
  return pack_external_size("pure_pack_external_size_c", datarep, incount, datatype, size);
}

}  // extern "C"
