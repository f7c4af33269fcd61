// MPI-4's persistent collectives through the flat API, at 2 to 16 rank
// threads: every collective initialised once (the int and the large-count
// forms), then started again and again with new inputs -- with startall and
// one by one, with blocking and nonblocking collectives on the same
// communicator in between -- and every element of every result checked
// after every run. Also: the info argument, and what a persistent
// collective refuses (starting it while it runs, a scan on an
// intercommunicator).
#include <string>
#include <vector>

#include "harness.h"
#include "nonblocking_inputs.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

std::size_t at(long long i) { return static_cast<std::size_t>(i); }

class PersistentCollectives : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, PersistentCollectives, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

// The buffers of one set of persistent collectives and the checks of their
// results. Inputs depend on the run, so that a run that reused an earlier
// run's data (or never ran) fails the checks.
struct EveryCollective {
  int me, n, count;
  bool large;  // the _c forms
  std::vector<PURE_Request> reqs;

  std::vector<long long> bc, in, red, all, scan, exscan;
  std::vector<long long> gathered, scattered, to_scatter, allgathered;
  std::vector<int> vcounts, vdispls;
  std::vector<PURE_Count> vcounts_c;
  std::vector<PURE_Aint> vdispls_c;
  std::vector<long long> vin, gv, agv, sv_src, sv;
  std::vector<long long> a2a_out, a2a_in;
  std::vector<int> sc, sd, rc, rd, sdb, rdb;
  std::vector<PURE_Count> sc_c, rc_c;
  std::vector<PURE_Aint> sd_c, rd_c, sdb_c, rdb_c;
  std::vector<PURE_Datatype> types;
  std::vector<long long> v_out, v_in, w_in;
  std::vector<int> rs_counts;
  std::vector<PURE_Count> rs_counts_c;
  std::vector<long long> rs_in, rs_out, rsb_in, rsb_out;

