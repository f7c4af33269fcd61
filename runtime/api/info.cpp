// Flat API: info objects -- ordered (key, value) strings (base/info.h),
// local to the rank that made them.
#include <cstring>
#include <string>

#include "api/call.h"

using namespace pure;
using namespace pure::api;

namespace {

Info& info_object(Call& c, PURE_Info handle) {
  return *const_cast<Info*>(info_arg(c, handle, false));
}

std::string key_arg(const char* key) {
  if (!key) fail(PURE_ERR_INFO_KEY, "null key");
  const std::size_t n = strnlen(key, PURE_MAX_INFO_KEY + 1);
  if (n == 0) fail(PURE_ERR_INFO_KEY, "empty key");
  if (n > PURE_MAX_INFO_KEY)
    fail(PURE_ERR_INFO_KEY, "key \"%.32s...\" is longer than PURE_MAX_INFO_KEY (%d)", key,
         PURE_MAX_INFO_KEY);
  return std::string(key, n);
}

// Copies up to `room` characters of `value` and a terminating NUL.
void copy_out(const std::string& value, std::size_t room, char* out) {
  const std::size_t n = value.size() < room ? value.size() : room;
  std::memcpy(out, value.data(), n);
  out[n] = '\0';
}

}  // namespace

extern "C" {

int pure_info_create(PURE_Info* info) {
  return call("pure_info_create", [&](Call& c) {
    if (!info) fail(PURE_ERR_ARG, "null info pointer");
    *info = c.rank.handles().infos.add(Info{});
  }, false);
}

// MPI-4: a new info object like PURE_INFO_ENV, callable before init. The
// command and arguments are those given here when the program passes them
// (MPI lets it pass main's), else those the rank was started with; the
// thread level is the one the program asked for, once it has asked.
int pure_info_create_env(int argc, char* argv[], PURE_Info* info) {
  return call(
      "pure_info_create_env",
      [&](Call& c) {
        if (!info) fail(PURE_ERR_ARG, "null info pointer");
        if (argc < 0) fail(PURE_ERR_ARG, "invalid argc %d", argc);
        if (argc > 0 && !argv) fail(PURE_ERR_ARG, "null argv with argc %d", argc);
        Info env = *c.rank.handles().infos.find(PURE_INFO_ENV);
        if (argc > 0 && argv[0]) env.set("command", argv[0]);
        if (argc > 1) {
          std::string args;
          for (int i = 1; i < argc && argv[i]; ++i) args += (i > 1 ? " " : "") + std::string(argv[i]);
          env.set("argv", args);
        }
        *info = c.rank.handles().infos.add(std::move(env));
      },
      false);
}

int pure_info_set(PURE_Info info, const char* key, const char* value) {
  return call("pure_info_set", [&](Call& c) {
    Info& i = info_object(c, info);
    if (info == PURE_INFO_ENV) fail(PURE_ERR_INFO, "PURE_INFO_ENV cannot be changed");
    const std::string k = key_arg(key);
    if (!value) fail(PURE_ERR_INFO_VALUE, "null value for key \"%s\"", k.c_str());
    const std::size_t n = strnlen(value, PURE_MAX_INFO_VAL + 1);
    if (n > PURE_MAX_INFO_VAL)
      fail(PURE_ERR_INFO_VALUE, "the value for key \"%s\" is longer than PURE_MAX_INFO_VAL (%d)",
           k.c_str(), PURE_MAX_INFO_VAL);
    i.set(k, std::string(value, n));
  }, false);
}

int pure_info_delete(PURE_Info info, const char* key) {
  return call("pure_info_delete", [&](Call& c) {
    Info& i = info_object(c, info);
    if (info == PURE_INFO_ENV) fail(PURE_ERR_INFO, "PURE_INFO_ENV cannot be changed");
    const std::string k = key_arg(key);
    if (!i.erase(k)) fail(PURE_ERR_INFO_NOKEY, "no key \"%s\" to delete", k.c_str());
  }, false);
}

int pure_info_get(PURE_Info info, const char* key, int valuelen, char* value, int* flag) {
  return call("pure_info_get", [&](Call& c) {
    const Info& i = info_object(c, info);
    const std::string k = key_arg(key);
    if (valuelen < 0) fail(PURE_ERR_ARG, "invalid valuelen %d", valuelen);
    if (!value || !flag) fail(PURE_ERR_ARG, "null value or flag pointer");
    const std::string* v = i.find(k);
    *flag = v != nullptr;
    if (v) copy_out(*v, static_cast<std::size_t>(valuelen), value);
  }, false);
}

int pure_info_get_valuelen(PURE_Info info, const char* key, int* valuelen, int* flag) {
  return call("pure_info_get_valuelen", [&](Call& c) {
    const Info& i = info_object(c, info);
    const std::string k = key_arg(key);
    if (!valuelen || !flag) fail(PURE_ERR_ARG, "null valuelen or flag pointer");
    const std::string* v = i.find(k);
    *flag = v != nullptr;
    if (v) *valuelen = static_cast<int>(v->size());
  }, false);
}

int pure_info_get_string(PURE_Info info, const char* key, int* buflen, char* value, int* flag) {
  return call("pure_info_get_string", [&](Call& c) {
    const Info& i = info_object(c, info);
    const std::string k = key_arg(key);
    if (!buflen || !flag) fail(PURE_ERR_ARG, "null buflen or flag pointer");
    if (*buflen < 0) fail(PURE_ERR_ARG, "invalid buflen %d", *buflen);
    if (*buflen > 0 && !value) fail(PURE_ERR_ARG, "null value with buflen %d", *buflen);
    const std::string* v = i.find(k);
    *flag = v != nullptr;
    if (!v) return;
    if (*buflen > 0) copy_out(*v, static_cast<std::size_t>(*buflen - 1), value);
    *buflen = static_cast<int>(v->size()) + 1;
  }, false);
}

int pure_info_get_nkeys(PURE_Info info, int* nkeys) {
  return call("pure_info_get_nkeys", [&](Call& c) {
    const Info& i = info_object(c, info);
    if (!nkeys) fail(PURE_ERR_ARG, "null nkeys pointer");
    *nkeys = i.size();
  }, false);
}

int pure_info_get_nthkey(PURE_Info info, int n, char* key) {
  return call("pure_info_get_nthkey", [&](Call& c) {
    const Info& i = info_object(c, info);
    if (!key) fail(PURE_ERR_ARG, "null key pointer");
    if (n < 0 || n >= i.size())
      fail(PURE_ERR_ARG, "invalid key index %d (the info object has %d keys)", n, i.size());
    copy_out(i.entries()[static_cast<std::size_t>(n)].first, PURE_MAX_INFO_KEY, key);
  }, false);
}

int pure_info_dup(PURE_Info info, PURE_Info* newinfo) {
  return call("pure_info_dup", [&](Call& c) {
    Info copy = info_object(c, info);
    if (!newinfo) fail(PURE_ERR_ARG, "null newinfo pointer");
    *newinfo = c.rank.handles().infos.add(std::move(copy));
  }, false);
}

int pure_info_free(PURE_Info* info) {
  return call("pure_info_free", [&](Call& c) {
    if (!info) fail(PURE_ERR_ARG, "null info pointer");
    info_object(c, *info);
    if (*info == PURE_INFO_ENV) fail(PURE_ERR_INFO, "PURE_INFO_ENV cannot be freed");
    c.rank.handles().infos.remove(*info);
    *info = PURE_INFO_NULL;
  }, false);
}

}  // extern "C"
