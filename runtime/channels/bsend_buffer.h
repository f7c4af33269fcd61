// BsendBuffer: the user-attached buffer behind pure_bsend. A buffered send
// packs its data into a free region and sends from there; the region is
// returned when that send completes. Small messages go eagerly into the
// queue and free their region at once; large ones hold it until the
// receiver has pulled them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "channels/request.h"

namespace pure {

class Comm;
class Endpoint;

class BsendBuffer {
 public:
  void attach(void* buffer, std::size_t size);
  // Reserves `bytes` (plus PURE_BSEND_OVERHEAD of bookkeeping, as MPI
  // accounts it). Throws PURE_ERR_BUFFER naming the sizes when it cannot.
  char* reserve(Endpoint& p2p, std::size_t bytes);
  // The send from `region` is in flight as `request` (nullptr: already done).
  void track(char* region, Request* request);
  // A buffered send of `count` items of `type` at `buf` to world rank `dest`
  // of `comm`: packed into a reserved region, sent from there, tracked.
  // Returns the send's request (the user's completes at once).
  Request* send(Endpoint& p2p, const void* buf, std::size_t count, const Datatype& type, int dest,
                const Comm& comm, int tag);
  // Waits for every buffered send, then hands the buffer back.
  std::pair<void*, std::size_t> detach(Endpoint& p2p);
  // Waits for every buffered send (finalize).
  void flush(Endpoint& p2p);

 private:
  struct Region {
    std::size_t offset;
    std::size_t size;
    Request* request;  // nullptr while being filled
  };
  void reap(Endpoint& p2p);

  char* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Region> used_;  // sorted by offset
};

}  // namespace pure
