#include "api/collective_args.h"

#include <cstdint>

namespace pure::api {

void root_arg(const Comm& comm, int root) {
  if (root < 0 || root >= comm.size())
    fail(PURE_ERR_ROOT, "invalid root %d (%s has %d ranks)", root, comm.name().c_str(),
         comm.size());
}

void data_arg(const void* buf, long long count, const Datatype& type, const char* which) {
  count_arg(count);
  if (in_place(buf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s here", which);
  buffer_arg(buf, count, type);
}

void whole_buffer_arg(const void* buf, const Datatype& type, const char* which) {
  if (in_place(buf) || (!buf && type.size() > 0 && !at_absolute_addresses(type)))
    fail(PURE_ERR_BUFFER, "invalid %s buffer", which);
}

const void* rebase_bottom(const void* buf, TypeRef& type) {
  if (buf || !type.type || type.type->size() == 0 || !at_absolute_addresses(*type.type))
    return buf;
  const std::ptrdiff_t by = type.type->true_lb();
  const std::int64_t one = 1;
  const std::ptrdiff_t down = -by;
  std::shared_ptr<Datatype> shifted = Datatype::hindexed(1, &one, &down, *type.type);
  shifted->commit();
  type.type = shifted.get();
  type.keep = std::move(shifted);
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(by));
}

int int_count(long long count, const char* what) {
  if (count > INT_MAX)
    fail(PURE_ERR_COUNT, "%s %lld is beyond what this collective carries (%d)", what, count,
         INT_MAX);
  return static_cast<int>(count);
}

Blocks::Blocks(int n, long long count)
    : counts(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n)) {
  if (count > 0 && (count > INT_MAX || (n > 1 && count > INT_MAX / (n - 1))))
    fail(PURE_ERR_COUNT,
         "count %lld on %d ranks: the block of the last rank starts beyond the %d elements the "
         "collectives address",
         count, n, INT_MAX);
  for (int i = 0; i < n; ++i) {
    counts[static_cast<std::size_t>(i)] = static_cast<int>(count);
    displs[static_cast<std::size_t>(i)] = i * static_cast<int>(count);
  }
}

void counts_arg(const int* counts, const int* displs, int n, const char* which) {
  if (!counts || !displs) fail(PURE_ERR_ARG, "null %s counts or displacements", which);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0) fail(PURE_ERR_COUNT, "invalid %s count %d at index %d", which, counts[i], i);
}

namespace {
void equal_blocks(Side& side, int n, long long count) {
  side.equal = Blocks(n, count);
  side.counts = side.equal.counts.data();
  side.displs = side.equal.displs.data();
}
}  // namespace

MovementArgs gatherv_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                          PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                          const int displs[], PURE_Datatype recvtype, int root) {
  root_arg(cm, root);
  const bool at_root = cm.rank() == root;
  MovementArgs a;
  a.root = root;
  if (!(at_root && in_place(sendbuf))) {
    a.send.type = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *a.send.type.type, "send buffer");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.count = static_cast<std::size_t>(sendcount);
  }
  if (at_root) {
    a.recv.type = type_arg(c, recvtype);
    counts_arg(recvcounts, displs, cm.size(), "receive");
    whole_buffer_arg(recvbuf, *a.recv.type.type, "receive");
    a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
    a.recv.counts = recvcounts;
    a.recv.displs = displs;
  }
  return a;
}

MovementArgs gather_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                         PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                         PURE_Datatype recvtype, int root) {
  root_arg(cm, root);
  const bool at_root = cm.rank() == root;
  MovementArgs a;
  a.root = root;
  if (!(at_root && in_place(sendbuf))) {
    a.send.type = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *a.send.type.type, "send buffer");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.count = static_cast<std::size_t>(sendcount);
  }
  if (at_root) {
    a.recv.type = type_arg(c, recvtype);
    count_arg(recvcount);
    if (in_place(recvbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the receive buffer");
    buffer_arg(recvbuf, recvcount, *a.recv.type.type);
    a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
  }
  equal_blocks(a.recv, cm.size(), recvcount);
  return a;
}

MovementArgs scatterv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                           const int displs[], PURE_Datatype sendtype, void* recvbuf,
                           long long recvcount, PURE_Datatype recvtype, int root) {
  root_arg(cm, root);
  const bool at_root = cm.rank() == root;
  MovementArgs a;
  a.root = root;
  if (at_root) {
    a.send.type = type_arg(c, sendtype);
    counts_arg(sendcounts, displs, cm.size(), "send");
    whole_buffer_arg(sendbuf, *a.send.type.type, "send");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.counts = sendcounts;
    a.send.displs = displs;
  }
  if (!(at_root && in_place(recvbuf))) {
    a.recv.type = type_arg(c, recvtype);
    data_arg(recvbuf, recvcount, *a.recv.type.type, "receive buffer");
    a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
    a.recv.count = static_cast<std::size_t>(recvcount);
  }
  return a;
}

