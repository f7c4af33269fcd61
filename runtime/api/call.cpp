#include "api/call.h"

#include <cstdio>
#include <cstring>
#include <exception>

namespace pure::api {

void CallSlice::open() {
  begin_ = trace::now();
  outer_ = traced_->begin_call();
}

void CallSlice::close() { traced_->end_call(name_, begin_, outer_); }

std::string report(const Rank& rank, const char* call, const std::string& message) {
  return "pure: rank " + std::to_string(rank.world()) + ": " + call + ": " + message;
}

std::string with_class(int code, const std::string& message) {
  // The error class by name, as the program would test for it.
  const char* what = error_class_string(code);
  std::string name = what ? std::string(what, std::strcspn(what, ":")) : std::string();
  return message + (name.empty() ? "" : " [" + name + "]");
}

void fatal(Rank& rank, const char* call, int code, const std::string& message) {
  end_job(rank, call, code, with_class(code, message));
}

void end_job(Rank& rank, const char* call, int status, const std::string& message) {
  rank.process().abort(status, report(rank, call, message));
  rank.waiter().unwind_for_abort();
}

int handle_error(Call& c, const Error& e) {
  // The window's error handler on a window call, else the communicator's.
  const Comm* comm = c.errors ? c.errors : c.rank.comm(PURE_COMM_WORLD);
  const PURE_Errhandler h = c.window ? c.window->errhandler() : comm->errhandler();
  // A call of the typed C++ API, whatever the handler: the typed API throws
  // the error as a pure::error.
  if (detail::typed_calls > 0) {
    keep_typed_error(c.rank, c.name, e.code(), e.what());
    return e.code();
  }
  if (h == PURE_ERRORS_RETURN) return e.code();
  // PURE_ERRORS_ABORT ends the job as a fatal error does: abort of a
  // communicator's processes is abort of the job's one process here.
  const Errhandler* user = h == PURE_ERRORS_ARE_FATAL || h == PURE_ERRORS_ABORT
                               ? nullptr
                               : c.rank.handles().errhandlers.find(h);
  if (user && user->fn) {
    // The program's handler, with the object's handle and the code; when
    // it returns, so does the call, with the code.
    int handle = c.window ? c.window->handle() : comm->handle();
    int code = e.code();
    user->fn(&handle, &code);
    return e.code();
  }
  // A destructor run while an exception unwinds the rank (an RAII window
  // freed on the way out of a throw): ending the job here would throw out
  // of a noexcept destructor (std::terminate, SIGABRT, the exception's own
  // message lost), and the exception is the cause. The error is reported
  // and returned; the exception goes on, and ends the job naming itself if
  // nothing catches it.
  if (std::uncaught_exceptions() > 0) {
    std::fprintf(stderr, "%s (while an exception unwinds this rank: the call returns it)\n",
                 in_program_names(report(c.rank, c.name, with_class(e.code(), e.what()))).c_str());
    std::fflush(stderr);
    return e.code();
  }
  fatal(c.rank, c.name, e.code(), e.what());
}

void handle_error(int code, const char* kind, HandleState state, int handle) {
  if (state == HandleState::freed)
    fail(code, "%s handle 0x%x was freed (it names no %s any more)", kind,
         static_cast<unsigned>(handle), kind);
  fail(code, "invalid %s handle 0x%x", kind, static_cast<unsigned>(handle));
}

int outside_rank(const char* call) {
  const std::string what = std::string("pure: ") + call +
                           " called from a thread that is not a Pure rank; only rank threads "
                           "may call Pure";
  // MPI's default error handler is fatal: during a job, the job ends, as
  // it would for an error in a rank, rather than leave a code the program
  // may never check (and go on computing with what the call did not do).
  if (Process* process = Process::running()) {
    process->abort(PURE_ERR_OTHER, what + "; ending the job");
    return PURE_ERR_OTHER;
  }
  std::fprintf(stderr, "%s\n", what.c_str());
  return PURE_ERR_OTHER;
}

Comm& comm_arg(Call& c, PURE_Comm handle) {
  if (handle == PURE_COMM_NULL) fail(PURE_ERR_COMM, "PURE_COMM_NULL is not a valid communicator");
  Comm* comm = c.rank.comm(handle);
  if (!comm) handle_error(PURE_ERR_COMM, "communicator", c.rank.handles().comms.state(handle), handle);
  c.errors = comm;
  if (trace::Buffer* traced = c.rank.waiter().trace()) {
    traced->call_args().context = comm->context();
    c.rank.process().observers().name_context(c.rank.index(), comm->context(), comm->name());
  }
  return *comm;
}

Comm& intra_arg(Call& c, PURE_Comm handle) {
  Comm& comm = comm_arg(c, handle);
  if (comm.inter())
    fail(PURE_ERR_COMM, "%s is an intercommunicator; this call needs an intracommunicator",
         comm.name().c_str());
  return comm;
}

const GroupRef& group_arg(Call& c, PURE_Group handle) {
  if (handle == PURE_GROUP_NULL) fail(PURE_ERR_GROUP, "PURE_GROUP_NULL is not a valid group");
  auto& table = c.rank.handles().groups;
  const GroupRef* g = table.find(handle);
  if (!g) handle_error(PURE_ERR_GROUP, "group", table.state(handle), handle);
  return *g;
}

PURE_Group add_group(Rank& rank, std::vector<int> members) {
  if (members.empty()) return PURE_GROUP_EMPTY;
  return rank.handles().groups.add(std::make_shared<const Group>(std::move(members)));
}

PURE_Group add_group(Rank& rank, const GroupRef& group) {
  if (group->size() == 0) return PURE_GROUP_EMPTY;
  return rank.handles().groups.add(group);
}

const Info* info_arg(Call& c, PURE_Info handle, bool null_ok) {
  if (handle == PURE_INFO_NULL) {
    if (null_ok) return nullptr;
    fail(PURE_ERR_INFO, "PURE_INFO_NULL is not a valid info object here");
  }
  auto& table = c.rank.handles().infos;
  const Info* info = table.find(handle);
  if (!info) handle_error(PURE_ERR_INFO, "info", table.state(handle), handle);
  return info;
}

void observe_send(Rank& rank, int peer, const Comm& comm, int tag, std::size_t bytes) {
  const bool here = rank.process().peers().here(peer);
  if (RankStats* s = rank.waiter().stats()) (here ? s->sent_local : s->sent_remote).add(bytes);
  if (trace::Buffer* traced = rank.waiter().trace()) {
    traced->message_out(rank.world(), peer, comm.context(), tag, static_cast<std::int64_t>(bytes),
                        trace::now());
    if (here) rank.process().observers().queued_messages().fetch_add(1, std::memory_order_relaxed);
  }
}

void observe_recv(Rank& rank, const Comm& comm, const PURE_Status& status) {
  if (status.pure_cancelled || status.MPI_SOURCE < 0) return;  // cancelled, or PURE_PROC_NULL
  // The sender is in the remote group on an intercommunicator.
  observe_recv(rank, comm.peer_world(status.MPI_SOURCE), comm.context(), status);
}

void observe_recv(Rank& rank, int peer, int context, const PURE_Status& status) {
  if (status.pure_cancelled || status.MPI_SOURCE < 0) return;  // cancelled, or PURE_PROC_NULL
  const bool here = rank.process().peers().here(peer);
  if (RankStats* s = rank.waiter().stats())
    (here ? s->received_local : s->received_remote).add(status.pure_count);
  if (trace::Buffer* traced = rank.waiter().trace()) {
    traced->message_in(rank.world(), peer, context, status.MPI_TAG,
                       static_cast<std::int64_t>(status.pure_count), trace::now());
    if (here) rank.process().observers().queued_messages().fetch_sub(1, std::memory_order_relaxed);
  }
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

OpRef op_arg(Call& c, PURE_Op op) {
  if (op == PURE_OP_NULL) fail(PURE_ERR_OP, "PURE_OP_NULL is not a valid op");
  OpRef ref;
  if (const int index = predefined_op(op)) {
    ref.predefined = index;
    return ref;
  }
  auto& table = c.rank.handles().ops;
  const UserOp* u = table.find(op);
  if (!u) handle_error(PURE_ERR_OP, "op", table.state(op), op);
  ref.user = *u;
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

namespace {
[[noreturn]] void bad_peer(const Comm& comm, const char* which, int r) {
  fail(PURE_ERR_RANK, "invalid %s rank %d (%s%s has %d ranks)", which, r,
       comm.inter() ? "the remote group of " : "", comm.name().c_str(), comm.peer_size());
}
}  // namespace

int dest_arg(const Comm& comm, int dest) {
  if (dest == PURE_PROC_NULL) return PURE_PROC_NULL;
  if (dest < 0 || dest >= comm.peer_size()) bad_peer(comm, "destination", dest);
  return comm.peer_world(dest);
}

int source_arg(const Comm& comm, int source) {
  if (source == PURE_PROC_NULL || source == PURE_ANY_SOURCE) return source;
  if (source < 0 || source >= comm.peer_size()) bad_peer(comm, "source", source);
  return comm.peer_world(source);
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
