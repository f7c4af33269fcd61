// PURE_TRACE and PURE_STATS: a job's timeline trace is Chrome trace-event
// JSON with a track per rank, a slice per call (with its arguments), waits,
// tasks and chunks, an arrow from every send to its receive and from a task
// to each chunk stolen from it; the statistics count every message, byte and
// collective of every rank.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "pure/pure.hpp"

namespace pure_testing {
namespace {

using nlohmann::json;

constexpr PURE_Comm W = PURE_COMM_WORLD;

std::string temp_path(const char* name) {
  return testing::TempDir() + "pure_" + name + "_" + std::to_string(getpid()) + ".json";
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "no file at " << path;
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());  // throws (fails the test) unless it is JSON
}

constexpr int kTagged = 4;
constexpr int kPolls = 500;

// Every rank: a ring of sends and receives, messages from rank 0 to 1 on two tags, a barrier and an allreduce; rank
// 0 also runs a task of two chunks whose first waits until someone else ran
// the second, so that a chunk is always stolen (by a rank waiting in the
// barrier).
void traced_work(int rank, int size) {
  int out = rank, in = -1;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  EXPECT_PURE_OK(pure_sendrecv(&out, 1, PURE_INT, next, 7, &in, 1, PURE_INT, prev, 7, W,
                               PURE_STATUS_IGNORE));
  EXPECT_EQ(in, prev);
  // A polling loop that finds nothing: merged into few slices that count the calls.
  for (int i = 0; i < kPolls; ++i) {
    int flag = 1;
    EXPECT_PURE_OK(pure_iprobe(PURE_ANY_SOURCE, 99, W, &flag, PURE_STATUS_IGNORE));
    EXPECT_EQ(flag, 0);
  }
  // Rank 0 to rank 1 on two tags, received by a wildcard tag: an arrow each.
  for (int k = 0; k < kTagged; ++k) {
    if (rank == 0) {
      EXPECT_PURE_OK(pure_send(&k, 1, PURE_INT, 1, k % 2, W));
    }
    if (rank == 1) {
      int got = -1;
      EXPECT_PURE_OK(pure_recv(&got, 1, PURE_INT, 0, PURE_ANY_TAG, W, PURE_STATUS_IGNORE));
      EXPECT_EQ(got, k);
    }
  }
  if (rank == 0) {
    std::atomic<bool> second_ran{false};
    PureTask task([&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
      for (chunk_id_t c = start; c <= end; ++c) {
        if (c == 1) {
          second_ran.store(true, std::memory_order_release);
          continue;
        }
        // Chunk 0 waits for chunk 1; only a thief can run it meanwhile.
        for (int i = 0; !second_ran.load(std::memory_order_acquire); ++i)
          if (i > 64) std::this_thread::yield();
      }
    }, 2);
    task.execute();
  }
  EXPECT_PURE_OK(pure_barrier(W));
  int sum = 0;
  EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_SUM, W));
}

class Trace : public ::testing::TestWithParam<int> {};

