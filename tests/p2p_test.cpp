// Point-to-point through the flat API: every call of issue 2, with 2, 4, 8 and
// 16 rank threads (the CI machine has two cores, so most runs oversubscribe).
//
// Pairs of ranks are (r, r ^ 1) and rings are r -> r + 1; every rank count is
// even. Where both sides of a pair would block in a send that needs a
// matching receive (rendezvous, synchronous), even ranks send first and odd
// ranks receive first, as a correct MPI program must.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <set>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class P2P : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(, P2P, kRankCounts, rank_count_name);

int right_of(int rank, int size) { return (rank + 1) % size; }
int left_of(int rank, int size) { return (rank + size - 1) % size; }

// ------------------------------------------------------------ environment

TEST_P(P2P, EnvironmentQueries) {
  std::vector<int> seen(static_cast<size_t>(n()), 0);
  pure::Config config;
  config.ranks = n();
  int code = pure::run(config, [&](int argc, char** argv) {
    int flag = -1;
    EXPECT_PURE_OK(pure_initialized(&flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_finalized(&flag));
    EXPECT_EQ(flag, 0);

    int provided = -1;
    EXPECT_PURE_OK(pure_init_thread(&argc, &argv, PURE_THREAD_MULTIPLE, &provided));
    EXPECT_GE(provided, PURE_THREAD_SINGLE);
    EXPECT_LE(provided, PURE_THREAD_MULTIPLE);
    int queried = -1;
    EXPECT_PURE_OK(pure_query_thread(&queried));
    EXPECT_EQ(queried, provided);
    EXPECT_PURE_OK(pure_initialized(&flag));
    EXPECT_EQ(flag, 1);
    EXPECT_PURE_OK(pure_finalized(&flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_is_thread_main(&flag));
    EXPECT_EQ(flag, 1);

    int rank = -1, size = -1;
    EXPECT_PURE_OK(pure_comm_rank(W, &rank));
    EXPECT_PURE_OK(pure_comm_size(W, &size));
    EXPECT_EQ(size, n());
    if (rank >= 0 && rank < n()) seen[static_cast<size_t>(rank)] += 1;  // own slot only
    EXPECT_PURE_OK(pure_comm_rank(PURE_COMM_SELF, &rank));
    EXPECT_PURE_OK(pure_comm_size(PURE_COMM_SELF, &size));
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(size, 1);

    int version = 0, subversion = -1;
    EXPECT_PURE_OK(pure_get_version(&version, &subversion));
    EXPECT_EQ(version, PURE_VERSION);
    EXPECT_EQ(subversion, PURE_SUBVERSION);

    char name[PURE_MAX_PROCESSOR_NAME];
    int len = -1;
    EXPECT_PURE_OK(pure_get_processor_name(name, &len));
    EXPECT_GT(len, 0);
    EXPECT_LT(len, PURE_MAX_PROCESSOR_NAME);
    EXPECT_EQ(static_cast<size_t>(len), std::strlen(name));

    const double t0 = pure_wtime();
    const double t1 = pure_wtime();
    EXPECT_LE(t0, t1);
    EXPECT_GT(pure_wtick(), 0.0);
    EXPECT_LT(pure_wtick(), 1.0);

    std::set<std::string> texts;
    for (int e = PURE_SUCCESS; e <= PURE_ERR_FINALIZED; ++e) {
      char text[PURE_MAX_ERROR_STRING];
      EXPECT_PURE_OK(pure_error_string(e, text, &len)) << "error " << e;
      EXPECT_GT(len, 0);
      EXPECT_EQ(static_cast<size_t>(len), std::strlen(text));
      texts.insert(text);
      int cls = -1;
      EXPECT_PURE_OK(pure_error_class(e, &cls));
      EXPECT_EQ(cls, e);
    }
    EXPECT_EQ(texts.size(), static_cast<size_t>(PURE_ERR_FINALIZED + 1)) << "texts must differ";
    char text[PURE_MAX_ERROR_STRING];
    EXPECT_PURE_OK(pure_error_string(PURE_ERR_TRUNCATE, text, &len));
    EXPECT_NE(std::string(text).find("TRUNCATE"), std::string::npos) << text;

    int* tag_ub = nullptr;
    flag = 0;
    EXPECT_PURE_OK(pure_comm_get_attr(W, PURE_TAG_UB, &tag_ub, &flag));
    EXPECT_EQ(flag, 1);
    if (tag_ub) { EXPECT_GE(*tag_ub, 32767); }  // the MPI minimum
    // A keyval with no attribute set: flag 0. A number that names no
    // keyval is MPI_ERR_KEYVAL (attributes_test checks the rest).
    int keyval = PURE_KEYVAL_INVALID;
    EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_NULL_COPY_FN, PURE_COMM_NULL_DELETE_FN,
                                           &keyval, nullptr));
    EXPECT_PURE_OK(pure_comm_get_attr(W, keyval, &tag_ub, &flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_comm_free_keyval(&keyval));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_get_attr(W, 12345, &tag_ub, &flag), PURE_ERR_KEYVAL);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));

    PURE_Errhandler eh = PURE_ERRHANDLER_NULL;
    EXPECT_PURE_OK(pure_comm_get_errhandler(W, &eh));
    EXPECT_EQ(eh, PURE_ERRORS_ARE_FATAL);

    EXPECT_PURE_OK(pure_finalize());
    EXPECT_PURE_OK(pure_finalized(&flag));
    EXPECT_EQ(flag, 1);
    EXPECT_PURE_OK(pure_initialized(&flag));
    EXPECT_EQ(flag, 1);
    return 0;
  });
  EXPECT_EQ(code, 0);
  for (int r = 0; r < n(); ++r) EXPECT_EQ(seen[static_cast<size_t>(r)], 1) << "rank " << r;
}

