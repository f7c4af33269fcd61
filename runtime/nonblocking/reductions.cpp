// Schedules of the collectives that combine data: reduce, allreduce,
// reduce_scatter, scan, exscan; and reduce, allreduce and reduce_scatter on
// intercommunicators.
//
// Data is reduced as views (types/ops.h): dense items for predefined ops,
// the user's layout for user ops. Each member loads its input into a view
// of its own when the schedule starts, and views travel as bytes (dense
// items) or in the user's datatype (user ops). Which buffer holds the
// running result changes as folds alternate sides; since every algorithm
// here is fixed once built, that is tracked while building, and each step
// captures the buffers it uses.
//
// Order: MPI reduces in rank order (r0 op r1 op ... op r(n-1)), which
// matters for non-commutative ops. A fold of data from lower ranks into our
// result is result = theirs op result (Reduction::combine's in/inout);
// from higher ranks, tmp = result op tmp, after which tmp is the result.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "base/error.h"
#include "nonblocking/collectives.h"

namespace pure::nbc {

namespace {

// The reduction of one collective, bound to its schedule: views, transfers
// of runs of items, and the local steps that fold and copy them.
class Items {
 public:
  // The Reduction (which refers to the datatype) and the datatype live as
  // long as the schedule.
  Items(Schedule& s, const ReduceSpec& a, std::size_t count)
      : s_(&s),
        type_(s.keep(std::make_unique<TypeRef>(a.type))),
        count_(count),
        red_(&s.keep(std::make_unique<Reduction>(a.op, *a.type.type, a.handle, count))) {}

  const Reduction& red() const { return *red_; }
  std::size_t items() const { return red_->items(); }
  bool commutative(const ReduceSpec& a) const { return a.op.predefined != 0 || a.op.user.commute; }

  // A view of n items in the schedule's scratch.
  void* view(std::size_t n) const {
    std::size_t bytes = n * red_->stride();
    if (red_->user())
      bytes = n == 0
                  ? 1
                  : (n - 1) * red_->stride() + static_cast<std::size_t>(type_.type->true_extent());
    return red_->view_at(s_->scratch(bytes));
  }
  void send(int peer, const void* view, std::size_t first, std::size_t n) const {
    if (red_->user())
      s_->send(peer, red_->at(view, first), n, type_);
    else
      s_->send(peer, red_->at(view, first), n * red_->stride(), bytes_type());
  }
  void recv(int peer, void* view, std::size_t first, std::size_t n) const {
    if (red_->user())
      s_->recv(peer, red_->at(view, first), n, type_);
    else
      s_->recv(peer, red_->at(view, first), n * red_->stride(), bytes_type());
  }

  // Local steps. load: the input (count_ elements of the type at `buf`)
  // into a view; fold: inout[first..] = in[first..] op inout[first..];
  // copy: a view into another; deliver: items [first, first + n) of a view
  // into the user's buffer of n items' elements (`out` describes them).
  void load(const void* buf, void* view) const {
    const Reduction* red = red_;
    const Datatype* t = type_.type;
    const std::size_t count = count_;
    s_->local([red, t, count, buf, view] {
      if (red->user())
        red->copy(buf, view, red->items());
      else if (red->packed())
        pack(buf, count, *t, 0, view, red->bytes());
      else if (red->bytes())
        std::memcpy(view, static_cast<const char*>(buf) + t->true_lb(), red->bytes());
    });
  }
  void fold(const void* in, void* inout, std::size_t first, std::size_t n) const {
    const Reduction* red = red_;
    s_->local(
        [red, in, inout, first, n] { red->combine(red->at(in, first), red->at(inout, first), n); });
  }
  void copy(const void* from, void* to) const {
    const Reduction* red = red_;
    s_->local([red, from, to] { red->copy(from, to, red->items()); });
  }
  void deliver(const void* view, std::size_t first, const Reduction& out, void* buf) const {
    const Reduction* red = red_;
    const Reduction* o = &out;
    s_->local([red, o, view, first, buf] { o->deliver(red->at(view, first), buf); });
  }

