// Request handles: a PURE_Request is the address of the runtime's Request
// (64-byte aligned, so its low six bits are free) with the low six bits of
// the Request's generation in them. Every return of a Request to its pool
// bumps the generation, so a handle kept after its request completed or was
// freed is recognised as stale, never taken for whatever reuses the object
// (until the same object has been reused 64 times meanwhile).
#pragma once

#include <cstdint>

#include "base/error.h"
#include "channels/request.h"
#include "pure/pure.h"

namespace pure::api {

constexpr std::uintptr_t kRequestGenerationMask = 63;
static_assert(alignof(Request) > kRequestGenerationMask,
              "the low bits of a Request's address hold its generation");

inline PURE_Request handle_of(Request* r) {
  return reinterpret_cast<PURE_Request>(reinterpret_cast<std::uintptr_t>(r) |
                                        (r->generation & kRequestGenerationMask));
}

// The Request behind a non-null handle; throws PURE_ERR_REQUEST naming the
// handle when it is stale.
inline Request* request_of(PURE_Request handle) {
  const auto bits = reinterpret_cast<std::uintptr_t>(handle);
  Request* r = reinterpret_cast<Request*>(bits & ~kRequestGenerationMask);
  if (r->state == Request::State::free ||
      (r->generation & kRequestGenerationMask) != (bits & kRequestGenerationMask))
    fail(PURE_ERR_REQUEST,
         "request handle %p was already completed or freed (its handle is no longer valid)",
         static_cast<void*>(handle));
  return r;
}

// The status of an empty completion (a null or inactive request, a send).
inline void empty_status(PURE_Status* status) {
  if (!status) return;
  status->MPI_SOURCE = PURE_ANY_SOURCE;
  status->MPI_TAG = PURE_ANY_TAG;
  status->MPI_ERROR = PURE_SUCCESS;
  status->pure_count = 0;
  status->pure_cancelled = 0;
}

// The status of a receive from PURE_PROC_NULL.
inline void proc_null_status(PURE_Status* status) {
  empty_status(status);
  if (status) status->MPI_SOURCE = PURE_PROC_NULL;
}

}  // namespace pure::api