// ----------------------------------------------------------- send modes

const std::vector<std::size_t> kModeSizes = {0, 1, 100, 8191, 8192, 8193, 65536 + 3};

TEST_P(P2P, BlockingSendModesInARing) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    for (int mode = 0; mode < 3; ++mode) {
      for (size_t i = 0; i < kModeSizes.size(); ++i) {
        const std::size_t s = kModeSizes[i];
        const int tag = mode * 100 + static_cast<int>(i);
        const auto out = make_payload(s, key_of(rank, right, tag));
        std::vector<char> in(s + 1, 0x5A);  // one guard byte past the message
        auto send = [&] {
          const int c = static_cast<int>(s);
          if (mode == 0) { EXPECT_PURE_OK(pure_send(out.data(), c, PURE_BYTE, right, tag, W)); }
          if (mode == 1) { EXPECT_PURE_OK(pure_ssend(out.data(), c, PURE_BYTE, right, tag, W)); }
          if (mode == 2) { EXPECT_PURE_OK(pure_send_msg(out.data(), c, PURE_BYTE, right, tag, W)); }
        };
        auto recv = [&] {
          PURE_Status st;
          if (mode == 2) {
            EXPECT_PURE_OK(pure_recv_msg(in.data(), static_cast<int>(s), PURE_BYTE, left, tag, W, &st));
          }
          else
            EXPECT_PURE_OK(pure_recv(in.data(), static_cast<int>(s), PURE_BYTE, left, tag, W, &st));
          expect_status(st, left, tag, s);
          EXPECT_TRUE(payload_ok(in.data(), s, key_of(left, rank, tag))) << "size " << s;
          EXPECT_EQ(in[s], 0x5A) << "wrote past the message, size " << s;
        };
        if (rank % 2 == 0) {
          send();
          recv();
        } else {
          recv();
          send();
        }
      }
    }
  });
}

TEST_P(P2P, ReadySendsMatchPostedReceives) {
  constexpr int kReady = 999;
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    for (int blocking = 0; blocking < 2; ++blocking) {
      for (size_t i = 0; i < kModeSizes.size(); ++i) {
        const std::size_t s = kModeSizes[i];
        const int tag = blocking * 100 + static_cast<int>(i);
        const auto out = make_payload(s, key_of(rank, right, tag));
        std::vector<char> in(s + 1, 0x5A);
        PURE_Request rreq = PURE_REQUEST_NULL;
        EXPECT_PURE_OK(pure_irecv(in.data(), static_cast<int>(s), PURE_BYTE, left, tag, W, &rreq));
        // Tell the left neighbour our receive is posted; wait until the right
        // one says the same, so the ready send is legal.
        EXPECT_PURE_OK(pure_send(nullptr, 0, PURE_BYTE, left, kReady, W));
        EXPECT_PURE_OK(pure_recv(nullptr, 0, PURE_BYTE, right, kReady, W, PURE_STATUS_IGNORE));
        if (blocking) {
          EXPECT_PURE_OK(pure_rsend(out.data(), static_cast<int>(s), PURE_BYTE, right, tag, W));
        } else {
          PURE_Request sreq = PURE_REQUEST_NULL;
          EXPECT_PURE_OK(pure_irsend(out.data(), static_cast<int>(s), PURE_BYTE, right, tag, W, &sreq));
          EXPECT_PURE_OK(pure_wait(&sreq, PURE_STATUS_IGNORE));
          EXPECT_EQ(sreq, PURE_REQUEST_NULL);
        }
        PURE_Status st;
        EXPECT_PURE_OK(pure_wait(&rreq, &st));
        EXPECT_EQ(rreq, PURE_REQUEST_NULL);
        expect_status(st, left, tag, s);
        EXPECT_TRUE(payload_ok(in.data(), s, key_of(left, rank, tag))) << "size " << s;
        EXPECT_EQ(in[s], 0x5A);
      }
    }
  });
}

