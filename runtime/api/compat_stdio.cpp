// The C library stand-ins of pure/compat.h, part 3: each rank's stdout and
// stderr. Under mpirun every rank writes its own stream and its lines
// arrive whole; ranks that are threads share the process's. So each rank
// writes to a stream of its own (fopencookie), unbuffered so that every
// call reaches it at once, which keeps the line being written and passes
// each finished line to the process's stream in one call -- whole lines,
// never mixed with another rank's. fflush, exit and the rank's end pass on
// a partial line too; setvbuf(_IONBF) passes everything on at once.
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <ostream>
#include <streambuf>

#include "api/compat_state.h"
#include "pure/compat.h"

namespace pure::compat {
namespace {

// Beyond this a line is passed on unfinished rather than held.
constexpr size_t kLongestLine = 1 << 16;

void emit(RankStream& s, const char* data, size_t size) {
  if (size == 0) return;
  std::fwrite(data, 1, size, s.target);  // one call: the target's lock keeps it whole
}

ssize_t write_cookie(void* cookie, const char* data, size_t size) {
  auto& s = *static_cast<RankStream*>(cookie);
  if (s.closed) {
    errno = EBADF;
    return -1;
  }
  if (s.mode == _IONBF) {
    if (!s.pending.empty()) {
      s.pending.append(data, size);
      emit(s, s.pending.data(), s.pending.size());
      s.pending.clear();
    } else {
      emit(s, data, size);
    }
    std::fflush(s.target);
    return static_cast<ssize_t>(size);
  }
  const char* last = static_cast<const char*>(memrchr(data, '\n', size));
  if (!last) {
    s.pending.append(data, size);
    if (s.pending.size() >= kLongestLine) {
      emit(s, s.pending.data(), s.pending.size());
      s.pending.clear();
    }
    return static_cast<ssize_t>(size);
  }
  const size_t lines = static_cast<size_t>(last - data) + 1;
  if (s.pending.empty()) {
    emit(s, data, lines);
  } else {
    s.pending.append(data, lines);
    emit(s, s.pending.data(), s.pending.size());
    s.pending.clear();
  }
  s.pending.append(last + 1, size - lines);
  return static_cast<ssize_t>(size);
}

// Passes on the line being written. The caller holds the stream's lock.
void flush_pending(RankStream& s) {
  emit(s, s.pending.data(), s.pending.size());
  s.pending.clear();
  std::fflush(s.target);
}

RankStream& stream(RankLibc& libc, bool error) {
  std::unique_ptr<RankStream>& slot = error ? libc.err : libc.out;
  if (!slot) {
    std::lock_guard<std::mutex> lock(libc.mutex);
    if (!slot) {
      auto s = std::make_unique<RankStream>();
      s->target = error ? stderr : stdout;
      cookie_io_functions_t io{};
      io.write = write_cookie;
      s->cookie = fopencookie(s.get(), "w", io);
      if (!s->cookie) return *s.release();  // unreachable but for memory exhaustion
      setvbuf(s->cookie, nullptr, _IONBF, 0);
      s->file = s->cookie;
      slot = std::move(s);
    }
  }
  return *slot;
}

// The rank's stream `f` is, or nullptr when it is not one.
RankStream* rank_stream(RankLibc& libc, FILE* f) {
  if (libc.out && (f == libc.out->file || f == libc.out->cookie)) return libc.out.get();
  if (libc.err && (f == libc.err->file || f == libc.err->cookie)) return libc.err.get();
  return nullptr;
}

FILE* rank_file(bool error) {
  RankLibc& libc = rank_libc();
  if (libc.world < 0) return error ? stderr : stdout;  // no rank's thread
  return stream(libc, error).file;
}

// std::cout and friends of a rank: unbuffered, onto its C stream, so that
// both orders of output stay one.
class RankStreamBuf : public std::streambuf {
 public:
  explicit RankStreamBuf(bool error) : error_(error) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    return std::fputc(c, rank_file(error_)) == EOF ? traits_type::eof() : c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return static_cast<std::streamsize>(std::fwrite(s, 1, static_cast<size_t>(n), rank_file(error_)));
  }
  int sync() override { return pure_fflush(rank_file(error_)) == 0 ? 0 : -1; }

 private:
  bool error_;
};

class RankOstream : public std::ostream {
 public:
  explicit RankOstream(bool error) : std::ostream(nullptr), buf_(error) { rdbuf(&buf_); }

 private:
  RankStreamBuf buf_;
};

std::ostream& rank_ostream(std::unique_ptr<std::ostream> RankLibc::*which, bool error,
                           std::ostream& process) {
  RankLibc& libc = rank_libc();
  if (libc.world < 0) return process;
  std::lock_guard<std::mutex> lock(libc.mutex);
  std::unique_ptr<std::ostream>& slot = libc.*which;
  if (!slot) slot = std::make_unique<RankOstream>(error);
  return *slot;
}

}  // namespace

RankStream::~RankStream() {
  if (file && file != cookie) std::fclose(file);
  if (cookie) {
    closed = true;
    std::fclose(cookie);
  }
}

