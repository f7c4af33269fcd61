// The C library stand-ins of pure/compat.h, part 4: what a process has one
// of and a rank gets its own: the environment and the working directory.
//
// The environment: each rank starts with the process's (as every process
// of an MPI job starts with what mpirun passed) and records its own
// changes; getenv, environ and getopt's POSIXLY_CORRECT see them, the
// process's other code and child processes do not.
//
// The working directory: chdir opens the directory (O_PATH) as the rank's;
// relative paths given to the file functions of pure/compat.h are then
// opened through /proc/self/fd/N/, the kernel's way to a directory by its
// descriptor, so that they start from it. Until the rank calls chdir it is
// the process's, and these are the C library's own calls.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/compat_state.h"
#include "pure/compat.h"

extern char** environ;

namespace pure::compat {

const char* Environment::Entry::whole() const { return borrowed ? borrowed : text.c_str(); }

const char* Environment::Entry::value() const {
  if (removed) return nullptr;
  const char* eq = std::strchr(whole(), '=');
  return eq ? eq + 1 : nullptr;
}

std::string rank_path(RankLibc& libc, const char* path) {
  if (libc.cwd < 0 || !path || path[0] == '/' || path[0] == '\0') return path ? path : "";
  return "/proc/self/fd/" + std::to_string(libc.cwd) + "/" + path;
}

namespace {

bool valid_name(const char* name) {
  if (!name || !*name || std::strchr(name, '=')) {
    errno = EINVAL;
    return false;
  }
  return true;
}

// The rank's value of `name` (the lock held): its own change, else the
// process's unless it cleared everything.
char* lookup(RankLibc& s, const char* name) {
  auto it = s.env.changed.find(name);
  if (it != s.env.changed.end()) return const_cast<char*>(it->second.value());
  if (s.env.cleared) return nullptr;
  return std::getenv(name);
}

void change(RankLibc& s, const std::string& name, Environment::Entry entry) {
  s.env.changed[name] = std::move(entry);
  s.env.stale = true;
}

// environ as the rank sees it: the process's variables in their order, a
// changed one in its place, then the ones the rank added.
void rebuild(RankLibc& s) {
  Environment& env = s.env;
  env.array.clear();
  std::vector<std::string> seen;
  if (!env.cleared) {
    for (char** e = environ; e && *e; ++e) {
      const char* eq = std::strchr(*e, '=');
      const std::string name = eq ? std::string(*e, static_cast<size_t>(eq - *e)) : *e;
      auto it = env.changed.find(name);
      if (it == env.changed.end()) {
        env.array.push_back(*e);
        continue;
      }
      seen.push_back(name);
      if (!it->second.removed) env.array.push_back(const_cast<char*>(it->second.whole()));
    }
  }
  for (const auto& [name, entry] : env.changed)
    if (!entry.removed && std::find(seen.begin(), seen.end(), name) == seen.end())
      env.array.push_back(const_cast<char*>(entry.whole()));
  env.array.push_back(nullptr);
  env.array_base = env.array.data();
  env.stale = false;
}

template <class F>
auto in_rank_dir(const char* path, F&& call) {
  RankLibc& s = rank_libc();
  if (s.cwd < 0) return call(path);
  const std::string where = rank_path(s, path);
  return call(where.c_str());
}

}  // namespace
}  // namespace pure::compat

using pure::compat::rank_libc;
using pure::compat::RankLibc;

extern "C" {

char* pure_getenv(const char* name) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return std::getenv(name);
  std::lock_guard<std::mutex> lock(s.mutex);
  return pure::compat::lookup(s, name);
}

char* pure_secure_getenv(const char* name) {
  if (getauxval(AT_SECURE)) return nullptr;
  return pure_getenv(name);
}

int pure_setenv(const char* name, const char* value, int overwrite) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return setenv(name, value, overwrite);
  if (!pure::compat::valid_name(name)) return -1;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!overwrite && pure::compat::lookup(s, name)) return 0;
  pure::compat::Environment::Entry entry;
  entry.text = std::string(name) + "=" + (value ? value : "");
  pure::compat::change(s, name, std::move(entry));
  return 0;
}

