#include "api/comms.h"

namespace pure::api {

void use_errhandler(Rank& rank, PURE_Errhandler handler) {
  if (Errhandler* e = rank.handles().errhandlers.find(handler)) ++e->uses;
}

void drop_errhandler(Rank& rank, PURE_Errhandler handler) {
  auto& table = rank.handles().errhandlers;
  Errhandler* e = table.find(handler);
  if (!e || table.predefined(handler)) return;
  if (--e->uses == 0 && e->handles == 0) table.remove(handler);
}

PURE_Comm install(Call& c, const Comm& parent, std::unique_ptr<Comm> comm) {
  if (!comm) return PURE_COMM_NULL;
  comm->set_errhandler(parent.errhandler());
  use_errhandler(c.rank, parent.errhandler());
  return c.rank.add_comm(std::move(comm));
}

void copy_cached(Call& c, Comm& old, PURE_Comm* copy) {
  Comm& made = *c.rank.comm(*copy);
  made.set_hints(old.hints());
  const int err = copy_attributes(c.rank.handles().keyvals, old.attributes(), old.handle(),
                                  made.attributes());
  if (err == PURE_SUCCESS) return;
  // Freed as the program would free it: what was copied is deleted again.
  delete_attributes(c.rank.handles().keyvals, made.attributes(), *copy);
  drop_errhandler(c.rank, made.errhandler());
  c.rank.free_comm(*copy);
  *copy = PURE_COMM_NULL;
  throw Error(err, "an attribute copy callback of " + old.name() + " returned error " +
                       std::to_string(err) + "; no duplicate was made");
}

void free_comm(Call& c, PURE_Comm handle) {
  Comm& comm = *c.rank.comm(handle);
  const int err = delete_attributes(c.rank.handles().keyvals, comm.attributes(), handle);
  if (err != PURE_SUCCESS)
    throw Error(err, "an attribute delete callback of " + comm.name() + " returned error " +
                         std::to_string(err) + "; the communicator was not freed");
  // A callback may have freed it already (it is the program's code).
  Comm* still = c.rank.comm(handle);
  if (!still) return;
  drop_errhandler(c.rank, still->errhandler());
  if (c.errors == still) c.errors = nullptr;
  c.rank.free_comm(handle);
}

}  // namespace pure::api
