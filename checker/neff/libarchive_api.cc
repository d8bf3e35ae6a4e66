#include "checker/neff/libarchive_api.h"

#include <dlfcn.h>

#include <mutex>

#include "fmt/format.h"

#ifndef TOPOLINT_LIBARCHIVE_SONAME
#define TOPOLINT_LIBARCHIVE_SONAME "libarchive.so.13"
#endif

namespace topolint::neff {
namespace {

struct Loaded {
  LibArchive api;
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool Bind(void* handle, const char* name, Fn* fn, std::string* error) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    *error =
        fmt::format("{} has no symbol {}", TOPOLINT_LIBARCHIVE_SONAME, name);
    return false;
  }
  *fn = reinterpret_cast<Fn>(sym);
  return true;
}

void Load(Loaded* l) {
  // RTLD_LOCAL: its symbols stay out of the global namespace; the handle
  // is kept for the life of the process.
  void* h = dlopen(TOPOLINT_LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* why = dlerror();
    l->error = fmt::format("cannot load {}: {}", TOPOLINT_LIBARCHIVE_SONAME,
                           why != nullptr ? why : "unknown error");
    return;
  }
  l->ok = true;
#define TOPOLINT_LIBARCHIVE_BIND_(name) \
  l->ok = l->ok && Bind(h, "archive_" #name, &l->api.name, &l->error);
  TOPOLINT_LIBARCHIVE_FUNCTIONS(TOPOLINT_LIBARCHIVE_BIND_)
#undef TOPOLINT_LIBARCHIVE_BIND_
}

}  // namespace

const LibArchive* LoadLibArchive(std::string* error) {
  static Loaded* loaded = new Loaded();  // never destroyed: used at exit too
  static std::once_flag once;
  std::call_once(once, [] { Load(loaded); });
  if (!loaded->ok) {
    if (error != nullptr) *error = loaded->error;
    return nullptr;
  }
  return &loaded->api;
}

}  // namespace topolint::neff
