#include "api/call.h"

#include <cstring>

namespace pure::api {

void fatal(Rank& rank, const char* call, int code, const std::string& message) {
  // The error class by name, as the program would test for it.
  const char* what = error_class_string(code);
  std::string name = what ? std::string(what, std::strcspn(what, ":")) : std::string();
  rank.process().abort(code, "pure: rank " + std::to_string(rank.world()) + ": " + call + ": " +
                                 message + (name.empty() ? "" : " [" + name + "]"));
  throw JobAborted{};
}

int handle_error(Call& c, const Error& e) {
  const Comm* comm = c.errors ? c.errors : c.rank.comm(PURE_COMM_WORLD);
  if (comm->errhandler() == PURE_ERRORS_RETURN) return e.code();
  fatal(c.rank, c.name, e.code(), e.what());
}

void handle_error(int code, const char* kind, HandleState state, int handle) {
  if (state == HandleState::freed)
    fail(code, "%s handle 0x%x was freed (it names no %s any more)", kind,
         static_cast<unsigned>(handle), kind);
  fail(code, "invalid %s handle 0x%x", kind, static_cast<unsigned>(handle));
}

int outside_rank(const char* call) {
  std::fprintf(stderr,
               "pure: %s called from a thread that is not a Pure rank; only rank threads "
               "may call Pure\n",
               call);
  return PURE_ERR_OTHER;
}

Comm& comm_arg(Call& c, PURE_Comm handle) {
  if (handle == PURE_COMM_NULL) fail(PURE_ERR_COMM, "PURE_COMM_NULL is not a valid communicator");
  Comm* comm = c.rank.comm(handle);
  if (!comm) handle_error(PURE_ERR_COMM, "communicator", c.rank.handles().comms.state(handle), handle);
  c.errors = comm;
  return *comm;
}

const Datatype& any_type_arg(Call& c, PURE_Datatype handle) {
  if (handle == PURE_DATATYPE_NULL) fail(PURE_ERR_TYPE, "PURE_DATATYPE_NULL is not a valid datatype");
  const Datatype* t = c.rank.type(handle);
  if (!t) handle_error(PURE_ERR_TYPE, "datatype", c.rank.handles().types.state(handle), handle);
  return *t;
}

TypeRef type_arg(Call& c, PURE_Datatype handle) {
  // One lookup: this is on every message's path.
  TypeRef ref = handle == PURE_DATATYPE_NULL ? TypeRef{} : c.rank.type_ref(handle);
  if (!ref.type) any_type_arg(c, handle);  // throws, naming what is wrong with the handle
  if (!ref.type->committed())
    fail(PURE_ERR_TYPE, "datatype 0x%x is not committed (call pure_type_commit first)",
         static_cast<unsigned>(handle));
  return ref;
}

void count_arg(long long count) {
  if (count < 0) fail(PURE_ERR_COUNT, "invalid count %lld (must be >= 0)", count);
}

bool at_absolute_addresses(const Datatype& type) {
  // The first page is never mapped: data that starts there with a null
  // buffer is a missing buffer, not PURE_BOTTOM plus an address.
  constexpr std::ptrdiff_t kFirstPage = 4096;
  return type.true_lb() >= kFirstPage;
}

void buffer_arg(const void* buf, long long count, const Datatype& type) {
  if (buf == nullptr && count > 0 && type.size() > 0 && !at_absolute_addresses(type))
    fail(PURE_ERR_BUFFER,
         "null buffer with count %lld (PURE_BOTTOM needs a datatype whose displacements are "
         "addresses from pure_get_address; this one's data starts at %td)",
         count, type.true_lb());
}

int dest_arg(const Comm& comm, int dest) {
  if (dest == PURE_PROC_NULL) return PURE_PROC_NULL;
  if (dest < 0 || dest >= comm.size())
    fail(PURE_ERR_RANK, "invalid destination rank %d (%s has %d ranks)", dest, comm.name().c_str(),
         comm.size());
  return comm.world_of(dest);
}

int source_arg(const Comm& comm, int source) {
  if (source == PURE_PROC_NULL || source == PURE_ANY_SOURCE) return source;
  if (source < 0 || source >= comm.size())
    fail(PURE_ERR_RANK, "invalid source rank %d (%s has %d ranks)", source, comm.name().c_str(),
         comm.size());
  return comm.world_of(source);
}

void send_tag_arg(Call& c, int tag) {
  const int ub = c.rank.process().tag_ub();
  if (tag < 0 || tag > ub)
    fail(PURE_ERR_TAG, "invalid tag %d (send tags must be between 0 and %d)", tag, ub);
}

void recv_tag_arg(Call& c, int tag) {
  const int ub = c.rank.process().tag_ub();
  if (tag != PURE_ANY_TAG && (tag < 0 || tag > ub))
    fail(PURE_ERR_TAG, "invalid tag %d (receive tags must be PURE_ANY_TAG or between 0 and %d)",
         tag, ub);
}

}  // namespace pure::api
