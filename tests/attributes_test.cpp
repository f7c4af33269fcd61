// Attribute caching: keyvals on communicators and datatypes (and MPI-1's
// names), set/get/delete with the delete callback run before a value is
// replaced, copy callbacks at dup (the predefined ones and the program's,
// one that fails making the dup fail), delete callbacks at free in reverse
// order of setting, with the communicator still usable inside, a keyval
// freed while attributes hold it, the predefined attributes as pointers to
// int, and the clean-up on PURE_COMM_SELF at finalize.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

class Attributes : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Attributes, pure_testing::rank_sweep({2, 4, 16}), rank_count_name);

// What the callbacks saw, per rank (ranks are threads: thread_local).
struct Log {
  std::vector<std::string> events;
};
thread_local Log t_log;

void* value_of(std::intptr_t v) { return reinterpret_cast<void*>(v); }
std::intptr_t int_of(void* v) { return reinterpret_cast<std::intptr_t>(v); }

int copy_plus_one(PURE_Comm, int, void* extra, void* in, void* out, int* flag) {
  t_log.events.push_back("copy " + std::to_string(int_of(in)));
  *static_cast<void**>(out) = value_of(int_of(in) + 1 + (extra ? int_of(extra) : 0));
  *flag = 1;
  return PURE_SUCCESS;
}

int record_delete(PURE_Comm comm, int keyval, void* value, void*) {
  // The communicator is still usable here.
  void* v = nullptr;
  int flag = 0, size = -1;
  EXPECT_PURE_OK(pure_comm_get_attr(comm, keyval, &v, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(v, value);
  EXPECT_PURE_OK(pure_comm_size(comm, &size));
  t_log.events.push_back("delete " + std::to_string(int_of(value)));
  return PURE_SUCCESS;
}

int failing_copy(PURE_Comm, int, void*, void*, void*, int* flag) {
  *flag = 1;
  return PURE_ERR_OTHER;
}

int failing_delete(PURE_Comm, int, void*, void* extra) {
  return *static_cast<bool*>(extra) ? PURE_SUCCESS : PURE_ERR_OTHER;
}

TEST_P(Attributes, CommunicatorAttributesAndCallbacks) {
  expect_clean_run(GetParam(), [](int rank, int) {
    t_log.events.clear();
    int a = PURE_KEYVAL_INVALID, b = PURE_KEYVAL_INVALID, c = PURE_KEYVAL_INVALID;
    EXPECT_PURE_OK(pure_comm_create_keyval(copy_plus_one, record_delete, &a, nullptr));
    EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_DUP_FN, record_delete, &b, nullptr));
    EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_NULL_COPY_FN, PURE_COMM_NULL_DELETE_FN, &c,
                                           nullptr));
    EXPECT_NE(a, PURE_KEYVAL_INVALID);
    PURE_Comm comm;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &comm));
    void* v = nullptr;
    int flag = -1;
    EXPECT_PURE_OK(pure_comm_get_attr(comm, a, &v, &flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_comm_set_attr(comm, a, value_of(100 + rank)));
    EXPECT_PURE_OK(pure_comm_set_attr(comm, b, value_of(200)));
    EXPECT_PURE_OK(pure_comm_set_attr(comm, c, value_of(300)));
    // Replacing runs the delete callback on the old value.
    EXPECT_PURE_OK(pure_comm_set_attr(comm, b, value_of(201)));
    EXPECT_EQ(t_log.events, (std::vector<std::string>{"delete 200"}));
    EXPECT_PURE_OK(pure_comm_get_attr(comm, b, &v, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(int_of(v), 201);

    // Dup: a copied +1, b as is, c not at all.
    t_log.events.clear();
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup(comm, &dup));
    EXPECT_EQ(t_log.events, (std::vector<std::string>{"copy " + std::to_string(100 + rank)}));
    EXPECT_PURE_OK(pure_comm_get_attr(dup, a, &v, &flag));
    EXPECT_EQ(int_of(v), 101 + rank);
    EXPECT_PURE_OK(pure_comm_get_attr(dup, b, &v, &flag));
    EXPECT_EQ(int_of(v), 201);
    EXPECT_PURE_OK(pure_comm_get_attr(dup, c, &v, &flag));
    EXPECT_EQ(flag, 0);

    // Delete, then free: the rest are deleted, the last set first.
    t_log.events.clear();
    EXPECT_PURE_OK(pure_comm_delete_attr(comm, c));
    EXPECT_PURE_OK(pure_comm_get_attr(comm, c, &v, &flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_comm_free(&comm));
    EXPECT_EQ(t_log.events, (std::vector<std::string>{"delete 201", "delete " + std::to_string(100 + rank)}));

    // A keyval freed while an attribute holds it: the attribute stays
    // usable by its callbacks, the handle is refused.
    t_log.events.clear();
    const int freed = a;
    EXPECT_PURE_OK(pure_comm_free_keyval(&a));
    EXPECT_EQ(a, PURE_KEYVAL_INVALID);
    EXPECT_PURE_OK(pure_comm_set_errhandler(dup, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_set_attr(dup, freed, value_of(1)), PURE_ERR_KEYVAL);
    EXPECT_PURE_OK(pure_comm_free(&dup));
    EXPECT_EQ(t_log.events, (std::vector<std::string>{"delete 201", "delete " + std::to_string(101 + rank)}));
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_free_keyval(&a), PURE_ERR_KEYVAL);  // PURE_KEYVAL_INVALID
    int again = freed;
    EXPECT_EQ(pure_comm_free_keyval(&again), PURE_ERR_KEYVAL);  // gone now
    EXPECT_PURE_OK(pure_comm_free_keyval(&b));
    EXPECT_PURE_OK(pure_comm_free_keyval(&c));
  });
}