TEST_P(P2P, BufferedSendsToEveryRankBeforeReceiving) {
  expect_clean_run(n(), [&](int rank, int size) {
    // Room for every message this rank sends, as MPI accounts it.
    int total = 0;
    for (std::size_t s : kModeSizes) {
      int packed = 0;
      EXPECT_PURE_OK(pure_pack_size(static_cast<int>(s), PURE_BYTE, W, &packed));
      EXPECT_EQ(packed, static_cast<int>(s));
      total += (packed + PURE_BSEND_OVERHEAD) * size;
    }
    std::vector<char> attached(static_cast<size_t>(total));
    EXPECT_PURE_OK(pure_buffer_attach(attached.data(), total));
    for (int d = 0; d < size; ++d) {
      for (size_t i = 0; i < kModeSizes.size(); ++i) {
        // The payload is packed away at once: the source may change afterwards.
        auto out = make_payload(kModeSizes[i], key_of(rank, d, i));
        EXPECT_PURE_OK(pure_bsend(out.data(), static_cast<int>(out.size()), PURE_BYTE, d,
                                  static_cast<int>(i), W));
        std::fill(out.begin(), out.end(), 0);
      }
    }
    for (int s = 0; s < size; ++s) {
      for (size_t i = 0; i < kModeSizes.size(); ++i) {
        std::vector<char> in(kModeSizes[i]);
        PURE_Status st;
        EXPECT_PURE_OK(pure_recv(in.data(), static_cast<int>(in.size()), PURE_BYTE, s,
                                 static_cast<int>(i), W, &st));
        expect_status(st, s, static_cast<int>(i), in.size());
        EXPECT_TRUE(payload_ok(in.data(), in.size(), key_of(s, rank, i)));
      }
    }
    void* back = nullptr;
    int back_size = -1;
    EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
    EXPECT_EQ(back, attached.data());
    EXPECT_EQ(back_size, total);

    // ibsend: the request completes without a receiver.
    std::vector<char> small(static_cast<size_t>(100 + PURE_BSEND_OVERHEAD));
    EXPECT_PURE_OK(pure_buffer_attach(small.data(), static_cast<int>(small.size())));
    const int right = right_of(rank, size), left = left_of(rank, size);
    auto out = make_payload(100, key_of(rank, 77));
    PURE_Request req = PURE_REQUEST_NULL;
    EXPECT_PURE_OK(pure_ibsend(out.data(), 100, PURE_BYTE, right, 77, W, &req));
    EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));
    std::vector<char> in(100);
    EXPECT_PURE_OK(pure_recv(in.data(), 100, PURE_BYTE, left, 77, W, PURE_STATUS_IGNORE));
    EXPECT_TRUE(payload_ok(in.data(), 100, key_of(left, 77)));
    EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
    EXPECT_EQ(back, small.data());
  });
}

