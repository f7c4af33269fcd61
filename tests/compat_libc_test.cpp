// pure/compat.h's per-rank C library state, used by many ranks at once:
// every rank must get exactly what glibc gives a process of its own.
// Expected values come from glibc itself, called on this (non-rank) thread
// before the job starts: getopt's results, optind, optarg, optopt, the
// permuted argv and its messages; the drand48 family's sequences; signgam;
// strsignal's texts; the dynamic linker's errors.
#include "pure/compat.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness.h"

namespace {

// ---- getopt ----

enum class Parser { short_only, long_options, long_only };

struct GetoptCase {
  Parser parser;
  const char* optstring;
  std::vector<std::string> args;  // after argv[0]
};

const option kLongOptions[] = {
    {"size", required_argument, nullptr, 's'},
    {"iterations", required_argument, nullptr, 'i'},
    {"iter-limit", required_argument, nullptr, 'I'},  // "--iter" is ambiguous
    {"verbose", no_argument, nullptr, 'v'},
    {"level", optional_argument, nullptr, 'l'},
    {"flag", no_argument, nullptr, 'f'},
    {nullptr, 0, nullptr, 0},
};

const std::vector<GetoptCase>& getopt_cases() {
  static const std::vector<GetoptCase> cases = {
      {Parser::short_only, "s:i:vl::", {"-s", "64", "in1", "-i5", "-vv", "in2", "-l3", "-l"}},
      {Parser::short_only, "s:i:v", {"-q", "-s"}},  // unknown option, missing argument
      {Parser::short_only, ":s:v", {"-v", "-s"}},   // ':' first: no message, ':' returned
      {Parser::short_only, "+s:v", {"-v", "in", "-s", "1"}},  // '+': stops at "in"
      {Parser::short_only, "-s:v", {"a", "-v", "b", "-s1", "c"}},  // '-': in order
      {Parser::short_only, "s:v", {"x", "--", "-v", "y"}},  // "--" ends the options
      {Parser::short_only, "vW;", {"-W", "verbose", "-v"}},
      {Parser::long_options, "s:i:vl::",
       {"--size", "64", "in1", "--iterations=5", "-v", "--lev=3", "in2", "--level", "--verb"}},
      {Parser::long_options, "s:v",
       {"--iter=3", "--nope", "--verbose=1", "--size", "x", "--flag", "--size"}},
      {Parser::long_options, "v", {"a", "b", "--verbose", "c", "--", "--size", "d"}},
      {Parser::long_only, "s:i:vl::",
       {"-size", "64", "in1", "-iterations=5", "-v", "-lev", "in2", "--verb", "-s", "9"}},
      {Parser::long_only, "vf", {"-vf", "-fl", "-i", "-x"}},
  };
  return cases;
}

// One call's outcome, and the argv as the scan left it.
struct GetoptRun {
  std::vector<std::string> calls;
  std::vector<std::string> argv;
  bool operator==(const GetoptRun& o) const { return calls == o.calls && argv == o.argv; }
};

std::ostream& operator<<(std::ostream& os, const GetoptRun& r) {
  for (const auto& c : r.calls) os << c << "\n";
  os << "argv:";
  for (const auto& a : r.argv) os << " " << a;
  return os;
}

std::string describe(int c, int optind_, const char* optarg_, int optopt_, int longindex) {
  std::ostringstream s;
  s << "c=" << c << " optind=" << optind_ << " optarg=" << (optarg_ ? optarg_ : "(null)")
    << " optopt=" << optopt_ << " longindex=" << longindex;
  return s.str();
}

// Runs one case through `parse` (glibc's or Pure's) with the state accessors
// given, from a fresh scan (optind = 0, as glibc documents).
template <class Parse, class State>
GetoptRun run_case(const GetoptCase& k, const std::string& name, Parse&& parse, State&& state) {
  std::vector<std::string> text{name};
  text.insert(text.end(), k.args.begin(), k.args.end());
  std::vector<char*> argv;
  for (auto& t : text) argv.push_back(t.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(text.size());
  GetoptRun r;
  for (int guard = 0; guard < 64; ++guard) {
    int longindex = -1;
    const int c = parse(argc, argv.data(), k, &longindex);
    r.calls.push_back(describe(c, *state.optind, *state.optarg, *state.optopt, longindex));
    if (c == -1) break;
  }
  for (int i = 0; i < argc; ++i) r.argv.push_back(argv[static_cast<size_t>(i)]);
  return r;
}

int glibc_parse(int argc, char** argv, const GetoptCase& k, int* longindex) {
  switch (k.parser) {
    case Parser::short_only: return getopt(argc, argv, k.optstring);
    case Parser::long_options: return getopt_long(argc, argv, k.optstring, kLongOptions, longindex);
    case Parser::long_only:
      return getopt_long_only(argc, argv, k.optstring, kLongOptions, longindex);
  }
  return -2;
}

int pure_parse(int argc, char** argv, const GetoptCase& k, int* longindex) {
  switch (k.parser) {
    case Parser::short_only: return pure_getopt(argc, argv, k.optstring);
    case Parser::long_options:
      return pure_getopt_long(argc, argv, k.optstring, kLongOptions, longindex);
    case Parser::long_only:
      return pure_getopt_long_only(argc, argv, k.optstring, kLongOptions, longindex);
  }
  return -2;
}

struct GlibcState {
  int* optind = &::optind;
  char** optarg = &::optarg;
  int* optopt = &::optopt;
};

struct PureState {
  int* optind = pure_optind();
  char** optarg = pure_optarg();
  int* optopt = pure_optopt();
};

// The lines of `text` that start with `prefix`, in order.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, prefix.size(), prefix) == 0) out.push_back(line);
  return out;
}

class CompatLibc : public testing::TestWithParam<int> {};

// Every rank parses every case, the first one without any reset as a ported
// program does, the others from optind = 0; the ranks run at once, yielding
// between calls so that their scans interleave. Each rank's results, argv
// and messages (its argv[0] names it) are glibc's for that argv.
TEST_P(CompatLibc, GetoptFamilyMatchesGlibcInEveryRank) {
  const int n = GetParam();
  const auto& cases = getopt_cases();
  std::vector<std::vector<GetoptRun>> expected(static_cast<size_t>(n));
  std::vector<std::vector<std::string>> expected_messages(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    const std::string name = "prog" + std::to_string(r);
    testing::internal::CaptureStderr();
    for (const GetoptCase& k : cases) {
      ::optind = 0;
      ::opterr = 1;
      expected[static_cast<size_t>(r)].push_back(run_case(k, name, glibc_parse, GlibcState{}));
    }
    std::fflush(stderr);
    expected_messages[static_cast<size_t>(r)] =
        lines_starting(testing::internal::GetCapturedStderr(), name + ":");
  }
  ::optind = 1;

  std::vector<std::vector<GetoptRun>> got(static_cast<size_t>(n));
  const auto result = pure_testing::run_ranks_capturing(n, [&](int rank, int) {
    const std::string name = "prog" + std::to_string(rank);
    bool first = true;
    for (const GetoptCase& k : cases) {
      if (!first) *pure_optind() = 0;
      first = false;
      auto parse = [](int argc, char** argv, const GetoptCase& c, int* longindex) {
        const int v = pure_parse(argc, argv, c, longindex);
        pure_rank_yield();  // let another rank scan in between
        return v;
      };
      got[static_cast<size_t>(rank)].push_back(run_case(k, name, parse, PureState{}));
    }
  });
  ASSERT_EQ(result.code, 0) << result.err;
  for (int r = 0; r < n; ++r) {
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(got[static_cast<size_t>(r)][i], expected[static_cast<size_t>(r)][i])
          << "rank " << r << ", case " << i;
    EXPECT_EQ(lines_starting(result.err, "prog" + std::to_string(r) + ":"),
              expected_messages[static_cast<size_t>(r)])
        << "rank " << r;
  }
}

// ---- drand48 family and signgam ----

struct Draws {
  std::vector<double> d;
  std::vector<long> l;
  bool operator==(const Draws& o) const { return d == o.d && l == o.l; }
};

constexpr int kDraws = 200;

// What glibc gives a process that seeds with `seed` and then draws; `use`
// names the calls (glibc's or Pure's), so both run the same sequence.
template <class Api>
Draws draw(long seed, Api api) {
  Draws out;
  api.srand48(seed);
  for (int i = 0; i < kDraws; ++i) {
    out.d.push_back(api.drand48());
    out.l.push_back(api.lrand48());
    out.l.push_back(api.mrand48());
    if (i % 50 == 49) api.yield();
  }
  unsigned short xsubi[3] = {static_cast<unsigned short>(seed), 0x1234, 0x330e};
  for (int i = 0; i < 20; ++i) {
    out.d.push_back(api.erand48(xsubi));
    out.l.push_back(api.nrand48(xsubi));
    out.l.push_back(api.jrand48(xsubi));
  }
  unsigned short seed16[3] = {static_cast<unsigned short>(seed * 7), 5, 9};
  const unsigned short* old = api.seed48(seed16);
  out.l.push_back(old[0]);
  out.l.push_back(old[1]);
  out.l.push_back(old[2]);
  for (int i = 0; i < 20; ++i) out.d.push_back(api.drand48());
  unsigned short param[7] = {static_cast<unsigned short>(seed), 2, 3, 0xe66d, 0xdeec, 0x5, 0xb};
  api.lcong48(param);
  for (int i = 0; i < 20; ++i) out.l.push_back(api.lrand48());
  api.yield();
  // signgam after lgamma on negative arguments, and on lgammaf/lgammal.
  for (int i = 0; i < 6; ++i) {
    const double x = -0.5 - static_cast<double>(seed) - i;
    out.d.push_back(api.lgamma(x));
    api.yield();
    out.l.push_back(*api.signgam());
    out.d.push_back(static_cast<double>(api.lgammaf(static_cast<float>(x) - 1.0f)));
    out.l.push_back(*api.signgam());
    out.d.push_back(static_cast<double>(api.lgammal(static_cast<long double>(x) - 2.0L)));
    out.l.push_back(*api.signgam());
  }
  return out;
}

struct GlibcRand {
  void srand48(long s) { ::srand48(s); }
  double drand48() { return ::drand48(); }
  long lrand48() { return ::lrand48(); }
  long mrand48() { return ::mrand48(); }
  double erand48(unsigned short* x) { return ::erand48(x); }
  long nrand48(unsigned short* x) { return ::nrand48(x); }
  long jrand48(unsigned short* x) { return ::jrand48(x); }
  unsigned short* seed48(unsigned short* x) { return ::seed48(x); }
  void lcong48(unsigned short* p) { ::lcong48(p); }
  double lgamma(double x) { return ::lgamma(x); }
  float lgammaf(float x) { return ::lgammaf(x); }
  long double lgammal(long double x) { return ::lgammal(x); }
  int* signgam() { return &::signgam; }
  void yield() {}
};

struct PureRand {
  void srand48(long s) { pure_srand48(s); }
  double drand48() { return pure_drand48(); }
  long lrand48() { return pure_lrand48(); }
  long mrand48() { return pure_mrand48(); }
  double erand48(unsigned short* x) { return pure_erand48(x); }
  long nrand48(unsigned short* x) { return pure_nrand48(x); }
  long jrand48(unsigned short* x) { return pure_jrand48(x); }
  unsigned short* seed48(unsigned short* x) { return pure_seed48(x); }
  void lcong48(unsigned short* p) { pure_lcong48(p); }
  double lgamma(double x) { return pure_lgamma(x); }
  float lgammaf(float x) { return pure_lgammaf(x); }
  long double lgammal(long double x) { return pure_lgammal(x); }
  int* signgam() { return pure_signgam(); }
  void yield() { pure_rank_yield(); }
};

TEST_P(CompatLibc, Drand48FamilyAndSigngamMatchGlibcPerRank) {
  const int n = GetParam();
  std::vector<Draws> expected, got(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) expected.push_back(draw(r, GlibcRand{}));
  pure_testing::expect_clean_run(
      n, [&](int rank, int) { got[static_cast<size_t>(rank)] = draw(rank, PureRand{}); });
  for (int r = 0; r < n; ++r)
    EXPECT_TRUE(got[static_cast<size_t>(r)] == expected[static_cast<size_t>(r)]) << "rank " << r;
}

// An unseeded rank starts where a fresh process starts.
TEST_P(CompatLibc, UnseededDrand48StartsAsAProcess) {
  const int n = GetParam();
  // A fresh process's state is all zero: what seed48 with zeros gives.
  unsigned short zero[3] = {0, 0, 0};
  ::seed48(zero);
  std::vector<double> fresh;
  for (int i = 0; i < 10; ++i) fresh.push_back(::drand48());
  std::vector<std::vector<double>> got(static_cast<size_t>(n));
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    for (int i = 0; i < 10; ++i) {
      got[static_cast<size_t>(rank)].push_back(pure_drand48());
      pure_rank_yield();
    }
  });
  for (int r = 0; r < n; ++r) EXPECT_EQ(got[static_cast<size_t>(r)], fresh) << "rank " << r;
}