MovementArgs scatter_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                          PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                          PURE_Datatype recvtype, int root) {
  root_arg(cm, root);
  const bool at_root = cm.rank() == root;
  MovementArgs a;
  a.root = root;
  if (at_root) {
    a.send.type = type_arg(c, sendtype);
    count_arg(sendcount);
    if (in_place(sendbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the send buffer");
    buffer_arg(sendbuf, sendcount, *a.send.type.type);
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
  }
  equal_blocks(a.send, cm.size(), sendcount);
  if (!(at_root && in_place(recvbuf))) {
    a.recv.type = type_arg(c, recvtype);
    data_arg(recvbuf, recvcount, *a.recv.type.type, "receive buffer");
    a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
    a.recv.count = static_cast<std::size_t>(recvcount);
  }
  return a;
}

MovementArgs allgatherv_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                             PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int displs[], PURE_Datatype recvtype) {
  MovementArgs a;
  a.recv.type = type_arg(c, recvtype);
  if (!in_place(sendbuf)) {
    a.send.type = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *a.send.type.type, "send buffer");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.count = static_cast<std::size_t>(sendcount);
  }
  counts_arg(recvcounts, displs, cm.size(), "receive");
  whole_buffer_arg(recvbuf, *a.recv.type.type, "receive");
  a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
  a.recv.counts = recvcounts;
  a.recv.displs = displs;
  return a;
}

MovementArgs allgather_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                            PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                            PURE_Datatype recvtype) {
  MovementArgs a;
  a.recv.type = type_arg(c, recvtype);
  if (!in_place(sendbuf)) {
    a.send.type = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *a.send.type.type, "send buffer");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.count = static_cast<std::size_t>(sendcount);
  }
  data_arg(recvbuf, recvcount, *a.recv.type.type, "receive buffer");
  a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
  equal_blocks(a.recv, cm.size(), recvcount);
  return a;
}

MovementArgs alltoallv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                            const int sdispls[], PURE_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int rdispls[], PURE_Datatype recvtype) {
  MovementArgs a;
  a.recv.type = type_arg(c, recvtype);
  if (!in_place(sendbuf)) {
    a.send.type = type_arg(c, sendtype);
    counts_arg(sendcounts, sdispls, cm.size(), "send");
    whole_buffer_arg(sendbuf, *a.send.type.type, "send");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    a.send.counts = sendcounts;
    a.send.displs = sdispls;
  }
  counts_arg(recvcounts, rdispls, cm.size(), "receive");
  whole_buffer_arg(recvbuf, *a.recv.type.type, "receive");
  a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
  a.recv.counts = recvcounts;
  a.recv.displs = rdispls;
  return a;
}

MovementArgs alltoall_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                           PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                           PURE_Datatype recvtype) {
  MovementArgs a;
  a.recv.type = type_arg(c, recvtype);
  if (!in_place(sendbuf)) {
    a.send.type = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *a.send.type.type, "send buffer");
    a.send.buf = rebase_bottom(sendbuf, a.send.type);
    equal_blocks(a.send, cm.size(), sendcount);
  }
  data_arg(recvbuf, recvcount, *a.recv.type.type, "receive buffer");
  a.recv.buf = rebase_bottom(recvbuf, a.recv.type);
  equal_blocks(a.recv, cm.size(), recvcount);
  return a;
}

