// Error paths: bad input under the default PURE_ERRORS_ARE_FATAL (the job
// ends with the error class as exit code and a message naming the rank, the
// call and the bad value; ranks blocked elsewhere do not hang), the same
// input under PURE_ERRORS_RETURN (the call returns the class and the job
// goes on), every way a rank can end a job, the deadlock watchdog, and the
// validation of the PURE_* configuration.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "harness.h"
#include "pure/compat.h"


namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;
constexpr PURE_Comm kGarbageComm = PURE_HANDLE_KIND_COMM | 0xFF;

testing::AssertionResult mentions(const std::string& text, const std::vector<std::string>& needles) {
  for (const std::string& n : needles)
    if (text.find(n) == std::string::npos)
      return testing::AssertionFailure() << "\"" << n << "\" missing from:\n" << text;
  return testing::AssertionSuccess();
}

// ------------------------------------------------------------ bad input

// One bad call. `call(size)` makes it on the failing rank and returns its
// result; `needles(size)` are the texts the fatal message must contain
// besides the rank and the call name.
struct BadCall {
  const char* name;
  const char* call_name;
  int error_class;
  std::function<int(int size)> call;
  std::function<std::vector<std::string>(int size)> needles;
};

int ints[64];

void sum_ints(void* in, void* inout, int* len, PURE_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

std::vector<BadCall> bad_calls() {
  using V = std::vector<std::string>;
  auto fixed = [](V v) { return [v](int) { return v; }; };
  return {
      {"DestinationTooLarge", "pure_send", PURE_ERR_RANK,
       [](int size) { return pure_send(ints, 1, PURE_INT, size + 3, 0, W); },
       [](int size) { return V{"invalid destination rank " + std::to_string(size + 3)}; }},
      {"NegativeDestination", "pure_isend", PURE_ERR_RANK,
       [](int) {
         PURE_Request r;
         return pure_isend(ints, 1, PURE_INT, -5, 0, W, &r);
       },
       fixed({"destination rank -5"})},
      {"SourceTooLarge", "pure_recv", PURE_ERR_RANK,
       [](int size) { return pure_recv(ints, 1, PURE_INT, size, 0, W, PURE_STATUS_IGNORE); },
       [](int size) { return V{"source rank " + std::to_string(size)}; }},
      {"NegativeSendTag", "pure_send", PURE_ERR_TAG,
       [](int) { return pure_send(ints, 1, PURE_INT, 0, -5, W); }, fixed({"tag -5"})},
      {"NegativeReceiveTag", "pure_irecv", PURE_ERR_TAG,
       [](int) {
         PURE_Request r;
         return pure_irecv(ints, 1, PURE_INT, 0, -7, W, &r);
       },
       fixed({"tag -7"})},
      {"NegativeCount", "pure_send", PURE_ERR_COUNT,
       [](int) { return pure_send(ints, -3, PURE_INT, 0, 0, W); }, fixed({"count -3"})},
      {"NegativeReceiveCount", "pure_recv", PURE_ERR_COUNT,
       [](int) { return pure_recv(ints, -1, PURE_INT, 0, 0, W, PURE_STATUS_IGNORE); },
       fixed({"count -1"})},
      {"GarbageDatatype", "pure_send", PURE_ERR_TYPE,
       [](int) { return pure_send(ints, 1, 12345, 0, 0, W); }, fixed({"0x3039"})},
      {"NullDatatype", "pure_ssend", PURE_ERR_TYPE,
       [](int) { return pure_ssend(ints, 1, PURE_DATATYPE_NULL, 0, 0, W); },
       fixed({"PURE_DATATYPE_NULL"})},
      {"UncommittedDatatype", "pure_send", PURE_ERR_TYPE,
       [](int) {
         PURE_Datatype t;
         pure_type_contiguous(2, PURE_INT, &t);
         return pure_send(ints, 1, t, 0, 0, W);
       },
       fixed({"not committed"})},
      {"FreedDatatype", "pure_send", PURE_ERR_TYPE,
       [](int) {
         PURE_Datatype t, copy;
         pure_type_contiguous(2, PURE_INT, &t);
         pure_type_commit(&t);
         copy = t;
         pure_type_free(&t);
         return pure_send(ints, 1, copy, 0, 0, W);
       },
       fixed({"datatype handle 0x", "was freed"})},
      // The freed handle's slot now holds another type: the old handle must
      // still be refused, not read as the new type.
      {"FreedDatatypeSlotReused", "pure_type_size", PURE_ERR_TYPE,
       [](int) {
         PURE_Datatype t, copy, other;
         pure_type_contiguous(2, PURE_INT, &t);
         copy = t;
         pure_type_free(&t);
         pure_type_contiguous(5, PURE_INT, &other);
         int size = 0;
         return pure_type_size(copy, &size);
       },
       fixed({"datatype handle 0x", "was freed"})},
      {"FreedCommunicator", "pure_comm_size", PURE_ERR_COMM,
       [](int) {
         // Over PURE_COMM_SELF: the other ranks are not there to dup with.
         PURE_Comm dup, copy, other;
         pure_comm_dup(PURE_COMM_SELF, &dup);
         copy = dup;
         pure_comm_free(&dup);
         pure_comm_dup(PURE_COMM_SELF, &other);
         int size = 0;
         return pure_comm_size(copy, &size);
       },
       fixed({"communicator handle 0x", "was freed"})},
      {"FreedGroup", "pure_group_size", PURE_ERR_GROUP,
       [](int) {
         PURE_Group g, copy, other;
         pure_comm_group(W, &g);
         copy = g;
         pure_group_free(&g);
         pure_comm_group(W, &other);
         int size = 0;
         return pure_group_size(copy, &size);
       },
       fixed({"group handle 0x", "was freed"})},
      {"FreedOp", "pure_op_commutative", PURE_ERR_OP,
       [](int) {
         PURE_Op op, copy, other;
         pure_op_create(sum_ints, 1, &op);
         copy = op;
         pure_op_free(&op);
         pure_op_create(sum_ints, 0, &other);
         int commute = 0;
         return pure_op_commutative(copy, &commute);
       },
       fixed({"op handle 0x", "was freed"})},
      // A request handle kept after the wait that completed (and freed) it;
      // the request object is reused by the next receive.
      {"CompletedRequest", "pure_wait", PURE_ERR_REQUEST,
       [](int) {
         int me = 0;
         pure_comm_rank(W, &me);
         int box[2] = {1, 2};  // this rank's own: every rank runs this under ERRORS_RETURN
         PURE_Request r, copy, next;
         pure_irecv(&box[0], 1, PURE_INT, me, 5, W, &r);
         copy = r;
         pure_send(&box[1], 1, PURE_INT, me, 5, W);
         pure_wait(&r, PURE_STATUS_IGNORE);
         pure_irecv(&box[0], 1, PURE_INT, me, 6, W, &next);
         const int rc = pure_wait(&copy, PURE_STATUS_IGNORE);
         pure_send(&box[1], 1, PURE_INT, me, 6, W);  // (under PURE_ERRORS_RETURN)
         pure_wait(&next, PURE_STATUS_IGNORE);
         return rc;
       },
       fixed({"request handle", "already completed or freed"})},
      {"NullCommunicator", "pure_send", PURE_ERR_COMM,
       [](int) { return pure_send(ints, 1, PURE_INT, 0, 0, PURE_COMM_NULL); },
       fixed({"PURE_COMM_NULL"})},
      {"GarbageCommunicator", "pure_recv", PURE_ERR_COMM,
       [](int) { return pure_recv(ints, 1, PURE_INT, 0, 0, kGarbageComm, PURE_STATUS_IGNORE); },
       fixed({"0x1c0000ff"})},
      {"IntegerAsCommunicator", "pure_comm_size", PURE_ERR_COMM,
       [](int) {
         int s;
         return pure_comm_size(42, &s);
       },
       fixed({"0x2a"})},
      {"DatatypeAsCommunicator", "pure_isend", PURE_ERR_COMM,
       [](int) {
         PURE_Request r;
         return pure_isend(ints, 1, PURE_INT, 0, 0, PURE_INT, &r);
       },
       fixed({"invalid communicator"})},
      {"NullSendBuffer", "pure_send", PURE_ERR_BUFFER,
       [](int) { return pure_send(nullptr, 4, PURE_INT, 0, 0, W); }, fixed({"null buffer", "4"})},
      {"NullReceiveBuffer", "pure_irecv", PURE_ERR_BUFFER,
       [](int) {
         PURE_Request r;
         return pure_irecv(nullptr, 2, PURE_DOUBLE, 0, 0, W, &r);
       },
       fixed({"null buffer", "2"})},
      {"InvalidErrhandler", "pure_comm_set_errhandler", PURE_ERR_ARG,
       [](int) { return pure_comm_set_errhandler(W, PURE_INT); }, fixed({"error handler"})},
      // ---- datatypes: constructors, introspection, elements, external32 ----
      {"SubarrayStartBeyondTheArray", "pure_type_create_subarray", PURE_ERR_ARG,
       [](int) {
         const int sizes[] = {4, 4}, sub[] = {2, 2}, starts[] = {0, 3};
         PURE_Datatype t;
         return pure_type_create_subarray(2, sizes, sub, starts, PURE_ORDER_C, PURE_INT, &t);
       },
       fixed({"starts[1] = 3", "sizes[1] - subsizes[1] = 2"})},
      {"SubarrayUnknownOrder", "pure_type_create_subarray", PURE_ERR_ARG,
       [](int) {
         const int sizes[] = {4}, sub[] = {2}, starts[] = {0};
         PURE_Datatype t;
         return pure_type_create_subarray(1, sizes, sub, starts, 5, PURE_INT, &t);
       },
       fixed({"invalid order 5"})},
      {"DarrayGridOfTheWrongSize", "pure_type_create_darray", PURE_ERR_ARG,
       [](int) {
         const int gs[] = {8, 8}, dist[] = {PURE_DISTRIBUTE_BLOCK, PURE_DISTRIBUTE_BLOCK},
                   dargs[] = {PURE_DISTRIBUTE_DFLT_DARG, PURE_DISTRIBUTE_DFLT_DARG},
                   ps[] = {2, 2};
         PURE_Datatype t;
         return pure_type_create_darray(6, 0, 2, gs, dist, dargs, ps, PURE_ORDER_C, PURE_INT, &t);
       },
       fixed({"4 processes, not size = 6"})},
      {"DarrayUnknownDistribution", "pure_type_create_darray", PURE_ERR_ARG,
       [](int) {
         const int gs[] = {8}, dist[] = {7}, dargs[] = {1}, ps[] = {1};
         PURE_Datatype t;
         return pure_type_create_darray(1, 0, 1, gs, dist, dargs, ps, PURE_ORDER_C, PURE_INT, &t);
       },
       fixed({"distribs[0] = 7"})},
      {"DarrayBlocksDoNotCover", "pure_type_create_darray", PURE_ERR_ARG,
       [](int) {
         const int gs[] = {10}, dist[] = {PURE_DISTRIBUTE_BLOCK}, dargs[] = {2}, ps[] = {2};
         PURE_Datatype t;
         return pure_type_create_darray(2, 1, 1, gs, dist, dargs, ps, PURE_ORDER_C, PURE_INT, &t);
       },
       fixed({"dargs[0] = 2", "do not cover the 10 elements"})},
      {"DarrayRankOutsideTheGrid", "pure_type_create_darray", PURE_ERR_ARG,
       [](int) {
         const int gs[] = {10}, dist[] = {PURE_DISTRIBUTE_CYCLIC}, dargs[] = {1}, ps[] = {2};
         PURE_Datatype t;
         return pure_type_create_darray(2, 2, 1, gs, dist, dargs, ps, PURE_ORDER_C, PURE_INT, &t);
       },
       fixed({"invalid rank 2"})},
      {"HindexedBlockNegativeLength", "pure_type_create_hindexed_block", PURE_ERR_ARG,
       [](int) {
         const PURE_Aint d[] = {0};
         PURE_Datatype t;
         return pure_type_create_hindexed_block(1, -2, d, PURE_INT, &t);
       },
       fixed({"blocklength -2"})},
      {"LargeCountIndexedNegativeLength", "pure_type_indexed_c", PURE_ERR_ARG,
       [](int) {
         const PURE_Count bl[] = {1, -9}, d[] = {0, 4};
         PURE_Datatype t;
         return pure_type_indexed_c(2, bl, d, PURE_INT, &t);
       },
       fixed({"blocklength -9 at index 1"})},
      {"ContentsOfAPredefinedType", "pure_type_get_contents", PURE_ERR_TYPE,
       [](int) { return pure_type_get_contents(PURE_DOUBLE, 0, 0, 0, nullptr, nullptr, nullptr); },
       fixed({"PURE_DOUBLE is predefined"})},
      {"ContentsArraysTooSmall", "pure_type_get_contents", PURE_ERR_ARG,
       [](int) {
         PURE_Datatype t, old;
         pure_type_contiguous(3, PURE_INT, &t);
         return pure_type_get_contents(t, 0, 0, 1, nullptr, nullptr, &old);
       },
       fixed({"max_integers 0 is less than the 1 integers"})},
      {"EnvelopeOfALargeCountType", "pure_type_get_envelope", PURE_ERR_TYPE,
       [](int) {
         PURE_Datatype t;
         pure_type_contiguous_c(3, PURE_INT, &t);
         int a, b, c, d;
         return pure_type_get_envelope(t, &a, &b, &c, &d);
       },
       fixed({"large-count constructor", "pure_type_get_envelope_c"})},
      {"MatchSizeWithoutAType", "pure_type_match_size", PURE_ERR_ARG,
       [](int) {
         PURE_Datatype t;
         return pure_type_match_size(PURE_TYPECLASS_REAL, 3, &t);
       },
       fixed({"no predefined real type has 3 bytes"})},
      {"SetElementsNegative", "pure_status_set_elements", PURE_ERR_COUNT,
       [](int) {
         PURE_Status st;
         return pure_status_set_elements(&st, PURE_INT, -4);
       },
       fixed({"count -4"})},
      {"PackExternalUnknownRepresentation", "pure_pack_external", PURE_ERR_ARG,
       [](int) {
         char out[16];
         PURE_Aint pos = 0;
         return pure_pack_external("native", ints, 1, PURE_INT, out, 16, &pos);
       },
       fixed({"\"native\""})},
      {"PackExternalLongBeyond32Bits", "pure_pack_external", PURE_ERR_CONVERSION,
       [](int) {
         static const long big = 1L << 40;
         char out[16];
         PURE_Aint pos = 0;
         return pure_pack_external("external32", &big, 1, PURE_LONG, out, 16, &pos);
       },
       fixed({"1099511627776", "does not fit"})},
      {"PackExternalOutputTooSmall", "pure_pack_external", PURE_ERR_TRUNCATE,
       [](int) {
         char out[16];
         PURE_Aint pos = 0;
         return pure_pack_external("external32", ints, 1, PURE_DOUBLE, out, 3, &pos);
       },
       fixed({"packing 8 bytes at position 0", "has 3 bytes"})},
      {"BottomWithARelativeType", "pure_send", PURE_ERR_BUFFER,
       [](int) { return pure_send(PURE_BOTTOM, 2, PURE_INT, 0, 0, W); },
       fixed({"PURE_BOTTOM", "starts at 0"})},
      {"LargeCountNegative", "pure_send_c", PURE_ERR_COUNT,
       [](int) { return pure_send_c(ints, -1, PURE_INT, 0, 0, W); }, fixed({"count -1"})},
      // Every rank fails before anything moves: counts the v-collectives
      // cannot carry.
      {"LargeCountAboveTheVCollectives", "pure_alltoallv_c", PURE_ERR_COUNT,
       [](int size) {
         std::vector<PURE_Count> counts(static_cast<std::size_t>(size), 3000000000LL);
         std::vector<PURE_Aint> displs(static_cast<std::size_t>(size), 0);
         return pure_alltoallv_c(ints, counts.data(), displs.data(), PURE_CHAR, ints,
                                 counts.data(), displs.data(), PURE_CHAR, W);
       },
       fixed({"sendcounts[0] = 3000000000"})},
      {"LargeCountAboveTheNonblockingVCollectives", "pure_iallgatherv_c", PURE_ERR_COUNT,
       [](int size) {
         std::vector<PURE_Count> counts(static_cast<std::size_t>(size), 1);
         counts.back() = 3000000000LL;
         std::vector<PURE_Aint> displs(static_cast<std::size_t>(size), 0);
         PURE_Request q;
         return pure_iallgatherv_c(ints, 1, PURE_CHAR, ints, counts.data(), displs.data(),
                                   PURE_CHAR, W, &q);
       },
       fixed({"recvcounts[", "= 3000000000"})},
  };
}

class BadInput : public testing::TestWithParam<size_t> {
 protected:
  BadCall bad() const { return bad_calls()[GetParam()]; }
};

std::string bad_call_name(const testing::TestParamInfo<size_t>& info) {
  return bad_calls()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(, BadInput, testing::Range<size_t>(0, bad_calls().size()), bad_call_name);

// The last rank makes the bad call; every other rank waits for a message
// from it that never comes and must be released by the abort.
TEST_P(BadInput, IsFatalByDefault) {
  const BadCall b = bad();
  for (int n : {2, 16}) {
    const JobResult r = run_ranks_capturing(n, [&](int rank, int size) {
      if (rank == size - 1) {
        b.call(size);
        ADD_FAILURE() << b.name << " returned under PURE_ERRORS_ARE_FATAL";
      } else {
        pure_recv(ints, 1, PURE_INT, size - 1, 0, W, PURE_STATUS_IGNORE);
        ADD_FAILURE() << "rank " << rank << " received a message nobody sent";
      }
    });
    EXPECT_EQ(r.code, b.error_class) << r.err;
    std::vector<std::string> needles = b.needles(n);
    needles.push_back("rank " + std::to_string(n - 1) + ": " + b.call_name + ": ");
    EXPECT_TRUE(mentions(r.err, needles)) << n << " ranks";
  }
}

// Under PURE_ERRORS_RETURN the call returns the class, and the job goes on.
TEST_P(BadInput, ReturnsTheErrorClassUnderErrorsReturn) {
  const BadCall b = bad();
  const JobResult r = run_ranks_capturing(4, [&](int rank, int size) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(b.call(size), b.error_class) << b.name;
    // Still working: a ring exchange.
    int out = rank, in = -1;
    EXPECT_PURE_OK(pure_sendrecv(&out, 1, PURE_INT, (rank + 1) % size, 9, &in, 1, PURE_INT,
                                 (rank + size - 1) % size, 9, W, PURE_STATUS_IGNORE));
    EXPECT_EQ(in, (rank + size - 1) % size);
  });
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("pure:"), std::string::npos) << r.err;
}

