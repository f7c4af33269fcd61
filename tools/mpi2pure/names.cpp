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
    // ending
    {"exit", "pure_exit"}, {"_Exit", "pure_exit"}, {"quick_exit", "pure_exit"},
    {"abort", "pure_abort_job"}, {"atexit", "pure_atexit"}, {"on_exit", "pure_on_exit"},
    // random numbers
    {"rand", "pure_rand"}, {"srand", "pure_srand"}, {"random", "pure_random"},
    {"srandom", "pure_srandom"}, {"initstate", "pure_initstate"}, {"setstate", "pure_setstate"},
    {"drand48", "pure_drand48"}, {"erand48", "pure_erand48"}, {"lrand48", "pure_lrand48"},
    {"nrand48", "pure_nrand48"}, {"mrand48", "pure_mrand48"}, {"jrand48", "pure_jrand48"},
    {"srand48", "pure_srand48"}, {"seed48", "pure_seed48"}, {"lcong48", "pure_lcong48"},
    {"lgamma", "pure_lgamma"}, {"lgammaf", "pure_lgammaf"}, {"lgammal", "pure_lgammal"},
    {"gamma", "pure_lgamma"}, {"gammaf", "pure_lgammaf"}, {"gammal", "pure_lgammal"},
    // getopt
    {"getopt", "pure_getopt"}, {"getopt_long", "pure_getopt_long"},
    {"getopt_long_only", "pure_getopt_long_only"},
    // static buffers and hidden positions
    {"strtok", "pure_strtok"}, {"localtime", "pure_localtime"}, {"gmtime", "pure_gmtime"},
    {"ctime", "pure_ctime"}, {"asctime", "pure_asctime"}, {"strerror", "pure_strerror"},
    {"getpwnam", "pure_getpwnam"}, {"getpwuid", "pure_getpwuid"}, {"getgrnam", "pure_getgrnam"},
    {"getgrgid", "pure_getgrgid"}, {"gethostbyname", "pure_gethostbyname"},
    {"gethostbyaddr", "pure_gethostbyaddr"}, {"inet_ntoa", "pure_inet_ntoa"},
    {"ecvt", "pure_ecvt"}, {"fcvt", "pure_fcvt"}, {"l64a", "pure_l64a"},
    {"hcreate", "pure_hcreate"}, {"hsearch", "pure_hsearch"}, {"hdestroy", "pure_hdestroy"},
    {"tmpnam", "pure_tmpnam"}, {"ctermid", "pure_ctermid"}, {"ttyname", "pure_ttyname"},
    {"getlogin", "pure_getlogin"}, {"ptsname", "pure_ptsname"}, {"mblen", "pure_mblen"},
    {"mbtowc", "pure_mbtowc"}, {"wctomb", "pure_wctomb"}, {"setlocale", "pure_setlocale"},
    {"localeconv", "pure_localeconv"},
    // the environment
    {"getenv", "pure_getenv"}, {"secure_getenv", "pure_secure_getenv"},
    {"setenv", "pure_setenv"}, {"unsetenv", "pure_unsetenv"}, {"putenv", "pure_putenv"},
    {"clearenv", "pure_clearenv"},
    // the working directory and the paths relative to it
    {"chdir", "pure_chdir"}, {"fchdir", "pure_fchdir"}, {"getcwd", "pure_getcwd"},
    {"get_current_dir_name", "pure_get_current_dir_name"}, {"fopen", "pure_fopen"},
    {"freopen", "pure_freopen"}, {"open", "pure_open"}, {"creat", "pure_creat"},
    {"opendir", "pure_opendir"}, {"stat", "pure_stat"}, {"lstat", "pure_lstat"},
    {"access", "pure_access"}, {"mkdir", "pure_mkdir"}, {"rmdir", "pure_rmdir"},
    {"unlink", "pure_unlink"}, {"remove", "pure_remove"}, {"rename", "pure_rename"},
    {"dlopen", "pure_dlopen"},
    // output
    {"printf", "pure_printf"}, {"vprintf", "pure_vprintf"}, {"puts", "pure_puts"},
    {"putchar", "pure_putchar"}, {"perror", "pure_perror"}, {"fflush", "pure_fflush"},
    {"setvbuf", "pure_setvbuf"}, {"setbuf", "pure_setbuf"}, {"setlinebuf", "pure_setlinebuf"},
    {"fclose", "pure_fclose"}, {"fileno", "pure_fileno"},
};