// ---- results glibc keeps per thread ----

// strsignal formats real-time signals into a buffer of the thread's, and the
// dynamic linker keeps its last error per thread. A rank fiber runs with its
// own thread pointer (base/fiber.h), so both are per rank as fibers too, as
// they are as threads: each rank's text must survive the other ranks' calls
// (a barrier and yields in between let every fiber of the core run). The
// translator leaves both calls as they are.
TEST_P(CompatLibc, ThreadResultsOfGlibcArePerRank) {
  const int n = GetParam();
  std::vector<std::string> expected;
  for (int r = 0; r < n; ++r) expected.push_back(::strsignal(SIGRTMIN + r % 8));
  std::vector<std::string> got(static_cast<size_t>(n));
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    const char* mine = ::strsignal(SIGRTMIN + rank % 8);
    const std::string missing = "/nonexistent/pure-rank-" + std::to_string(rank) + ".so";
    EXPECT_EQ(pure_dlopen(missing.c_str(), RTLD_NOW), nullptr);
    pure_barrier(PURE_COMM_WORLD);  // every rank has called both by now
    pure_rank_yield();
    got[static_cast<size_t>(rank)] = mine;
    const char* error = ::dlerror();
    ASSERT_NE(error, nullptr) << "rank " << rank;
    EXPECT_NE(std::string(error).find(missing), std::string::npos) << error;
    EXPECT_EQ(::dlerror(), nullptr) << "rank " << rank << ": reported twice";
  });
  for (int r = 0; r < n; ++r)
    EXPECT_EQ(got[static_cast<size_t>(r)], expected[static_cast<size_t>(r)]) << "rank " << r;
}