TEST_P(P2P, BufferedSendReportsATooSmallBuffer) {
  expect_clean_run(n(), [&](int rank, int size) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    const int right = right_of(rank, size), left = left_of(rank, size);
    std::vector<char> out(200, 7);
    EXPECT_EQ(PURE_ERR_BUFFER, pure_bsend(out.data(), 10, PURE_BYTE, right, 1, W))
        << "no buffer attached yet";
    char attached[100];
    EXPECT_PURE_OK(pure_buffer_attach(attached, sizeof attached));
    EXPECT_EQ(PURE_ERR_BUFFER, pure_bsend(out.data(), 200, PURE_BYTE, right, 1, W));
    PURE_Request req = PURE_REQUEST_NULL;
    EXPECT_EQ(PURE_ERR_BUFFER, pure_ibsend(out.data(), 100 - PURE_BSEND_OVERHEAD + 1, PURE_BYTE,
                                           right, 1, W, &req));
    // Exactly fits: 36 + PURE_BSEND_OVERHEAD bytes.
    EXPECT_PURE_OK(pure_bsend(out.data(), 100 - PURE_BSEND_OVERHEAD, PURE_BYTE, right, 2, W));
    std::vector<char> in(200, 0);
    PURE_Status st;
    EXPECT_PURE_OK(pure_recv(in.data(), 200, PURE_BYTE, left, PURE_ANY_TAG, W, &st));
    expect_status(st, left, 2, 100 - PURE_BSEND_OVERHEAD);  // the failed sends sent nothing
    void* back = nullptr;
    int back_size = -1;
    EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
    EXPECT_EQ(back, static_cast<void*>(attached));
    EXPECT_EQ(back_size, 100);
  });
}

TEST_P(P2P, NonblockingSendModes) {
  constexpr int kReady = 999;
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    for (int mode = 0; mode < 4; ++mode) {  // isend, issend, irsend, ibsend
      for (size_t i = 0; i < kModeSizes.size(); ++i) {
        const std::size_t s = kModeSizes[i];
        const int c = static_cast<int>(s);
        const int tag = mode * 100 + static_cast<int>(i);
        const auto out = make_payload(s, key_of(rank, right, tag));
        std::vector<char> in(s + 1, 0x5A);
        std::vector<char> attached(s + PURE_BSEND_OVERHEAD);
        PURE_Request reqs[2] = {PURE_REQUEST_NULL, PURE_REQUEST_NULL};
        EXPECT_PURE_OK(pure_irecv(in.data(), c, PURE_BYTE, left, tag, W, &reqs[0]));
        if (mode == 2) {
          EXPECT_PURE_OK(pure_send(nullptr, 0, PURE_BYTE, left, kReady, W));
          EXPECT_PURE_OK(pure_recv(nullptr, 0, PURE_BYTE, right, kReady, W, PURE_STATUS_IGNORE));
        }
        if (mode == 3) {
          EXPECT_PURE_OK(pure_buffer_attach(attached.data(), static_cast<int>(attached.size())));
        }
        if (mode == 0) { EXPECT_PURE_OK(pure_isend(out.data(), c, PURE_BYTE, right, tag, W, &reqs[1])); }
        if (mode == 1) { EXPECT_PURE_OK(pure_issend(out.data(), c, PURE_BYTE, right, tag, W, &reqs[1])); }
        if (mode == 2) { EXPECT_PURE_OK(pure_irsend(out.data(), c, PURE_BYTE, right, tag, W, &reqs[1])); }
        if (mode == 3) { EXPECT_PURE_OK(pure_ibsend(out.data(), c, PURE_BYTE, right, tag, W, &reqs[1])); }
        EXPECT_NE(reqs[1], PURE_REQUEST_NULL);
        PURE_Status st[2];
        EXPECT_PURE_OK(pure_waitall(2, reqs, st));
        EXPECT_EQ(reqs[0], PURE_REQUEST_NULL);
        EXPECT_EQ(reqs[1], PURE_REQUEST_NULL);
        expect_status(st[0], left, tag, s);
        EXPECT_TRUE(payload_ok(in.data(), s, key_of(left, rank, tag))) << "mode " << mode;
        EXPECT_EQ(in[s], 0x5A);
        if (mode == 3) {
          void* back = nullptr;
          int back_size = 0;
          EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
        }
      }
    }
  });
}

// ------------------------------------------------- sizes and configurations

