// Random point-to-point message storms with fixed seeds.
//
// Every rank sends a random number of messages to random peers (itself
// included) with random sizes concentrated around the eager limit and a few
// large ones, random tags from a small set, and a random mix of send, isend,
// issend and ssend. Receivers mix specific and wildcard receives, blocking
// and non-blocking, and complete them with every wait/test call.
//
// What makes it checkable: message number `seq` of the stream (src, dst, tag)
// has a size and payload that are functions of (seed, src, dst, tag, seq). A
// receiver numbers the messages it gets from each (src, tag) in the order its
// receives were posted; MPI's non-overtaking rule says that is the send
// order, so every byte and every size can be checked.
//
// What makes it terminate: each rank first tells every other rank how many
// messages of each tag to expect. After its send phase a rank posts its
// receives in batches of one pattern each (specific cells; ANY_SOURCE with a
// tag; a source with ANY_TAG; or both wildcards), never more than the
// messages left that the pattern matches, so every posted receive is
// eventually satisfied.
//
// What makes it deadlock-free: a rank blocks on receives only after it has
// sent everything, and sends never wait for a receiver that is itself
// waiting: blocking sends that need the receiver (ssend, and standard sends
// of rendezvous size) use the sync tag only, and every receive of the sync
// tag is posted up front as an irecv, before any wildcard receive (so
// wildcards never take those messages: a message matches the earliest
// posted receive). During the send phase a rank only receives messages that
// iprobe has shown to be there.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;
constexpr int kTags = 4;        // ordinary tags 0..3
constexpr int kSyncTag = 7;     // messages whose blocking send waits for the receiver
constexpr int kClasses = kTags + 1;  // counts per destination: tags 0..3, then the sync tag
constexpr int kCountTag = 100;  // the up-front count exchange
constexpr int kMaxBatch = 5;

int tag_of_class(int c) { return c < kTags ? c : kSyncTag; }

struct Storm {
  std::uint64_t seed;
  std::size_t eager_limit;
  int queue_slots;
  int min_messages;  // per rank
  int max_messages;
};

// Message size of stream (src, dst, tag), number seq: mostly around the
// eager limit, some tiny, a few up to 1 MiB.
std::size_t size_of(const Storm& s, int src, int dst, int tag, int seq) {
  const std::uint64_t h = key_of(s.seed, static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst),
                                 static_cast<std::uint64_t>(tag), static_cast<std::uint64_t>(seq));
  const std::size_t L = s.eager_limit;
  const std::uint64_t r = h % 100, v = h >> 8;
  if (r < 5) return v % 17;
  if (r < 45) return L - 64 + v % 129;
  if (r < 98) return v % (3 * L + 1);
  return 4 * L + v % ((1u << 20) - 4 * L + 1);
}

std::uint64_t payload_key(const Storm& s, int src, int dst, int tag, int seq) {
  return key_of(s.seed ^ 0x5eed, static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst),
                static_cast<std::uint64_t>(tag), static_cast<std::uint64_t>(seq));
}

enum class SendMode { send, isend, issend, ssend };

struct Outgoing {
  int dst;
  int tag;
  int seq;
  SendMode mode;
};

// One posted receive, in posting order.
struct Posted {
  std::vector<char> buf;
  PURE_Request req = PURE_REQUEST_NULL;
  PURE_Status status{};
  bool blocking = false;
};

class StormRank {
 public:
  StormRank(const Storm& storm, int rank, int size)
      : s_(storm), rank_(rank), size_(size), rng_(key_of(storm.seed, static_cast<std::uint64_t>(rank))) {}

  void run() {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    plan_sends();
    exchange_counts();
    post_sync_receives();
    // Send phase: every send, in random order and modes; now and then take
    // whatever has already arrived (iprobe, then a receive of exactly that).
    for (const Outgoing& o : sends_) {
      send(o);
      if (pick_int(0, 2) == 0) receive_what_arrived();
    }
    // Receive phase: batches of one pattern each until nothing is left.
    while (left_total() > 0) receive_batch();
    EXPECT_PURE_OK(pure_waitall(static_cast<int>(send_reqs_.size()), send_reqs_.data(),
                                PURE_STATUSES_IGNORE));
    for (Posted& p : sync_) EXPECT_PURE_OK(pure_wait(&p.req, &p.status));
    check(sync_);
    for (int src = 0; src < size_; ++src)
      for (int c = 0; c < kClasses; ++c)
        EXPECT_EQ(next_seq(src, tag_of_class(c)), expected_[idx(src, c)])
            << "messages from " << src << " with tag " << tag_of_class(c);
  }