  EveryCollective(int me_, int n_, int count_, bool large_, PURE_Comm comm, PURE_Info info)
      : me(me_), n(n_), count(count_), large(large_) {
    const std::size_t nn = at(n), cc = at(count);
    const int root = n - 1;
    PURE_Request r = PURE_REQUEST_NULL;
    // Called with the call's result, after the call stored its request in r.
    auto add = [&](int rc) {
      EXPECT_PURE_OK(rc);
      reqs.push_back(r);
    };
    add(pure_barrier_init(comm, info, &r));
    bc.assign(cc, -1);
    in.assign(cc, -1);
    red.assign(cc, -1);
    all = scan = exscan = red;
    const PURE_Datatype LL = PURE_LONG_LONG;
    if (large) {
      add(pure_bcast_init_c(bc.data(), count, LL, root, comm, info, &r));
      add(pure_reduce_init_c(in.data(), red.data(), count, LL, PURE_SUM, root, comm, info, &r));
      add(pure_allreduce_init_c(in.data(), all.data(), count, LL, PURE_SUM, comm, info, &r));
      add(pure_scan_init_c(in.data(), scan.data(), count, LL, PURE_SUM, comm, info, &r));
      add(pure_exscan_init_c(in.data(), exscan.data(), count, LL, PURE_SUM, comm, info, &r));
    } else {
      add(pure_bcast_init(bc.data(), count, LL, root, comm, info, &r));
      add(pure_reduce_init(in.data(), red.data(), count, LL, PURE_SUM, root, comm, info, &r));
      add(pure_allreduce_init(in.data(), all.data(), count, LL, PURE_SUM, comm, info, &r));
      add(pure_scan_init(in.data(), scan.data(), count, LL, PURE_SUM, comm, info, &r));
      add(pure_exscan_init(in.data(), exscan.data(), count, LL, PURE_SUM, comm, info, &r));
    }

    gathered.assign(nn * cc, -1);
    allgathered = gathered;
    scattered.assign(cc, -1);
    to_scatter.assign(nn * cc, -1);
    if (large) {
      add(pure_gather_init_c(in.data(), count, LL, gathered.data(), count, LL, 0, comm, info, &r));
      add(pure_scatter_init_c(to_scatter.data(), count, LL, scattered.data(), count, LL, 0, comm,
                              info, &r));
      add(pure_allgather_init_c(in.data(), count, LL, allgathered.data(), count, LL, comm, info,
                                &r));
    } else {
      add(pure_gather_init(in.data(), count, LL, gathered.data(), count, LL, 0, comm, info, &r));
      add(pure_scatter_init(to_scatter.data(), count, LL, scattered.data(), count, LL, 0, comm,
                            info, &r));
      add(pure_allgather_init(in.data(), count, LL, allgathered.data(), count, LL, comm, info, &r));
    }

    // v-variants: member k contributes k + 1 + count items, a gap of one
    // between blocks.
    int total = 0;
    for (int k = 0; k < n; ++k) {
      vcounts.push_back(k + 1 + count);
      vdispls.push_back(total + 1);
      total += k + 2 + count;
    }
    vcounts_c.assign(vcounts.begin(), vcounts.end());
    vdispls_c.assign(vdispls.begin(), vdispls.end());
    vin.assign(at(me + 1 + count), -1);
    gv.assign(at(total), -1);
    agv = sv_src = gv;
    sv.assign(vin.size(), -1);
    const int mine = me + 1 + count;
    if (large) {
      add(pure_gatherv_init_c(vin.data(), mine, LL, gv.data(), vcounts_c.data(), vdispls_c.data(),
                              LL, root, comm, info, &r));
      add(pure_scatterv_init_c(sv_src.data(), vcounts_c.data(), vdispls_c.data(), LL, sv.data(),
                               mine, LL, root, comm, info, &r));
      add(pure_allgatherv_init_c(vin.data(), mine, LL, agv.data(), vcounts_c.data(),
                                 vdispls_c.data(), LL, comm, info, &r));
    } else {
      add(pure_gatherv_init(vin.data(), mine, LL, gv.data(), vcounts.data(), vdispls.data(), LL,
                            root, comm, info, &r));
      add(pure_scatterv_init(sv_src.data(), vcounts.data(), vdispls.data(), LL, sv.data(), mine, LL,
                             root, comm, info, &r));
      add(pure_allgatherv_init(vin.data(), mine, LL, agv.data(), vcounts.data(), vdispls.data(), LL,
                               comm, info, &r));
    }

    a2a_out.assign(nn * cc, -1);
    a2a_in = a2a_out;
    if (large)
      add(pure_alltoall_init_c(a2a_out.data(), count, LL, a2a_in.data(), count, LL, comm, info,
                               &r));
    else
      add(pure_alltoall_init(a2a_out.data(), count, LL, a2a_in.data(), count, LL, comm, info, &r));

    // alltoallv and w: to k, (me + k) % 3 + count items.
    int stotal = 0, rtotal = 0;
    for (int k = 0; k < n; ++k) {
      sc.push_back((me + k) % 3 + count);
      sd.push_back(stotal);
      stotal += sc.back();
      rc.push_back((k + me) % 3 + count);
      rd.push_back(rtotal);
      rtotal += rc.back();
      sdb.push_back(sd.back() * 8);
      rdb.push_back(rd.back() * 8);
    }
    sc_c.assign(sc.begin(), sc.end());
    rc_c.assign(rc.begin(), rc.end());
    sd_c.assign(sd.begin(), sd.end());
    rd_c.assign(rd.begin(), rd.end());
    sdb_c.assign(sdb.begin(), sdb.end());
    rdb_c.assign(rdb.begin(), rdb.end());
    types.assign(nn, LL);
    v_out.assign(at(stotal), -1);
    v_in.assign(at(rtotal), -1);
    w_in = v_in;
    if (large) {
      add(pure_alltoallv_init_c(v_out.data(), sc_c.data(), sd_c.data(), LL, v_in.data(),
                                rc_c.data(), rd_c.data(), LL, comm, info, &r));
      add(pure_alltoallw_init_c(v_out.data(), sc_c.data(), sdb_c.data(), types.data(), w_in.data(),
                                rc_c.data(), rdb_c.data(), types.data(), comm, info, &r));
    } else {
      add(pure_alltoallv_init(v_out.data(), sc.data(), sd.data(), LL, v_in.data(), rc.data(),
                              rd.data(), LL, comm, info, &r));
      add(pure_alltoallw_init(v_out.data(), sc.data(), sdb.data(), types.data(), w_in.data(),
                              rc.data(), rdb.data(), types.data(), comm, info, &r));
    }

    // reduce_scatter: member k gets k % 2 + count items.
    int rs_total = 0;
    for (int k = 0; k < n; ++k) {
      rs_counts.push_back(k % 2 + count);
      rs_total += rs_counts.back();
    }
    rs_counts_c.assign(rs_counts.begin(), rs_counts.end());
    rs_in.assign(at(rs_total), -1);
    rs_out.assign(at(me % 2 + count), -1);
    rsb_in.assign(nn * cc, -1);
    rsb_out.assign(cc, -1);
    if (large) {
      add(pure_reduce_scatter_init_c(rs_in.data(), rs_out.data(), rs_counts_c.data(), LL, PURE_SUM,
                                     comm, info, &r));
      add(pure_reduce_scatter_block_init_c(rsb_in.data(), rsb_out.data(), count, LL, PURE_SUM, comm,
                                           info, &r));
    } else {
      add(pure_reduce_scatter_init(rs_in.data(), rs_out.data(), rs_counts.data(), LL, PURE_SUM,
                                   comm, info, &r));
      add(pure_reduce_scatter_block_init(rsb_in.data(), rsb_out.data(), count, LL, PURE_SUM, comm,
                                         info, &r));
    }
  }