// tmpnam: each call a new name under P_tmpdir that no file has, each
// rank's own static buffer kept until that rank's next call.
TEST_P(CompatLibc, TmpnamGivesEveryCallAFreshName) {
  const int n = GetParam();
  std::vector<std::string> names(static_cast<size_t>(n) * 3);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    const char* first = pure_tmpnam(nullptr);
    ASSERT_NE(first, nullptr);
    const std::string kept = first;
    pure_barrier(PURE_COMM_WORLD);  // every rank has made its first name
    pure_rank_yield();
    EXPECT_EQ(std::string(first), kept) << "rank " << rank << "'s buffer changed";
    char own[L_tmpnam];
    ASSERT_EQ(pure_tmpnam(own), own);
    const char* second = pure_tmpnam(nullptr);
    ASSERT_EQ(second, first) << "the rank's static buffer";
    const std::size_t at = static_cast<size_t>(rank) * 3;
    names[at] = kept;
    names[at + 1] = own;
    names[at + 2] = second;
  });
  std::set<std::string> distinct;
  for (const std::string& name : names) {
    EXPECT_EQ(name.rfind(P_tmpdir "/", 0), 0u) << name;
    EXPECT_LT(name.size(), std::size_t{L_tmpnam}) << name;
    struct stat st;
    EXPECT_NE(::lstat(name.c_str(), &st), 0) << name << " exists";
    distinct.insert(name);
  }
  EXPECT_EQ(distinct.size(), names.size()) << "a name was given twice";
}

