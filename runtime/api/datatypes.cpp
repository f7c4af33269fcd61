// Flat API: derived datatypes, extents and sizes, pack/unpack.
#include <climits>
#include <memory>

#include "api/attributes.h"
#include "api/call.h"

using namespace pure;
using namespace pure::api;

namespace {

void out_arg(const void* p) {
  if (!p) fail(PURE_ERR_ARG, "null pointer for the new datatype");
}

void lengths_arg(int count, const int* blocklengths) {
  if (count > 0 && !blocklengths) fail(PURE_ERR_ARG, "null blocklengths array with count %d", count);
  for (int i = 0; i < count; ++i)
    if (blocklengths[i] < 0)
      fail(PURE_ERR_ARG, "invalid blocklength %d at index %d (must be >= 0)", blocklengths[i], i);
}

void displs_arg(int count, const void* displs) {
  if (count > 0 && !displs) fail(PURE_ERR_ARG, "null displacements array with count %d", count);
}

int to_int(std::size_t v, const char* what) {
  if (v > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_COUNT, "%s of %zu bytes does not fit an int", what, v);
  return static_cast<int>(v);
}

template <class Make>
int construct(const char* name, PURE_Datatype* newtype, Make&& make) {
  return call(name, [&](Call& c) {
    out_arg(newtype);
    *newtype = c.rank.handles().types.add(std::shared_ptr<Datatype>(make(c)));
  });
}

}  // namespace

