#include "job/rank_globals.h"

#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "base/error.h"
#include "pure/pure.h"

// The per-thread delta and the segment's bounds that PURE_RANK reads
// (pure/compat.h). A thread that is no rank's keeps delta 0, and before the
// first job the segment is empty, so PURE_RANK(x) is x.
extern "C" {
__thread long pure_rank_delta = 0;
unsigned long pure_rank_segment_start = 0;
unsigned long pure_rank_segment_size = 0;
// Defined (weakly) by every file that includes pure/compat.h: a program
// without one (the runtime's own tests) gets no copies. This file does not
// include it for that reason, and declares what it needs from it.
extern const char pure_rank_globals_linked __attribute__((weak));
void pure_rank_relocate(void* object, unsigned long size);
void pure_rank_object(void* object, unsigned long size, void (*construct)(void*),
                      void (*destroy)(void*));
int pure_rank_at_exit(void (*fn)(void*), void* arg);
void pure_rank_yield(void);
}

namespace pure {
namespace {

// PURE_RANK's address computation (pure/compat.h).
void* rank_address(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<void*>(a - pure_rank_segment_start < pure_rank_segment_size
                                     ? a + static_cast<std::uintptr_t>(pure_rank_delta)
                                     : a);
}

// The executable's writable PT_LOAD segment(s), as loaded.
struct Segment {
  std::uintptr_t start = 0;     // first byte
  std::uintptr_t end = 0;       // one past the last byte (.bss included)
  std::uintptr_t file_end = 0;  // one past the bytes that come from the file (.data)
  std::size_t align = 0;        // the largest alignment the segment promises
};

int first_object(dl_phdr_info* info, std::size_t, void* out) {
  auto* s = static_cast<Segment*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (s->end == 0 || start < s->start) s->start = start;
    s->end = std::max<std::uintptr_t>(s->end, start + ph.p_memsz);
    s->file_end = std::max<std::uintptr_t>(s->file_end, start + ph.p_filesz);
    s->align = std::max<std::size_t>(s->align, ph.p_align);
  }
  return 1;  // the first object is the executable itself
}

const Segment& segment() {
  static const Segment s = [] {
    Segment found;
    dl_iterate_phdr(first_object, &found);
    if (found.end == 0) throw Error(PURE_ERR_INTERN, "cannot find the program's data segment");
    return found;
  }();
  return s;
}

std::size_t page_size() {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

std::uintptr_t round_down(std::uintptr_t v, std::size_t to) { return v / to * to; }
std::uintptr_t round_up(std::uintptr_t v, std::size_t to) { return (v + to - 1) / to * to; }

// What the program registered while it started (pure/compat.h), in order.
struct Registry {
  std::mutex mutex;
  struct Object {
    void* object;
    std::size_t size;
    void (*construct)(void*);
    void (*destroy)(void*);
  };
  std::vector<Object> objects;
  std::vector<std::pair<void*, std::size_t>> relocations;
};

Registry& registry() {
  static Registry r;
  return r;
}

// The rank's RankShared is found from its delta: each copy's mapping holds,
// just past the copy of the segment's last page, a pointer to its rank's.
// The runtime is a shared library, so none of its own globals lie in the
// program's segment. The address of that word in the segment's own terms
// (the first page boundary at or after its end); 0 before the first job.
std::uintptr_t g_shared_slot = 0;

// Whether a page of the segment may hold something other than zeros:
// /proc/self/pagemap says whether it was ever written (present or swapped
// out); a page never written reads as zeros and need not be copied.
class PageMap {
 public:
  PageMap() : fd_(open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) {}
  ~PageMap() {
    if (fd_ >= 0) close(fd_);
  }
  PageMap(const PageMap&) = delete;
  PageMap& operator=(const PageMap&) = delete;

  // Calls copy(first, bytes) for each run of pages in [from, to) that may
  // hold data (every page when the map cannot be read).
  template <class F>
  void written_runs(std::uintptr_t from, std::uintptr_t to, F&& copy) {
    const std::size_t page = page_size();
    std::vector<std::uint64_t> entries(512);
    std::uintptr_t run = 0;
    for (std::uintptr_t at = from; at < to;) {
      const std::size_t n = std::min<std::size_t>(entries.size(), (to - at) / page);
      const auto bytes = static_cast<ssize_t>(n * sizeof(std::uint64_t));
      const bool known = fd_ >= 0 && pread(fd_, entries.data(), static_cast<std::size_t>(bytes),
                                           static_cast<off_t>(at / page * 8)) == bytes;
      for (std::size_t i = 0; i < n; ++i, at += page) {
        const bool data = !known || (entries[i] >> 62) != 0;  // bit 63 present, 62 swapped
        if (data && !run) run = at;
        if (!data && run) {
          copy(run, at - run);
          run = 0;
        }
      }
    }
    if (run) copy(run, to - run);
  }

 private:
  int fd_;
};

}  // namespace

struct RankGlobals::Copy {
  void* mapping = nullptr;
  std::size_t mapped = 0;
  long delta = 0;
  RankShared shared;
};

bool RankGlobals::wanted() { return &pure_rank_globals_linked != nullptr; }

RankGlobals::RankGlobals(int ranks, const std::vector<int>& world_of_local) {
  const Segment& s = segment();
  const std::size_t page = page_size();
  const std::size_t align = std::max(page, s.align);
  const std::uintptr_t first = round_down(s.start, page);
  const std::uintptr_t last = round_up(s.end, page);
  const std::uintptr_t file_last = std::min(round_up(s.file_end, page), last);
  pure_rank_segment_start = s.start;
  pure_rank_segment_size = s.end - s.start;
  g_shared_slot = last;

  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  PageMap pages;
  for (int i = 0; i < ranks; ++i) {
    auto c = std::make_unique<Copy>();
    c->mapped = (last - first) + align + page;  // the page past the copy holds the slot
    c->mapping = mmap(nullptr, c->mapped, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (c->mapping == MAP_FAILED)
      throw Error(PURE_ERR_OTHER, "cannot map a copy of the program's globals (" +
                                       std::to_string(last - first) + " bytes) for rank " +
                                       std::to_string(world_of_local[static_cast<size_t>(i)]) +
                                       ": " + std::strerror(errno));
    // The copy keeps the segment's alignment, so every global's too.
    const std::uintptr_t base = round_up(reinterpret_cast<std::uintptr_t>(c->mapping) +
                                             (first % align),
                                         align) -
                                (first % align);
    c->delta = static_cast<long>(base - first);
    auto copy = [&](std::uintptr_t from, std::size_t bytes) {
      std::memcpy(reinterpret_cast<void*>(from + static_cast<std::uintptr_t>(c->delta)),
                  reinterpret_cast<const void*>(from), bytes);
    };
    copy(first, file_last - first);
    pages.written_runs(file_last, last, copy);
    // Pointers from one global to another point into the copy.
    for (const auto& [object, size] : reg.relocations) {
      char* at = static_cast<char*>(object) + c->delta;
      for (std::size_t off = 0; off + sizeof(std::uintptr_t) <= size; off += sizeof(std::uintptr_t)) {
        std::uintptr_t word;
        std::memcpy(&word, at + off, sizeof word);
        if (word - s.start < s.end - s.start) {
          word += static_cast<std::uintptr_t>(c->delta);
          std::memcpy(at + off, &word, sizeof word);
        }
      }
    }
    c->shared.index = i;
    c->shared.world = world_of_local[static_cast<size_t>(i)];
    RankShared* mine = &c->shared;
    std::memcpy(reinterpret_cast<void*>(last + static_cast<std::uintptr_t>(c->delta)), &mine,
                sizeof mine);
    copies_.push_back(std::move(c));
  }
}

RankGlobals::~RankGlobals() {
  for (auto& c : copies_) munmap(c->mapping, c->mapped);
}

void RankGlobals::enter(int index) {
  Copy& c = *copies_[static_cast<size_t>(index)];
  pure_rank_delta = c.delta;
  // As a process constructs its C++ globals before main, in the order the
  // program registered them; each one's destructor runs when the rank ends.
  std::vector<Registry::Object> objects;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    objects = registry().objects;
  }
  for (const Registry::Object& o : objects) {
    void* at = rank_address(o.object);
    std::memset(at, 0, o.size);
    o.construct(at);
    if (o.destroy) pure_rank_at_exit(o.destroy, at);
  }
}

void RankGlobals::leave(int index) {
  RankShared& r = copies_[static_cast<size_t>(index)]->shared;
  // Handlers may register more handlers: take them one at a time.
  for (;;) {
    std::pair<void (*)(void*), void*> action;
    {
      std::lock_guard<std::mutex> lock(r.exit_mutex);
      if (r.at_exit.empty()) break;
      action = r.at_exit.back();
      r.at_exit.pop_back();
    }
    action.first(action.second);
  }
}

void RankGlobals::finish(int index) {
  RankShared& r = copies_[static_cast<size_t>(index)]->shared;
  // Acquire pairs with rank_libc()'s exchange (api/compat.cpp): the state
  // and libc_cleanup another thread of the rank stored are visible here.
  // An exchange, so that only one call ends the state.
  if (void* libc = r.libc.exchange(nullptr, std::memory_order_acq_rel))
    r.libc_cleanup.load(std::memory_order_acquire)(libc);
  pure_rank_delta = 0;
}

RankShared* RankGlobals::current() {
  if (pure_rank_delta == 0) return nullptr;
  RankShared* shared;
  std::memcpy(&shared,
              reinterpret_cast<const void*>(g_shared_slot +
                                            static_cast<std::uintptr_t>(pure_rank_delta)),
              sizeof shared);
  return shared;
}

}  // namespace pure

extern "C" {

void pure_rank_object(void* object, unsigned long size, void (*construct)(void*),
                      void (*destroy)(void*)) {
  pure::Registry& r = pure::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.objects.push_back({object, static_cast<std::size_t>(size), construct, destroy});
}

void pure_rank_relocate(void* object, unsigned long size) {
  pure::Registry& r = pure::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.relocations.emplace_back(object, static_cast<std::size_t>(size));
}

void pure_rank_yield(void) { sched_yield(); }

int pure_rank_at_exit(void (*fn)(void*), void* arg) {
  pure::RankShared* r = pure::RankGlobals::current();
  if (!r) return -1;
  std::lock_guard<std::mutex> lock(r->exit_mutex);
  r->at_exit.emplace_back(fn, arg);
  return 0;
}

}  // extern "C"