// ---- the environment and the working directory ----

TEST_P(CompatLibc, EnvironmentIsPerRank) {
  const int n = GetParam();
  ::unsetenv("PURE_COMPAT_TEST_VAR");
  ::setenv("PURE_COMPAT_TEST_SHARED", "process", 1);
  std::vector<std::string> seen(static_cast<size_t>(n)), shared(static_cast<size_t>(n));
  std::vector<int> in_environ(static_cast<size_t>(n), 0);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    const std::string mine = "rank" + std::to_string(rank);
    EXPECT_EQ(pure_setenv("PURE_COMPAT_TEST_VAR", mine.c_str(), 1), 0);
    if (rank % 2) {
      EXPECT_EQ(pure_unsetenv("PURE_COMPAT_TEST_SHARED"), 0);
    }
    pure_barrier(PURE_COMM_WORLD);  // every rank has set its own
    const char* v = pure_getenv("PURE_COMPAT_TEST_VAR");
    seen[static_cast<size_t>(rank)] = v ? v : "(unset)";
    const char* s = pure_getenv("PURE_COMPAT_TEST_SHARED");
    shared[static_cast<size_t>(rank)] = s ? s : "(unset)";
    const std::string entry = "PURE_COMPAT_TEST_VAR=" + mine;
    for (char** e = *pure_environ(); *e; ++e) in_environ[static_cast<size_t>(rank)] += entry == *e;
    pure_barrier(PURE_COMM_WORLD);
  });
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(seen[static_cast<size_t>(r)], "rank" + std::to_string(r));
    EXPECT_EQ(shared[static_cast<size_t>(r)], r % 2 ? "(unset)" : "process");
    EXPECT_EQ(in_environ[static_cast<size_t>(r)], 1) << "rank " << r;
  }
  // The process's environment is untouched.
  EXPECT_EQ(std::getenv("PURE_COMPAT_TEST_VAR"), nullptr);
  EXPECT_STREQ(std::getenv("PURE_COMPAT_TEST_SHARED"), "process");
  ::unsetenv("PURE_COMPAT_TEST_SHARED");
}