// The C library's objects that the program names and that a rank has its
// own of: what each becomes.
constexpr NamePair kLibcObjectReplacements[] = {
    {"stdout", "pure_stdout()"},        {"stderr", "pure_stderr()"},
    {"optind", "(*pure_optind())"},     {"optarg", "(*pure_optarg())"},
    {"opterr", "(*pure_opterr())"},     {"optopt", "(*pure_optopt())"},
    {"signgam", "(*pure_signgam())"},   {"environ", "(*pure_environ())"},
    {"__environ", "(*pure_environ())"}, {"std::cout", "::pure::rank_cout()"},
    {"std::cerr", "::pure::rank_cerr()"}, {"std::clog", "::pure::rank_clog()"},
};

// C library calls whose state is the process's by nature: what differs.
constexpr NamePair kLibcHazards[] = {
    {"umask", "the file mode mask is the process's: it changes for every rank"},
    {"signal", "signal handlers are the process's: the last rank to set one sets it for every "
               "rank, and a signal reaches one thread of the process"},
    {"sigaction", "signal handlers are the process's: the last rank to set one sets it for "
                  "every rank, and a signal reaches one thread of the process"},
    {"alarm", "the timer is the process's: one for every rank, and its signal reaches one "
              "thread of the process"},
    {"setitimer", "the timer is the process's: one for every rank, and its signal reaches one "
                  "thread of the process"},
    {"fork", "it copies the whole process, every rank's memory with it, into a child that runs "
             "only the calling thread"},
    {"vfork", "it copies the whole process, every rank's memory with it, into a child that "
              "runs only the calling thread"},
    {"execl", "it replaces the whole process, every rank with it"},
    {"execle", "it replaces the whole process, every rank with it"},
    {"execlp", "it replaces the whole process, every rank with it"},
    {"execv", "it replaces the whole process, every rank with it"},
    {"execve", "it replaces the whole process, every rank with it"},
    {"execvp", "it replaces the whole process, every rank with it"},
    {"execvpe", "it replaces the whole process, every rank with it"},
    {"system", "the command runs in the process's working directory and environment, not the "
               "rank's (chdir, setenv)"},
    {"popen", "the command runs in the process's working directory and environment, not the "
              "rank's (chdir, setenv)"},
    {"posix_spawn", "the child runs in the process's working directory and environment, not "
                    "the rank's (chdir, setenv)"},
    {"posix_spawnp", "the child runs in the process's working directory and environment, not "
                     "the rank's (chdir, setenv)"},
    {"setuid", "the user and groups are the process's: they change for every rank"},
    {"seteuid", "the user and groups are the process's: they change for every rank"},
    {"setgid", "the user and groups are the process's: they change for every rank"},
    {"setegid", "the user and groups are the process's: they change for every rank"},
    {"setreuid", "the user and groups are the process's: they change for every rank"},
    {"setregid", "the user and groups are the process's: they change for every rank"},
    {"chroot", "the root directory is the process's: it changes for every rank"},
    {"setrlimit", "resource limits are the process's: they change for every rank"},
    {"nice", "the priority is the process's: it changes for every rank"},
    {"setsid", "the session is the process's: it changes for every rank"},
    {"setpgid", "the process group is the process's: it changes for every rank"},
    {"at_quick_exit", "quick_exit ends only the calling rank; these handlers are the process's "
                      "and do not run then"},
    {"getpwent", "the position in the user database is the process's, shared by every rank"},
    {"setpwent", "the position in the user database is the process's, shared by every rank"},
    {"endpwent", "the position in the user database is the process's, shared by every rank"},
    {"getgrent", "the position in the group database is the process's, shared by every rank"},
    {"setgrent", "the position in the group database is the process's, shared by every rank"},
    {"endgrent", "the position in the group database is the process's, shared by every rank"},
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
  // Qualified names as they are written: std::cout is ::std::cout.
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

std::optional<llvm::StringRef> libc_object_replacement(llvm::StringRef qualified_name) {
  return lookup(kLibcObjectReplacements, qualified_name);
}

std::string libc_replacement_regex() { return names_regex(kLibcReplacements); }
std::string libc_hazard_regex() { return names_regex(kLibcHazards); }
std::string libc_object_regex() { return names_regex(kLibcObjectReplacements); }

bool is_libc_object(llvm::StringRef name) {
  return std::any_of(std::begin(kLibcObjects), std::end(kLibcObjects),
                     [&](const char* n) { return name == n; });
}

}  // namespace mpi2pure
