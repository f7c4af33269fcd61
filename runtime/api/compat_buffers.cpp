// The C library stand-ins of pure/compat.h, part 2: functions that return
// a static buffer, or keep a hidden position or table, get the reentrant
// form on the rank's own buffer (compat_state.h). Each result stays valid
// until the same rank's next call of the same function, as a process's
// does until its next call.
#include <arpa/inet.h>
#include <langinfo.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <vector>

#include "api/compat_state.h"
#include "pure/compat.h"

namespace pure::compat {
namespace {

// Calls lookup(buffer, size) with one of the rank's lookup buffers, growing
// it while the lookup reports ERANGE, as glibc's non-reentrant forms do.
// Each kind of record has a buffer of its own, as in glibc: a getgrgid does
// not overwrite the strings of the last getpwuid's result.
template <class Lookup>
int with_lookup_buffer(std::vector<char>& buffer, Lookup&& lookup) {
  if (buffer.empty()) buffer.resize(1024);
  for (;;) {
    const int rc = lookup(buffer.data(), buffer.size());
    if (rc != ERANGE || buffer.size() >= (1u << 24)) return rc;
    buffer.resize(buffer.size() * 2);
  }
}

// glibc's composite name for LC_ALL when the categories differ: every
// category but LC_ALL, in the order of their numbers.
std::string locale_name(locale_t loc, int category) {
  if (category != LC_ALL) return nl_langinfo_l(_NL_LOCALE_NAME(category), loc);
  static const int categories[] = {LC_CTYPE,   LC_NUMERIC,     LC_TIME,    LC_COLLATE,
                                   LC_MONETARY, LC_MESSAGES,   LC_PAPER,   LC_NAME,
                                   LC_ADDRESS,  LC_TELEPHONE,  LC_MEASUREMENT,
                                   LC_IDENTIFICATION};
  static const char* const names[] = {"LC_CTYPE",   "LC_NUMERIC",     "LC_TIME",
                                      "LC_COLLATE", "LC_MONETARY",    "LC_MESSAGES",
                                      "LC_PAPER",   "LC_NAME",        "LC_ADDRESS",
                                      "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION"};
  const std::string first = nl_langinfo_l(_NL_LOCALE_NAME(LC_CTYPE), loc);
  bool same = true;
  for (int c : categories) same = same && first == nl_langinfo_l(_NL_LOCALE_NAME(c), loc);
  if (same) return first;
  std::string composite;
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; ++i) {
    if (i) composite += ';';
    composite += std::string(names[i]) + "=" + nl_langinfo_l(_NL_LOCALE_NAME(categories[i]), loc);
  }
  return composite;
}

int category_mask(int category) {
  switch (category) {
    case LC_ALL: return LC_ALL_MASK;
    case LC_CTYPE: return LC_CTYPE_MASK;
    case LC_NUMERIC: return LC_NUMERIC_MASK;
    case LC_TIME: return LC_TIME_MASK;
    case LC_COLLATE: return LC_COLLATE_MASK;
    case LC_MONETARY: return LC_MONETARY_MASK;
    case LC_MESSAGES: return LC_MESSAGES_MASK;
    case LC_PAPER: return LC_PAPER_MASK;
    case LC_NAME: return LC_NAME_MASK;
    case LC_ADDRESS: return LC_ADDRESS_MASK;
    case LC_TELEPHONE: return LC_TELEPHONE_MASK;
    case LC_MEASUREMENT: return LC_MEASUREMENT_MASK;
    case LC_IDENTIFICATION: return LC_IDENTIFICATION_MASK;
  }
  return -1;
}

// localeconv fills one static struct for the whole process.
std::mutex localeconv_mutex;

}  // namespace
}  // namespace pure::compat

using pure::compat::rank_libc;
using pure::compat::RankLibc;