// The error handler of PURE_COMM_SELF does not apply to PURE_COMM_WORLD.
TEST(ErrorHandlers, AreSetPerCommunicator) {
  const JobResult r = run_ranks_capturing(2, [&](int rank, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_SELF, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_send(ints, 1, PURE_INT, 1, -1, PURE_COMM_SELF), PURE_ERR_RANK);
    if (rank == 0) pure_send(ints, 1, PURE_INT, 0, -1, W);  // fatal
    else pure_recv(ints, 1, PURE_INT, 0, 0, W, PURE_STATUS_IGNORE);
  });
  EXPECT_EQ(r.code, PURE_ERR_TAG);
  EXPECT_TRUE(mentions(r.err, {"rank 0: pure_send: ", "tag -1"}));
}

TEST(ErrorHandlers, RequestErrorsUnderErrorsReturn) {
  expect_clean_run(2, [&](int rank, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    PURE_Request none = PURE_REQUEST_NULL;
    EXPECT_EQ(pure_request_free(&none), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_cancel(&none), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_isend(ints, 1, PURE_INT, rank, 0, W, nullptr), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_waitall(-1, &none, PURE_STATUSES_IGNORE), PURE_ERR_COUNT);
  });
}

// ------------------------------------------------------ init and finalize

TEST(Lifecycle, CallBeforeInitIsFatal) {
  const JobResult r = capture_stderr([] {
    pure::Config c;
    c.ranks = 4;
    return pure::run(c, [](int, char**) {
      int rank = -1;
      pure_initialized(&rank);  // allowed before init
      pure_send(ints, 1, PURE_INT, 0, 0, W);
      return 0;
    });
  });
  EXPECT_EQ(r.code, PURE_ERR_NOT_INITIALIZED);
  EXPECT_TRUE(mentions(r.err, {": pure_send: called before pure_init"}));
}