TEST_P(Trace, HasATrackPerRankSlicesAndArrows) {
  const int n = GetParam();
  pure::Config c;
  c.trace_path = temp_path("trace");
  c.chunk_policy = pure::ChunkPolicy::single;
  expect_clean_run(n, traced_work, c);
  const json trace = read_json(c.trace_path);
  std::remove(c.trace_path.c_str());
  const json& events = trace.at("traceEvents");

  std::set<std::string> tracks;
  std::map<int, std::set<std::string>> slices_by_tid;
  std::map<std::uint64_t, std::pair<int, int>> message_flows;  // id -> (from tid, to tid)
  std::map<std::uint64_t, std::pair<int, int>> steal_flows;
  std::map<int, int> polls, poll_slices;  // per rank: iprobe calls, and the slices that hold them
  for (const json& e : events) {
    const std::string ph = e.at("ph");
    if (ph == "M" && e.at("name") == "thread_name") tracks.insert(e.at("args").at("name").get<std::string>());
    if (ph == "X") slices_by_tid[e.at("tid").get<int>()].insert(e.at("name").get<std::string>());
    if (ph == "X" && e.at("name") == "pure_sendrecv") {
      // The call carries what the layers below learnt of it.
      const json& a = e.at("args");
      EXPECT_EQ(a.at("tag"), 7);
      EXPECT_EQ(a.at("bytes"), 4);
      EXPECT_EQ(a.at("communicator"), "PURE_COMM_WORLD");
    }
    if (ph == "X" && e.at("name") == "pure_iprobe") {
      const json& a = e.at("args");
      polls[e.at("tid").get<int>()] += a.contains("calls") ? a.at("calls").get<int>() : 1;
      ++poll_slices[e.at("tid").get<int>()];
    }
    if (ph == "s" || ph == "f") {
      auto& flows = e.at("cat") == "message" ? message_flows : steal_flows;
      auto& f = flows[e.at("id").get<std::uint64_t>()];
      (ph == "s" ? f.first : f.second) = e.at("tid").get<int>() + 1;  // 0: missing
    }
  }
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(tracks.count("rank " + std::to_string(r)), 1u) << "no track for rank " << r;
    for (const char* name : {"pure_init", "pure_sendrecv", "pure_barrier", "pure_allreduce",
                             "pure_finalize"})
      EXPECT_EQ(slices_by_tid[r].count(name), 1u) << "rank " << r << " has no " << name << " slice";
    EXPECT_EQ(polls[r], kPolls) << "rank " << r;
    EXPECT_LT(poll_slices[r], kPolls / 2) << "rank " << r << "'s polls were not merged";
  }
  EXPECT_EQ(slices_by_tid[0].count("task"), 1u);

  // One arrow per message, each with both ends: from each rank to the next
  // around the ring, and rank 0's tagged messages to rank 1.
  EXPECT_EQ(message_flows.size(), static_cast<std::size_t>(n + kTagged));
  std::set<std::pair<int, int>> edges;
  int zero_to_one = 0;
  for (const auto& [id, f] : message_flows) {
    EXPECT_TRUE(f.first && f.second) << "flow " << id << " lacks its " << (f.first ? "head" : "tail");
    edges.insert({f.first - 1, f.second - 1});
    zero_to_one += f.first - 1 == 0 && f.second - 1 == 1;
  }
  EXPECT_EQ(zero_to_one, kTagged + 1);  // and the ring's
  for (int r = 0; r < n; ++r)
    EXPECT_EQ(edges.count({r, (r + 1) % n}), 1u) << "no arrow from rank " << r << " to the next";

  // Stolen chunks: on a thief's track, with an arrow from rank 0. Chunk 1
  // is always stolen (chunk 0 waits for it); as threads, a thief may take
  // chunk 0 first, and then another thief or rank 0 runs chunk 1.
  ASSERT_GE(steal_flows.size(), 1u);
  ASSERT_LE(steal_flows.size(), 2u);
  for (const auto& [id, steal] : steal_flows) {
    EXPECT_EQ(steal.first - 1, 0);
    EXPECT_NE(steal.second - 1, 0);
    EXPECT_EQ(slices_by_tid[steal.second - 1].count("stolen chunk"), 1u);
  }
  EXPECT_EQ(slices_by_tid[0].count("chunk") + steal_flows.size(), 2u) << "rank 0 ran the chunks nobody stole";
}

INSTANTIATE_TEST_SUITE_P(Ranks, Trace, pure_testing::rank_sweep({2, 4, 8}), rank_count_name);

TEST(TraceLimit, TheOldestEventsAreDroppedAndCounted) {
  pure::Config c;
  c.trace_path = temp_path("limit");
  c.trace_limit = 16;
  expect_clean_run(2, [](int, int) {
    for (int i = 0; i < 100; ++i) EXPECT_PURE_OK(pure_barrier(W));
  }, c);
  const json trace = read_json(c.trace_path);
  std::remove(c.trace_path.c_str());
  int slices_of_rank0 = 0;
  bool named = false;
  for (const json& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X" && e.at("tid") == 0) ++slices_of_rank0;
    if (e.at("ph") == "M" && e.at("name") == "thread_name" && e.at("tid") == 0)
      named = e.at("args").at("name").get<std::string>().find("oldest events dropped") !=
              std::string::npos;
  }
  EXPECT_LE(slices_of_rank0, 16);
  EXPECT_TRUE(named) << "rank 0's track does not say events were dropped";
  // The last call is kept: the oldest are the ones dropped.
  bool finalize_kept = false;
  for (const json& e : trace.at("traceEvents"))
    finalize_kept = finalize_kept || (e.at("ph") == "X" && e.at("tid") == 0 && e.at("name") == "pure_finalize");
  EXPECT_TRUE(finalize_kept);
}