// chdir changes the rank's directory: relative paths opened through the
// stand-ins start there, and the process's stays where it was.
TEST_P(CompatLibc, WorkingDirectoryIsPerRank) {
  const int n = GetParam();
  char base_template[] = "/tmp/pure_compat_cwdXXXXXX";
  ASSERT_NE(mkdtemp(base_template), nullptr);
  const std::string base = base_template;
  char before[4096];
  ASSERT_NE(getcwd(before, sizeof before), nullptr);
  std::vector<std::string> cwd(static_cast<size_t>(n));
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    const std::string dir = base + "/r" + std::to_string(rank);
    EXPECT_EQ(pure_mkdir(dir.c_str(), 0755), 0);
    EXPECT_EQ(pure_chdir(dir.c_str()), 0);
    pure_barrier(PURE_COMM_WORLD);  // every rank has moved
    FILE* f = pure_fopen("owner.txt", "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "%d\n", rank);
    std::fclose(f);
    char here[4096];
    ASSERT_NE(pure_getcwd(here, sizeof here), nullptr);
    cwd[static_cast<size_t>(rank)] = here;
    EXPECT_EQ(pure_mkdir("sub", 0755), 0);
    EXPECT_EQ(pure_chdir("sub"), 0);  // relative to the rank's own
    EXPECT_EQ(pure_access("../owner.txt", R_OK), 0);
  });
  char after[4096];
  ASSERT_NE(getcwd(after, sizeof after), nullptr);
  EXPECT_STREQ(after, before);
  for (int r = 0; r < n; ++r) {
    const std::string dir = base + "/r" + std::to_string(r);
    EXPECT_EQ(cwd[static_cast<size_t>(r)], dir);
    std::ifstream in(dir + "/owner.txt");
    int owner = -1;
    in >> owner;
    EXPECT_EQ(owner, r);
    std::remove((dir + "/owner.txt").c_str());
    rmdir((dir + "/sub").c_str());
    rmdir(dir.c_str());
  }
  rmdir(base.c_str());
}