// MPI-4 lets the info calls run before init and after finalize (section
// 11.2.1): an object made before init is usable after it, and freed after
// finalize.
TEST(Lifecycle, InfoCallsBeforeInitAndAfterFinalize) {
  const JobResult r = capture_stderr([] {
    pure::Config c;
    c.ranks = 3;
    return pure::run(c, [](int argc, char** argv) {
      PURE_Info info = PURE_INFO_NULL, copy = PURE_INFO_NULL;
      char value[16] = {0};
      int flag = 0, nkeys = 0;
      if (pure_info_create(&info) != PURE_SUCCESS) return 20;
      if (pure_info_set(info, "wanted", "yes") != PURE_SUCCESS) return 21;
      if (pure_info_set(info, "drop", "me") != PURE_SUCCESS) return 22;
      if (pure_info_delete(info, "drop") != PURE_SUCCESS) return 23;
      if (pure_info_dup(info, &copy) != PURE_SUCCESS) return 24;
      if (pure_info_get_nkeys(copy, &nkeys) != PURE_SUCCESS || nkeys != 1) return 25;
      if (pure_init(&argc, &argv) != PURE_SUCCESS) return 26;
      if (pure_info_get(info, "wanted", 15, value, &flag) != PURE_SUCCESS || !flag ||
          std::string(value) != "yes")
        return 27;
      if (pure_finalize() != PURE_SUCCESS) return 28;
      char key[PURE_MAX_INFO_KEY + 1];
      if (pure_info_get_nthkey(copy, 0, key) != PURE_SUCCESS || std::string(key) != "wanted")
        return 29;
      if (pure_info_free(&copy) != PURE_SUCCESS || pure_info_free(&info) != PURE_SUCCESS) return 30;
      return info == PURE_INFO_NULL && copy == PURE_INFO_NULL ? 0 : 31;
    });
  });
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Lifecycle, CallAfterFinalizeIsFatal) {
  const JobResult r = capture_stderr([] {
    pure::Config c;
    c.ranks = 4;
    return pure::run(c, [](int, char**) {
      pure_init(nullptr, nullptr);
      int rank = -1;
      pure_comm_rank(W, &rank);
      pure_finalize();
      if (rank == 2) pure_recv(ints, 1, PURE_INT, 0, 0, W, PURE_STATUS_IGNORE);
      return 0;
    });
  });
  EXPECT_EQ(r.code, PURE_ERR_FINALIZED);
  EXPECT_TRUE(mentions(r.err, {"rank 2: pure_recv: called after pure_finalize"}));
}

