// Round: one rank's side of one round of a collective on a communicator's
// Dropbox (see dropbox.h for the protocol and the reuse rule).
//
// Waits go through the member's Waiter (base/waiter.h), so a waiting rank
// steals task chunks and parks when ranks share cores; whoever publishes
// something another member may be parked on wakes it (Dropbox::wake).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "base/cpu.h"
#include "base/error.h"
#include "base/waiter.h"
#include "collectives/call_log.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "comm/comm.h"

namespace pure::coll {

// Publishes `s` in `mine` (release: the member's line goes with it), then
// looks at every other member's sequence number (acquire: theirs come with
// them); true when all of them reached s. The store-load fence between is
// Dekker's order, pairing with the same fence in the other members: of two
// members arriving at once, at least one sees the other, so the last
// arrival is always seen by someone. `Fence` is a policy for
// tests/litmus_test.cpp only.
template <class Fence = SeqCstFence, class SeqOf>
bool publish_and_see_all(std::atomic<std::uint64_t>& mine, std::uint64_t s, int n, int me,
                         SeqOf&& seq_of) {
  mine.store(s, std::memory_order_release);
  Fence::store_load();
  for (int k = 0; k < n; ++k)
    if (k != me && seq_of(k).load(std::memory_order_acquire) < s) return false;
  return true;
}

class Round {
 public:
  static constexpr int kNobody = -1;
  static constexpr int kEveryone = -2;

  Round(Member& member, Comm& comm, const char* call)
      : member_(member), comm_(comm), box_(dropbox(comm)), me_(comm.rank()), n_(comm.size()),
        s_(comm.next_round()), call_(call) {}

  std::uint64_t seq() const { return s_; }
  int me() const { return me_; }
  int size() const { return n_; }
  Dropbox& box() { return box_; }
  const Comm& comm() const { return comm_; }
  // The check word of a line that carries Pointers (call_log.h).
  std::int64_t tagged(std::size_t bytes) const { return tagged_check(call_, bytes); }
  // Writer of a round whose lines carry Pointers: every member's check word
  // must be this member's; otherwise every member gets the error.
  void check_tags() {
    const std::int64_t ours = mine().check;
    for (int k = 0; k < n_; ++k)
      if (of(k).check != ours) release_error(PURE_ERR_OTHER, other_collective(k));
  }
  // What a member whose line is from another collective is told, when the
  // calls behind it are not known.
  std::string other_collective(int member) const {
    return "rank " + std::to_string(member) + " of " + comm_.name() +
           " is in another collective than " + call_ +
           " (every rank must call the same collectives in the same order)";
  }
  // A member that found `member`'s line is not from this collective: the
  // mismatch of calls if known, else this.
  [[noreturn]] void fail_other_collective(int member) {
    fail_disagreement(comm_, PURE_ERR_OTHER, other_collective(member));
  }
  Line& mine() { return box_.arrival(me_, s_); }
  Line& of(int member) { return box_.arrival(member, s_); }
  Line& release_line() { return box_.release(s_); }

  // Publishes this member's line for the round and wakes `whom`.
  void arrive(int whom) {
    mine().seq.store(s_, std::memory_order_release);
    wake(whom);
  }
  // Until `member` has arrived at round `at` or later.
  void wait_arrival(int member, std::uint64_t at) {
    Line& l = box_.arrival(member, at);
    wait_for([&] { return l.seq.load(std::memory_order_acquire) >= at; }, member);
  }
  // Until every member has arrived at round `at` or later.
  void wait_all(std::uint64_t at) {
    for (int k = 0; k < n_; ++k) wait_arrival(k, at);
  }
  // The same for every member but this one (which has not arrived yet).
  void wait_others(std::uint64_t at) {
    for (int k = 0; k < n_; ++k)
      if (k != me_) wait_arrival(k, at);
  }
  // The writer publishes the round's result (or an error every member
  // reports: set box().error(seq()) first) and wakes everyone.
  void release(int error = 0) {
    Line& l = release_line();
    l.check = error;
    if (error != 0) box_.failed(s_).store(s_, std::memory_order_relaxed);
    l.seq.store(s_, std::memory_order_release);
    wake(kEveryone);
  }
  // Until the writer released this round; throws the error it published.
  void wait_release() {
    Line& l = release_line();
    wait_for([&] { return l.seq.load(std::memory_order_acquire) >= s_; }, -1);
    if (l.check != 0) fail(static_cast<int>(l.check), "%s", box_.error(s_).c_str());
  }
  // Writer side of a failed check: every member gets `message`, or the
  // mismatch of calls behind the failed check when there is one (call_log.h).
  [[noreturn]] void release_error(int code, const std::string& message) {
    try {
      fail_disagreement(comm_, code, message);
    } catch (const Error& e) {
      box_.error(s_) = e.what();
      release(e.code());
      throw;
    }
  }

