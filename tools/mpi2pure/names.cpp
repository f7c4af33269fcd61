#include "names.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/GlobPattern.h"

namespace mpi2pure {
namespace {

struct NamePair {
  const char* from;
  const char* to;
};

constexpr NamePair kMpiNames[] = {
#include "mpi_names.inc"
};

// Pattern and reason.
constexpr NamePair kUnsupported[] = {
#include "unsupported_names.inc"
};

// C library calls that get a per-rank form (pure/compat.h).
constexpr NamePair kLibcReplacements[] = {
    {"exit", "pure_exit"},         {"_Exit", "pure_exit"},
    {"quick_exit", "pure_exit"},   {"abort", "pure_abort_job"},
    {"rand", "pure_rand"},         {"srand", "pure_srand"},
    {"random", "pure_random"},     {"srandom", "pure_srandom"},
    {"strtok", "pure_strtok"},     {"localtime", "pure_localtime"},
    {"gmtime", "pure_gmtime"},     {"ctime", "pure_ctime"},
    {"asctime", "pure_asctime"},   {"strerror", "pure_strerror"},
};

// C library calls that keep process-wide state and have no per-rank form.
constexpr NamePair kLibcHazards[] = {
    {"setenv", "it changes the environment that every rank shares; getenv in other ranks races with it"},
    {"putenv", "it changes the environment that every rank shares; getenv in other ranks races with it"},
    {"unsetenv", "it changes the environment that every rank shares; getenv in other ranks races with it"},
    {"clearenv", "it changes the environment that every rank shares; getenv in other ranks races with it"},
    {"atexit", "its handler runs once, when the whole process ends, not when this rank ends"},
    {"on_exit", "its handler runs once, when the whole process ends, not when this rank ends"},
    {"drand48", "its generator state is shared by every rank; use erand48 with a per-rank state"},
    {"lrand48", "its generator state is shared by every rank; use nrand48 with a per-rank state"},
    {"mrand48", "its generator state is shared by every rank; use jrand48 with a per-rank state"},
    {"srand48", "its generator state is shared by every rank; use erand48/nrand48 with a per-rank state"},
    {"seed48", "its generator state is shared by every rank"},
    {"lcong48", "its generator state is shared by every rank"},
    {"tmpnam", "it returns a static buffer shared by every rank; use mkstemp"},
    {"ttyname", "it returns a static buffer shared by every rank; use ttyname_r"},
    {"getlogin", "it returns a static buffer shared by every rank; use getlogin_r"},
    {"getpwnam", "it returns a static buffer shared by every rank; use getpwnam_r"},
    {"getpwuid", "it returns a static buffer shared by every rank; use getpwuid_r"},
    {"getgrnam", "it returns a static buffer shared by every rank; use getgrnam_r"},
    {"getgrgid", "it returns a static buffer shared by every rank; use getgrgid_r"},
    {"gethostbyname", "it returns a static buffer shared by every rank; use getaddrinfo"},
    {"gethostbyaddr", "it returns a static buffer shared by every rank; use getnameinfo"},
    {"inet_ntoa", "it returns a static buffer shared by every rank; use inet_ntop"},
    {"strsignal", "it may return a static buffer shared by every rank"},
    {"ecvt", "it returns a static buffer shared by every rank; use snprintf"},
    {"fcvt", "it returns a static buffer shared by every rank; use snprintf"},
    {"mblen", "its conversion state is shared by every rank; use mbrlen"},
    {"mbtowc", "its conversion state is shared by every rank; use mbrtowc"},
    {"wctomb", "its conversion state is shared by every rank; use wcrtomb"},
    {"setlocale", "the locale is the whole process's; use uselocale"},
    {"signal", "signal handlers are the whole process's, shared by every rank"},
    {"sigaction", "signal handlers are the whole process's, shared by every rank"},
    {"chdir", "the working directory is the whole process's, shared by every rank"},
    {"umask", "the file mode mask is the whole process's, shared by every rank"},
    {"lgamma", "it sets signgam, shared by every rank; use lgamma_r"},
};

constexpr const char* kLibcObjects[] = {
    "environ",  "__environ", "optarg",   "optind",
    "opterr",   "optopt",    "timezone", "daylight",
    "tzname",   "signgam",   "stdin",    "stdout",
    "stderr",   "program_invocation_name", "program_invocation_short_name",
};

template <size_t N>
std::optional<llvm::StringRef> lookup(const NamePair (&table)[N], llvm::StringRef name) {
  for (const NamePair& p : table)
    if (name == p.from) return llvm::StringRef(p.to);
  return std::nullopt;
}

template <size_t N>
std::string names_regex(const NamePair (&table)[N]) {
  std::string regex = "^::(";
  for (size_t i = 0; i < N; ++i) {
    if (i) regex += '|';
    regex += table[i].from;
  }
  return regex + ")$";
}

}  // namespace

bool is_mpi_name(llvm::StringRef name) {
  return name.startswith("MPI_") || name.startswith("PMPI_");
}

std::optional<llvm::StringRef> pure_name(llvm::StringRef mpi_name) {
  static const llvm::StringMap<llvm::StringRef> table = [] {
    llvm::StringMap<llvm::StringRef> m;
    for (const NamePair& p : kMpiNames) m[p.from] = p.to;
    return m;
  }();
  // PMPI_ names the same functions (the profiling interface): Pure has one
  // implementation of each, and no tool layer to put between.
  if (mpi_name.startswith("PMPI_")) {
    auto it = table.find(("MPI_" + mpi_name.drop_front(5)).str());
    if (it == table.end() || !it->second.startswith("pure_")) return std::nullopt;
    return it->second;
  }
  auto it = table.find(mpi_name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::optional<llvm::StringRef> unsupported_reason(llvm::StringRef mpi_name) {
  static const std::vector<std::pair<llvm::GlobPattern, llvm::StringRef>> patterns = [] {
    std::vector<std::pair<llvm::GlobPattern, llvm::StringRef>> v;
    for (const NamePair& p : kUnsupported)
      if (auto g = llvm::GlobPattern::create(p.from)) v.emplace_back(std::move(*g), p.to);
    return v;
  }();
  const llvm::StringRef name = mpi_name.startswith("PMPI_") ? mpi_name.drop_front(1) : mpi_name;
  for (const auto& [pattern, reason] : patterns)
    if (pattern.match(name)) return reason;
  return std::nullopt;
}

std::optional<llvm::StringRef> libc_replacement(llvm::StringRef function) {
  return lookup(kLibcReplacements, function);
}

std::optional<llvm::StringRef> libc_hazard(llvm::StringRef function) {
  return lookup(kLibcHazards, function);
}

std::string libc_replacement_regex() { return names_regex(kLibcReplacements); }
std::string libc_hazard_regex() { return names_regex(kLibcHazards); }

bool is_libc_object(llvm::StringRef name) {
  return std::any_of(std::begin(kLibcObjects), std::end(kLibcObjects),
                     [&](const char* n) { return name == n; });
}

}  // namespace mpi2pure