RankLibc::~RankLibc() {
  if (table_made) hdestroy_r(&table);
  if (locale) {
    uselocale(LC_GLOBAL_LOCALE);
    freelocale(locale);
  }
  if (cwd >= 0) close(cwd);
}

void flush_rank_streams(RankLibc& libc) {
  if (libc.cout) libc.cout->flush();
  for (RankStream* s : {libc.out.get(), libc.err.get()}) {
    if (!s) continue;
    flockfile(s->cookie);
    if (s->file != s->cookie) std::fflush(s->file);
    flush_pending(*s);
    funlockfile(s->cookie);
  }
}

}  // namespace pure::compat

namespace pure {
std::ostream& rank_cout() {
  return compat::rank_ostream(&compat::RankLibc::cout, false, std::cout);
}
std::ostream& rank_cerr() {
  return compat::rank_ostream(&compat::RankLibc::cerr, true, std::cerr);
}
std::ostream& rank_clog() {
  return compat::rank_ostream(&compat::RankLibc::clog, true, std::clog);
}
}  // namespace pure

using pure::compat::rank_libc;
using pure::compat::RankLibc;
using pure::compat::RankStream;

extern "C" {

FILE* pure_stdout(void) { return pure::compat::rank_file(false); }
FILE* pure_stderr(void) { return pure::compat::rank_file(true); }

int pure_vprintf(const char* format, va_list args) {
  return std::vfprintf(pure_stdout(), format, args);
}

int pure_printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = pure_vprintf(format, args);
  va_end(args);
  return n;
}

int pure_puts(const char* s) {
  FILE* f = pure_stdout();
  flockfile(f);  // one line, as glibc's puts is one call
  const int rc = std::fputs(s, f) == EOF || std::fputc('\n', f) == EOF ? EOF : 1;
  funlockfile(f);
  return rc;
}

int pure_putchar(int c) { return std::fputc(c, pure_stdout()); }

void pure_perror(const char* s) {
  const int saved = errno;
  char text[256];
  const char* message = strerror_r(saved, text, sizeof text);
  if (s && *s)
    std::fprintf(pure_stderr(), "%s: %s\n", s, message);
  else
    std::fprintf(pure_stderr(), "%s\n", message);
  errno = saved;
}

int pure_fflush(FILE* f) {
  RankLibc& libc = rank_libc();
  if (!f) {
    if (libc.world >= 0) pure::compat::flush_rank_streams(libc);
    return std::fflush(nullptr);
  }
  RankStream* s = pure::compat::rank_stream(libc, f);
  if (!s) return std::fflush(f);
  int rc = 0;
  flockfile(s->cookie);
  if (s->file != s->cookie) rc = std::fflush(s->file);
  pure::compat::flush_pending(*s);
  funlockfile(s->cookie);
  return rc;
}

int pure_setvbuf(FILE* f, char* buf, int mode, size_t size) {
  RankStream* s = pure::compat::rank_stream(rank_libc(), f);
  if (!s || s->file != s->cookie) return setvbuf(f, buf, mode, size);
  if (mode != _IONBF && mode != _IOLBF && mode != _IOFBF) {
    errno = EINVAL;
    return EOF;
  }
  // Full buffering keeps lines whole too: it is line buffering here.
  flockfile(s->cookie);
  s->mode = mode;
  if (mode == _IONBF) pure::compat::flush_pending(*s);
  funlockfile(s->cookie);
  return 0;
}

void pure_setbuf(FILE* f, char* buf) { pure_setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }
void pure_setlinebuf(FILE* f) { pure_setvbuf(f, nullptr, _IOLBF, 0); }

int pure_fclose(FILE* f) {
  RankStream* s = pure::compat::rank_stream(rank_libc(), f);
  if (!s) return std::fclose(f);
  flockfile(s->cookie);
  int rc = 0;
  if (s->file != s->cookie) {
    rc = std::fclose(s->file);
    s->file = s->cookie;
  }
  pure::compat::flush_pending(*s);
  s->closed = true;
  funlockfile(s->cookie);
  return rc;
}

FILE* pure_freopen(const char* path, const char* mode, FILE* f) {
  RankLibc& libc = rank_libc();
  const std::string where = path ? pure::compat::rank_path(libc, path) : std::string();
  RankStream* s = pure::compat::rank_stream(libc, f);
  if (!s) return std::freopen(path ? where.c_str() : nullptr, mode, f);
  // The rank's stdout or stderr goes to a file of its own from now on.
  if (!path) return s->file;
  FILE* opened = std::fopen(where.c_str(), mode);
  if (!opened) return nullptr;
  flockfile(s->cookie);
  pure::compat::flush_pending(*s);
  if (s->file != s->cookie) std::fclose(s->file);
  s->file = opened;
  s->closed = false;
  funlockfile(s->cookie);
  return opened;
}

int pure_fileno(FILE* f) {
  RankStream* s = pure::compat::rank_stream(rank_libc(), f);
  if (!s) return fileno(f);
  return s->file != s->cookie ? fileno(s->file) : fileno(s->target);
}

}  // extern "C"