  // Wakes `member` (who may be parked on something we just published).
  void notify(int member) { wake(member); }
  // The tight spin of the member's Waiter: true once done().
  template <class Done>
  [[gnu::always_inline]] bool spin_until(Done&& done) {
    return member_.waiter().spin(done);
  }
  // Waits until done(): a tight spin first (a rank with a core of its own
  // polls the one line it waits for; the wait loop's rounds would sit
  // between the line's arrival and its detection), then the wait loop.
  // `member` is who we wait for, for wait reports (-1: the round's writer).
  template <class Done>
  [[gnu::always_inline]] void wait_for(Done&& done, int member) {
    member_.wait_until(done, collective_site(call_, member, comm_), kWaitTight);
  }

  // The two-member barrier round (dropbox.h, PairSeqLine). Our release store
  // of s pairs with the peer's acquire load of it, and theirs with ours:
  // everything either member did before the barrier happens-before what
  // the other does after it.
  [[gnu::always_inline]] void pair_barrier() {
    std::atomic<std::uint64_t>* seq = box_.pair_seq().seq;
    const int peer = 1 - me_;
    seq[me_].store(s_, std::memory_order_release);
    wake(peer);
    const std::atomic<std::uint64_t>& theirs = seq[peer];
    wait_for([&] { return theirs.load(std::memory_order_acquire) >= s_; }, peer);
  }

  // Moves on to the next round of the same call.
  void next() { s_ = comm_.next_round(); }

  // A whole round that only synchronises: after it, every member has
  // finished everything it did before it.
  void barrier() {
    if (n_ == 1) return;
    if (n_ == 2) {
      pair_barrier();
      return;
    }
    if (!member_.own_core()) {
      last_arrival_releases();
      return;
    }
    mine().check = kBarrierCheck;
    arrive(me_ == 0 ? kNobody : 0);
    if (me_ == 0) {
      wait_all(s_);
      check_barrier();
      release();
    } else {
      wait_release();
    }
  }

  // Ranks sharing cores: publishes this member's line (already filled) and
  // says whether this member is the round's writer, the one that sees every
  // other member arrived and wins the claim. Whoever is not the writer waits
  // for the release as usual. Nobody has to be scheduled after the last
  // arrival just to pass the word on.
  bool claim_writer() {
    if (!arrive_and_see_everyone()) return false;
    // Two members may both see everyone: one wins. The exchange only
    // arbitrates (acq_rel orders it against the two winners' rounds on this
    // parity); the members' data was made visible by their release stores
    // and our acquire loads in arrive_and_see_everyone().
    std::atomic<std::uint64_t>& claim = box_.writer_claim(s_);
    std::uint64_t seen = claim.load(std::memory_order_relaxed);
    while (seen < s_)
      if (claim.compare_exchange_weak(seen, s_, std::memory_order_acq_rel)) return true;
    return false;
  }

  // Ranks sharing cores: whoever arrives last releases (a context switch
  // costs over a microsecond; see claim_writer). Two
  // releasers store the same value. They write no `check`: a barrier
  // releases no error (check_barrier), and a round released with one says so
  // in Dropbox::failed.
  void last_arrival_releases() {
    Line& l = release_line();
    mine().check = kBarrierCheck;
    if (arrive_and_see_everyone()) {
      check_barrier();
      l.seq.store(s_, std::memory_order_release);
      wake(kEveryone);
      return;
    }
    wait_for([&] { return l.seq.load(std::memory_order_acquire) >= s_; }, -1);
    // Released with an error: only a writer of another collective does
    // that (a barrier releaser fails instead when it sees one, check_barrier),
    // so our acquire load of s pairs with its release store, after which
    // `failed`, the check and the message are visible.
    if (box_.failed(s_).load(std::memory_order_relaxed) == s_)
      fail(static_cast<int>(l.check), "%s", box_.error(s_).c_str());
  }

 private:
  // The releaser of a barrier round, having seen every arrival: a member
  // in another collective must not be released as if its round were done
  // (it would read a result nobody wrote). Its lines were just read for
  // their seq, so this costs no transfer.
  void check_barrier() {
    for (int k = 0; k < n_; ++k)
      if (of(k).check != kBarrierCheck) fail_other_collective(k);
  }

  // Publishes this member's arrival and says whether every other member
  // has arrived too (publish_and_see_all).
  bool arrive_and_see_everyone() {
    return publish_and_see_all(mine().seq, s_, n_, me_,
                               [&](int k) -> std::atomic<std::uint64_t>& { return of(k).seq; });
  }

  void wake(int whom) {
    if (whom == kNobody) return;
    if (whom == kEveryone) {
      box_.wake_others(me_);
    } else if (whom != me_) {
      box_.wake(whom);
    }
  }

  Member& member_;
  Comm& comm_;
  Dropbox& box_;
  const int me_;
  const int n_;
  std::uint64_t s_;
  const char* call_;
};

}  // namespace pure::coll