// A library path relative to the rank's directory opens from there.
TEST_P(CompatLibc, DlopenOfARelativePathStartsInTheRanksDirectory) {
  const int n = GetParam();
  char base_template[] = "/tmp/pure_compat_dlXXXXXX";
  ASSERT_NE(mkdtemp(base_template), nullptr);
  const std::string base = base_template;
  // libm, found where the dynamic linker found it for this test.
  Dl_info where{};
  double (*cube_root)(double) = ::cbrt;
  ASSERT_NE(dladdr(reinterpret_cast<void*>(cube_root), &where), 0);
  const std::string libm = where.dli_fname;
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    const std::string dir = base + "/r" + std::to_string(rank);
    EXPECT_EQ(pure_mkdir(dir.c_str(), 0755), 0);
    // Only this rank's directory holds a library of this name.
    const std::string name = "libpure_rank" + std::to_string(rank) + ".so";
    ASSERT_EQ(symlink(libm.c_str(), (dir + "/" + name).c_str()), 0);
    EXPECT_EQ(pure_chdir(dir.c_str()), 0);
    pure_barrier(PURE_COMM_WORLD);
    void* lib = pure_dlopen(("./" + name).c_str(), RTLD_NOW);
    ASSERT_NE(lib, nullptr) << "rank " << rank << ": " << ::dlerror();
    EXPECT_NE(::dlsym(lib, "cbrt"), nullptr);
    EXPECT_EQ(::dlclose(lib), 0);
    std::remove((dir + "/" + name).c_str());
    rmdir(dir.c_str());
  });
  rmdir(base.c_str());
}

// ---- output: whole lines ----

// Each rank writes its lines in pieces, yielding in between; the process's
// stdout must hold every line whole, each rank's in its order.
TEST_P(CompatLibc, StdoutLinesOfRanksNeverMix) {
  const int n = GetParam();
  constexpr int kLines = 40;
  std::fflush(stdout);
  testing::internal::CaptureStdout();
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    for (int i = 0; i < kLines; ++i) {
      pure_printf("rank %d ", rank);
      pure_rank_yield();
      std::fprintf(pure_stdout(), "line %d", i);
      pure_rank_yield();
      pure_puts(" end");
    }
    // No newline: the rank's end passes it on (where it lands among the
    // other ranks' lines is as unordered as with processes).
    pure_printf("<rank %d unfinished>", rank);
  });
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  int unfinished = 0;
  for (size_t at; (at = out.find("<rank ")) != std::string::npos; ++unfinished)
    out.erase(at, out.find('>', at) + 1 - at);
  std::map<int, int> next;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    int rank = -1, i = -1;
    char tail[16] = {};
    if (std::sscanf(line.c_str(), "rank %d line %d%15[^\n]", &rank, &i, tail) == 3) {
      EXPECT_STREQ(tail, " end") << line;
      EXPECT_EQ(i, next[rank]++) << line;
    } else if (!line.empty()) {
      ADD_FAILURE() << "a mixed line: " << line;
    }
  }
  for (int r = 0; r < n; ++r) EXPECT_EQ(next[r], kLines) << "rank " << r;
  EXPECT_EQ(unfinished, n);
}

// ---- exit handlers ----

TEST_P(CompatLibc, AtexitHandlersRunWhenTheirRankEnds) {
  const int n = GetParam();
  static std::atomic<int> handlers{0};  // the handlers take no argument
  handlers = 0;
  pure_testing::expect_clean_run(n, [&](int, int) {
    EXPECT_EQ(pure_atexit([] { handlers.fetch_add(1, std::memory_order_relaxed); }), 0);
    EXPECT_EQ(pure_on_exit([](int status, void* arg) {
                EXPECT_EQ(status, 0);
                static_cast<std::atomic<int>*>(arg)->fetch_add(10, std::memory_order_relaxed);
              }, &handlers), 0);
  });
  EXPECT_EQ(handlers.load(), 11 * n);
}

INSTANTIATE_TEST_SUITE_P(Ranks, CompatLibc, pure_testing::kRankCounts,
                         pure_testing::rank_count_name);

}  // namespace
