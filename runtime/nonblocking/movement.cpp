// Schedules of the collectives that move data without combining it:
// barrier, bcast, gather, scatter, allgather, alltoall, on intra- and on
// intercommunicators, and the neighbourhood collectives.
#include <algorithm>
#include <cstring>
#include <string>

#include "base/error.h"
#include "nonblocking/collectives.h"

namespace pure::nbc {

namespace {

std::size_t bytes_of(const Block& b) { return b.count * b.type.type->size(); }

// A local step copying this member's block `from` into its block `to`; the
// sizes must agree, as between two members.
void copy_block(Schedule& s, const Block& from, const Block& to) {
  s.local([&s, from, to] {
    const std::size_t sent = bytes_of(from), room = bytes_of(to);
    if (sent != room)
      s.error(PURE_ERR_TRUNCATE, "rank " + std::to_string(s.rank()) + " sends " +
                                     std::to_string(sent) + " bytes to itself but expects " +
                                     std::to_string(room) +
                                     " (send and receive counts and types must match)");
    const std::size_t n = std::min(sent, room);
    if (n) copy_range(from.buf, from.count, *from.type.type, to.buf, to.count, *to.type.type, 0, n);
  });
}

}  // namespace

void barrier(Schedule& s) {
  const int n = s.size(), me = s.rank();
  for (int k = 1; k < n; k <<= 1) {
    s.round();
    s.send((me + k) % n, nullptr, 0, bytes_type());
    s.recv((me - k + n) % n, nullptr, 0, bytes_type());
  }
}

void bcast(Schedule& s, void* buf, std::size_t count, const TypeRef& type, int root) {
  const int n = s.size();
  const int vr = (s.rank() - root + n) % n;  // rank relative to the root
  auto real = [&](int v) { return (v + root) % n; };
  // The parent is vr without its lowest set bit; the children are vr plus
  // each power of two below that bit (every one for the root).
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      s.round();
      s.recv(real(vr - mask), buf, count, type);
      break;
    }
  }
  s.round();
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) s.send(real(vr + mask), buf, count, type);
}

void gather(Schedule& s, int root, const Block& mine, const std::vector<Block>& all) {
  const int n = s.size(), me = s.rank();
  s.round();
  if (me != root) {
    s.send(root, mine.buf, mine.count, mine.type);
    return;
  }
  if (mine.buf) copy_block(s, mine, all[static_cast<std::size_t>(me)]);
  for (int k = 1; k < n; ++k) {
    const int from = (me + k) % n;
    const Block& b = all[static_cast<std::size_t>(from)];
    s.recv(from, b.buf, b.count, b.type);
  }
}

void scatter(Schedule& s, int root, const std::vector<Block>& all, const Block& mine) {
  const int n = s.size(), me = s.rank();
  s.round();
  if (me != root) {
    s.recv(root, mine.buf, mine.count, mine.type);
    return;
  }
  if (mine.buf) copy_block(s, all[static_cast<std::size_t>(me)], mine);
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n;
    const Block& b = all[static_cast<std::size_t>(to)];
    s.send(to, b.buf, b.count, b.type);
  }
}

void allgather(Schedule& s, const Block& mine, const std::vector<Block>& all) {
  const int n = s.size(), me = s.rank();
  const Block& slot = all[static_cast<std::size_t>(me)];
  s.round();
  if (mine.buf) copy_block(s, mine, slot);
  const Block& out = mine.buf ? mine : slot;
  for (int k = 1; k < n; ++k) {
    s.send((me + k) % n, out.buf, out.count, out.type);
    const int from = (me - k + n) % n;
    const Block& b = all[static_cast<std::size_t>(from)];
    s.recv(from, b.buf, b.count, b.type);
  }
}

