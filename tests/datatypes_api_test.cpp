// The datatype calls of the flat API that do not send anything: every
// constructor's envelope and contents (int and large-count), names, the
// predefined type of a size, the _x and _c queries, the MPI-1 names old codes
// call, address arithmetic, elements of a status, external32 and the
// library version. Run on rank threads like any program (several ranks
// at once, each with its own handles).
#include <climits>
#include <complex>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

void on_ranks(int n, const Body& body) { expect_clean_run(n, body); }

struct Contents {
  int combiner = -1;
  std::vector<int> ints;
  std::vector<PURE_Aint> aints;
  std::vector<PURE_Datatype> types;
};

Contents contents_of(PURE_Datatype t) {
  Contents c;
  int ni = -1, na = -1, nd = -1;
  EXPECT_PURE_OK(pure_type_get_envelope(t, &ni, &na, &nd, &c.combiner));
  c.ints.resize(static_cast<std::size_t>(ni));
  c.aints.resize(static_cast<std::size_t>(na));
  c.types.resize(static_cast<std::size_t>(nd));
  if (c.combiner != PURE_COMBINER_NAMED) {
    EXPECT_PURE_OK(pure_type_get_contents(t, ni, na, nd, c.ints.data(), c.aints.data(),
                                          c.types.data()));
  }
  return c;
}

void free_derived(std::vector<PURE_Datatype>& types) {
  for (PURE_Datatype& t : types) {
    int ni, na, nd, combiner;
    pure_type_get_envelope(t, &ni, &na, &nd, &combiner);
    if (combiner != PURE_COMBINER_NAMED) { EXPECT_PURE_OK(pure_type_free(&t)); }
  }
}