TEST_P(P2P, SizesAroundTheEagerLimit) {
  for (const Tuning& tuning : kTunings) {
    SCOPED_TRACE(tuning.name);
    const std::size_t e = tuning.eager_limit;
    const std::vector<std::size_t> sizes = {0, 1, 63, 64, e - 1, e, e + 1, 3 * e, (4u << 20) + 5};
    expect_clean_run(n(), [&](int rank, int) {
      SCOPED_TRACE(tuning.name);  // per thread: rank failures name the tuning
      const int partner = rank ^ 1;
      for (size_t i = 0; i < sizes.size(); ++i) {
        const std::size_t s = sizes[i];
        const int tag = static_cast<int>(i);
        const auto out = make_payload(s, key_of(rank, partner, tag));
        std::vector<char> in(s + 8, 0x5A);
        PURE_Status st;
        // Blocking, in an order that is safe for every size.
        for (int turn = 0; turn < 2; ++turn) {
          if (turn == rank % 2) {
            EXPECT_PURE_OK(pure_send(out.data(), static_cast<int>(s), PURE_BYTE, partner, tag, W));
          } else {
            // The receive buffer is larger than the message.
            EXPECT_PURE_OK(pure_recv(in.data(), static_cast<int>(in.size()), PURE_BYTE, partner,
                                     tag, W, &st));
            expect_status(st, partner, tag, s);
            EXPECT_TRUE(payload_ok(in.data(), s, key_of(partner, rank, tag))) << "size " << s;
            EXPECT_EQ(in[s], 0x5A) << "size " << s;
          }
        }
        // Non-blocking, both directions at once.
        std::fill(in.begin(), in.end(), 0x5A);
        PURE_Request reqs[2];
        EXPECT_PURE_OK(pure_isend(out.data(), static_cast<int>(s), PURE_BYTE, partner, tag, W, &reqs[0]));
        EXPECT_PURE_OK(pure_irecv(in.data(), static_cast<int>(s), PURE_BYTE, partner, tag, W, &reqs[1]));
        PURE_Status sts[2];
        EXPECT_PURE_OK(pure_waitall(2, reqs, sts));
        expect_status(sts[1], partner, tag, s);
        EXPECT_TRUE(payload_ok(in.data(), s, key_of(partner, rank, tag))) << "size " << s;
        EXPECT_EQ(in[s], 0x5A);
      }
    }, config_of(tuning));
  }
}

TEST_P(P2P, LargeMessagesInARing) {
  constexpr std::size_t kDoubles = (4u << 20) / sizeof(double) + 1001;  // > 4 MiB
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    const int c = static_cast<int>(kDoubles);
    std::vector<double> out(kDoubles), in(kDoubles + 1, -1.0);
    fill_payload(out.data(), kDoubles * sizeof(double), key_of(rank, 1));
    PURE_Request req;
    EXPECT_PURE_OK(pure_isend(out.data(), c, PURE_DOUBLE, right, 1, W, &req));
    PURE_Status st;
    EXPECT_PURE_OK(pure_recv(in.data(), c + 1, PURE_DOUBLE, left, 1, W, &st));
    EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));
    int count = -1;
    EXPECT_PURE_OK(pure_get_count(&st, PURE_DOUBLE, &count));
    EXPECT_EQ(count, c);
    EXPECT_TRUE(payload_ok(in.data(), kDoubles * sizeof(double), key_of(left, 1)));
    EXPECT_EQ(in[kDoubles], -1.0);

    fill_payload(out.data(), kDoubles * sizeof(double), key_of(rank, 2));
    EXPECT_PURE_OK(pure_sendrecv(out.data(), c, PURE_DOUBLE, right, 2, in.data(), c, PURE_DOUBLE,
                                 left, 2, W, &st));
    EXPECT_EQ(st.MPI_SOURCE, left);
    EXPECT_TRUE(payload_ok(in.data(), kDoubles * sizeof(double), key_of(left, 2)));
  });
}

// ------------------------------------------------------- sendrecv family

TEST_P(P2P, SendrecvShiftWithProcNullAtTheEnds) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int dest = rank + 1 < size ? rank + 1 : PURE_PROC_NULL;
    const int source = rank > 0 ? rank - 1 : PURE_PROC_NULL;
    for (std::size_t s : {std::size_t{24}, std::size_t{100000}}) {
      const auto out = make_payload(s, key_of(rank, s));
      std::vector<char> in(s, 0x5A);
      PURE_Status st;
      EXPECT_PURE_OK(pure_sendrecv(out.data(), static_cast<int>(s), PURE_BYTE, dest, 3, in.data(),
                                   static_cast<int>(s), PURE_BYTE, source, 3, W, &st));
      if (source == PURE_PROC_NULL) {
        expect_proc_null_status(st);
        EXPECT_TRUE(std::all_of(in.begin(), in.end(), [](char ch) { return ch == 0x5A; }));
      } else {
        expect_status(st, source, 3, s);
        EXPECT_TRUE(payload_ok(in.data(), s, key_of(source, s)));
      }
    }
  });
}