 private:
  Schedule* s_;
  TypeRef type_;
  std::size_t count_;
  const Reduction* red_;
};

// Folds `theirs`, received from lower ranks, into `mine` (mine = theirs op
// mine), or from higher ranks (theirs = mine op theirs, then the two
// buffers trade roles).
void fold_from(const Items& it, bool lower, void*& mine, void*& theirs, std::size_t n) {
  if (lower) {
    it.fold(theirs, mine, 0, n);
  } else {
    it.fold(mine, theirs, 0, n);
    std::swap(mine, theirs);
  }
}

// Binomial tree towards rank 0 in rank order: every member ends with the
// reduction of its subtree in `acc` (rank 0: of everyone), members other
// than 0 having sent it to their parent. Returns rank 0's result buffer.
void* tree_to_zero(Schedule& s, const Items& it, void* acc, void* tmp) {
  const int n = s.size(), me = s.rank();
  const std::size_t N = it.items();
  for (int mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      it.send(me - mask, acc, 0, N);
      return acc;
    }
    if (me + mask < n) {
      it.recv(me + mask, tmp, 0, N);
      s.round();
      fold_from(it, false, acc, tmp, N);
    }
  }
  return acc;
}

void allreduce_doubling(Schedule& s, const ReduceSpec& a, const Items& it, void* acc, void* tmp) {
  const int n = s.size(), me = s.rank();
  const std::size_t N = it.items();
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  const int rem = n - pof2;
  // The first 2*rem ranks pair up: the even one hands its input to the odd
  // one and waits for the result; the others take part as new ranks
  // 0..pof2-1, in the same order as their old ones.
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      it.send(me + 1, acc, 0, N);
      s.round();
      it.recv(me + 1, tmp, 0, N);
      s.round();
      it.deliver(tmp, 0, it.red(), a.recv);
      return;
    }
    it.recv(me - 1, tmp, 0, N);
    s.round();
    fold_from(it, true, acc, tmp, N);
    newrank = me / 2;
  } else {
    newrank = me - rem;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int newdst = newrank ^ mask;
    const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
    it.send(dst, acc, 0, N);
    it.recv(dst, tmp, 0, N);
    s.round();
    fold_from(it, dst < me, acc, tmp, N);
  }
  if (me < 2 * rem) it.send(me - 1, acc, 0, N);
  it.deliver(acc, 0, it.red(), a.recv);
}

// The items of n nearly equal chunks (or of the given counts of elements,
// `per` items each): first item and length of each.
struct Chunks {
  std::vector<std::size_t> first, len;
  std::size_t most = 0;
  Chunks(std::size_t items, int n)
      : first(static_cast<std::size_t>(n)), len(static_cast<std::size_t>(n)) {
    std::size_t at = 0;
    for (std::size_t c = 0; c < len.size(); ++c) {
      len[c] = items / len.size() + (c < items % len.size() ? 1 : 0);
      first[c] = at;
      at += len[c];
      most = std::max(most, len[c]);
    }
  }
  Chunks(const std::vector<int>& counts, std::size_t per)
      : first(counts.size()), len(counts.size()) {
    std::size_t at = 0;
    for (std::size_t c = 0; c < len.size(); ++c) {
      len[c] = static_cast<std::size_t>(counts[c]) * per;
      first[c] = at;
      at += len[c];
      most = std::max(most, len[c]);
    }
  }
};

// Ring reduce-scatter over the chunks of `acc`: n-1 rounds, in each of
// which every member passes one chunk on to the next and folds the one it
// got from the previous. Member me ends with chunk (me + shift) mod n
// complete. Commutative ops only: the fold order rotates.
void ring_reduce_scatter(Schedule& s, const Items& it, const Chunks& c, void* acc, void* tmp,
                         int shift) {
  const int n = s.size(), me = s.rank();
  const int right = (me + 1) % n, left = (me - 1 + n) % n;
  auto at = [&](int k) { return static_cast<std::size_t>(((k % n) + n) % n); };
  for (int step = 0; step < n - 1; ++step) {
    const std::size_t out = at(me + shift - 1 - step), in = at(me + shift - 2 - step);
    it.send(right, acc, c.first[out], c.len[out]);
    it.recv(left, tmp, 0, c.len[in]);
    s.round();
    const Reduction& red = it.red();
    it.fold(tmp, red.at(acc, c.first[in]), 0, c.len[in]);
  }
}