extern "C" {

char* pure_strtok(char* str, const char* delim) {
  return strtok_r(str, delim, &rank_libc().strtok_save);
}

struct tm* pure_localtime(const void* timer) {
  return localtime_r(static_cast<const std::time_t*>(timer), &rank_libc().tm_buffer);
}

struct tm* pure_gmtime(const void* timer) {
  return gmtime_r(static_cast<const std::time_t*>(timer), &rank_libc().tm_buffer);
}

char* pure_ctime(const void* timer) {
  return ctime_r(static_cast<const std::time_t*>(timer), rank_libc().time_text);
}

char* pure_asctime(const struct tm* tm) { return asctime_r(tm, rank_libc().time_text); }

char* pure_strerror(int errnum) {
  char* text = rank_libc().error_text;
  const size_t size = sizeof rank_libc().error_text;
  // g++ defines _GNU_SOURCE, so this is the GNU strerror_r: it returns the
  // message, which may be a static string instead of the buffer.
  const char* message = strerror_r(errnum, text, size);
  if (message != text) {
    std::strncpy(text, message, size - 1);
    text[size - 1] = '\0';
  }
  return text;
}

struct passwd* pure_getpwnam(const char* name) {
  RankLibc& s = rank_libc();
  struct passwd* result = nullptr;
  const int rc = pure::compat::with_lookup_buffer(s.pw_buffer, [&](char* buf, size_t size) {
    return getpwnam_r(name, &s.pw, buf, size, &result);
  });
  if (rc != 0) errno = rc;
  return result;
}

struct passwd* pure_getpwuid(unsigned int uid) {
  RankLibc& s = rank_libc();
  struct passwd* result = nullptr;
  const int rc = pure::compat::with_lookup_buffer(s.pw_buffer, [&](char* buf, size_t size) {
    return getpwuid_r(uid, &s.pw, buf, size, &result);
  });
  if (rc != 0) errno = rc;
  return result;
}

struct group* pure_getgrnam(const char* name) {
  RankLibc& s = rank_libc();
  struct group* result = nullptr;
  const int rc = pure::compat::with_lookup_buffer(s.gr_buffer, [&](char* buf, size_t size) {
    return getgrnam_r(name, &s.gr, buf, size, &result);
  });
  if (rc != 0) errno = rc;
  return result;
}

struct group* pure_getgrgid(unsigned int gid) {
  RankLibc& s = rank_libc();
  struct group* result = nullptr;
  const int rc = pure::compat::with_lookup_buffer(s.gr_buffer, [&](char* buf, size_t size) {
    return getgrgid_r(gid, &s.gr, buf, size, &result);
  });
  if (rc != 0) errno = rc;
  return result;
}

struct hostent* pure_gethostbyname(const char* name) {
  RankLibc& s = rank_libc();
  struct hostent* result = nullptr;
  int herr = 0;
  pure::compat::with_lookup_buffer(s.host_buffer, [&](char* buf, size_t size) {
    return gethostbyname_r(name, &s.host, buf, size, &result, &herr);
  });
  if (!result) h_errno = herr;
  return result;
}

struct hostent* pure_gethostbyaddr(const void* addr, unsigned int len, int type) {
  RankLibc& s = rank_libc();
  struct hostent* result = nullptr;
  int herr = 0;
  pure::compat::with_lookup_buffer(s.host_buffer, [&](char* buf, size_t size) {
    return gethostbyaddr_r(addr, len, type, &s.host, buf, size, &result, &herr);
  });
  if (!result) h_errno = herr;
  return result;
}

char* pure_inet_ntoa(struct in_addr in) {
  char* text = rank_libc().inet_text;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&in);
  std::snprintf(text, sizeof rank_libc().inet_text, "%u.%u.%u.%u", bytes[0], bytes[1], bytes[2],
                bytes[3]);
  return text;
}

char* pure_ecvt(double number, int ndigits, int* decpt, int* sign) {
  RankLibc& s = rank_libc();
  if (ecvt_r(number, ndigits, decpt, sign, s.ecvt_text, sizeof s.ecvt_text) != 0) return nullptr;
  return s.ecvt_text;
}

char* pure_fcvt(double number, int ndigits, int* decpt, int* sign) {
  RankLibc& s = rank_libc();
  if (fcvt_r(number, ndigits, decpt, sign, s.fcvt_text, sizeof s.fcvt_text) != 0) return nullptr;
  return s.fcvt_text;
}

// POSIX's radix-64 encoding of the low 32 bits, least significant digit
// first; 0 is the empty string.
char* pure_l64a(long n) {
  static const char digits[] =
      "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  char* text = rank_libc().l64a_text;
  unsigned long m = static_cast<unsigned long>(n) & 0xffffffffUL;
  size_t i = 0;
  for (; m > 0; m >>= 6) text[i++] = digits[m & 0x3f];
  text[i] = '\0';
  return text;
}

int pure_hcreate(size_t nel) {
  RankLibc& s = rank_libc();
  if (s.table_made) return 0;  // as glibc: one table at a time
  if (!hcreate_r(nel, &s.table)) return 0;
  s.table_made = true;
  return 1;
}

struct entry* pure_hsearch(struct entry item, int action) {
  RankLibc& s = rank_libc();
  ENTRY* found = nullptr;
  if (!hsearch_r(item, static_cast<ACTION>(action), &found, &s.table)) return nullptr;
  return found;
}

void pure_hdestroy(void) {
  RankLibc& s = rank_libc();
  if (!s.table_made) return;
  hdestroy_r(&s.table);
  s.table_made = false;
}

