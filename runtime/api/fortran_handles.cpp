// Flat API: handles as Fortran integers (pure.h, MPI's *_c2f and *_f2c).
// Every handle but a request is an int, which is its own Fortran value;
// requests are numbered per rank (job/handles.h, fortran_requests).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "api/call.h"

using namespace pure;

namespace {

// The calling rank's table of numbered requests, or nullptr off a rank
// (where no request can exist).
std::vector<PURE_Request>* request_numbers() {
  Rank* rank = Rank::current();
  return rank ? &rank->handles().fortran_requests : nullptr;
}

}  // namespace

extern "C" {

PURE_Fint pure_comm_c2f(PURE_Comm comm) { return comm; }
PURE_Comm pure_comm_f2c(PURE_Fint comm) { return comm; }
PURE_Fint pure_type_c2f(PURE_Datatype datatype) { return datatype; }
PURE_Datatype pure_type_f2c(PURE_Fint datatype) { return datatype; }
PURE_Fint pure_group_c2f(PURE_Group group) { return group; }
PURE_Group pure_group_f2c(PURE_Fint group) { return group; }
PURE_Fint pure_op_c2f(PURE_Op op) { return op; }
PURE_Op pure_op_f2c(PURE_Fint op) { return op; }
PURE_Fint pure_info_c2f(PURE_Info info) { return info; }
PURE_Info pure_info_f2c(PURE_Fint info) { return info; }
PURE_Fint pure_errhandler_c2f(PURE_Errhandler errhandler) { return errhandler; }
PURE_Errhandler pure_errhandler_f2c(PURE_Fint errhandler) { return errhandler; }
PURE_Fint pure_win_c2f(PURE_Win win) { return win; }
PURE_Win pure_win_f2c(PURE_Fint win) { return win; }
PURE_Fint pure_message_c2f(PURE_Message message) { return message; }
PURE_Message pure_message_f2c(PURE_Fint message) { return message; }

PURE_Fint pure_request_c2f(PURE_Request request) {
  std::vector<PURE_Request>* numbers = request_numbers();
  if (request == PURE_REQUEST_NULL || !numbers) return 0;
  auto it = std::find(numbers->begin(), numbers->end(), request);
  if (it == numbers->end()) it = numbers->insert(numbers->end(), request);
  return static_cast<PURE_Fint>(it - numbers->begin()) + 1;
}

PURE_Request pure_request_f2c(PURE_Fint request) {
  std::vector<PURE_Request>* numbers = request_numbers();
  if (request <= 0 || !numbers || static_cast<std::size_t>(request) > numbers->size())
    return PURE_REQUEST_NULL;
  return (*numbers)[static_cast<std::size_t>(request) - 1];
}

// A status is copied as the integers it is made of: source, tag and error
// first, as PURE_F_SOURCE, PURE_F_TAG and PURE_F_ERROR say.
static_assert(sizeof(PURE_Status) % sizeof(PURE_Fint) == 0);
static_assert(offsetof(PURE_Status, MPI_SOURCE) == PURE_F_SOURCE * sizeof(PURE_Fint));
static_assert(offsetof(PURE_Status, MPI_TAG) == PURE_F_TAG * sizeof(PURE_Fint));
static_assert(offsetof(PURE_Status, MPI_ERROR) == PURE_F_ERROR * sizeof(PURE_Fint));

int pure_status_c2f(const PURE_Status* c_status, PURE_Fint* f_status) {
  if (!c_status || !f_status) return PURE_ERR_ARG;
  std::memcpy(f_status, c_status, sizeof(PURE_Status));
  return PURE_SUCCESS;
}

int pure_status_f2c(const PURE_Fint* f_status, PURE_Status* c_status) {
  if (!f_status || !c_status) return PURE_ERR_ARG;
  std::memcpy(c_status, f_status, sizeof(PURE_Status));
  return PURE_SUCCESS;
}

}  // extern "C"