TEST(Lifecycle, InitTwiceIsAnError) {
  expect_clean_run(2, [&](int, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_NE(pure_init(nullptr, nullptr), PURE_SUCCESS);
  });
}

// ------------------------------------------------------------ truncation

class Truncation : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(, Truncation, kRankCounts, rank_count_name);

// Eager and rendezvous sizes, blocking and non-blocking: fatal by default,
// with the sizes in the message.
TEST_P(Truncation, IsFatalByDefault) {
  for (int ints_sent : {100, 100000}) {
    for (int blocking = 0; blocking < 2; ++blocking) {
      const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
        std::vector<int> out(static_cast<size_t>(ints_sent), rank);
        std::vector<int> in(11, -1);
        if (rank == 0) {
          pure_send(out.data(), ints_sent, PURE_INT, 1, 0, W);
          pure_recv(in.data(), 1, PURE_INT, 1, 1, W, PURE_STATUS_IGNORE);  // never sent
        } else if (rank == 1) {
          if (blocking) {
            pure_recv(in.data(), 10, PURE_INT, 0, 0, W, PURE_STATUS_IGNORE);
          } else {
            PURE_Request req;
            pure_irecv(in.data(), 10, PURE_INT, 0, 0, W, &req);
            pure_wait(&req, PURE_STATUS_IGNORE);
          }
          ADD_FAILURE() << "the truncated receive returned";
        } else {
          pure_recv(in.data(), 1, PURE_INT, (rank + 1) % size, 0, W, PURE_STATUS_IGNORE);
        }
        EXPECT_EQ(in[10], -1) << "wrote past the receive buffer";
      });
      EXPECT_EQ(r.code, PURE_ERR_TRUNCATE) << r.err;
      const std::string call = blocking ? "pure_recv" : "pure_wait";
      EXPECT_TRUE(mentions(r.err, {"rank 1: " + call + ": ",
                                   std::to_string(ints_sent * 4) + " bytes", "40 bytes"}))
          << ints_sent << " ints, blocking " << blocking;
    }
  }
}