  // Inputs of run `s`; every output back to -1.
  void prepare(int s) {
    const int root = n - 1;
    const std::size_t cc = at(count);
    for (int i = 0; i < count; ++i) {
      bc[at(i)] = me == root ? input(root, i, 1 + s) : -1;
      in[at(i)] = input(me, i, s);
    }
    for (auto* v : {&red, &all, &scan, &exscan, &gathered, &allgathered, &scattered, &gv, &agv, &sv,
                    &a2a_in, &v_in, &w_in, &rs_out, &rsb_out})
      std::fill(v->begin(), v->end(), -1);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < count; ++i) {
        to_scatter[at(k) * cc + at(i)] = input(k, i, 2 + s);
        a2a_out[at(k) * cc + at(i)] = input(me, k * count + i, 5 + s);
      }
    for (std::size_t i = 0; i < vin.size(); ++i) vin[i] = input(me, static_cast<int>(i), 3 + s);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < vcounts[at(k)]; ++i) sv_src[at(vdispls[at(k)] + i)] = input(k, i, 4 + s);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < sc[at(k)]; ++i) v_out[at(sd[at(k)] + i)] = input(me, k * 100 + i, 6 + s);
    for (std::size_t i = 0; i < rs_in.size(); ++i) rs_in[i] = input(me, static_cast<int>(i), 8 + s);
    for (std::size_t i = 0; i < rsb_in.size(); ++i)
      rsb_in[i] = input(me, static_cast<int>(i), 9 + s);
  }

  void check(int s) const {
    const int root = n - 1;
    const std::size_t cc = at(count);
    const std::string where = " (rank " + std::to_string(me) + " of " + std::to_string(n) +
                              ", count " + std::to_string(count) + ", run " + std::to_string(s) +
                              (large ? ", _c forms)" : ")");
    for (int i = 0; i < count; ++i) {
      const std::size_t ii = at(i);
      ASSERT_EQ(bc[ii], input(root, i, 1 + s)) << "bcast" << where;
      if (me == root) {
        ASSERT_EQ(red[ii], sum_inputs(0, n - 1, i, s)) << "reduce" << where;
      }
      ASSERT_EQ(all[ii], sum_inputs(0, n - 1, i, s)) << "allreduce" << where;
      ASSERT_EQ(scan[ii], sum_inputs(0, me, i, s)) << "scan" << where;
      ASSERT_EQ(exscan[ii], me > 0 ? sum_inputs(0, me - 1, i, s) : -1) << "exscan" << where;
      ASSERT_EQ(scattered[ii], input(me, i, 2 + s)) << "scatter" << where;
      ASSERT_EQ(rsb_out[ii], sum_inputs(0, n - 1, me * count + i, 9 + s))
          << "reduce_scatter_block" << where;
      for (int k = 0; k < n; ++k) {
        const std::size_t kk = at(k) * cc + ii;
        ASSERT_EQ(gathered[kk], me == 0 ? input(k, i, s) : -1) << "gather" << where;
        ASSERT_EQ(allgathered[kk], input(k, i, s)) << "allgather" << where;
        ASSERT_EQ(a2a_in[kk], input(k, me * count + i, 5 + s)) << "alltoall" << where;
      }
    }
    for (int k = 0; k < n; ++k) {
      const std::size_t kk = at(k);
      for (int i = 0; i < vcounts[kk]; ++i) {
        const std::size_t pos = at(vdispls[kk] + i);
        ASSERT_EQ(gv[pos], me == root ? input(k, i, 3 + s) : -1) << "gatherv" << where;
        ASSERT_EQ(agv[pos], input(k, i, 3 + s)) << "allgatherv" << where;
      }
      ASSERT_EQ(agv[at(vdispls[kk] - 1)], -1) << "allgatherv gap" << where;
      for (int i = 0; i < rc[kk]; ++i) {
        const std::size_t pos = at(rd[kk] + i);
        ASSERT_EQ(v_in[pos], input(k, me * 100 + i, 6 + s)) << "alltoallv" << where;
        ASSERT_EQ(w_in[pos], input(k, me * 100 + i, 6 + s)) << "alltoallw" << where;
      }
    }
    for (std::size_t i = 0; i < sv.size(); ++i)
      ASSERT_EQ(sv[i], input(me, static_cast<int>(i), 4 + s)) << "scatterv" << where;
    int first = 0;
    for (int k = 0; k < me; ++k) first += rs_counts[at(k)];
    for (std::size_t i = 0; i < rs_out.size(); ++i)
      ASSERT_EQ(rs_out[i], sum_inputs(0, n - 1, first + static_cast<int>(i), 8 + s))
          << "reduce_scatter" << where;
  }

  void free_all() {
    for (PURE_Request& q : reqs) {
      EXPECT_PURE_OK(pure_request_free(&q));
      EXPECT_EQ(q, PURE_REQUEST_NULL);
    }
  }
};