// tmpnam's contract -- a name in P_tmpdir that no file has when it is made,
// a different one at each call -- kept here rather than through glibc's
// tmpnam_r, whose link-time warning ("the use of `tmpnam_r' is dangerous")
// would otherwise reach every program that links libpure. The name mixes
// the process id, a count shared by the process's ranks and the clock, in
// base 36: "/tmp/pure" and 8 characters fit L_tmpnam.
char* pure_tmpnam(char* s) {
  // Only a count that makes calls differ: relaxed, it orders nothing else.
  static std::atomic<std::uint64_t> made{0};
  char* out = s ? s : rank_libc().tmpnam_text;
  static_assert(sizeof(P_tmpdir "/pure") + 8 <= L_tmpnam, "the name must fit L_tmpnam");
  for (int attempt = 0; attempt < TMP_MAX; ++attempt) {
    std::uint64_t v = (static_cast<std::uint64_t>(getpid()) << 40) ^
                      (made.fetch_add(1, std::memory_order_relaxed) * 0x9e3779b97f4a7c15ull) ^
                      static_cast<std::uint64_t>(std::clock());
    char tail[9];
    for (int i = 0; i < 8; ++i, v /= 36) tail[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
    tail[8] = '\0';
    std::snprintf(out, L_tmpnam, "%s/pure%s", P_tmpdir, tail);
    struct stat st;
    if (lstat(out, &st) != 0 && errno == ENOENT) return out;
  }
  return nullptr;
}

char* pure_ctermid(char* s) { return ctermid(s ? s : rank_libc().ctermid_text); }

char* pure_ttyname(int fd) {
  RankLibc& s = rank_libc();
  const int rc = ttyname_r(fd, s.tty_text, sizeof s.tty_text);
  if (rc != 0) {
    errno = rc;
    return nullptr;
  }
  return s.tty_text;
}

char* pure_getlogin(void) {
  RankLibc& s = rank_libc();
  const int rc = getlogin_r(s.login_text, sizeof s.login_text);
  if (rc != 0) {
    errno = rc;
    return nullptr;
  }
  return s.login_text;
}

char* pure_ptsname(int fd) {
  RankLibc& s = rank_libc();
  if (ptsname_r(fd, s.pts_text, sizeof s.pts_text) != 0) return nullptr;
  return s.pts_text;
}

// mblen starts from the initial state every time, as glibc's does; mbtowc
// and wctomb keep theirs, one per rank. A null string asks whether the
// encoding has states (and resets them).
int pure_mblen(const char* s, size_t n) {
  if (!s) return mblen(nullptr, 0);
  if (*s == '\0') return 0;
  mbstate_t state{};
  const size_t r = mbrtowc(nullptr, s, n, &state);
  return r == static_cast<size_t>(-1) || r == static_cast<size_t>(-2) ? -1 : static_cast<int>(r);
}

int pure_mbtowc(wchar_t* pwc, const char* s, size_t n) {
  RankLibc& rank = rank_libc();
  if (!s) {
    rank.mbtowc_state = mbstate_t{};
    return mbtowc(nullptr, nullptr, 0);
  }
  if (*s == '\0') {
    if (pwc) *pwc = L'\0';
    return 0;
  }
  const size_t r = mbrtowc(pwc, s, n, &rank.mbtowc_state);
  return r == static_cast<size_t>(-1) || r == static_cast<size_t>(-2) ? -1 : static_cast<int>(r);
}

int pure_wctomb(char* s, wchar_t wc) {
  RankLibc& rank = rank_libc();
  if (!s) {
    rank.wctomb_state = mbstate_t{};
    return wctomb(nullptr, 0);
  }
  return static_cast<int>(wcrtomb(s, wc, &rank.wctomb_state));
}

char* pure_setlocale(int category, const char* name) {
  RankLibc& s = rank_libc();
  if (s.world < 0) return setlocale(category, name);  // no rank's thread: the process's
  std::lock_guard<std::mutex> lock(s.mutex);
  const int mask = pure::compat::category_mask(category);
  if (mask < 0) {
    errno = EINVAL;
    return nullptr;
  }
  locale_t current = s.locale ? s.locale : duplocale(LC_GLOBAL_LOCALE);
  if (!current) return nullptr;
  if (name) {
    locale_t changed = newlocale(mask, name, current);
    if (!changed) {
      if (!s.locale) freelocale(current);
      return nullptr;
    }
    current = changed;  // newlocale reused or freed the old one
    s.locale = current;
    uselocale(current);
  } else if (!s.locale) {
    s.locale_name = pure::compat::locale_name(current, category);
    freelocale(current);
    return s.locale_name.data();
  }
  s.locale_name = pure::compat::locale_name(current, category);
  return s.locale_name.data();
}

struct lconv* pure_localeconv(void) {
  RankLibc& s = rank_libc();
  std::lock_guard<std::mutex> lock(pure::compat::localeconv_mutex);
  s.conventions = *localeconv();  // the calling thread's locale: the rank's
  return &s.conventions;
}

}  // extern "C"