extern "C" {

int pure_type_contiguous(int count, PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct("pure_type_contiguous", newtype, [&](Call& c) {
    count_arg(count);
    return Datatype::contiguous(count, any_type_arg(c, oldtype));
  });
}

int pure_type_vector(int count, int blocklength, int stride, PURE_Datatype oldtype,
                     PURE_Datatype* newtype) {
  return construct("pure_type_vector", newtype, [&](Call& c) {
    count_arg(count);
    if (blocklength < 0) fail(PURE_ERR_ARG, "invalid blocklength %d (must be >= 0)", blocklength);
    return Datatype::vector(count, blocklength, stride, any_type_arg(c, oldtype));
  });
}

int pure_type_create_hvector(int count, int blocklength, PURE_Aint stride, PURE_Datatype oldtype,
                             PURE_Datatype* newtype) {
  return construct("pure_type_create_hvector", newtype, [&](Call& c) {
    count_arg(count);
    if (blocklength < 0) fail(PURE_ERR_ARG, "invalid blocklength %d (must be >= 0)", blocklength);
    return Datatype::hvector(count, blocklength, stride, any_type_arg(c, oldtype));
  });
}

int pure_type_indexed(int count, const int blocklengths[], const int displacements[],
                      PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct("pure_type_indexed", newtype, [&](Call& c) {
    count_arg(count);
    lengths_arg(count, blocklengths);
    displs_arg(count, displacements);
    return Datatype::indexed(count, blocklengths, displacements, any_type_arg(c, oldtype));
  });
}

int pure_type_create_indexed_block(int count, int blocklength, const int displacements[],
                                   PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct("pure_type_create_indexed_block", newtype, [&](Call& c) {
    count_arg(count);
    if (blocklength < 0) fail(PURE_ERR_ARG, "invalid blocklength %d (must be >= 0)", blocklength);
    displs_arg(count, displacements);
    return Datatype::indexed_block(count, blocklength, displacements, any_type_arg(c, oldtype));
  });
}

int pure_type_create_hindexed(int count, const int blocklengths[], const PURE_Aint displacements[],
                              PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return construct("pure_type_create_hindexed", newtype, [&](Call& c) {
    count_arg(count);
    lengths_arg(count, blocklengths);
    displs_arg(count, displacements);
    return Datatype::hindexed(count, blocklengths, displacements, any_type_arg(c, oldtype));
  });
}

int pure_type_create_struct(int count, const int blocklengths[], const PURE_Aint displacements[],
                            const PURE_Datatype types[], PURE_Datatype* newtype) {
  return construct("pure_type_create_struct", newtype, [&](Call& c) {
    count_arg(count);
    lengths_arg(count, blocklengths);
    displs_arg(count, displacements);
    if (count > 0 && !types) fail(PURE_ERR_ARG, "null types array with count %d", count);
    std::vector<const Datatype*> members;
    for (int i = 0; i < count; ++i) members.push_back(&any_type_arg(c, types[i]));
    return Datatype::create_struct(count, blocklengths, displacements, members.data());
  });
}

int pure_type_create_resized(PURE_Datatype oldtype, PURE_Aint lb, PURE_Aint extent,
                             PURE_Datatype* newtype) {
  return construct("pure_type_create_resized", newtype, [&](Call& c) {
    return Datatype::resized(any_type_arg(c, oldtype), lb, extent);
  });
}

int pure_type_dup(PURE_Datatype oldtype, PURE_Datatype* newtype) {
  return call("pure_type_dup", [&](Call& c) {
    out_arg(newtype);
    *newtype = c.rank.handles().types.add(
        std::shared_ptr<Datatype>(Datatype::dup(any_type_arg(c, oldtype))));
    copy_type_attributes(c, oldtype, newtype);
  });
}

int pure_type_commit(PURE_Datatype* datatype) {
  return call("pure_type_commit", [&](Call& c) {
    if (!datatype) fail(PURE_ERR_ARG, "null datatype pointer");
    any_type_arg(c, *datatype);
    if (Datatype* t = c.rank.handles().derived_type(*datatype)) t->commit();
  });
}

int pure_type_free(PURE_Datatype* datatype) {
  return call("pure_type_free", [&](Call& c) {
    if (!datatype) fail(PURE_ERR_ARG, "null datatype pointer");
    const Datatype& t = any_type_arg(c, *datatype);
    if (t.predefined()) fail(PURE_ERR_TYPE, "cannot free the predefined datatype %s", t.name());
    delete_type_attributes(c, *datatype);
    c.rank.handles().types.remove(*datatype);
    *datatype = PURE_DATATYPE_NULL;
  });
}

int pure_type_get_extent(PURE_Datatype datatype, PURE_Aint* lb, PURE_Aint* extent) {
  return call("pure_type_get_extent", [&](Call& c) {
    if (!lb || !extent) fail(PURE_ERR_ARG, "null lb or extent pointer");
    const Datatype& t = any_type_arg(c, datatype);
    *lb = t.lb();
    *extent = t.extent();
  });
}

int pure_type_get_true_extent(PURE_Datatype datatype, PURE_Aint* true_lb, PURE_Aint* true_extent) {
  return call("pure_type_get_true_extent", [&](Call& c) {
    if (!true_lb || !true_extent) fail(PURE_ERR_ARG, "null lb or extent pointer");
    const Datatype& t = any_type_arg(c, datatype);
    *true_lb = t.true_lb();
    *true_extent = t.true_extent();
  });
}

int pure_type_size(PURE_Datatype datatype, int* size) {
  return call("pure_type_size", [&](Call& c) {
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = to_int(any_type_arg(c, datatype).size(), "datatype size");
  });
}

int pure_pack_size(int incount, PURE_Datatype datatype, PURE_Comm comm, int* size) {
  return call("pure_pack_size", [&](Call& c) {
    comm_arg(c, comm);
    count_arg(incount);
    if (!size) fail(PURE_ERR_ARG, "null size pointer");
    *size = to_int(static_cast<std::size_t>(incount) * any_type_arg(c, datatype).size(), "pack size");
  });
}

int pure_pack(const void* inbuf, int incount, PURE_Datatype datatype, void* outbuf, int outsize,
              int* position, PURE_Comm comm) {
  return call("pure_pack", [&](Call& c) {
    comm_arg(c, comm);
    count_arg(incount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(inbuf, incount, *t.type);
    if (!position) fail(PURE_ERR_ARG, "null position pointer");
    const std::size_t bytes = static_cast<std::size_t>(incount) * t.type->size();
    if (*position < 0 || outsize < 0 ||
        static_cast<std::size_t>(*position) + bytes > static_cast<std::size_t>(outsize))
      fail(PURE_ERR_TRUNCATE, "packing %zu bytes at position %d overflows the output of %d bytes",
           bytes, *position, outsize);
    if (bytes > 0 && !outbuf) fail(PURE_ERR_BUFFER, "null output buffer");
    pack(inbuf, static_cast<std::size_t>(incount), *t.type, 0, static_cast<char*>(outbuf) + *position,
         bytes);
    *position += static_cast<int>(bytes);
  });
}

int pure_unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                PURE_Datatype datatype, PURE_Comm comm) {
  return call("pure_unpack", [&](Call& c) {
    comm_arg(c, comm);
    count_arg(outcount);
    TypeRef t = type_arg(c, datatype);
    buffer_arg(outbuf, outcount, *t.type);
    if (!position) fail(PURE_ERR_ARG, "null position pointer");
    const std::size_t bytes = static_cast<std::size_t>(outcount) * t.type->size();
    if (*position < 0 || insize < 0 ||
        static_cast<std::size_t>(*position) + bytes > static_cast<std::size_t>(insize))
      fail(PURE_ERR_TRUNCATE,
           "unpacking %zu bytes at position %d reads past the input of %d bytes", bytes, *position,
           insize);
    if (bytes > 0 && !inbuf) fail(PURE_ERR_BUFFER, "null input buffer");
    unpack(static_cast<const char*>(inbuf) + *position, bytes, outbuf,
           static_cast<std::size_t>(outcount), *t.type, 0);
    *position += static_cast<int>(bytes);
  });
}

}  // extern "C"