 private:
  // A failure after which this rank's bookkeeping is wrong: going on could
  // only hang, so the rank ends the job (the test then fails visibly).
  void require(bool ok, const std::string& what) {
    if (ok) return;
    ADD_FAILURE() << "rank " << rank_ << ": " << what;
    throw std::runtime_error(what);
  }

  size_t idx(int src, int cls) const { return static_cast<size_t>(src * kClasses + cls); }
  int& next_seq(int src, int tag) {
    return next_seq_[static_cast<size_t>(src * (kSyncTag + 1) + tag)];
  }
  // Plain modulo, not std::uniform_int_distribution: its output differs
  // between standard libraries, and a seed must replay everywhere.
  size_t pick(size_t lo, size_t hi) { return lo + static_cast<size_t>(rng_() % (hi - lo + 1)); }
  int pick_int(int lo, int hi) {
    return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
  }

  void plan_sends() {
    const int messages = pick_int(s_.min_messages, s_.max_messages);
    std::vector<int> seq(static_cast<size_t>(size_ * (kSyncTag + 1)), 0);
    sent_counts_.assign(static_cast<size_t>(size_ * kClasses), 0);
    for (int m = 0; m < messages; ++m) {
      const int dst = pick_int(0, size_ - 1);
      const int cls = pick_int(0, 6) == 0 ? kTags : pick_int(0, kTags - 1);
      const int tag = tag_of_class(cls);
      const int q = seq[static_cast<size_t>(dst * (kSyncTag + 1) + tag)]++;
      sent_counts_[idx(dst, cls)] += 1;
      const bool eager = size_of(s_, rank_, dst, tag, q) < s_.eager_limit;
      SendMode mode;
      const int r = pick_int(0, 9);
      if (tag == kSyncTag)
        mode = r < 4 ? SendMode::ssend : r < 8 ? SendMode::send : SendMode::issend;
      else
        mode = r < 4 ? SendMode::isend : r < 6 ? SendMode::issend : eager ? SendMode::send : SendMode::isend;
      sends_.push_back({dst, tag, q, mode});
    }
  }

  void exchange_counts() {
    for (int step = 0; step < size_; ++step) {
      const int dst = (rank_ + step) % size_;
      EXPECT_PURE_OK(pure_send(&sent_counts_[idx(dst, 0)], kClasses, PURE_INT, dst, kCountTag, W));
    }
    expected_.assign(static_cast<size_t>(size_ * kClasses), 0);
    for (int step = 0; step < size_; ++step) {
      const int src = (rank_ + size_ - step) % size_;
      EXPECT_PURE_OK(pure_recv(&expected_[idx(src, 0)], kClasses, PURE_INT, src, kCountTag, W,
                               PURE_STATUS_IGNORE));
    }
    left_ = expected_;
    next_seq_.assign(static_cast<size_t>(size_ * (kSyncTag + 1)), 0);
  }

  void post_sync_receives() {
    for (int src = 0; src < size_; ++src) {
      for (int k = 0; k < expected_[idx(src, kTags)]; ++k) {
        sync_.emplace_back();
        Posted& p = sync_.back();
        // The exact size plus slack: a message out of order would likely be
        // reported as truncated.
        p.buf.resize(size_of(s_, src, rank_, kSyncTag, k) + 16);
        EXPECT_PURE_OK(pure_irecv(p.buf.data(), static_cast<int>(p.buf.size()), PURE_BYTE, src,
                                  kSyncTag, W, &p.req));
      }
    }
  }

  int left_total() const {
    int t = 0;
    for (int src = 0; src < size_; ++src)
      for (int c = 0; c < kTags; ++c) t += left_[idx(src, c)];
    return t;
  }