TEST_P(PersistentCollectives, EveryCollectiveRunsAgainWithNewInputs) {
  expect_clean_run(n(), [](int me, int n) {
    for (bool large : {false, true})
      for (int count : {1, 7, 300}) {
        EveryCollective e(me, n, count, large, W, PURE_INFO_NULL);
        for (int s = 0; s < 3; ++s) {
          e.prepare(s * 11);
          if (s % 2 == 0) {
            EXPECT_PURE_OK(pure_startall(static_cast<int>(e.reqs.size()), e.reqs.data()));
          } else {
            for (PURE_Request& q : e.reqs) EXPECT_PURE_OK(pure_start(&q));
          }
          // Blocking and nonblocking collectives on the same communicator
          // while the persistent ones run: none takes another's messages.
          long long mine = me, sum = -1, isum = -1;
          PURE_Request ir;
          EXPECT_PURE_OK(pure_iallreduce(&mine, &isum, 1, PURE_LONG_LONG, PURE_SUM, W, &ir));
          EXPECT_PURE_OK(pure_allreduce(&mine, &sum, 1, PURE_LONG_LONG, PURE_SUM, W));
          EXPECT_EQ(sum, static_cast<long long>(n) * (n - 1) / 2);
          std::vector<PURE_Status> st(e.reqs.size());
          EXPECT_PURE_OK(pure_waitall(static_cast<int>(e.reqs.size()), e.reqs.data(), st.data()));
          EXPECT_PURE_OK(pure_wait(&ir, PURE_STATUS_IGNORE));
          EXPECT_EQ(isum, sum);
          // Inactive again, not freed.
          for (const PURE_Request& q : e.reqs) EXPECT_NE(q, PURE_REQUEST_NULL);
          e.check(s * 11);
          if (testing::Test::HasFatalFailure()) return;
        }
        e.free_all();
      }
  });
}