void alltoall(Schedule& s, const std::vector<Block>& sends, const std::vector<Block>& recvs,
              bool in_place) {
  const int n = s.size(), me = s.rank();
  s.round();
  // In place there are no send blocks: each is filled below.
  std::vector<Block> out = in_place ? std::vector<Block>(static_cast<std::size_t>(n)) : sends;
  if (in_place) {
    // What goes out is what the receives overwrite: packed aside when the
    // round starts, before anything is received.
    std::vector<std::size_t> at(static_cast<std::size_t>(n) + 1, 0);
    for (int k = 0; k < n; ++k)
      at[static_cast<std::size_t>(k) + 1] =
          at[static_cast<std::size_t>(k)] +
          (k == me ? 0 : bytes_of(recvs[static_cast<std::size_t>(k)]));
    unsigned char* staged = s.scratch(at.back());
    for (int k = 0; k < n; ++k) {
      if (k == me) continue;
      const Block& b = recvs[static_cast<std::size_t>(k)];
      unsigned char* to = staged + at[static_cast<std::size_t>(k)];
      s.local([b, to] {
        if (const std::size_t bytes = bytes_of(b)) pack(b.buf, b.count, *b.type.type, 0, to, bytes);
      });
      out[static_cast<std::size_t>(k)] = Block{to, bytes_of(b), bytes_type()};
    }
  } else {
    copy_block(s, sends[static_cast<std::size_t>(me)], recvs[static_cast<std::size_t>(me)]);
  }
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n, from = (me - k + n) % n;
    const Block& o = out[static_cast<std::size_t>(to)];
    s.send(to, o.buf, o.count, o.type);
    const Block& b = recvs[static_cast<std::size_t>(from)];
    s.recv(from, b.buf, b.count, b.type);
  }
}

void neighbours(Schedule& s, const ProcessTopology& t, const std::vector<Block>& out,
                const std::vector<Block>& in) {
  std::vector<int> from, to;
  t.neighbourhood(s.rank(), from, to);
  s.round();
  // Receives first, so that a message to this member finds its buffer
  // posted whenever the member is a neighbour of itself.
  for (std::size_t i = 0; i < from.size(); ++i)
    if (from[i] != PURE_PROC_NULL)
      s.recv(from[i], in[i].buf, in[i].count, in[i].type, t.recv_tag(static_cast<int>(i)));
  for (std::size_t j = 0; j < to.size(); ++j)
    if (to[j] != PURE_PROC_NULL)
      s.send(to[j], out[j].buf, out[j].count, out[j].type, t.send_tag(static_cast<int>(j)));
}

// ---- intercommunicators ----

void inter_barrier(Schedule& s, const Sides& g) {
  // Nobody leaves before every member of the other group has come.
  s.round();
  for (int j = 0; j < g.remote_size; ++j) {
    s.send(g.remote(j), nullptr, 0, bytes_type());
    s.recv(g.remote(j), nullptr, 0, bytes_type());
  }
}

void inter_bcast(Schedule& s, const Sides& g, void* buf, std::size_t count, const TypeRef& type,
                 int root) {
  s.round();
  if (root == PURE_ROOT)
    for (int j = 0; j < g.remote_size; ++j) s.send(g.remote(j), buf, count, type);
  else if (root >= 0)
    s.recv(g.remote(root), buf, count, type);
}

void inter_gather(Schedule& s, const Sides& g, int root, const Block& mine,
                  const std::vector<Block>& all) {
  s.round();
  if (root == PURE_ROOT)
    for (int j = 0; j < g.remote_size; ++j) {
      const Block& b = all[static_cast<std::size_t>(j)];
      s.recv(g.remote(j), b.buf, b.count, b.type);
    }
  else if (root >= 0)
    s.send(g.remote(root), mine.buf, mine.count, mine.type);
}

void inter_scatter(Schedule& s, const Sides& g, int root, const std::vector<Block>& all,
                   const Block& mine) {
  s.round();
  if (root == PURE_ROOT)
    for (int j = 0; j < g.remote_size; ++j) {
      const Block& b = all[static_cast<std::size_t>(j)];
      s.send(g.remote(j), b.buf, b.count, b.type);
    }
  else if (root >= 0)
    s.recv(g.remote(root), mine.buf, mine.count, mine.type);
}

void inter_allgather(Schedule& s, const Sides& g, const Block& mine,
                     const std::vector<Block>& all) {
  s.round();
  for (int j = 0; j < g.remote_size; ++j) {
    const Block& b = all[static_cast<std::size_t>(j)];
    s.recv(g.remote(j), b.buf, b.count, b.type);
    s.send(g.remote(j), mine.buf, mine.count, mine.type);
  }
}

void inter_alltoall(Schedule& s, const Sides& g, const std::vector<Block>& sends,
                    const std::vector<Block>& recvs) {
  s.round();
  for (int j = 0; j < g.remote_size; ++j) {
    const Block& in = recvs[static_cast<std::size_t>(j)];
    const Block& out = sends[static_cast<std::size_t>(j)];
    s.recv(g.remote(j), in.buf, in.count, in.type);
    s.send(g.remote(j), out.buf, out.count, out.type);
  }
}

}  // namespace pure::nbc
