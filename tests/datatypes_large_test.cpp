// The one point-to-point message of more than INT_MAX elements: only the
// large-count (_c) calls carry it. Apart from datatypes_messages_test
// because it moves and checks 2 GiB (label "heavy": tools/test.sh --full).
#include <memory>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

// A message of more than INT_MAX elements, which only the _c calls can
// carry: 2^31 + 100 chars from rank 0 to rank 1, every byte checked.
TEST(DatatypeMessagesLarge, MoreElementsThanAnIntHolds) {
  const PURE_Count count = (PURE_Count{1} << 31) + 100;
  expect_clean_run(2, [&](int rank, int) {
    std::unique_ptr<char[]> buf(new char[static_cast<std::size_t>(count)]);
    if (rank == 0) {
      fill_payload(buf.get(), static_cast<std::size_t>(count), 31);
      EXPECT_PURE_OK(pure_send_c(buf.get(), count, PURE_CHAR, 1, 0, W));
    } else {
      PURE_Status st;
      EXPECT_PURE_OK(pure_recv_c(buf.get(), count, PURE_CHAR, 0, 0, W, &st));
      EXPECT_TRUE(payload_ok(buf.get(), static_cast<std::size_t>(count), 31));
      PURE_Count got = 0;
      EXPECT_PURE_OK(pure_get_count_c(&st, PURE_CHAR, &got));
      EXPECT_EQ(got, count);
      EXPECT_PURE_OK(pure_get_elements_c(&st, PURE_CHAR, &got));
      EXPECT_EQ(got, count);
      int small = 0;
      EXPECT_PURE_OK(pure_get_count(&st, PURE_CHAR, &small));
      EXPECT_EQ(small, PURE_UNDEFINED);
    }
  });
}

}  // namespace
}  // namespace pure_testing