TEST_P(Truncation, ReturnsTheClassAndNeverOverruns) {
  expect_clean_run(GetParam(), [&](int rank, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    const int partner = rank ^ 1;
    for (int sent : {100, 100000}) {
      std::vector<int> out(static_cast<size_t>(sent), rank);
      std::vector<int> in(11, -1);
      PURE_Request sreq;
      EXPECT_PURE_OK(pure_isend(out.data(), sent, PURE_INT, partner, 0, W, &sreq));
      PURE_Status st;
      EXPECT_EQ(pure_recv(in.data(), 10, PURE_INT, partner, 0, W, &st), PURE_ERR_TRUNCATE);
      EXPECT_PURE_OK(pure_wait(&sreq, PURE_STATUS_IGNORE));
      EXPECT_EQ(st.MPI_ERROR, PURE_ERR_TRUNCATE);
      EXPECT_EQ(st.MPI_SOURCE, partner);
      EXPECT_EQ(in[9], partner);
      EXPECT_EQ(in[10], -1);
      // Non-blocking: wait reports the class; waitall reports it in the status.
      PURE_Request rreq;
      EXPECT_PURE_OK(pure_isend(out.data(), sent, PURE_INT, partner, 1, W, &sreq));
      EXPECT_PURE_OK(pure_irecv(in.data(), 10, PURE_INT, partner, 1, W, &rreq));
      EXPECT_EQ(pure_wait(&rreq, &st), PURE_ERR_TRUNCATE);
      EXPECT_EQ(rreq, PURE_REQUEST_NULL);
      EXPECT_PURE_OK(pure_wait(&sreq, PURE_STATUS_IGNORE));
      PURE_Request reqs[2];
      EXPECT_PURE_OK(pure_isend(out.data(), sent, PURE_INT, partner, 2, W, &reqs[0]));
      EXPECT_PURE_OK(pure_irecv(in.data(), 10, PURE_INT, partner, 2, W, &reqs[1]));
      PURE_Status sts[2];
      EXPECT_EQ(pure_waitall(2, reqs, sts), PURE_ERR_IN_STATUS);
      EXPECT_EQ(sts[0].MPI_ERROR, PURE_SUCCESS);
      EXPECT_EQ(sts[1].MPI_ERROR, PURE_ERR_TRUNCATE);
      EXPECT_EQ(in[10], -1);
    }
  });
}