  void send(const Outgoing& o) {
    const std::size_t bytes = size_of(s_, rank_, o.dst, o.tag, o.seq);
    outs_.push_back(make_payload(bytes, payload_key(s_, rank_, o.dst, o.tag, o.seq)));
    const void* buf = outs_.back().data();
    const int c = static_cast<int>(bytes);
    PURE_Request req = PURE_REQUEST_NULL;
    switch (o.mode) {
      case SendMode::send: EXPECT_PURE_OK(pure_send(buf, c, PURE_BYTE, o.dst, o.tag, W)); break;
      case SendMode::ssend: EXPECT_PURE_OK(pure_ssend(buf, c, PURE_BYTE, o.dst, o.tag, W)); break;
      case SendMode::isend: EXPECT_PURE_OK(pure_isend(buf, c, PURE_BYTE, o.dst, o.tag, W, &req)); break;
      case SendMode::issend: EXPECT_PURE_OK(pure_issend(buf, c, PURE_BYTE, o.dst, o.tag, W, &req)); break;
    }
    if (req != PURE_REQUEST_NULL) send_reqs_.push_back(req);
  }

  // Largest message still to come in the cells a receive pattern matches.
  std::size_t capacity_for(int src, int tag) {
    std::size_t cap = 0;
    for (int s = 0; s < size_; ++s) {
      if (src != PURE_ANY_SOURCE && s != src) continue;
      for (int c = 0; c < kTags; ++c) {
        if (tag != PURE_ANY_TAG && c != tag) continue;
        const int first = next_seq(s, c);
        for (int q = first; q < first + left_[idx(s, c)]; ++q)
          cap = std::max(cap, size_of(s_, s, rank_, c, q));
      }
    }
    return cap;
  }

  void receive_batch() {
    // Choose one pattern for the whole batch and how many receives it posts.
    std::vector<std::pair<int, int>> envelopes;  // (source, tag) per receive
    const int kind = pick_int(0, 3);
    if (kind == 0) {
      std::vector<int> reserved(left_.size(), 0);
      const size_t k = pick(1, kMaxBatch);
      for (size_t i = 0; i < k; ++i) {
        std::vector<std::pair<int, int>> cells;
        for (int s = 0; s < size_; ++s)
          for (int c = 0; c < kTags; ++c)
            if (left_[idx(s, c)] > reserved[idx(s, c)]) cells.push_back({s, c});
        if (cells.empty()) break;
        const auto cell = cells[pick(0, cells.size() - 1)];
        reserved[idx(cell.first, cell.second)] += 1;
        envelopes.push_back(cell);
      }
    } else {
      int src = PURE_ANY_SOURCE, tag = PURE_ANY_TAG, avail = 0;
      if (kind == 1) tag = pick_int(0, kTags - 1);
      if (kind == 2) src = pick_int(0, size_ - 1);
      for (int s = 0; s < size_; ++s)
        for (int c = 0; c < kTags; ++c)
          if ((src < 0 || s == src) && (tag < 0 || c == tag)) avail += left_[idx(s, c)];
      const int k = std::min(avail, pick_int(1, kMaxBatch));
      for (int i = 0; i < k; ++i) envelopes.push_back({src, tag});
    }
    if (envelopes.empty()) return;

    std::vector<Posted> batch(envelopes.size());
    std::vector<size_t> pending;  // indices into batch of non-blocking receives
    for (size_t i = 0; i < envelopes.size(); ++i) {
      Posted& p = batch[i];
      const auto [src, tag] = envelopes[i];
      p.buf.resize(capacity_for(src, tag) + 16);
      p.blocking = pick_int(0, 2) == 0;
      const int c = static_cast<int>(p.buf.size());
      if (p.blocking) {
        EXPECT_PURE_OK(pure_recv(p.buf.data(), c, PURE_BYTE, src, tag, W, &p.status));
      } else {
        EXPECT_PURE_OK(pure_irecv(p.buf.data(), c, PURE_BYTE, src, tag, W, &p.req));
        pending.push_back(i);
      }
    }
    complete(batch, pending);
    check(batch);
  }