void allreduce_ring(Schedule& s, const ReduceSpec& a, const Items& it, void* acc) {
  const int n = s.size(), me = s.rank();
  const Chunks c(it.items(), n);
  void* tmp = it.view(c.most);
  ring_reduce_scatter(s, it, c, acc, tmp, 1);
  // Member me has chunk me + 1; pass complete chunks around the ring.
  const int right = (me + 1) % n, left = (me - 1 + n) % n;
  auto at = [&](int k) { return static_cast<std::size_t>(((k % n) + n) % n); };
  for (int step = 0; step < n - 1; ++step) {
    const std::size_t out = at(me + 1 - step), in = at(me - step);
    it.send(right, acc, c.first[out], c.len[out]);
    it.recv(left, acc, c.first[in], c.len[in]);
    s.round();
  }
  it.deliver(acc, 0, it.red(), a.recv);
}

}  // namespace

void reduce(Schedule& s, Comm& comm, const ReduceSpec& a, int root) {
  if (meets_in_memory(comm, a.op, a.count * a.type.type->size()))
    return direct_reduce(s, comm, a, root);
  Items it(s, a, a.count);
  const std::size_t N = it.items();
  const int me = s.rank();
  void* acc = it.view(N);
  s.round();
  it.load(a.send ? a.send : a.recv, acc);
  if (root < 0 && it.commutative(a) && it.red().bytes() >= kRingAllreduceBytes &&
      N >= static_cast<std::size_t>(s.size()) && s.size() > 1) {
    allreduce_ring(s, a, it, acc);
    return;
  }
  void* tmp = it.view(N);
  if (root < 0) {
    allreduce_doubling(s, a, it, acc, tmp);
    return;
  }
  acc = tree_to_zero(s, it, acc, tmp);
  if (me == 0 && root == 0) {
    it.deliver(acc, 0, it.red(), a.recv);
  } else if (me == 0) {
    it.send(root, acc, 0, N);
  } else if (me == root) {
    void* result = it.view(N);
    it.recv(0, result, 0, N);
    s.round();
    it.deliver(result, 0, it.red(), a.recv);
  }
}

void reduce_scatter(Schedule& s, Comm& comm, const ReduceSpec& a,
                    const std::vector<int>& recvcounts) {
  if (meets_in_memory(comm, a.op, a.count * a.type.type->size()))
    return direct_reduce_scatter(s, comm, a, recvcounts);
  Items it(s, a, a.count);
  const int n = s.size(), me = s.rank();
  const std::size_t per = a.count ? it.items() / a.count : 0;  // items per element
  const Chunks c(recvcounts, per);
  ReduceSpec mine_spec = a;
  Items mine(s, mine_spec, static_cast<std::size_t>(recvcounts[static_cast<std::size_t>(me)]));
  void* acc = it.view(it.items());
  s.round();
  it.load(a.send ? a.send : a.recv, acc);
  if (it.commutative(a) && n > 1) {
    void* tmp = it.view(c.most);
    ring_reduce_scatter(s, it, c, acc, tmp, 0);
    it.deliver(acc, c.first[static_cast<std::size_t>(me)], mine.red(), a.recv);
    return;
  }
  // In rank order: the whole vector to rank 0, which hands out the chunks.
  void* tmp = it.view(it.items());
  acc = tree_to_zero(s, it, acc, tmp);
  s.round();
  if (me == 0) {
    for (int k = 1; k < n; ++k)
      it.send(k, acc, c.first[static_cast<std::size_t>(k)], c.len[static_cast<std::size_t>(k)]);
    it.deliver(acc, 0, mine.red(), a.recv);
    return;
  }
  void* got = it.view(c.len[static_cast<std::size_t>(me)]);
  it.recv(0, got, 0, c.len[static_cast<std::size_t>(me)]);
  s.round();
  it.deliver(got, 0, mine.red(), a.recv);
}