// ------------------------------------------------------ ending the job

class JobEnd : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(, JobEnd, kRankCounts, rank_count_name);

// The other ranks wait for a message from the last rank that never comes.
void wait_for_last(int rank, int size) {
  if (rank != size - 1) pure_recv(ints, 1, PURE_INT, size - 1, 0, W, PURE_STATUS_IGNORE);
}

TEST_P(JobEnd, AbortEndsTheJobWithItsCode) {
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
    wait_for_last(rank, size);
    if (rank == size - 1) pure_abort(W, 7);
    ADD_FAILURE() << "rank " << rank << " went on after the abort";
  });
  EXPECT_EQ(r.code, 7);
  EXPECT_TRUE(mentions(r.err, {"rank " + std::to_string(GetParam() - 1) + ": pure_abort: ",
                               "error code 7"}));
}

// A window held by an RAII object, as C++ programs hold one: the abort
// unwinds every rank through its destructor, whose pure_win_free must
// neither wait nor throw there (a destructor is noexcept: a second
// JobAborted would terminate the process with SIGABRT's status). The job
// ends with the abort's code, and the aborting rank's last line (printed
// through its own buffered stdout) is out.
struct HeldWindow {
  HeldWindow() { EXPECT_PURE_OK(pure_win_allocate(64, 1, PURE_INFO_NULL, W, &base, &win)); }
  ~HeldWindow() { pure_win_free(&win); }
  void* base = nullptr;
  PURE_Win win = PURE_WIN_NULL;
};