TEST_P(Attributes, FailingCallbacks) {
  expect_clean_run(GetParam(), [](int, int) {
    bool allow_delete = false;
    int k;
    EXPECT_PURE_OK(pure_keyval_create(failing_copy, failing_delete, &k, &allow_delete));
    PURE_Comm comm;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &comm));
    EXPECT_PURE_OK(pure_comm_set_errhandler(comm, PURE_ERRORS_RETURN));
    EXPECT_PURE_OK(pure_attr_put(comm, k, value_of(1)));
    // The delete callback fails: replacing and deleting fail, the value stays.
    EXPECT_EQ(pure_attr_put(comm, k, value_of(2)), PURE_ERR_OTHER);
    EXPECT_EQ(pure_attr_delete(comm, k), PURE_ERR_OTHER);
    void* v = nullptr;
    int flag = 0;
    EXPECT_PURE_OK(pure_attr_get(comm, k, &v, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(int_of(v), 1);
    // The copy callback fails: so does the dup, which returns PURE_COMM_NULL.
    PURE_Comm dup = PURE_COMM_WORLD;
    EXPECT_EQ(pure_comm_dup(comm, &dup), PURE_ERR_OTHER);
    EXPECT_EQ(dup, PURE_COMM_NULL);
    // Freeing fails while the delete callback does.
    PURE_Comm keep = comm;
    EXPECT_EQ(pure_comm_free(&comm), PURE_ERR_OTHER);
    EXPECT_EQ(comm, keep);
    allow_delete = true;
    EXPECT_PURE_OK(pure_comm_free(&comm));
    EXPECT_PURE_OK(pure_keyval_free(&k));
  });
}

TEST_P(Attributes, PredefinedAttributes) {
  expect_clean_run(GetParam(), [](int, int size) {
    int* value = nullptr;
    int flag = 0;
    for (int key : {PURE_TAG_UB, PURE_HOST, PURE_IO, PURE_WTIME_IS_GLOBAL, PURE_APPNUM,
                    PURE_UNIVERSE_SIZE, PURE_LASTUSEDCODE}) {
      EXPECT_PURE_OK(pure_comm_get_attr(PURE_COMM_WORLD, key, &value, &flag));
      EXPECT_EQ(flag, 1) << key;
    }
    EXPECT_PURE_OK(pure_comm_get_attr(PURE_COMM_WORLD, PURE_TAG_UB, &value, &flag));
    EXPECT_GE(*value, 32767);
    EXPECT_PURE_OK(pure_attr_get(PURE_COMM_WORLD, PURE_UNIVERSE_SIZE, &value, &flag));
    EXPECT_EQ(*value, size);
    EXPECT_PURE_OK(pure_comm_get_attr(PURE_COMM_WORLD, PURE_LASTUSEDCODE, &value, &flag));
    EXPECT_EQ(*value, PURE_ERR_LASTCODE);
    int cls = 0;
    EXPECT_PURE_OK(pure_add_error_class(&cls));
    EXPECT_EQ(*value, cls);  // the same int, updated
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_set_attr(PURE_COMM_WORLD, PURE_TAG_UB, nullptr), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_comm_delete_attr(PURE_COMM_WORLD, PURE_HOST), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_comm_get_attr(PURE_COMM_WORLD, PURE_KEYVAL_INVALID, &value, &flag),
              PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_comm_get_attr(PURE_COMM_WORLD, PURE_HANDLE_KIND_KEYVAL | 0x4242, &value, &flag),
              PURE_ERR_KEYVAL);
  });
}

