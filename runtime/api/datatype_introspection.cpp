// Flat API: what a datatype says about itself -- how it was built
// (envelope and contents), its name, the predefined type of a size -- and
// what a status says in its terms: the basic elements received
// (pure_get_elements), which the type signature counts.
#include <climits>
#include <cstring>
#include <string>

#include "api/call.h"
#include "types/envelope.h"

using namespace pure;
using namespace pure::api;

namespace {

// The envelope of a derived type; nullptr for a predefined (named) one.
const TypeEnvelope* envelope_of(Call& c, PURE_Datatype datatype) {
  const Datatype& t = any_type_arg(c, datatype);
  return t.predefined() ? nullptr : t.envelope();
}

template <class N>
void envelope_counts(const TypeEnvelope* e, N* ni, N* na, N* nc, N* nd, int* combiner) {
  *combiner = e ? e->combiner : PURE_COMBINER_NAMED;
  *ni = e ? static_cast<N>(e->ints.size()) : 0;
  *na = e ? static_cast<N>(e->aints.size()) : 0;
  if (nc) *nc = e ? static_cast<N>(e->counts.size()) : 0;
  *nd = e ? static_cast<N>(e->types.size()) : 0;
}

// An int call on a type that a large-count constructor built: its counts
// do not fit the call's arrays.
void small_counts(const TypeEnvelope* e, const char* instead) {
  if (e && !e->counts.empty())
    fail(PURE_ERR_TYPE,
         "the datatype was built by a large-count constructor (its %zu counts are PURE_Count "
         "values); call %s",
         e->counts.size(), instead);
}

template <class N>
void room(N max, std::size_t needed, const char* what) {
  if (max < 0 || static_cast<std::size_t>(max) < needed)
    fail(PURE_ERR_ARG, "max_%s %lld is less than the %zu %s of this datatype", what,
         static_cast<long long>(max), needed, what);
}

template <class N>
void contents(Call& c, PURE_Datatype datatype, N max_integers, N max_addresses,
              N max_large_counts, N max_datatypes, int* integers, PURE_Aint* addresses,
              PURE_Count* large_counts, PURE_Datatype* datatypes, bool large) {
  const TypeEnvelope* e = envelope_of(c, datatype);
  if (!e)
    fail(PURE_ERR_TYPE, "datatype %s is predefined: it has no contents (its combiner is "
         "PURE_COMBINER_NAMED)", any_type_arg(c, datatype).name());
  if (!large) small_counts(e, "pure_type_get_contents_c");
  room(max_integers, e->ints.size(), "integers");
  room(max_addresses, e->aints.size(), "addresses");
  if (large) room(max_large_counts, e->counts.size(), "large_counts");
  room(max_datatypes, e->types.size(), "datatypes");
  if ((!e->ints.empty() && !integers) || (!e->aints.empty() && !addresses) ||
      (!e->counts.empty() && !large_counts) || (!e->types.empty() && !datatypes))
    fail(PURE_ERR_ARG, "null array for the contents of the datatype");
  for (std::size_t i = 0; i < e->ints.size(); ++i) integers[i] = e->ints[i];
  for (std::size_t i = 0; i < e->aints.size(); ++i) addresses[i] = e->aints[i];
  for (std::size_t i = 0; i < e->counts.size(); ++i) large_counts[i] = e->counts[i];
  // A derived argument comes back under a new handle, which the program
  // frees; it names the same (immutable) layout as the original's.
  for (std::size_t i = 0; i < e->types.size(); ++i) {
    const TypeArg& a = e->types[i];
    datatypes[i] = a.derived ? c.rank.handles().types.add(a.derived) : a.predefined;
  }
}

// The predefined type of a class and size (pure_type_match_size).
PURE_Datatype matching(int typeclass, int size) {
  struct Entry { int typeclass; PURE_Datatype type; };
  static const Entry table[] = {
      {PURE_TYPECLASS_INTEGER, PURE_SIGNED_CHAR}, {PURE_TYPECLASS_INTEGER, PURE_SHORT},
      {PURE_TYPECLASS_INTEGER, PURE_INT},         {PURE_TYPECLASS_INTEGER, PURE_LONG_LONG},
      {PURE_TYPECLASS_REAL, PURE_FLOAT},          {PURE_TYPECLASS_REAL, PURE_DOUBLE},
      {PURE_TYPECLASS_REAL, PURE_LONG_DOUBLE},    {PURE_TYPECLASS_COMPLEX, PURE_C_FLOAT_COMPLEX},
      {PURE_TYPECLASS_COMPLEX, PURE_C_DOUBLE_COMPLEX},
      {PURE_TYPECLASS_COMPLEX, PURE_C_LONG_DOUBLE_COMPLEX},
  };
  if (typeclass != PURE_TYPECLASS_INTEGER && typeclass != PURE_TYPECLASS_REAL &&
      typeclass != PURE_TYPECLASS_COMPLEX)
    fail(PURE_ERR_ARG,
         "invalid typeclass %d (must be PURE_TYPECLASS_INTEGER, _REAL or _COMPLEX)", typeclass);
  for (const Entry& e : table)
    if (e.typeclass == typeclass &&
        Datatype::predefined(handle_index(e.type))->size() == static_cast<std::size_t>(size))
      return e.type;
  fail(PURE_ERR_ARG, "no predefined %s type has %d bytes",
       typeclass == PURE_TYPECLASS_INTEGER ? "integer"
       : typeclass == PURE_TYPECLASS_REAL  ? "real"
                                           : "complex",
       size);
}

// Basic elements of `datatype` that the bytes of `status` hold; -1 when
// they end inside a basic element.
long long elements(Call& c, const PURE_Status* status, PURE_Datatype datatype) {
  if (!status) fail(PURE_ERR_ARG, "null status pointer");
  const Datatype& t = any_type_arg(c, datatype);
  const std::optional<std::uint64_t> n = t.signature().elements_in(status->pure_count);
  if (!n || *n > static_cast<std::uint64_t>(LLONG_MAX)) return -1;
  return static_cast<long long>(*n);
}

void set_elements(Call& c, PURE_Status* status, PURE_Datatype datatype, long long count) {
  if (!status) fail(PURE_ERR_ARG, "null status pointer");
  count_arg(count);
  const Datatype& t = any_type_arg(c, datatype);
  if (count > 0 && t.signature().elements() == 0)
    fail(PURE_ERR_ARG, "count %lld: datatype %s holds no basic elements", count, t.name());
  status->pure_count = t.signature().bytes_of(static_cast<std::uint64_t>(count));
}

}  // namespace