void scan(Schedule& s, const ReduceSpec& a, bool exclusive) {
  Items it(s, a, a.count);
  const int n = s.size(), me = s.rank();
  const std::size_t N = it.items();
  // partial: the reduction of the block of ranks this member has heard of
  // (its own and those it exchanged with); result: of those below it (and
  // itself, for scan).
  void* partial = it.view(N);
  void* tmp = it.view(N);
  void* result = it.view(N);
  bool has_result = !exclusive;
  s.round();
  it.load(a.send ? a.send : a.recv, partial);
  if (!exclusive) it.copy(partial, result);
  for (int mask = 1; mask < n; mask <<= 1) {
    const int dst = me ^ mask;
    if (dst >= n) continue;
    it.send(dst, partial, 0, N);
    it.recv(dst, tmp, 0, N);
    s.round();
    if (dst < me) {
      // tmp holds ranks that are all below ours.
      if (has_result)
        it.fold(tmp, result, 0, N);
      else
        it.copy(tmp, result);
      has_result = true;
      it.fold(tmp, partial, 0, N);
    } else {
      fold_from(it, false, partial, tmp, N);
    }
  }
  // Exscan leaves rank 0's buffer alone: MPI defines no result there.
  if (has_result) it.deliver(result, 0, it.red(), a.recv);
}

namespace {

// Intercommunicators: receives every input of the other group whole (N
// items from each member, into views of its own), then folds them in that
// group's rank order; returns the view holding the result.
void* fold_other_group(Schedule& s, const Sides& g, const Items& it) {
  const std::size_t N = it.items();
  std::vector<void*> theirs(static_cast<std::size_t>(g.remote_size));
  for (int j = 0; j < g.remote_size; ++j) {
    theirs[static_cast<std::size_t>(j)] = it.view(N);
    it.recv(g.remote(j), theirs[static_cast<std::size_t>(j)], 0, N);
  }
  s.round();
  // r0 op (r1 op (... op r(n-1))): MPI's order, whatever the op.
  void* acc = theirs.back();
  for (int j = g.remote_size - 2; j >= 0; --j)
    it.fold(theirs[static_cast<std::size_t>(j)], acc, 0, N);
  return acc;
}

// Sends this member's input, loaded into a view, to the members of the
// other group `to` lists.
void give_input(const Sides& g, const Items& it, const ReduceSpec& a, const std::vector<int>& to) {
  void* mine = it.view(it.items());
  it.load(a.send, mine);
  for (int j : to) it.send(g.remote(j), mine, 0, it.items());
}

std::vector<int> every_rank(int n) {
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) all[static_cast<std::size_t>(j)] = j;
  return all;
}

}  // namespace

void inter_reduce(Schedule& s, const Sides& g, const ReduceSpec& a, int root) {
  Items it(s, a, a.count);
  s.round();
  if (root == kEveryMember)
    give_input(g, it, a, every_rank(g.remote_size));
  else if (root >= 0)
    give_input(g, it, a, {root});
  if (root != kEveryMember && root != PURE_ROOT) return;
  it.deliver(fold_other_group(s, g, it), 0, it.red(), a.recv);
}

void inter_reduce_scatter(Schedule& s, const Sides& g, const ReduceSpec& a,
                          const std::vector<int>& recvcounts) {
  Items it(s, a, a.count);
  const std::size_t per = a.count ? it.items() / a.count : 0;  // items per element
  const Chunks c(recvcounts, per);
  Items mine(s, a, static_cast<std::size_t>(recvcounts[static_cast<std::size_t>(g.me)]));
  s.round();
  give_input(g, it, a, every_rank(g.remote_size));
  it.deliver(fold_other_group(s, g, it), c.first[static_cast<std::size_t>(g.me)], mine.red(),
             a.recv);
}

}  // namespace pure::nbc
