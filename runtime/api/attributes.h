// Datatypes' attributes, for pure_type_dup and pure_type_free
// (attributes.cpp; a communicator's are handled with it, api/comms.h).
#pragma once

#include "api/call.h"

namespace pure::api {

// pure_type_dup: the new type (installed as *copy) gets `old`'s attributes
// through their copy callbacks; if one fails, the new type is freed,
// *copy becomes PURE_DATATYPE_NULL and the callback's error is thrown.
void copy_type_attributes(Call& c, PURE_Datatype old, PURE_Datatype* copy);
// pure_type_free: every attribute's delete callback; a failure is thrown.
void delete_type_attributes(Call& c, PURE_Datatype type);

}  // namespace pure::api