extern "C" {

int pure_type_get_envelope(PURE_Datatype datatype, int* num_integers, int* num_addresses,
                           int* num_datatypes, int* combiner) {
  return call("pure_type_get_envelope", [&](Call& c) {
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
      fail(PURE_ERR_ARG, "null output pointer");
    const TypeEnvelope* e = envelope_of(c, datatype);
    small_counts(e, "pure_type_get_envelope_c");
    envelope_counts<int>(e, num_integers, num_addresses, nullptr, num_datatypes, combiner);
  });
}

int pure_type_get_envelope_c(PURE_Datatype datatype, PURE_Count* num_integers,
                             PURE_Count* num_addresses, PURE_Count* num_large_counts,
                             PURE_Count* num_datatypes, int* combiner) {
  return call("pure_type_get_envelope_c", [&](Call& c) {
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
      fail(PURE_ERR_ARG, "null output pointer");
    envelope_counts<PURE_Count>(envelope_of(c, datatype), num_integers, num_addresses,
                                num_large_counts, num_datatypes, combiner);
  });
}

int pure_type_get_contents(PURE_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int integers[], PURE_Aint addresses[],
                           PURE_Datatype datatypes[]) {
  return call("pure_type_get_contents", [&](Call& c) {
    contents<int>(c, datatype, max_integers, max_addresses, 0, max_datatypes, integers,
                  addresses, nullptr, datatypes, false);
  });
}

int pure_type_get_contents_c(PURE_Datatype datatype, PURE_Count max_integers,
                             PURE_Count max_addresses, PURE_Count max_large_counts,
                             PURE_Count max_datatypes, int integers[], PURE_Aint addresses[],
                             PURE_Count large_counts[], PURE_Datatype datatypes[]) {
  return call("pure_type_get_contents_c", [&](Call& c) {
    contents<PURE_Count>(c, datatype, max_integers, max_addresses, max_large_counts,
                         max_datatypes, integers, addresses, large_counts, datatypes, true);
  });
}

int pure_type_set_name(PURE_Datatype datatype, const char* type_name) {
  return call("pure_type_set_name", [&](Call& c) {
    any_type_arg(c, datatype);
    if (!type_name) fail(PURE_ERR_ARG, "null name");
    std::string name(type_name, strnlen(type_name, PURE_MAX_OBJECT_NAME - 1));
    if (Datatype* t = c.rank.handles().derived_type(datatype)) {
      t->set_label(std::move(name));
    } else {
      c.rank.handles().predefined_type_names[datatype] = std::move(name);
    }
  });
}

int pure_type_get_name(PURE_Datatype datatype, char* type_name, int* resultlen) {
  return call("pure_type_get_name", [&](Call& c) {
    const Datatype& t = any_type_arg(c, datatype);
    if (!type_name || !resultlen) fail(PURE_ERR_ARG, "null name or length pointer");
    std::string name;
    if (!t.predefined()) {
      name = t.label();
    } else {
      auto& given = c.rank.handles().predefined_type_names;
      auto it = given.find(datatype);
      // A predefined type is called what the program calls it: MPI_INT in
      // a program written for MPI, PURE_INT in one written for Pure.
      name = it != given.end() ? it->second : in_program_names(t.name());
    }
    const std::size_t n = std::min<std::size_t>(name.size(), PURE_MAX_OBJECT_NAME - 1);
    std::memcpy(type_name, name.data(), n);
    type_name[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int pure_type_match_size(int typeclass, int size, PURE_Datatype* datatype) {
  return call("pure_type_match_size", [&](Call&) {
    if (!datatype) fail(PURE_ERR_ARG, "null datatype pointer");
    *datatype = matching(typeclass, size);
  });
}

int pure_get_elements(const PURE_Status* status, PURE_Datatype datatype, int* count) {
  return call("pure_get_elements", [&](Call& c) {
    if (!count) fail(PURE_ERR_ARG, "null count pointer");
    const long long n = elements(c, status, datatype);
    *count = n < 0 || n > INT_MAX ? PURE_UNDEFINED : static_cast<int>(n);
  });
}

int pure_get_elements_x(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count) {
  return call("pure_get_elements_x", [&](Call& c) {
    if (!count) fail(PURE_ERR_ARG, "null count pointer");
    const long long n = elements(c, status, datatype);
    *count = n < 0 ? PURE_UNDEFINED : n;
  });
}

int pure_get_elements_c(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count) {
  return call("pure_get_elements_c", [&](Call& c) {
    if (!count) fail(PURE_ERR_ARG, "null count pointer");
    const long long n = elements(c, status, datatype);
    *count = n < 0 ? PURE_UNDEFINED : n;
  });
}

int pure_status_set_elements(PURE_Status* status, PURE_Datatype datatype, int count) {
  return call("pure_status_set_elements",
              [&](Call& c) { set_elements(c, status, datatype, count); });
}

int pure_status_set_elements_x(PURE_Status* status, PURE_Datatype datatype, PURE_Count count) {
  return call("pure_status_set_elements_x",
              [&](Call& c) { set_elements(c, status, datatype, count); });
}

}  // extern "C"
