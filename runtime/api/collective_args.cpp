#include "api/collective_args.h"

#include <cstdint>

namespace pure::api {

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

std::ptrdiff_t Bottom::shift(const void* buf, const Datatype*& type) {
  if (buf || !type || type->size() == 0 || !at_absolute_addresses(*type)) return 0;
  const std::ptrdiff_t by = type->true_lb();
  const std::int64_t one = 1;
  const std::ptrdiff_t down = -by;
  shifted_.push_back(Datatype::hindexed(1, &one, &down, *type));
  shifted_.back()->commit();
  type = shifted_.back().get();
  return by;
}

}  // namespace pure::api