namespace {
// Either buffer of a reduction PURE_BOTTOM (the other, if any, holds the
// same type): both move with the shifted type. User ops are handed the
// data with its datatype, whose displacements would no longer be the
// addresses, so they keep to real buffers.
void bottom_reduction(ReductionArgs& a, const void* sendbuf, void* recvbuf) {
  const bool bottom = (!sendbuf || !recvbuf) && a.type.type && a.type.type->size() > 0 &&
                      at_absolute_addresses(*a.type.type);
  if (!bottom) return;
  if (a.op.predefined == 0)
    fail(PURE_ERR_BUFFER,
         "PURE_BOTTOM with a user op is not supported (the op would be handed the data at "
         "other addresses than its datatype says)");
  const std::ptrdiff_t by = a.type.type->true_lb();
  auto moved = [by](const void* p) {
    return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) +
                                         static_cast<std::uintptr_t>(by));
  };
  rebase_bottom(static_cast<const void*>(nullptr), a.type);
  if (a.send) a.send = moved(a.send);
  if (!in_place(a.recv)) a.recv = const_cast<void*>(moved(a.recv));
}
}  // namespace

ReductionArgs reduction_args(Call& c, const void* sendbuf, void* recvbuf, long long count,
                             PURE_Datatype datatype, PURE_Op op, bool may_be_in_place) {
  count_arg(count);
  ReductionArgs a;
  a.type = type_arg(c, datatype);
  a.op = op_arg(c, op);
  if (in_place(sendbuf) && !may_be_in_place)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the send buffer here");
  if (!in_place(sendbuf)) buffer_arg(sendbuf, count, *a.type.type);
  a.send = in_place(sendbuf) ? nullptr : sendbuf;
  a.recv = recvbuf;
  a.count = static_cast<std::size_t>(count);
  a.handle = datatype;
  return a;
}

ReductionArgs reduce_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf, long long count,
                          PURE_Datatype datatype, PURE_Op op, int root) {
  // PURE_IN_PLACE is allowed at the root only; with an invalid root, report the root.
  const bool root_ok = root >= 0 && root < cm.size();
  ReductionArgs a =
      reduction_args(c, sendbuf, recvbuf, count, datatype, op, !root_ok || cm.rank() == root);
  root_arg(cm, root);
  if (cm.rank() == root) buffer_arg(recvbuf, count, *a.type.type);
  bottom_reduction(a, sendbuf, recvbuf);
  return a;
}

ReductionArgs allreduce_args(Call& c, const void* sendbuf, void* recvbuf, long long count,
                             PURE_Datatype datatype, PURE_Op op) {
  ReductionArgs a = reduction_args(c, sendbuf, recvbuf, count, datatype, op, true);
  buffer_arg(recvbuf, count, *a.type.type);
  bottom_reduction(a, sendbuf, recvbuf);
  return a;
}

ReductionArgs reduce_scatter_block_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                        long long recvcount, PURE_Datatype datatype, PURE_Op op,
                                        std::vector<int>* counts) {
  long long total = 0;
  if (recvcount > 0 && __builtin_mul_overflow(recvcount, static_cast<long long>(cm.size()), &total))
    total = -1;  // reported as an invalid count
  ReductionArgs a = reduction_args(c, sendbuf, recvbuf, recvcount < 0 ? recvcount : total,
                                   datatype, op, true);
  count_arg(recvcount);
  if (!a.send) buffer_arg(recvbuf, total, *a.type.type);
  buffer_arg(recvbuf, recvcount, *a.type.type);
  counts->assign(static_cast<std::size_t>(cm.size()), int_count(recvcount, "recvcount"));
  bottom_reduction(a, sendbuf, recvbuf);
  return a;
}

ReductionArgs reduce_scatter_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                  const int recvcounts[], PURE_Datatype datatype, PURE_Op op) {
  long long total = 0;
  if (recvcounts)
    for (int i = 0; i < cm.size(); ++i) total += recvcounts[i] > 0 ? recvcounts[i] : 0;
  ReductionArgs a = reduction_args(c, sendbuf, recvbuf, total, datatype, op, true);
  if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
  for (int i = 0; i < cm.size(); ++i)
    if (recvcounts[i] < 0) fail(PURE_ERR_COUNT, "invalid recvcounts[%d] = %d", i, recvcounts[i]);
  buffer_arg(recvbuf, recvcounts[cm.rank()], *a.type.type);
  bottom_reduction(a, sendbuf, recvbuf);
  return a;
}

}  // namespace pure::api