TEST(Stats, JsonCountsEveryMessageAndCollective) {
  constexpr int kRanks = 4;
  constexpr int kMessages = 25;
  pure::Config c;
  c.stats = true;
  c.stats_path = temp_path("stats");
  expect_clean_run(kRanks, [](int rank, int size) {
    double payload[8] = {};
    for (int i = 0; i < kMessages; ++i) {
      EXPECT_PURE_OK(pure_sendrecv(payload, 8, PURE_DOUBLE, (rank + 1) % size, i, payload, 8,
                                   PURE_DOUBLE, (rank + size - 1) % size, i, W, PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_barrier(W));
    }
  }, c);
  const json stats = read_json(c.stats_path);
  std::remove(c.stats_path.c_str());
  ASSERT_EQ(stats.at("ranks").size(), static_cast<std::size_t>(kRanks));
  for (const json& r : stats.at("ranks")) {
    EXPECT_EQ(r.at("sent_within_process").at("messages"), kMessages);
    EXPECT_EQ(r.at("sent_within_process").at("bytes"), kMessages * 64);
    EXPECT_EQ(r.at("received_within_process").at("messages"), kMessages);
    EXPECT_EQ(r.at("sent_to_other_processes").at("messages"), 0);
    EXPECT_EQ(r.at("collectives"), kMessages);
  }
  EXPECT_EQ(stats.at("totals").at("messages_sent"), kRanks * kMessages);
  EXPECT_EQ(stats.at("most_blocked").size(), 3u);
}

// Messages of every kind of request are seen as sent and received, once
// each, with an arrow each in the trace: persistent sends and receives at
// every start, a persistent buffered send, isendrecv and its replace form,
// and messages taken by matched probes (mrecv, imrecv). Nonblocking
// collectives count as collectives, as the blocking ones do, and their
// internal messages are no messages of the program.
TEST(Stats, RequestsOfEveryKindAreCountedAndTraced) {
  constexpr int kRanks = 4;
  constexpr int kStarts = 3;
  constexpr int kMessages = kStarts + 1 + 2 + 2;  // per rank, each of 4 ints
  pure::Config c;
  c.stats = true;
  c.stats_path = temp_path("stats_requests");
  c.trace_path = temp_path("trace_requests");
  expect_clean_run(kRanks, [](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[4] = {rank, 1, 2, 3}, in[4] = {};
    std::vector<char> attached(1 << 16);
    EXPECT_PURE_OK(pure_buffer_attach(attached.data(), static_cast<int>(attached.size())));
    PURE_Request q[4];
    EXPECT_PURE_OK(pure_send_init(out, 4, PURE_INT, right, 1, W, &q[0]));
    EXPECT_PURE_OK(pure_recv_init(in, 4, PURE_INT, PURE_ANY_SOURCE, 1, W, &q[1]));
    for (int i = 0; i < kStarts; ++i) {
      EXPECT_PURE_OK(pure_startall(2, q));
      EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    }
    EXPECT_PURE_OK(pure_bsend_init(out, 4, PURE_INT, right, 2, W, &q[2]));
    EXPECT_PURE_OK(pure_recv_init(in, 4, PURE_INT, left, 2, W, &q[3]));
    EXPECT_PURE_OK(pure_startall(2, &q[2]));
    EXPECT_PURE_OK(pure_waitall(2, &q[2], PURE_STATUSES_IGNORE));
    for (PURE_Request& r : q) EXPECT_PURE_OK(pure_request_free(&r));
    EXPECT_PURE_OK(pure_isendrecv(out, 4, PURE_INT, right, 3, in, 4, PURE_INT, left, 3, W, &q[0]));
    EXPECT_PURE_OK(pure_isendrecv_replace(in, 4, PURE_INT, right, 4, left, 4, W, &q[1]));
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    for (int k = 0; k < 2; ++k) {
      EXPECT_PURE_OK(pure_send(out, 4, PURE_INT, right, 5 + k, W));
      PURE_Message m;
      EXPECT_PURE_OK(pure_mprobe(left, 5 + k, W, &m, PURE_STATUS_IGNORE));
      if (k == 0) {
        EXPECT_PURE_OK(pure_mrecv(in, 4, PURE_INT, &m, PURE_STATUS_IGNORE));
      } else {
        EXPECT_PURE_OK(pure_imrecv(in, 4, PURE_INT, &m, &q[0]));
        EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
      }
      EXPECT_EQ(in[0], left);
    }
    int one = 1, sum = 0;
    EXPECT_PURE_OK(pure_ibarrier(W, &q[0]));
    EXPECT_PURE_OK(pure_iallreduce(&one, &sum, 1, PURE_INT, PURE_SUM, W, &q[1]));
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_EQ(sum, size);
    void* back = nullptr;
    int back_size = 0;
    EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
  }, c);
  const json stats = read_json(c.stats_path);
  std::remove(c.stats_path.c_str());
  ASSERT_EQ(stats.at("ranks").size(), static_cast<std::size_t>(kRanks));
  for (const json& r : stats.at("ranks")) {
    EXPECT_EQ(r.at("sent_within_process").at("messages"), kMessages);
    EXPECT_EQ(r.at("sent_within_process").at("bytes"), kMessages * 16);
    EXPECT_EQ(r.at("received_within_process").at("messages"), kMessages);
    EXPECT_EQ(r.at("received_within_process").at("bytes"), kMessages * 16);
    EXPECT_EQ(r.at("collectives"), 3);
  }
  const json trace = read_json(c.trace_path);
  std::remove(c.trace_path.c_str());
  std::map<std::uint64_t, std::pair<int, int>> flows;  // id -> (from tid, to tid), 0: missing
  for (const json& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if ((ph == "s" || ph == "f") && e.at("cat") == "message") {
      auto& f = flows[e.at("id").get<std::uint64_t>()];
      (ph == "s" ? f.first : f.second) = e.at("tid").get<int>() + 1;
    }
  }
  EXPECT_EQ(flows.size(), static_cast<std::size_t>(kRanks * kMessages));
  for (const auto& [id, f] : flows) {
    EXPECT_TRUE(f.first && f.second) << "flow " << id << " lacks its " << (f.first ? "head" : "tail");
    EXPECT_EQ(f.second - 1, f.first % kRanks) << "an arrow not to the right neighbour";
  }
}

TEST(Stats, TheTableNamesEveryRankAndTheTotals) {
  pure::Config c;
  c.stats = true;
  const JobResult r = run_ranks_capturing(3, [](int rank, int) {
    int x = rank;
    EXPECT_PURE_OK(pure_bcast(&x, 1, PURE_INT, 0, W));
  }, c);
  EXPECT_EQ(r.code, 0);
  for (const char* line : {"pure: stats:  rank proc", "pure: stats:     0    0 |",
                           "pure: stats:     2    0 |", "pure: stats: total: 0 messages",
                           "3 collective calls", "pure: stats: blocked longest: rank"})
    EXPECT_NE(r.err.find(line), std::string::npos) << line << " missing from:\n" << r.err;
}

// A deadlock's trace is what one reads to see it: every rank's blocked
// receive is a slice up to the moment the watchdog ended the job.
TEST(TraceAbort, ADeadlockedJobWritesItsBlockedCalls) {
  pure::Config c;
  c.deadlock_timeout_s = 0.5;
  c.trace_path = temp_path("deadlock");
  const JobResult r = run_ranks_capturing(4, [&](int rank, int) {
    int v;
    pure_recv(&v, 1, PURE_INT, rank ^ 1, 5, W, PURE_STATUS_IGNORE);
  }, c);
  EXPECT_NE(r.code, 0);
  const json trace = read_json(c.trace_path);
  std::remove(c.trace_path.c_str());
  std::set<int> blocked;
  for (const json& e : trace.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("name") == "pure_recv") {
      EXPECT_GE(e.at("dur").get<double>(), 400e3) << "rank " << e.at("tid") << "'s receive ended early";
      EXPECT_EQ(e.at("args").at("tag"), 5);
      blocked.insert(e.at("tid").get<int>());
    }
  EXPECT_EQ(blocked, (std::set<int>{0, 1, 2, 3}));
}

TEST(TraceConfig, AFileThatCannotBeWrittenIsAnErrorAtStart) {
  CleanPureEnvironment clean;
  setenv("PURE_TRACE", "/nonexistent-dir/trace.json", 1);
  setenv("PURE_STATS", "json:/nonexistent-dir/stats.json", 1);
  setenv("PURE_TRACE_LIMIT", "0", 1);
  std::string err;
  try {
    pure::Config::from_env();
  } catch (const pure::ConfigError& e) {
    err = e.what();
  }
  for (const char* needle : {"PURE_TRACE=/nonexistent-dir/trace.json: cannot write a file in /nonexistent-dir",
                             "PURE_STATS=/nonexistent-dir/stats.json: cannot write",
                             "PURE_TRACE_LIMIT=0"})
    EXPECT_NE(err.find(needle), std::string::npos) << needle << " missing from:\n" << err;
}

}  // namespace
}  // namespace pure_testing
