#include "channels/bsend_buffer.h"

#include <algorithm>

#include "base/error.h"
#include "base/handle.h"
#include "channels/endpoint.h"

namespace pure {

void BsendBuffer::attach(void* buffer, std::size_t size) {
  if (base_) fail(PURE_ERR_BUFFER, "a buffer of %zu bytes is already attached", size_);
  if (!buffer && size > 0) fail(PURE_ERR_BUFFER, "null buffer with size %zu", size);
  base_ = static_cast<char*>(buffer);
  size_ = size;
}

void BsendBuffer::reap(Endpoint& p2p) {
  used_.erase(std::remove_if(used_.begin(), used_.end(),
                             [&](Region& r) {
                               if (!r.request || !p2p.test(r.request)) return false;
                               p2p.free_request(r.request);
                               return true;
                             }),
              used_.end());
}

char* BsendBuffer::reserve(Endpoint& p2p, std::size_t bytes) {
  if (!base_) fail(PURE_ERR_BUFFER, "no buffer attached (call pure_buffer_attach first)");
  reap(p2p);
  const std::size_t need = bytes + PURE_BSEND_OVERHEAD;
  std::size_t at = 0;
  size_t i = 0;
  // First fit between the used regions, which are kept sorted by offset.
  for (; i < used_.size(); ++i) {
    if (used_[i].offset - at >= need) break;
    at = used_[i].offset + used_[i].size;
  }
  if (i == used_.size() && size_ - at < need) {
    std::size_t in_use = 0;
    for (auto& r : used_) in_use += r.size;
    fail(PURE_ERR_BUFFER,
         "attached buffer too small: this message needs %zu bytes (%zu + PURE_BSEND_OVERHEAD), "
         "%zu of %zu bytes are in use by earlier buffered sends",
         need, bytes, in_use, size_);
  }
  used_.insert(used_.begin() + static_cast<std::ptrdiff_t>(i), Region{at, need, nullptr});
  return base_ + at;
}

void BsendBuffer::track(char* region, Request* request) {
  auto it = std::find_if(used_.begin(), used_.end(),
                         [&](const Region& r) { return base_ + r.offset == region; });
  if (it == used_.end()) return;
  if (request == nullptr || request == completed_send_request())
    used_.erase(it);
  else
    it->request = request;
}

Request* BsendBuffer::send(Endpoint& p2p, const void* buf, std::size_t count, const Datatype& type,
                           int dest, const Comm& comm, int tag) {
  const std::size_t bytes = count * type.size();
  char* region = reserve(p2p, bytes);
  pack(buf, count, type, 0, region, bytes);
  static const TypeRef packed{Datatype::predefined(handle_index(PURE_PACKED)), nullptr};
  Request* r = p2p.isend(region, bytes, packed, dest, comm, tag, SendMode::standard);
  track(region, r);
  return r;
}

void BsendBuffer::flush(Endpoint& p2p) {
  p2p.waiter().wait_until(
      [&] {
        reap(p2p);
        return used_.empty();
      },
      WaitSite{"pure_buffer_detach", -1, -1});
}

std::pair<void*, std::size_t> BsendBuffer::detach(Endpoint& p2p) {
  if (!base_) fail(PURE_ERR_BUFFER, "no buffer is attached");
  flush(p2p);
  std::pair<void*, std::size_t> result{base_, size_};
  base_ = nullptr;
  size_ = 0;
  return result;
}

}  // namespace pure