int type_copy(PURE_Datatype, int, void*, void* in, void* out, int* flag) {
  t_log.events.push_back("type copy");
  *static_cast<void**>(out) = value_of(int_of(in) * 2);
  *flag = 1;
  return PURE_SUCCESS;
}
int type_delete(PURE_Datatype, int, void* value, void*) {
  t_log.events.push_back("type delete " + std::to_string(int_of(value)));
  return PURE_SUCCESS;
}

TEST_P(Attributes, DatatypeAttributes) {
  expect_clean_run(GetParam(), [](int, int) {
    t_log.events.clear();
    int k, ck;
    EXPECT_PURE_OK(pure_type_create_keyval(type_copy, type_delete, &k, nullptr));
    EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_NULL_COPY_FN, PURE_COMM_NULL_DELETE_FN, &ck,
                                           nullptr));
    PURE_Datatype t, d;
    EXPECT_PURE_OK(pure_type_contiguous(3, PURE_INT, &t));
    EXPECT_PURE_OK(pure_type_set_attr(t, k, value_of(21)));
    EXPECT_PURE_OK(pure_type_dup(t, &d));
    void* v = nullptr;
    int flag = 0;
    EXPECT_PURE_OK(pure_type_get_attr(d, k, &v, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(int_of(v), 42);
    EXPECT_PURE_OK(pure_type_free(&t));
    EXPECT_PURE_OK(pure_type_delete_attr(d, k));
    EXPECT_PURE_OK(pure_type_get_attr(d, k, &v, &flag));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_type_free(&d));
    // Predefined datatypes cache attributes too.
    EXPECT_PURE_OK(pure_type_set_attr(PURE_DOUBLE, k, value_of(5)));
    EXPECT_PURE_OK(pure_type_get_attr(PURE_DOUBLE, k, &v, &flag));
    EXPECT_EQ(int_of(v), 5);
    EXPECT_PURE_OK(pure_type_delete_attr(PURE_DOUBLE, k));
    EXPECT_EQ(t_log.events, (std::vector<std::string>{"type copy", "type delete 21",
                                                      "type delete 42", "type delete 5"}));
    // A communicator's keyval on a datatype, and the other way round.
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_type_set_attr(PURE_INT, ck, nullptr), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_comm_set_attr(PURE_COMM_WORLD, k, nullptr), PURE_ERR_KEYVAL);
    EXPECT_PURE_OK(pure_type_free_keyval(&k));
    EXPECT_PURE_OK(pure_comm_free_keyval(&ck));
  });
}

// PURE_COMM_SELF's attributes are deleted at the start of finalize, the
// last set first, while Pure still works.
std::atomic<int> g_finalize_deletes{0};
thread_local int t_expected_next = 0;
int finalize_delete(PURE_Comm, int, void* value, void*) {
  int finalized = -1;
  EXPECT_PURE_OK(pure_finalized(&finalized));
  EXPECT_EQ(finalized, 0);
  EXPECT_EQ(int_of(value), t_expected_next--);
  g_finalize_deletes.fetch_add(1);
  return PURE_SUCCESS;
}

TEST(AttributesAtFinalize, SelfAttributesAreDeletedLastSetFirst) {
  g_finalize_deletes = 0;
  expect_clean_run(4, [](int, int) {
    for (int i = 0; i < 20; ++i) {
      int k;
      EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_NULL_COPY_FN, finalize_delete, &k, nullptr));
      EXPECT_PURE_OK(pure_comm_set_attr(PURE_COMM_SELF, k, value_of(i)));
      EXPECT_PURE_OK(pure_comm_free_keyval(&k));
    }
    t_expected_next = 19;
  });
  EXPECT_EQ(g_finalize_deletes.load(), 4 * 20);
}

}  // namespace
}  // namespace pure_testing