TEST_P(P2P, SendrecvReplaceInARing) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    for (std::size_t ints : {std::size_t{1}, std::size_t{3000}, std::size_t{300000}}) {
      std::vector<int> buf(ints);
      for (std::size_t i = 0; i < ints; ++i) buf[i] = rank * 1000003 + static_cast<int>(i);
      PURE_Status st;
      EXPECT_PURE_OK(pure_sendrecv_replace(buf.data(), static_cast<int>(ints), PURE_INT, right, 4,
                                           left, 4, W, &st));
      expect_status(st, left, 4, ints * sizeof(int));
      std::size_t bad = 0;
      for (std::size_t i = 0; i < ints; ++i) bad += buf[i] != left * 1000003 + static_cast<int>(i);
      EXPECT_EQ(bad, 0u) << ints << " ints";
    }
    // A strided type: every other int of the buffer travels, the rest stay.
    PURE_Datatype every_other;
    EXPECT_PURE_OK(pure_type_vector(500, 1, 2, PURE_INT, &every_other));
    EXPECT_PURE_OK(pure_type_commit(&every_other));
    std::vector<int> buf(1000);
    for (int i = 0; i < 1000; ++i) buf[static_cast<size_t>(i)] = i % 2 ? -rank : rank * 10000 + i;
    PURE_Status st;
    EXPECT_PURE_OK(pure_sendrecv_replace(buf.data(), 1, every_other, right, 5, left, 5, W, &st));
    for (int i = 0; i < 1000; ++i) {
      const int want = i % 2 ? -rank : left * 10000 + i;
      if (buf[static_cast<size_t>(i)] != want) {
        ADD_FAILURE() << "element " << i << " is " << buf[static_cast<size_t>(i)] << ", want " << want;
        break;
      }
    }
    // To and from PURE_PROC_NULL: the buffer is left alone.
    EXPECT_PURE_OK(pure_sendrecv_replace(buf.data(), 1, every_other, PURE_PROC_NULL, 6,
                                         PURE_PROC_NULL, 6, W, &st));
    expect_proc_null_status(st);
    EXPECT_PURE_OK(pure_type_free(&every_other));
    EXPECT_EQ(every_other, PURE_DATATYPE_NULL);
  });
}

// --------------------------------------------------------- special ranks

TEST_P(P2P, ProcNullForEveryCall) {
  expect_clean_run(n(), [&](int, int) {
    constexpr int P = PURE_PROC_NULL;
    int data[4] = {1, 2, 3, 4};
    int in[4] = {-1, -1, -1, -1};
    PURE_Status st;
    EXPECT_PURE_OK(pure_send(data, 4, PURE_INT, P, 1, W));
    EXPECT_PURE_OK(pure_ssend(data, 4, PURE_INT, P, 1, W));
    EXPECT_PURE_OK(pure_rsend(data, 4, PURE_INT, P, 1, W));
    EXPECT_PURE_OK(pure_bsend(data, 4, PURE_INT, P, 1, W));  // needs no buffer
    PURE_Request reqs[5];
    EXPECT_PURE_OK(pure_isend(data, 4, PURE_INT, P, 1, W, &reqs[0]));
    EXPECT_PURE_OK(pure_issend(data, 4, PURE_INT, P, 1, W, &reqs[1]));
    EXPECT_PURE_OK(pure_irsend(data, 4, PURE_INT, P, 1, W, &reqs[2]));
    EXPECT_PURE_OK(pure_ibsend(data, 4, PURE_INT, P, 1, W, &reqs[3]));
    EXPECT_PURE_OK(pure_irecv(in, 4, PURE_INT, P, 1, W, &reqs[4]));
    PURE_Status sts[5];
    EXPECT_PURE_OK(pure_waitall(5, reqs, sts));
    expect_proc_null_status(sts[4]);

    EXPECT_PURE_OK(pure_recv(in, 4, PURE_INT, P, PURE_ANY_TAG, W, &st));
    expect_proc_null_status(st);
    EXPECT_PURE_OK(pure_probe(P, 5, W, &st));
    expect_proc_null_status(st);
    int flag = 0;
    EXPECT_PURE_OK(pure_iprobe(P, PURE_ANY_TAG, W, &flag, &st));
    EXPECT_EQ(flag, 1);
    expect_proc_null_status(st);
    EXPECT_PURE_OK(pure_sendrecv(data, 4, PURE_INT, P, 1, in, 4, PURE_INT, P, 1, W, &st));
    expect_proc_null_status(st);
    EXPECT_PURE_OK(pure_recv(in, 4, PURE_INT, P, 1, W, PURE_STATUS_IGNORE));
    EXPECT_EQ(in[0], -1);
    EXPECT_EQ(in[3], -1);
  });
}