TEST_P(JobEnd, AbortUnwindsThroughAWindowsDestructor) {
  testing::internal::CaptureStdout();
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
    HeldWindow held;
    wait_for_last(rank, size);
    if (rank == size - 1) {
      pure_printf("rank %d: last words before the abort\n", rank);
      pure_abort(W, 3);
    }
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
  EXPECT_NE(out.find("rank " + std::to_string(GetParam() - 1) + ": last words before the abort"),
            std::string::npos)
      << "stdout: " << out;
}

// A call from a thread that is not a rank cannot be made as any rank: with
// MPI's default (fatal) error handler the job ends, naming the call, and
// never goes on with what the call did not do.
TEST_P(JobEnd, ACallFromAThreadThatIsNoRankEndsTheJob) {
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
    if (rank == 0) {
      int got = PURE_SUCCESS;
      std::thread helper([&got] { got = pure_barrier(W); });
      helper.join();
      EXPECT_EQ(got, PURE_ERR_OTHER);
    }
    // A message nobody sends: the abort ends this wait.
    pure_recv(ints, 1, PURE_INT, (rank + 1) % size, 0, W, PURE_STATUS_IGNORE);
    ADD_FAILURE() << "rank " << rank << " went on after the job ended";
  });
  EXPECT_EQ(r.code, PURE_ERR_OTHER) << r.err;
  EXPECT_TRUE(mentions(r.err, {"pure_barrier called from a thread that is not a Pure rank",
                               "ending the job"}))
      << r.err;
}