  // Probes a random ordinary tag from any source and, if something is there,
  // receives exactly that message into a buffer of its exact size: the
  // probe must report the next message of that stream, size included.
  void receive_what_arrived() {
    for (int attempt = 0; attempt < 3; ++attempt) {
      const int tag = pick_int(0, kTags - 1);
      int flag = 0;
      PURE_Status st;
      EXPECT_PURE_OK(pure_iprobe(PURE_ANY_SOURCE, tag, W, &flag, &st));
      if (!flag) continue;
      const int src = st.MPI_SOURCE;
      require(src >= 0 && src < size_, "probe reported source " + std::to_string(src));
      EXPECT_EQ(st.MPI_TAG, tag);
      const std::size_t want = size_of(s_, src, rank_, tag, next_seq(src, tag));
      int count = -1;
      EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
      EXPECT_EQ(count, static_cast<int>(want)) << "probed message from " << src << " tag " << tag;
      std::vector<Posted> one(1);
      one[0].buf.resize(want);
      one[0].blocking = true;
      EXPECT_PURE_OK(pure_recv(one[0].buf.data(), static_cast<int>(want), PURE_BYTE, src, tag, W,
                               &one[0].status));
      check(one);
    }
  }

  // Completes the pending receives of a batch with one randomly chosen call.
  void complete(std::vector<Posted>& batch, const std::vector<size_t>& pending) {
    if (pending.empty()) return;
    const int n = static_cast<int>(pending.size());
    std::vector<PURE_Request> reqs;
    for (size_t i : pending) reqs.push_back(batch[i].req);
    std::vector<PURE_Status> sts(pending.size());
    std::vector<int> indices(pending.size());
    auto take = [&](int i, const PURE_Status& st) {
      require(i >= 0 && i < n, "completion reported index " + std::to_string(i));
      batch[pending[static_cast<size_t>(i)]].status = st;
      batch[pending[static_cast<size_t>(i)]].req = PURE_REQUEST_NULL;
    };
    int flag = 0, index = 0, outcount = 0, done = 0;
    PollGuard poll("completing a receive batch by polling");
    switch (pick_int(0, 5)) {
      case 0:
        EXPECT_PURE_OK(pure_waitall(n, reqs.data(), sts.data()));
        for (int i = 0; i < n; ++i) take(i, sts[static_cast<size_t>(i)]);
        break;
      case 1:
        for (; done < n; ++done) {
          EXPECT_PURE_OK(pure_waitany(n, reqs.data(), &index, &sts[0]));
          take(index, sts[0]);
        }
        break;
      case 2:
        while (done < n) {
          EXPECT_PURE_OK(pure_waitsome(n, reqs.data(), &outcount, indices.data(), sts.data()));
          require(outcount > 0, "waitsome completed " + std::to_string(outcount));
          for (int i = 0; i < outcount; ++i) take(indices[static_cast<size_t>(i)], sts[static_cast<size_t>(i)]);
          done += outcount;
        }
        break;
      case 3:
        while (done < n) {
          poll();
          EXPECT_PURE_OK(pure_testany(n, reqs.data(), &index, &flag, &sts[0]));
          if (!flag) continue;
          take(index, sts[0]);
          ++done;
        }
        break;
      case 4:
        while (done < n) {
          poll();
          EXPECT_PURE_OK(pure_testsome(n, reqs.data(), &outcount, indices.data(), sts.data()));
          require(outcount >= 0, "testsome completed " + std::to_string(outcount));
          for (int i = 0; i < outcount; ++i) take(indices[static_cast<size_t>(i)], sts[static_cast<size_t>(i)]);
          done += outcount;
        }
        break;
      default:
        while (!flag) {
          poll();
          EXPECT_PURE_OK(pure_testall(n, reqs.data(), &flag, sts.data()));
        }
        for (int i = 0; i < n; ++i) take(i, sts[static_cast<size_t>(i)]);
        break;
    }
  }