int pure_unsetenv(const char* name) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return unsetenv(name);
  if (!pure::compat::valid_name(name)) return -1;
  std::lock_guard<std::mutex> lock(s.mutex);
  pure::compat::Environment::Entry entry;
  entry.removed = true;
  pure::compat::change(s, name, std::move(entry));
  return 0;
}

int pure_putenv(char* string) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return putenv(string);
  const char* eq = std::strchr(string, '=');
  if (!eq) return pure_unsetenv(string);  // glibc: putenv("NAME") removes NAME
  std::lock_guard<std::mutex> lock(s.mutex);
  pure::compat::Environment::Entry entry;
  entry.borrowed = string;  // the string itself is the variable, as POSIX says
  pure::compat::change(s, std::string(string, static_cast<size_t>(eq - string)), std::move(entry));
  return 0;
}

int pure_clearenv(void) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return clearenv();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.env.changed.clear();
  s.env.cleared = true;
  s.env.stale = true;
  return 0;
}

char*** pure_environ(void) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return &environ;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.env.stale) pure::compat::rebuild(s);
  return &s.env.array_base;
}

int pure_chdir(const char* path) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return chdir(path);
  const std::string where = pure::compat::rank_path(s, path);
  const int fd = open(where.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  if (s.cwd >= 0) close(s.cwd);
  s.cwd = fd;
  return 0;
}

int pure_fchdir(int fd) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return fchdir(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return -1;
  if (s.cwd >= 0) close(s.cwd);
  s.cwd = copy;
  return 0;
}

char* pure_getcwd(char* buf, size_t size) {
  RankLibc& s = rank_libc();
  if (s.cwd < 0) return getcwd(buf, size);
  if (buf && size == 0) {
    errno = EINVAL;
    return nullptr;
  }
  char path[PATH_MAX];
  const std::string link = "/proc/self/fd/" + std::to_string(s.cwd);
  const ssize_t n = readlink(link.c_str(), path, sizeof path - 1);
  if (n < 0) return nullptr;
  const auto length = static_cast<size_t>(n);
  if (!buf) {
    // glibc: a buffer of `size` bytes, or as large as needed when 0.
    const size_t want = size ? size : length + 1;
    if (length + 1 > want) {
      errno = ERANGE;
      return nullptr;
    }
    buf = static_cast<char*>(std::malloc(want));
    if (!buf) return nullptr;
  } else if (length + 1 > size) {
    errno = ERANGE;
    return nullptr;
  }
  std::memcpy(buf, path, length);
  buf[length] = '\0';
  return buf;
}

char* pure_get_current_dir_name(void) {
  if (rank_libc().cwd < 0) return get_current_dir_name();
  return pure_getcwd(nullptr, 0);
}

FILE* pure_fopen(const char* path, const char* mode) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return std::fopen(p, mode); });
}

int pure_open(const char* path, int flags, ...) {
  unsigned int mode = 0;
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, unsigned int);
    va_end(args);
  }
  return pure::compat::in_rank_dir(path, [&](const char* p) { return open(p, flags, mode); });
}

void* pure_dlopen(const char* file, int mode) {
  if (!file || !std::strchr(file, '/')) return dlopen(file, mode);
  return pure::compat::in_rank_dir(file, [&](const char* p) { return dlopen(p, mode); });
}

int pure_creat(const char* path, unsigned int mode) {
  return pure_open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

DIR* pure_opendir(const char* path) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return opendir(p); });
}

int pure_stat(const char* path, struct stat* buf) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return stat(p, buf); });
}

int pure_lstat(const char* path, struct stat* buf) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return lstat(p, buf); });
}

int pure_access(const char* path, int mode) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return access(p, mode); });
}

int pure_mkdir(const char* path, unsigned int mode) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return mkdir(p, mode); });
}

int pure_rmdir(const char* path) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return rmdir(p); });
}

int pure_unlink(const char* path) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return unlink(p); });
}

int pure_remove(const char* path) {
  return pure::compat::in_rank_dir(path, [&](const char* p) { return std::remove(p); });
}

int pure_rename(const char* from, const char* to) {
  RankLibc& s = rank_libc();
  if (s.cwd < 0) return std::rename(from, to);
  return std::rename(pure::compat::rank_path(s, from).c_str(),
                     pure::compat::rank_path(s, to).c_str());
}

}  // extern "C"
