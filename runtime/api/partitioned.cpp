// Flat API: partitioned communication (MPI-4), pure/pure.h. The protocol is
// channels/partitioned.h; this file checks arguments and finds the pieces.
#include <climits>
#include <string>

#include "api/call.h"
#include "api/requests.h"
#include "channels/partitioned.h"
#include "comm/comm.h"
#include "job/process.h"

using namespace pure;
using namespace pure::api;

namespace {

// Partitions and elements per partition, checked; the element count of
// the whole buffer.
long long whole_count(int partitions, PURE_Count count) {
  if (partitions < 1)
    fail(PURE_ERR_ARG, "invalid partition count %d (at least 1)", partitions);
  count_arg(count);
  long long whole;
  if (__builtin_mul_overflow(static_cast<long long>(partitions), count, &whole))
    fail(PURE_ERR_COUNT, "%d partitions of %lld elements overflow a count", partitions, count);
  return whole;
}

// The communicator and the peer as a world rank of this process (or
// PURE_PROC_NULL), refused where the protocol does not reach.
int local_peer(Call& c, Comm& comm, int world, const char* side, int peer) {
  if (comm.inter())
    fail(PURE_ERR_COMM,
         "partitioned communication on an intercommunicator is not supported (use an "
         "intracommunicator, e.g. from pure_intercomm_merge)");
  if (world == PURE_PROC_NULL) return world;
  if (!c.rank.process().peers().here(world))
    fail(PURE_ERR_UNSUPPORTED_OPERATION,
         "%s %d is in another process: partitioned communication runs between ranks of one "
         "process only",
         side, peer);
  return world;
}

// The checks both inits make: the request pointer, the communicator, the
// counts, the datatype, the buffer and the info.
struct Side {
  Comm& comm;
  TypeRef type;
  long long whole;  // elements in all partitions
};
Side init_args(Call& c, const void* buf, int partitions, PURE_Count count, PURE_Datatype datatype,
               PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
  Comm& cm = comm_arg(c, comm);
  c.errors = &cm;
  const long long whole = whole_count(partitions, count);
  TypeRef t = type_arg(c, datatype);
  buffer_arg(buf, whole, *t.type);
  info_arg(c, info, true);
  return {cm, std::move(t), whole};
}

template <class Op>
Op& partitioned_op(PURE_Request handle, const char* what) {
  if (handle == PURE_REQUEST_NULL) fail(PURE_ERR_REQUEST, "the request is PURE_REQUEST_NULL");
  Request* r = request_of(handle);
  Op* op = r->kind == Request::Kind::operation ? dynamic_cast<Op*>(r->op.get()) : nullptr;
  if (!op) fail(PURE_ERR_REQUEST, "request %p is not %s", static_cast<void*>(handle), what);
  return *op;
}

Request& running(PURE_Request handle, const char* how) {
  Request* r = request_of(handle);
  if (r->state == Request::State::inactive)
    fail(PURE_ERR_REQUEST, "the partitioned send is not active: %s", how);
  return *r;
}

void mark_ready(Call& c, PURE_Request handle, int partition) {
  PartitionedSend& send =
      partitioned_op<PartitionedSend>(handle, "a partitioned send (pure_psend_init makes one)");
  Request& r = running(handle, "pure_start it before marking partitions ready");
  c.errors = r.comm;
  if (partition < 0 || partition >= send.partitions())
    fail(PURE_ERR_ARG, "invalid partition %d (the send has %d: 0 to %d)", partition,
         send.partitions(), send.partitions() - 1);
  if (!send.ready(partition))
    fail(PURE_ERR_ARG,
         "partition %d was marked ready already in this round (once per pure_start)", partition);
}

}  // namespace