  // Checks receives in posting order, numbering each (source, tag) stream.
  void check(const std::vector<Posted>& posted) {
    for (const Posted& p : posted) {
      const int src = p.status.MPI_SOURCE, tag = p.status.MPI_TAG;
      require(src >= 0 && src < size_, "received from source " + std::to_string(src));
      require((tag >= 0 && tag < kTags) || tag == kSyncTag, "received tag " + std::to_string(tag));
      const int cls = tag == kSyncTag ? kTags : tag;
      EXPECT_EQ(p.status.MPI_ERROR, PURE_SUCCESS);
      const int seq = next_seq(src, tag)++;
      require(seq < expected_[idx(src, cls)],
              "more messages than announced from " + std::to_string(src) + " tag " + std::to_string(tag));
      if (tag != kSyncTag) left_[idx(src, cls)] -= 1;
      const std::size_t want = size_of(s_, src, rank_, tag, seq);
      int count = -1;
      EXPECT_PURE_OK(pure_get_count(&p.status, PURE_BYTE, &count));
      EXPECT_EQ(count, static_cast<int>(want))
          << "message " << seq << " from " << src << " tag " << tag << " (out of order?)";
      EXPECT_TRUE(payload_ok(p.buf.data(), std::min(want, p.buf.size()),
                             payload_key(s_, src, rank_, tag, seq)))
          << "message " << seq << " from " << src << " to " << rank_ << " tag " << tag;
    }
  }

  const Storm& s_;
  const int rank_, size_;
  std::mt19937_64 rng_;
  std::vector<Outgoing> sends_;
  std::vector<int> sent_counts_;  // [dst][class] this rank sends
  std::vector<int> expected_;     // [src][class] this rank receives
  std::vector<int> left_;         // [src][class] not yet received (ordinary tags)
  std::vector<int> next_seq_;     // [src][tag] next sequence number to receive
  std::vector<std::vector<char>> outs_;
  std::vector<PURE_Request> send_reqs_;
  std::vector<Posted> sync_;
};

struct StormCase {
  int ranks;
  Storm storm;
};

// Names the case in ctest's listing instead of a byte dump.
void PrintTo(const StormCase& c, std::ostream* os) {
  *os << c.ranks << " ranks, seeds " << c.storm.seed << "xx" << ", eager limit " << c.storm.eager_limit
      << ", " << c.storm.queue_slots << " queue slots";
}

std::string storm_name(const testing::TestParamInfo<StormCase>& info) {
  return "ranks" + std::to_string(info.param.ranks) + "_seed" + std::to_string(info.param.storm.seed);
}

class P2PStress : public testing::TestWithParam<StormCase> {};

// Each case runs a few storms, seeds derived from the case's seed; every
// seed is printed so that a failure can be replayed alone.
constexpr int kStormsPerCase = 4;

TEST_P(P2PStress, EveryByteArrivesInOrder) {
  const StormCase& c = GetParam();
  for (int i = 0; i < kStormsPerCase; ++i) {
    Storm storm = c.storm;
    storm.seed = c.storm.seed * 100 + static_cast<std::uint64_t>(i);
    std::printf("[   seed   ] %" PRIu64 " (ranks %d, eager limit %zu, queue slots %d)\n", storm.seed,
                c.ranks, storm.eager_limit, storm.queue_slots);
    std::fflush(stdout);
    SCOPED_TRACE("seed " + std::to_string(storm.seed));
    pure::Config config;
    config.eager_limit = storm.eager_limit;
    config.queue_slots = storm.queue_slots;
    expect_clean_run(c.ranks, [&](int rank, int size) {
      StormRank(storm, rank, size).run();
    }, config);
    if (HasFailure()) break;  // one failing seed is enough to replay
  }
}

// Two storms per rank count: the default configuration, and a small eager
// limit with short queues (more rendezvous, more full rings). Message counts
// shrink as ranks grow so that every case takes about the same time.
INSTANTIATE_TEST_SUITE_P(
    , P2PStress,
    testing::Values(StormCase{2, {11, 8192, 16, 200, 300}}, StormCase{2, {12, 1024, 4, 200, 300}},
                    StormCase{4, {21, 8192, 16, 150, 225}}, StormCase{4, {22, 1024, 4, 150, 225}},
                    StormCase{8, {31, 8192, 16, 100, 150}}, StormCase{8, {32, 1024, 4, 100, 150}},
                    StormCase{16, {41, 8192, 16, 60, 90}}, StormCase{16, {42, 1024, 4, 60, 90}}),
    storm_name);

}  // namespace
}  // namespace pure_testing