TEST(DatatypeContents, EveryConstructorRemembersItsArguments) {
  on_ranks(3, [](int, int) {
    PURE_Datatype t;
    {  // named
      Contents c = contents_of(PURE_DOUBLE);
      EXPECT_EQ(c.combiner, PURE_COMBINER_NAMED);
      EXPECT_TRUE(c.ints.empty() && c.aints.empty() && c.types.empty());
    }
    EXPECT_PURE_OK(pure_type_contiguous(7, PURE_INT, &t));
    Contents c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_CONTIGUOUS);
    EXPECT_EQ(c.ints, (std::vector<int>{7}));
    EXPECT_EQ(c.types, (std::vector<PURE_Datatype>{PURE_INT}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_vector(3, 2, -4, PURE_SHORT, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_VECTOR);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 2, -4}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_create_hvector(3, 2, 40, PURE_SHORT, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_HVECTOR);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 2}));
    EXPECT_EQ(c.aints, (std::vector<PURE_Aint>{40}));
    EXPECT_PURE_OK(pure_type_free(&t));

    const int bl[] = {1, 0, 3};
    const int dis[] = {5, 9, -2};
    EXPECT_PURE_OK(pure_type_indexed(3, bl, dis, PURE_FLOAT, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_INDEXED);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 1, 0, 3, 5, 9, -2}));
    EXPECT_PURE_OK(pure_type_free(&t));

    const PURE_Aint bytes[] = {64, 0, -8};
    EXPECT_PURE_OK(pure_type_create_hindexed(3, bl, bytes, PURE_FLOAT, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_HINDEXED);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 1, 0, 3}));
    EXPECT_EQ(c.aints, (std::vector<PURE_Aint>{64, 0, -8}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_create_indexed_block(3, 2, dis, PURE_CHAR, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_INDEXED_BLOCK);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 2, 5, 9, -2}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_create_hindexed_block(3, 2, bytes, PURE_CHAR, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_HINDEXED_BLOCK);
    EXPECT_EQ(c.ints, (std::vector<int>{3, 2}));
    EXPECT_EQ(c.aints, (std::vector<PURE_Aint>{64, 0, -8}));
    EXPECT_PURE_OK(pure_type_free(&t));

    const int sizes[] = {6, 5}, sub[] = {2, 3}, starts[] = {1, 2};
    EXPECT_PURE_OK(pure_type_create_subarray(2, sizes, sub, starts, PURE_ORDER_FORTRAN,
                                             PURE_DOUBLE, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_SUBARRAY);
    EXPECT_EQ(c.ints, (std::vector<int>{2, 6, 5, 2, 3, 1, 2, PURE_ORDER_FORTRAN}));
    EXPECT_PURE_OK(pure_type_free(&t));

    const int gs[] = {8, 9}, dist[] = {PURE_DISTRIBUTE_BLOCK, PURE_DISTRIBUTE_CYCLIC},
              dargs[] = {PURE_DISTRIBUTE_DFLT_DARG, 2}, ps[] = {2, 3};
    EXPECT_PURE_OK(pure_type_create_darray(6, 4, 2, gs, dist, dargs, ps, PURE_ORDER_C, PURE_INT,
                                           &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_DARRAY);
    EXPECT_EQ(c.ints, (std::vector<int>{6, 4, 2, 8, 9, PURE_DISTRIBUTE_BLOCK,
                                        PURE_DISTRIBUTE_CYCLIC, PURE_DISTRIBUTE_DFLT_DARG, 2, 2,
                                        3, PURE_ORDER_C}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_create_resized(PURE_INT, -4, 12, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_RESIZED);
    EXPECT_EQ(c.aints, (std::vector<PURE_Aint>{-4, 12}));
    EXPECT_PURE_OK(pure_type_free(&t));

    EXPECT_PURE_OK(pure_type_dup(PURE_LONG, &t));
    c = contents_of(t);
    EXPECT_EQ(c.combiner, PURE_COMBINER_DUP);
    EXPECT_EQ(c.types, (std::vector<PURE_Datatype>{PURE_LONG}));
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

TEST(DatatypeContents, DerivedArgumentsComeBackAsNewHandles) {
  on_ranks(2, [](int, int) {
    PURE_Datatype inner, outer;
    EXPECT_PURE_OK(pure_type_vector(2, 1, 3, PURE_INT, &inner));
    const int lengths[] = {1, 2};
    const PURE_Aint displs[] = {0, 64};
    const PURE_Datatype types[] = {PURE_CHAR, inner};
    EXPECT_PURE_OK(pure_type_create_struct(2, lengths, displs, types, &outer));
    // The program's own handle goes first: the struct keeps what it needs.
    EXPECT_PURE_OK(pure_type_free(&inner));
    Contents c = contents_of(outer);
    EXPECT_EQ(c.combiner, PURE_COMBINER_STRUCT);
    EXPECT_EQ(c.ints, (std::vector<int>{2, 1, 2}));
    EXPECT_EQ(c.aints, (std::vector<PURE_Aint>{0, 64}));
    ASSERT_EQ(c.types.size(), 2u);
    EXPECT_EQ(c.types[0], PURE_CHAR);  // predefined: the same handle
    // The derived member is a new handle to a vector of 2 ints, stride 3.
    Contents inner_c = contents_of(c.types[1]);
    EXPECT_EQ(inner_c.combiner, PURE_COMBINER_VECTOR);
    EXPECT_EQ(inner_c.ints, (std::vector<int>{2, 1, 3}));
    PURE_Aint lb, extent;
    EXPECT_PURE_OK(pure_type_get_extent(c.types[1], &lb, &extent));
    EXPECT_EQ(extent, 16);
    // A second call hands out another handle; each is freed on its own.
    Contents again = contents_of(outer);
    EXPECT_NE(again.types[1], c.types[1]);
    free_derived(c.types);
    free_derived(again.types);
    EXPECT_PURE_OK(pure_type_get_extent(outer, &lb, &extent));
    EXPECT_PURE_OK(pure_type_free(&outer));
  });
}

TEST(DatatypeContents, LargeCountConstructorsKeepTheirCountsAsCounts) {
  on_ranks(2, [](int, int) {
    PURE_Datatype t;
    const PURE_Count bl[] = {2, 1}, dis[] = {40, -8};
    EXPECT_PURE_OK(pure_type_create_hindexed_c(2, bl, dis, PURE_DOUBLE, &t));
    PURE_Count ni, na, nc, nd;
    int combiner;
    EXPECT_PURE_OK(pure_type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
    EXPECT_EQ(combiner, PURE_COMBINER_HINDEXED);
    EXPECT_EQ(ni, 0);
    EXPECT_EQ(na, 0);
    EXPECT_EQ(nc, 5);
    EXPECT_EQ(nd, 1);
    std::vector<PURE_Count> counts(5);
    PURE_Datatype old;
    EXPECT_PURE_OK(pure_type_get_contents_c(t, 0, 0, 5, 1, nullptr, nullptr, counts.data(),
                                            &old));
    EXPECT_EQ(counts, (std::vector<PURE_Count>{2, 2, 1, 40, -8}));
    EXPECT_EQ(old, PURE_DOUBLE);
    // The int calls cannot hand these counts out.
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    int i1, i2, i3, i4;
    EXPECT_EQ(pure_type_get_envelope(t, &i1, &i2, &i3, &i4), PURE_ERR_TYPE);
    EXPECT_PURE_OK(pure_type_free(&t));

    // An int constructor seen through the _c calls: no large counts.
    const int sizes[] = {4, 4}, sub[] = {2, 2}, starts[] = {0, 1};
    EXPECT_PURE_OK(pure_type_create_subarray(2, sizes, sub, starts, PURE_ORDER_C, PURE_INT, &t));
    EXPECT_PURE_OK(pure_type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
    EXPECT_EQ(ni, 8);
    EXPECT_EQ(nc, 0);
    EXPECT_PURE_OK(pure_type_free(&t));

    // subarray_c: ndims and order stay integers, the sizes are counts.
    const PURE_Count csizes[] = {4, 4}, csub[] = {2, 2}, cstarts[] = {0, 1};
    EXPECT_PURE_OK(pure_type_create_subarray_c(2, csizes, csub, cstarts, PURE_ORDER_C, PURE_INT,
                                               &t));
    EXPECT_PURE_OK(pure_type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner));
    EXPECT_EQ(combiner, PURE_COMBINER_SUBARRAY);
    EXPECT_EQ(ni, 2);
    EXPECT_EQ(nc, 6);
    int ints[2];
    std::vector<PURE_Count> c6(6);
    EXPECT_PURE_OK(pure_type_get_contents_c(t, 2, 0, 6, 1, ints, nullptr, c6.data(), &old));
    EXPECT_EQ(ints[0], 2);
    EXPECT_EQ(ints[1], PURE_ORDER_C);
    EXPECT_EQ(c6, (std::vector<PURE_Count>{4, 4, 2, 2, 0, 1}));
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

// The _c constructors build the layouts of their int twins.
TEST(DatatypeContents, LargeCountConstructorsBuildTheSameLayouts) {
  on_ranks(2, [](int, int) {
    auto same = [](PURE_Datatype a, PURE_Datatype b) {
      PURE_Aint lb1, ex1, lb2, ex2;
      PURE_Count s1, s2;
      EXPECT_PURE_OK(pure_type_get_extent(a, &lb1, &ex1));
      EXPECT_PURE_OK(pure_type_get_extent(b, &lb2, &ex2));
      EXPECT_PURE_OK(pure_type_size_x(a, &s1));
      EXPECT_PURE_OK(pure_type_size_c(b, &s2));
      EXPECT_EQ(lb1, lb2);
      EXPECT_EQ(ex1, ex2);
      EXPECT_EQ(s1, s2);
      // Same bytes packed from the same buffer.
      std::vector<int> src(256);
      for (int i = 0; i < 256; ++i) src[static_cast<std::size_t>(i)] = i * 7;
      std::vector<char> pa(4096), pb(4096);
      int pos_a = 0;
      PURE_Count pos_b = 0;
      const PURE_Aint at = lb1 < 0 ? -lb1 : 0;
      EXPECT_PURE_OK(pure_type_commit(&a));
      EXPECT_PURE_OK(pure_type_commit(&b));
      EXPECT_PURE_OK(pure_pack(reinterpret_cast<char*>(src.data()) + at, 2, a, pa.data(), 4096,
                               &pos_a, W));
      EXPECT_PURE_OK(pure_pack_c(reinterpret_cast<char*>(src.data()) + at, 2, b, pb.data(), 4096,
                                 &pos_b, W));
      EXPECT_EQ(pos_a, pos_b);
      EXPECT_EQ(0, std::memcmp(pa.data(), pb.data(), static_cast<std::size_t>(pos_a)));
      EXPECT_PURE_OK(pure_type_free(&a));
      EXPECT_PURE_OK(pure_type_free(&b));
    };
    PURE_Datatype a, b;
    EXPECT_PURE_OK(pure_type_contiguous(5, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_contiguous_c(5, PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_vector(4, 2, 5, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_vector_c(4, 2, 5, PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_create_hvector(4, 2, 24, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_create_hvector_c(4, 2, 24, PURE_INT, &b));
    same(a, b);
    const int ibl[] = {2, 1, 3}, idis[] = {7, 0, 12};
    const PURE_Count cbl[] = {2, 1, 3}, cdis[] = {7, 0, 12}, cbytes[] = {28, 0, 48};
    const PURE_Aint abytes[] = {28, 0, 48};
    EXPECT_PURE_OK(pure_type_indexed(3, ibl, idis, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_indexed_c(3, cbl, cdis, PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_create_hindexed(3, ibl, abytes, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_create_hindexed_c(3, cbl, cbytes, PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_create_indexed_block(3, 2, idis, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_create_indexed_block_c(3, 2, cdis, PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_create_hindexed_block(3, 2, abytes, PURE_INT, &a));
    EXPECT_PURE_OK(pure_type_create_hindexed_block_c(3, 2, cbytes, PURE_INT, &b));
    same(a, b);
    const PURE_Datatype types[] = {PURE_INT, PURE_SHORT, PURE_INT};
    EXPECT_PURE_OK(pure_type_create_struct(3, ibl, abytes, types, &a));
    EXPECT_PURE_OK(pure_type_create_struct_c(3, cbl, cbytes, types, &b));
    same(a, b);
    const int gs[] = {12}, dist[] = {PURE_DISTRIBUTE_CYCLIC}, darg[] = {2}, ps[] = {3};
    const PURE_Count cgs[] = {12};
    EXPECT_PURE_OK(pure_type_create_darray(3, 1, 1, gs, dist, darg, ps, PURE_ORDER_C, PURE_INT,
                                           &a));
    EXPECT_PURE_OK(pure_type_create_darray_c(3, 1, 1, cgs, dist, darg, ps, PURE_ORDER_C,
                                             PURE_INT, &b));
    same(a, b);
    EXPECT_PURE_OK(pure_type_create_resized(PURE_INT, -4, 16, &a));
    EXPECT_PURE_OK(pure_type_create_resized_c(PURE_INT, -4, 16, &b));
    same(a, b);
  });
}

TEST(DatatypeNames, PredefinedTypesHaveTheirNamesAndProgramsGiveTheirOwn) {
  on_ranks(2, [](int rank, int) {
    char name[PURE_MAX_OBJECT_NAME];
    int len = -1;
    // A program written for Pure sees Pure's names (one built through
    // <pure/mpi.h> sees MPI_INT: tests/translator, mpi_names).
    EXPECT_PURE_OK(pure_type_get_name(PURE_INT, name, &len));
    EXPECT_STREQ(name, "PURE_INT");
    EXPECT_EQ(len, 8);
    EXPECT_PURE_OK(pure_type_get_name(PURE_CXX_DOUBLE_COMPLEX, name, &len));
    EXPECT_STREQ(name, "PURE_CXX_DOUBLE_COMPLEX");
    EXPECT_PURE_OK(pure_type_get_name(PURE_2DOUBLE_PRECISION, name, &len));
    EXPECT_STREQ(name, "PURE_2DOUBLE_PRECISION");
    PURE_Datatype t;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_INT, &t));
    EXPECT_PURE_OK(pure_type_get_name(t, name, &len));
    EXPECT_STREQ(name, "");  // none given yet
    EXPECT_EQ(len, 0);
    const std::string mine = "pair of ints on rank " + std::to_string(rank);
    EXPECT_PURE_OK(pure_type_set_name(t, mine.c_str()));
    EXPECT_PURE_OK(pure_type_get_name(t, name, &len));
    EXPECT_EQ(std::string(name), mine);
    // A long name is cut to PURE_MAX_OBJECT_NAME - 1 characters.
    const std::string longer(300, 'x');
    EXPECT_PURE_OK(pure_type_set_name(t, longer.c_str()));
    EXPECT_PURE_OK(pure_type_get_name(t, name, &len));
    EXPECT_EQ(len, PURE_MAX_OBJECT_NAME - 1);
    // A dup is a new type without the name.
    PURE_Datatype d;
    EXPECT_PURE_OK(pure_type_dup(t, &d));
    EXPECT_PURE_OK(pure_type_get_name(d, name, &len));
    EXPECT_EQ(len, 0);
    // Renaming a predefined type is this rank's business only.
    if (rank == 0) { EXPECT_PURE_OK(pure_type_set_name(PURE_FLOAT, "real")); }
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_type_get_name(PURE_FLOAT, name, &len));
    EXPECT_STREQ(name, rank == 0 ? "real" : "PURE_FLOAT");
    EXPECT_PURE_OK(pure_type_free(&t));
    EXPECT_PURE_OK(pure_type_free(&d));
  });
}

TEST(DatatypeQueries, MatchSizeFindsAPredefinedTypeOfTheClass) {
  on_ranks(2, [](int, int) {
    struct Case { int typeclass, size; };
    for (Case k : {Case{PURE_TYPECLASS_INTEGER, 1}, Case{PURE_TYPECLASS_INTEGER, 2},
                   Case{PURE_TYPECLASS_INTEGER, 4}, Case{PURE_TYPECLASS_INTEGER, 8},
                   Case{PURE_TYPECLASS_REAL, 4}, Case{PURE_TYPECLASS_REAL, 8},
                   Case{PURE_TYPECLASS_REAL, static_cast<int>(sizeof(long double))},
                   Case{PURE_TYPECLASS_COMPLEX, 8}, Case{PURE_TYPECLASS_COMPLEX, 16}}) {
      PURE_Datatype t = PURE_DATATYPE_NULL;
      EXPECT_PURE_OK(pure_type_match_size(k.typeclass, k.size, &t));
      int size = -1;
      EXPECT_PURE_OK(pure_type_size(t, &size));
      EXPECT_EQ(size, k.size);
      int ni, na, nd, combiner;
      EXPECT_PURE_OK(pure_type_get_envelope(t, &ni, &na, &nd, &combiner));
      EXPECT_EQ(combiner, PURE_COMBINER_NAMED);
    }
    PURE_Datatype t;
    EXPECT_PURE_OK(pure_type_match_size(PURE_TYPECLASS_REAL, 8, &t));
    EXPECT_EQ(t, PURE_DOUBLE);
    EXPECT_PURE_OK(pure_type_match_size(PURE_TYPECLASS_INTEGER, 4, &t));
    EXPECT_EQ(t, PURE_INT);
  });
}

TEST(DatatypeQueries, SizesAndExtentsAsCounts) {
  on_ranks(2, [](int, int) {
    PURE_Datatype t;
    EXPECT_PURE_OK(pure_type_create_resized(PURE_DOUBLE, -8, 32, &t));
    PURE_Count lb, extent, size;
    EXPECT_PURE_OK(pure_type_get_extent_x(t, &lb, &extent));
    EXPECT_EQ(lb, -8);
    EXPECT_EQ(extent, 32);
    EXPECT_PURE_OK(pure_type_get_true_extent_x(t, &lb, &extent));
    EXPECT_EQ(lb, 0);
    EXPECT_EQ(extent, 8);
    EXPECT_PURE_OK(pure_type_get_extent_c(t, &lb, &extent));
    EXPECT_EQ(extent, 32);
    EXPECT_PURE_OK(pure_type_get_true_extent_c(t, &lb, &extent));
    EXPECT_EQ(extent, 8);
    EXPECT_PURE_OK(pure_type_size_x(t, &size));
    EXPECT_EQ(size, 8);
    EXPECT_PURE_OK(pure_type_free(&t));
    // 2^33 bytes of data: the _x and _c sizes carry it, the int size is
    // PURE_UNDEFINED (MPI 3.1 section 4.1.5).
    PURE_Datatype gib, big;
    EXPECT_PURE_OK(pure_type_contiguous(1 << 30, PURE_CHAR, &gib));
    EXPECT_PURE_OK(pure_type_contiguous_c(8, gib, &big));
    EXPECT_PURE_OK(pure_type_size_x(big, &size));
    EXPECT_EQ(size, PURE_Count{1} << 33);
    EXPECT_PURE_OK(pure_type_size_c(big, &size));
    EXPECT_EQ(size, PURE_Count{1} << 33);
    int small = 0;
    EXPECT_PURE_OK(pure_type_size(big, &small));
    EXPECT_EQ(small, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_type_free(&big));
    EXPECT_PURE_OK(pure_type_free(&gib));
  });
}

TEST(DatatypeMpi1, RemovedNamesKeepTheirMeaning) {
  on_ranks(2, [](int, int) {
    // struct {LB at -4, double at 0, int at 8, UB at 32}, MPI-1 style.
    const int lengths[] = {1, 1, 1, 1};
    const PURE_Aint displs[] = {-4, 0, 8, 32};
    const PURE_Datatype types[] = {PURE_LB, PURE_DOUBLE, PURE_INT, PURE_UB};
    PURE_Datatype s;
    EXPECT_PURE_OK(pure_type_struct(4, lengths, displs, types, &s));
    PURE_Aint extent = 0, lb = 0, ub = 0;
    EXPECT_PURE_OK(pure_type_extent(s, &extent));
    EXPECT_PURE_OK(pure_type_lb(s, &lb));
    EXPECT_PURE_OK(pure_type_ub(s, &ub));
    EXPECT_EQ(lb, -4);
    EXPECT_EQ(ub, 32);
    EXPECT_EQ(extent, 36);
    int size = 0;
    EXPECT_PURE_OK(pure_type_size(s, &size));
    EXPECT_EQ(size, 12);
    Contents c = contents_of(s);
    EXPECT_EQ(c.combiner, PURE_COMBINER_STRUCT);
    EXPECT_EQ(c.types, (std::vector<PURE_Datatype>{PURE_LB, PURE_DOUBLE, PURE_INT, PURE_UB}));
    EXPECT_PURE_OK(pure_type_free(&s));

    PURE_Datatype h;
    EXPECT_PURE_OK(pure_type_hvector(3, 1, 12, PURE_INT, &h));
    EXPECT_PURE_OK(pure_type_extent(h, &extent));
    EXPECT_EQ(extent, 28);
    EXPECT_EQ(contents_of(h).combiner, PURE_COMBINER_HVECTOR);
    EXPECT_PURE_OK(pure_type_free(&h));
    const int bl[] = {2, 1};
    const PURE_Aint at[] = {16, 0};
    EXPECT_PURE_OK(pure_type_hindexed(2, bl, at, PURE_SHORT, &h));
    EXPECT_PURE_OK(pure_type_extent(h, &extent));
    EXPECT_EQ(extent, 20);
    EXPECT_EQ(contents_of(h).combiner, PURE_COMBINER_HINDEXED);
    EXPECT_PURE_OK(pure_type_free(&h));

    double x = 0;
    PURE_Aint a1 = 0, a2 = 0;
    EXPECT_PURE_OK(pure_address(&x, &a1));
    EXPECT_PURE_OK(pure_get_address(&x, &a2));
    EXPECT_EQ(a1, a2);
  });
}

TEST(DatatypeQueries, AddressArithmetic) {
  on_ranks(2, [](int, int) {
    double grid[8] = {};
    PURE_Aint base, fifth;
    EXPECT_PURE_OK(pure_get_address(&grid[0], &base));
    EXPECT_PURE_OK(pure_get_address(&grid[5], &fifth));
    EXPECT_EQ(pure_aint_diff(fifth, base), 5 * static_cast<PURE_Aint>(sizeof(double)));
    EXPECT_EQ(pure_aint_add(base, 40), fifth);
    EXPECT_EQ(pure_aint_add(fifth, -40), base);
  });
}

TEST(DatatypeQueries, LibraryVersionNamesPure) {
  char text[PURE_MAX_LIBRARY_VERSION_STRING];
  int len = -1;
  // Callable before init, like pure_get_version.
  ASSERT_EQ(pure_get_library_version(text, &len), PURE_SUCCESS);
  EXPECT_EQ(len, static_cast<int>(std::strlen(text)));
  EXPECT_EQ(std::string(text).rfind("Pure ", 0), 0u) << text;
  EXPECT_LT(len, PURE_MAX_LIBRARY_VERSION_STRING);
}

// ---- elements of a status ----

TEST(DatatypeElements, SetElementsAndReadThemBack) {
  on_ranks(2, [](int, int) {
    // struct {int; 5 chars} = 6 elements, 9 bytes.
    const int lengths[] = {1, 5};
    const PURE_Aint displs[] = {0, 4};
    const PURE_Datatype types[] = {PURE_INT, PURE_CHAR};
    PURE_Datatype t;
    EXPECT_PURE_OK(pure_type_create_struct(2, lengths, displs, types, &t));
    PURE_Status st{};
    int n = -1;
    PURE_Count x = -1;
    for (int elements : {0, 1, 3, 6, 7, 12, 13, 100}) {
      EXPECT_PURE_OK(pure_status_set_elements(&st, t, elements));
      EXPECT_PURE_OK(pure_get_elements(&st, t, &n));
      EXPECT_EQ(n, elements);
      EXPECT_PURE_OK(pure_get_count(&st, t, &n));
      EXPECT_EQ(n, elements % 6 == 0 ? elements / 6 : PURE_UNDEFINED) << elements;
    }
    EXPECT_PURE_OK(pure_status_set_elements_x(&st, t, 8));
    EXPECT_PURE_OK(pure_get_elements_x(&st, t, &x));
    EXPECT_EQ(x, 8);
    EXPECT_PURE_OK(pure_get_elements_c(&st, PURE_CHAR, &x));
    EXPECT_EQ(x, 9 + 4 + 1);  // 14 bytes: one whole copy, then an int and a char
    EXPECT_PURE_OK(pure_get_count_c(&st, PURE_CHAR, &x));
    EXPECT_EQ(x, 14);
    // 14 bytes are 3 ints and half of a fourth: not a whole number of them.
    EXPECT_PURE_OK(pure_get_elements(&st, PURE_INT, &n));
    EXPECT_EQ(n, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_get_elements_x(&st, PURE_INT, &x));
    EXPECT_EQ(x, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

// ---- empty blocks ----

// A block of length zero has no entries in the type map (MPI 3.1 section
// 4.1), so it moves neither bound, wherever it is; the types built on such
// a type commit and carry exactly the data of the other blocks. Adjacent
// blocks (one run in memory) pack as the blocks they are.
TEST(DatatypeEmptyBlocks, ZeroLengthBlocksMoveNoBoundAndCarryNoData) {
  on_ranks(2, [](int, int) {
    const int sz = static_cast<int>(sizeof(int));
    const int lengths[3][3] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
    const int displs[3][3] = {{0, 1, 4}, {1, 2, 4}, {1, 4, 8}};
    for (int k = 0; k < 3; ++k) {
      PURE_Datatype t, s;
      EXPECT_PURE_OK(pure_type_indexed(3, lengths[k], displs[k], PURE_INT, &t));
      PURE_Aint lb = -1, extent = -1;
      EXPECT_PURE_OK(pure_type_get_extent(t, &lb, &extent));
      EXPECT_EQ(lb, sz) << "empty block " << k;
      EXPECT_EQ(lb + extent, 5 * sz) << "empty block " << k;
      // A struct of it, committed and sent to itself.
      const int one[2] = {1, 1};
      const PURE_Aint at[2] = {0, 8 * sz};
      const PURE_Datatype parts[2] = {t, PURE_INT};
      EXPECT_PURE_OK(pure_type_create_struct(2, one, at, parts, &s));
      EXPECT_PURE_OK(pure_type_commit(&s));
      int size = -1;
      EXPECT_PURE_OK(pure_type_size(s, &size));
      EXPECT_EQ(size, 3 * sz);
      int out[9], in[9];
      for (int i = 0; i < 9; ++i) out[i] = 100 + i, in[i] = -1;
      EXPECT_PURE_OK(pure_sendrecv(out, 1, s, 0, 7, in, 1, s, 0, 7, PURE_COMM_SELF,
                                   PURE_STATUS_IGNORE));
      for (int i = 0; i < 9; ++i) {
        const bool data = i == 8 || (i == displs[k][0] && lengths[k][0]) ||
                          (i == displs[k][1] && lengths[k][1]) ||
                          (i == displs[k][2] && lengths[k][2]);
        EXPECT_EQ(in[i], data ? 100 + i : -1) << "empty block " << k << ", int " << i;
      }
      EXPECT_PURE_OK(pure_type_free(&s));
      EXPECT_PURE_OK(pure_type_free(&t));
    }
    // A struct whose first member has no elements: dropped, the extent is
    // the other members'.
    const int blocks[3] = {0, 1, 2};
    const PURE_Aint at[3] = {2 * static_cast<PURE_Aint>(sizeof(float)), 0, 2 * sz};
    const PURE_Datatype members[3] = {PURE_FLOAT, PURE_INT, PURE_INT};
    PURE_Datatype rec;
    EXPECT_PURE_OK(pure_type_create_struct(3, blocks, at, members, &rec));
    EXPECT_PURE_OK(pure_type_commit(&rec));
    int records[8], values[6] = {1, 2, 3, 4, 5, 6};
    for (int& r : records) r = -1;
    PURE_Status st;
    EXPECT_PURE_OK(pure_sendrecv(values, 6, PURE_INT, 0, 8, records, 2, rec, 0, 8, PURE_COMM_SELF,
                                 &st));
    const int want[8] = {1, -1, 2, 3, 4, -1, 5, 6};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(records[i], want[i]) << "int " << i;
    int count = -1, elements = -1;
    EXPECT_PURE_OK(pure_get_count(&st, rec, &count));
    EXPECT_PURE_OK(pure_get_elements(&st, rec, &elements));
    EXPECT_EQ(count, 2);
    EXPECT_EQ(elements, 6);
    EXPECT_PURE_OK(pure_type_free(&rec));

    // Blocks that continue one another, packed and unpacked into a zeroed
    // buffer: the data lands where it came from, nothing else is written.
    const int run_lengths[5] = {1, 2, 1, 1, 1}, run_displs[5] = {1, 2, 5, 6, 8};
    PURE_Datatype runs;
    EXPECT_PURE_OK(pure_type_indexed(5, run_lengths, run_displs, PURE_INT, &runs));
    EXPECT_PURE_OK(pure_type_commit(&runs));
    int buf[9] = {-1, 1, 2, 3, -2, 4, 5, -3, 6};
    int packed_size = -1;
    EXPECT_PURE_OK(pure_pack_size(1, runs, PURE_COMM_SELF, &packed_size));
    std::vector<char> packed(static_cast<std::size_t>(packed_size));
    int pos = 0;
    EXPECT_PURE_OK(pure_pack(buf, 1, runs, packed.data(), packed_size, &pos, PURE_COMM_SELF));
    EXPECT_EQ(pos, 6 * sz);
    std::memset(buf, 0, sizeof buf);
    pos = 0;
    EXPECT_PURE_OK(pure_unpack(packed.data(), 6 * sz, &pos, buf, 1, runs, PURE_COMM_SELF));
    EXPECT_EQ(pos, 6 * sz);
    const int back[9] = {0, 1, 2, 3, 0, 4, 5, 0, 6};
    for (int i = 0; i < 9; ++i) EXPECT_EQ(buf[i], back[i]) << "int " << i;
    EXPECT_PURE_OK(pure_type_free(&runs));
  });
}

// A type whose size passes INT_MAX (a vector of 2^30 - 1 blocks of four
// ints, every third one): built, committed, measured and freed at once,
// whatever its count; the int queries say PURE_UNDEFINED where the value
// does not fit, the large-count ones give it exactly (MPI 4.1 section
// 5.1.5), also for a resized twin with a negative extent.
TEST(DatatypeLargeCounts, ATypeOfMoreBytesThanAnIntHolds) {
  on_ranks(1, [](int, int) {
    const long long n = INT_MAX / 2;
    PURE_Datatype four, big, odd;
    EXPECT_PURE_OK(pure_type_contiguous(4, PURE_INT, &four));
    EXPECT_PURE_OK(pure_type_vector(static_cast<int>(n), 1, 3, four, &big));
    EXPECT_PURE_OK(pure_type_commit(&big));
    EXPECT_PURE_OK(pure_type_create_resized(big, INT_MAX, -1024, &odd));
    EXPECT_PURE_OK(pure_type_commit(&odd));
    const long long bytes = 16 * n, true_extent = 48 * (n - 1) + 16;
    for (PURE_Datatype t : {big, odd}) {
      int size = 0;
      EXPECT_PURE_OK(pure_type_size(t, &size));
      EXPECT_EQ(size, PURE_UNDEFINED);
      PURE_Count size_x = 0, lb = -1, extent = -1;
      EXPECT_PURE_OK(pure_type_size_x(t, &size_x));
      EXPECT_EQ(size_x, bytes);
      EXPECT_PURE_OK(pure_type_get_true_extent_x(t, &lb, &extent));
      EXPECT_EQ(lb, 0);
      EXPECT_EQ(extent, true_extent);
      // One whole element received: 4n basic elements (ints), more than an
      // int counts (set_elements counts basic elements, as MPI defines it).
      PURE_Status st;
      EXPECT_PURE_OK(pure_status_set_elements_x(&st, t, 4 * n));
      PURE_Count elements_x = 0;
      int elements = 0, count = 0;
      EXPECT_PURE_OK(pure_get_elements_x(&st, t, &elements_x));
      EXPECT_PURE_OK(pure_get_elements(&st, t, &elements));
      EXPECT_PURE_OK(pure_get_count(&st, t, &count));
      EXPECT_EQ(elements_x, 4 * n);
      EXPECT_EQ(elements, PURE_UNDEFINED);
      EXPECT_EQ(count, 1);
    }
    PURE_Aint lb = 0, extent = 0;
    EXPECT_PURE_OK(pure_type_get_extent(odd, &lb, &extent));
    EXPECT_EQ(lb, INT_MAX);
    EXPECT_EQ(extent, -1024);
    EXPECT_PURE_OK(pure_type_get_extent(big, &lb, &extent));
    EXPECT_EQ(extent, true_extent);
    EXPECT_PURE_OK(pure_type_free(&odd));
    EXPECT_PURE_OK(pure_type_free(&big));
    EXPECT_PURE_OK(pure_type_free(&four));
  });
}

// ---- external32 through the API ----

TEST(DatatypeExternal32, PackAndUnpackAStructWithHoles) {
  on_ranks(2, [](int rank, int) {
    struct Rec {
      char tag;
      long value;
      double weight;
      short code;
    };
    const int lengths[] = {1, 1, 1, 1};
    const PURE_Aint displs[] = {offsetof(Rec, tag), offsetof(Rec, value), offsetof(Rec, weight),
                                offsetof(Rec, code)};
    const PURE_Datatype types[] = {PURE_CHAR, PURE_LONG, PURE_DOUBLE, PURE_SHORT};
    PURE_Datatype t;
    EXPECT_PURE_OK(pure_type_create_struct(4, lengths, displs, types, &t));
    EXPECT_PURE_OK(pure_type_commit(&t));
    PURE_Aint size = 0;
    EXPECT_PURE_OK(pure_pack_external_size("external32", 3, t, &size));
    EXPECT_EQ(size, 3 * (1 + 4 + 8 + 2));
    PURE_Count size_c = 0;
    EXPECT_PURE_OK(pure_pack_external_size_c("external32", 3, t, &size_c));
    EXPECT_EQ(size_c, size);
    Rec in[3], out[3];
    std::memset(in, 0xAB, sizeof in);
    std::memset(out, 0, sizeof out);
    for (int i = 0; i < 3; ++i) {
      in[i].tag = static_cast<char>('a' + i + rank);
      in[i].value = -100000L * (i + 1) - rank;
      in[i].weight = 0.5 * i - rank;
      in[i].code = static_cast<short>(-i);
    }
    std::vector<unsigned char> buf(static_cast<std::size_t>(size) + 10);
    PURE_Aint pos = 10;  // after what the program packed before
    EXPECT_PURE_OK(pure_pack_external("external32", in, 3, t, buf.data(),
                                      static_cast<PURE_Aint>(buf.size()), &pos));
    EXPECT_EQ(pos, 10 + size);
    // The first record: 'a'+rank, then its long in 4 big-endian bytes.
    EXPECT_EQ(buf[10], static_cast<unsigned char>('a' + rank));
    const long v = in[0].value;
    EXPECT_EQ(buf[11], static_cast<unsigned char>((v >> 24) & 0xFF));
    EXPECT_EQ(buf[14], static_cast<unsigned char>(v & 0xFF));
    pos = 10;
    EXPECT_PURE_OK(pure_unpack_external("external32", buf.data(),
                                        static_cast<PURE_Aint>(buf.size()), &pos, out, 3, t));
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(out[i].tag, in[i].tag);
      EXPECT_EQ(out[i].value, in[i].value);
      EXPECT_EQ(out[i].weight, in[i].weight);
      EXPECT_EQ(out[i].code, in[i].code);
    }
    // The large-count twins, and the data through a message.
    PURE_Count cpos = 0;
    std::vector<unsigned char> cbuf(static_cast<std::size_t>(size));
    EXPECT_PURE_OK(pure_pack_external_c("external32", in, 3, t, cbuf.data(), size, &cpos));
    EXPECT_EQ(cpos, size);
    EXPECT_EQ(0, std::memcmp(cbuf.data(), buf.data() + 10, cbuf.size()));
    cpos = 0;
    std::memset(out, 0, sizeof out);
    EXPECT_PURE_OK(pure_unpack_external_c("external32", cbuf.data(), size, &cpos, out, 3, t));
    EXPECT_EQ(out[2].value, in[2].value);
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

}  // namespace
}  // namespace pure_testing