extern "C" {

int pure_psend_init(const void* buf, int partitions, PURE_Count count, PURE_Datatype datatype,
                    int dest, int tag, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return call("pure_psend_init", [&](Call& c) {
    Side s = init_args(c, buf, partitions, count, datatype, comm, info, request);
    const int world = local_peer(c, s.comm, dest_arg(s.comm, dest), "destination", dest);
    send_tag_arg(c, tag);
    Rank& rank = c.rank;
    *request = handle_of(partitioned_send(rank.p2p(), *s.comm.schedule_comm(),
                                          rank.waiter().parker(), buf,
                                          static_cast<std::size_t>(s.whole), s.type, partitions,
                                          world, tag, s.comm));
  });
}

int pure_precv_init(void* buf, int partitions, PURE_Count count, PURE_Datatype datatype,
                    int source, int tag, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return call("pure_precv_init", [&](Call& c) {
    Side s = init_args(c, buf, partitions, count, datatype, comm, info, request);
    if (source == PURE_ANY_SOURCE)
      fail(PURE_ERR_RANK, "PURE_ANY_SOURCE: a partitioned receive names its source");
    if (tag == PURE_ANY_TAG) fail(PURE_ERR_TAG, "PURE_ANY_TAG: a partitioned receive names its tag");
    const int world = local_peer(c, s.comm, source_arg(s.comm, source), "source", source);
    send_tag_arg(c, tag);
    const std::size_t partition_bytes = static_cast<std::size_t>(count) * s.type.type->size();
    PartitionedRecv::Args a{buf,        static_cast<std::size_t>(s.whole), s.type, partitions,
                            partition_bytes, source,                         tag};
    Rank& rank = c.rank;
    *request = handle_of(partitioned_recv(rank.p2p(), *s.comm.schedule_comm(),
                                          rank.waiter().parker(), std::move(a), world, s.comm));
  });
}

int pure_pready(int partition, PURE_Request request) {
  return call("pure_pready", [&](Call& c) { mark_ready(c, request, partition); });
}

int pure_pready_range(int partition_low, int partition_high, PURE_Request request) {
  return call("pure_pready_range", [&](Call& c) {
    if (partition_low > partition_high)
      fail(PURE_ERR_ARG, "invalid range %d to %d (the low end is above the high end)",
           partition_low, partition_high);
    for (int p = partition_low; p <= partition_high; ++p) mark_ready(c, request, p);
  });
}

int pure_pready_list(int length, const int array_of_partitions[], PURE_Request request) {
  return call("pure_pready_list", [&](Call& c) {
    if (length < 0) fail(PURE_ERR_ARG, "invalid list length %d", length);
    if (length > 0 && !array_of_partitions)
      fail(PURE_ERR_ARG, "null partition list of length %d", length);
    for (int k = 0; k < length; ++k) mark_ready(c, request, array_of_partitions[k]);
  });
}

int pure_parrived(PURE_Request request, int partition, int* flag) {
  return call("pure_parrived", [&](Call& c) {
    if (!flag) fail(PURE_ERR_ARG, "null flag pointer");
    // MPI: a null or inactive request has nothing to wait for.
    if (request == PURE_REQUEST_NULL) {
      *flag = 1;
      return;
    }
    PartitionedRecv& recv = partitioned_op<PartitionedRecv>(
        request, "a partitioned receive (pure_precv_init makes one)");
    Request* r = request_of(request);
    c.errors = r->comm;
    if (partition < 0 || partition >= recv.partitions())
      fail(PURE_ERR_ARG, "invalid partition %d (the receive has %d: 0 to %d)", partition,
           recv.partitions(), recv.partitions() - 1);
    if (r->state == Request::State::inactive) {
      *flag = 1;
      return;
    }
    // The sender's channel comes as a message: a loop of polls must also
    // move this rank's incoming messages on, or it would never match.
    if (!recv.matched()) c.rank.progress(true);
    *flag = recv.arrived(partition) ? 1 : 0;
    // A caller polling this in a loop lets the rest move on meanwhile.
    if (!*flag) c.rank.poll_missed();
  });
}

}  // extern "C"