TEST_P(P2P, AnySourceAndAnyTag) {
  constexpr int K = 3;
  expect_clean_run(n(), [&](int rank, int size) {
    // Every rank sends K messages, tags 0..K-1, to every other rank.
    auto send_round = [&](int base_tag) {
      for (int d = 0; d < size; ++d) {
        if (d == rank) continue;
        for (int k = 0; k < K; ++k) {
          const int msg[3] = {rank, d, k};
          EXPECT_PURE_OK(pure_send(msg, 3, PURE_INT, d, base_tag + k, W));
        }
      }
    };
    const int total = K * (size - 1);

    // Rounds are ordered so that no wildcard receive can take a message of a
    // later round: specific tags first, then specific sources (which receive
    // exactly the K messages each source sent before its next round), and
    // (ANY_SOURCE, ANY_TAG) last.

    // Round 1: ANY_SOURCE with a specific tag, the last tag first.
    send_round(10);
    std::vector<int> from(static_cast<size_t>(size), 0);
    for (int k = K - 1; k >= 0; --k) {
      for (int m = 0; m < size - 1; ++m) {
        int msg[3];
        PURE_Status st;
        EXPECT_PURE_OK(pure_recv(msg, 3, PURE_INT, PURE_ANY_SOURCE, 10 + k, W, &st));
        EXPECT_EQ(st.MPI_TAG, 10 + k);
        EXPECT_EQ(msg[0], st.MPI_SOURCE);
        EXPECT_EQ(msg[2], k);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < size) from[static_cast<size_t>(st.MPI_SOURCE)] += 1;
      }
    }
    for (int s = 0; s < size; ++s) EXPECT_EQ(from[static_cast<size_t>(s)], s == rank ? 0 : K);

    // Round 2: a specific source with ANY_TAG, sources in descending order,
    // statuses ignored (the payload names source and sequence).
    send_round(20);
    for (int s = size - 1; s >= 0; --s) {
      if (s == rank) continue;
      for (int k = 0; k < K; ++k) {
        int msg[3];
        EXPECT_PURE_OK(pure_recv(msg, 3, PURE_INT, s, PURE_ANY_TAG, W, PURE_STATUS_IGNORE));
        EXPECT_EQ(msg[0], s);
        EXPECT_EQ(msg[2], k);
      }
    }

    // Round 3: (ANY_SOURCE, ANY_TAG), half blocking, half non-blocking.
    send_round(0);
    std::vector<int> next(static_cast<size_t>(size), 0);
    auto check = [&](const PURE_Status& st, const int* msg) {
      ASSERT_GE(st.MPI_SOURCE, 0);
      ASSERT_LT(st.MPI_SOURCE, size);
      EXPECT_NE(st.MPI_SOURCE, rank);
      int& k = next[static_cast<size_t>(st.MPI_SOURCE)];
      EXPECT_EQ(st.MPI_TAG, k) << "from " << st.MPI_SOURCE << ": order broken";
      EXPECT_EQ(msg[0], st.MPI_SOURCE);
      EXPECT_EQ(msg[1], rank);
      EXPECT_EQ(msg[2], k);
      ++k;
    };
    std::vector<int> bufs(static_cast<size_t>(3 * total));
    int i = 0;
    for (; i < total / 2; ++i) {
      PURE_Status st;
      EXPECT_PURE_OK(pure_recv(&bufs[3 * i], 3, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, W, &st));
      check(st, &bufs[3 * i]);
    }
    std::vector<PURE_Request> reqs;
    for (int j = i; j < total; ++j) {
      reqs.push_back(PURE_REQUEST_NULL);
      EXPECT_PURE_OK(pure_irecv(&bufs[3 * j], 3, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, W,
                                &reqs.back()));
    }
    std::vector<PURE_Status> sts(reqs.size());
    EXPECT_PURE_OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), sts.data()));
    // Checked in posting order: the order in which the receives matched.
    for (int j = i; j < total; ++j) check(sts[static_cast<size_t>(j - i)], &bufs[3 * j]);
    for (int s = 0; s < size; ++s) EXPECT_EQ(next[static_cast<size_t>(s)], s == rank ? 0 : K);
  });
}