TEST_P(JobEnd, AnExceptionEndsTheJob) {
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
    wait_for_last(rank, size);
    if (rank == size - 1) throw std::out_of_range("boom in the rank body");
  });
  // As std::terminate's abort() under mpirun: 128 + SIGABRT, with the type.
  EXPECT_EQ(r.code, 134);
  EXPECT_TRUE(mentions(r.err, {"rank " + std::to_string(GetParam() - 1),
                               "uncaught exception of type std::out_of_range",
                               "boom in the rank body"}));
}

struct NotAnException {
  int code;
};

TEST_P(JobEnd, AnythingThrownEndsTheJobNamingItsType) {
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int size) {
    wait_for_last(rank, size);
    if (rank == size - 1) throw NotAnException{5};
  });
  EXPECT_EQ(r.code, 134);
  EXPECT_TRUE(mentions(r.err, {"rank " + std::to_string(GetParam() - 1),
                               "uncaught exception of type", "NotAnException"}));
}

// Finalize is collective: a rank returning non-zero right after it does not
// cut short what another rank does after its own finalize; the job's status
// is the rank's.
TEST_P(JobEnd, AStatusAfterFinalizeWaitsForTheOtherRanks) {
  std::atomic<int> finished{0};
  const JobResult r = capture_stderr([&] {
    pure::Config c;
    c.ranks = GetParam();
    return pure::run(c, [&](int, char**) {
      pure_init(nullptr, nullptr);
      int rank, size;
      pure_comm_rank(W, &rank);
      pure_comm_size(W, &size);
      pure_finalize();
      if (rank == size - 1) return 9;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      finished.fetch_add(1);
      return 0;
    });
  });
  EXPECT_EQ(r.code, 9) << r.err;
  EXPECT_EQ(finished.load(), GetParam() - 1);
  EXPECT_TRUE(mentions(r.err, {"exited with code 9 after pure_finalize"}));
}

int run_with_last_rank(int n, const std::function<int(int rank, int size)>& last) {
  pure::Config c;
  c.ranks = n;
  return pure::run(c, [&](int, char**) {
    pure_init(nullptr, nullptr);
    int rank, size;
    pure_comm_rank(W, &rank);
    pure_comm_size(W, &size);
    if (rank == size - 1) return last(rank, size);
    wait_for_last(rank, size);
    ADD_FAILURE() << "rank " << rank << " received a message nobody sent";
    pure_finalize();
    return 0;
  });
}

TEST_P(JobEnd, ANonZeroReturnIsTheJobsExitCode) {
  const JobResult r = capture_stderr([&] {
    return run_with_last_rank(GetParam(), [](int, int) { return 3; });
  });
  EXPECT_EQ(r.code, 3);
  EXPECT_TRUE(mentions(r.err, {"rank " + std::to_string(GetParam() - 1) + " exited with code 3"}));
}

TEST_P(JobEnd, ReturningWithoutFinalizeEndsTheJob) {
  const JobResult r = capture_stderr([&] {
    return run_with_last_rank(GetParam(), [](int, int) { return 0; });
  });
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(mentions(r.err, {"rank " + std::to_string(GetParam() - 1), "pure_finalize"}));
}

TEST_P(JobEnd, ADeadlockIsReportedAndEndsTheJob) {
  pure::Config c;
  c.deadlock_timeout_s = 0.5;
  const JobResult r = run_ranks_capturing(GetParam(), [&](int rank, int) {
    // Both ranks of each pair wait for the other: nobody ever sends.
    int v;
    pure_recv(&v, 1, PURE_INT, rank ^ 1, 5, W, PURE_STATUS_IGNORE);
    ADD_FAILURE() << "rank " << rank << " received a message nobody sent";
  }, c);
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(mentions(r.err, {"deadlock", "rank 0: blocked in pure_recv peer=1 tag=5",
                               "rank 1: blocked in pure_recv peer=0 tag=5"}));
}

// Ranks done with their work wait in the collective finalize, which is no
// progress: a rank left waiting for one of them is a deadlock too.
TEST(JobEndSingle, ADeadlockWithFinishedRanks) {
  pure::Config c;
  c.deadlock_timeout_s = 0.5;
  const JobResult r = run_ranks_capturing(4, [&](int rank, int) {
    if (rank == 0) pure_recv(ints, 1, PURE_INT, 3, 0, W, PURE_STATUS_IGNORE);
  }, c);
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(
      mentions(r.err, {"deadlock", "rank 0: blocked in pure_recv", "rank 3: blocked in pure_finalize"}));
}

}  // namespace
}  // namespace pure_testing