// Several sets on different communicators (a duplicate, a split) started
// in different orders per communicator, the info hints given.
TEST_P(PersistentCollectives, OnSeveralCommunicatorsWithInfo) {
  expect_clean_run(n(), [](int me, int n) {
    PURE_Comm dup, half;
    EXPECT_PURE_OK(pure_comm_dup(W, &dup));
    EXPECT_PURE_OK(pure_comm_split(W, me % 2, -me, &half));
    int hme = -1, hn = -1;
    pure_comm_rank(half, &hme);
    pure_comm_size(half, &hn);
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    EXPECT_PURE_OK(pure_info_set(info, "mpi_assert_no_any_source", "true"));
    EveryCollective a(me, n, 3, false, dup, info), b(hme, hn, 2, true, half, info);
    EXPECT_PURE_OK(pure_info_free(&info));  // the requests do not need it
    for (int s = 0; s < 3; ++s) {
      a.prepare(s);
      b.prepare(s + 5);
      if (s == 1) {
        EXPECT_PURE_OK(pure_startall(static_cast<int>(b.reqs.size()), b.reqs.data()));
        EXPECT_PURE_OK(pure_startall(static_cast<int>(a.reqs.size()), a.reqs.data()));
      } else {
        EXPECT_PURE_OK(pure_startall(static_cast<int>(a.reqs.size()), a.reqs.data()));
        EXPECT_PURE_OK(pure_startall(static_cast<int>(b.reqs.size()), b.reqs.data()));
      }
      // Complete b first, one at a time through testany.
      for (std::size_t left = b.reqs.size(); left > 0;) {
        int index = -1, flag = 0;
        EXPECT_PURE_OK(pure_testany(static_cast<int>(b.reqs.size()), b.reqs.data(), &index, &flag,
                                    PURE_STATUS_IGNORE));
        if (flag && index != PURE_UNDEFINED) --left;
        if (flag && index == PURE_UNDEFINED) break;
      }
      EXPECT_PURE_OK(
          pure_waitall(static_cast<int>(a.reqs.size()), a.reqs.data(), PURE_STATUSES_IGNORE));
      a.check(s);
      b.check(s + 5);
      if (testing::Test::HasFatalFailure()) return;
    }
    a.free_all();
    b.free_all();
    EXPECT_PURE_OK(pure_comm_free(&half));
    EXPECT_PURE_OK(pure_comm_free(&dup));
  });
}

TEST(PersistentCollectiveErrors, RefusedArgumentsAndStarts) {
  expect_clean_run(3, [](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    long long x = me, y = -1;
    PURE_Request r;
    // A freed info handle.
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    PURE_Info stale = info;
    EXPECT_PURE_OK(pure_info_free(&info));
    EXPECT_EQ(pure_allreduce_init(&x, &y, 1, PURE_LONG_LONG, PURE_SUM, W, stale, &r),
              PURE_ERR_INFO);
    EXPECT_EQ(pure_barrier_init(W, PURE_INFO_NULL, nullptr), PURE_ERR_REQUEST);
    // Started while it runs: the start is refused; the run completes.
    EXPECT_PURE_OK(pure_allreduce_init(&x, &y, 1, PURE_LONG_LONG, PURE_SUM, W, PURE_INFO_NULL, &r));
    EXPECT_PURE_OK(pure_start(&r));
    EXPECT_EQ(pure_start(&r), PURE_ERR_REQUEST);
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    EXPECT_EQ(y, 3);
    EXPECT_PURE_OK(pure_request_free(&r));
    // On an intercommunicator it runs too (intercomm_nonblocking_test.cpp
    // has every collective there); a scan is refused.
    PURE_Comm local, inter;
    EXPECT_PURE_OK(pure_comm_split(W, me == 0, me, &local));
    EXPECT_PURE_OK(pure_intercomm_create(local, 0, W, me == 0 ? 1 : 0, 9, &inter));
    EXPECT_PURE_OK(pure_comm_set_errhandler(inter, PURE_ERRORS_RETURN));
    EXPECT_PURE_OK(pure_barrier_init(inter, PURE_INFO_NULL, &r));
    EXPECT_PURE_OK(pure_start(&r));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_request_free(&r));
    EXPECT_EQ(pure_scan_init(&x, &y, 1, PURE_LONG_LONG, PURE_SUM, inter, PURE_INFO_NULL, &r),
              PURE_ERR_COMM);
    EXPECT_PURE_OK(pure_comm_free(&inter));
    EXPECT_PURE_OK(pure_comm_free(&local));
  });
}

}  // namespace
}  // namespace pure_testing