TEST_P(P2P, SelfSends) {
  expect_clean_run(n(), [&](int rank, int) {
    for (std::size_t s : {std::size_t{0}, std::size_t{10}, std::size_t{8192},
                          std::size_t{(4u << 20) + 1}}) {
      const int c = static_cast<int>(s);
      const auto out = make_payload(s, key_of(rank, s));
      std::vector<char> in(s + 1, 0x5A);
      PURE_Request req;
      PURE_Status st;
      // isend then a blocking receive on the same thread.
      EXPECT_PURE_OK(pure_isend(out.data(), c, PURE_BYTE, rank, 1, W, &req));
      EXPECT_PURE_OK(pure_recv(in.data(), c, PURE_BYTE, rank, 1, W, &st));
      EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));
      expect_status(st, rank, 1, s);
      EXPECT_TRUE(payload_ok(in.data(), s, key_of(rank, s)));
      EXPECT_EQ(in[s], 0x5A);
      // irecv then a blocking send (for a large message: a rendezvous with
      // ourselves, matched while we wait in the send).
      std::fill(in.begin(), in.end(), 0x5A);
      EXPECT_PURE_OK(pure_irecv(in.data(), c, PURE_BYTE, PURE_ANY_SOURCE, 2, W, &req));
      EXPECT_PURE_OK(pure_send(out.data(), c, PURE_BYTE, rank, 2, W));
      EXPECT_PURE_OK(pure_wait(&req, &st));
      expect_status(st, rank, 2, s);
      EXPECT_TRUE(payload_ok(in.data(), s, key_of(rank, s)));
      // sendrecv with ourselves.
      std::fill(in.begin(), in.end(), 0x5A);
      EXPECT_PURE_OK(pure_sendrecv(out.data(), c, PURE_BYTE, rank, 3, in.data(), c, PURE_BYTE,
                                   rank, 3, W, &st));
      EXPECT_TRUE(payload_ok(in.data(), s, key_of(rank, s)));
    }
    // More small messages to ourselves than the queue has slots, before
    // receiving any: the extra ones wait as queued requests.
    constexpr int M = 50;
    std::vector<PURE_Request> reqs(M);
    std::vector<int> vals(M);
    for (int i = 0; i < M; ++i) {
      vals[static_cast<size_t>(i)] = rank * 1000 + i;
      EXPECT_PURE_OK(pure_isend(&vals[static_cast<size_t>(i)], 1, PURE_INT, rank, 4, W,
                                &reqs[static_cast<size_t>(i)]));
    }
    for (int i = 0; i < M; ++i) {
      int v = -1;
      EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, rank, 4, W, PURE_STATUS_IGNORE));
      EXPECT_EQ(v, rank * 1000 + i);
    }
    EXPECT_PURE_OK(pure_waitall(M, reqs.data(), PURE_STATUSES_IGNORE));
    // And with blocking sends.
    for (int i = 0; i < M; ++i) EXPECT_PURE_OK(pure_send(&vals[static_cast<size_t>(i)], 1, PURE_INT, rank, 5, W));
    for (int i = 0; i < M; ++i) {
      int v = -1;
      EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, W, PURE_STATUS_IGNORE));
      EXPECT_EQ(v, rank * 1000 + i);
    }
  });
}

TEST_P(P2P, CommSelfIsSeparateFromWorld) {
  expect_clean_run(n(), [&](int rank, int) {
    const int on_world = 100 + rank, on_self = 200 + rank;
    PURE_Request reqs[2];
    EXPECT_PURE_OK(pure_isend(&on_world, 1, PURE_INT, rank, 5, W, &reqs[0]));
    EXPECT_PURE_OK(pure_isend(&on_self, 1, PURE_INT, 0, 5, PURE_COMM_SELF, &reqs[1]));
    int v = -1;
    PURE_Status st;
    EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_SELF, &st));
    EXPECT_EQ(v, on_self);
    EXPECT_EQ(st.MPI_SOURCE, 0) << "the source is a PURE_COMM_SELF rank";
    EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, rank, 5, W, &st));
    EXPECT_EQ(v, on_world);
    EXPECT_EQ(st.MPI_SOURCE, rank);
    EXPECT_PURE_OK(pure_waitall(2, reqs, PURE_STATUSES_IGNORE));
    int flag = 1;
    EXPECT_PURE_OK(pure_iprobe(PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_SELF, &flag, &st));
    EXPECT_EQ(flag, 0);
  });
}

}  // namespace
}  // namespace pure_testing
