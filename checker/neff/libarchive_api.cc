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
  LibArchive& a = l->api;
  std::string& e = l->error;
  l->ok =
      Bind(h, "archive_read_new", &a.read_new, &e) &&
      Bind(h, "archive_read_free", &a.read_free, &e) &&
      Bind(h, "archive_read_support_filter_gzip", &a.support_filter_gzip, &e) &&
      Bind(h, "archive_read_support_filter_none", &a.support_filter_none, &e) &&
      Bind(h, "archive_read_support_format_tar", &a.support_format_tar, &e) &&
      Bind(h, "archive_read_open2", &a.read_open2, &e) &&
      Bind(h, "archive_read_open_memory", &a.read_open_memory, &e) &&
      Bind(h, "archive_read_next_header", &a.read_next_header, &e) &&
      Bind(h, "archive_read_data", &a.read_data, &e) &&
      Bind(h, "archive_filter_bytes", &a.filter_bytes, &e) &&
      Bind(h, "archive_error_string", &a.error_string, &e) &&
      Bind(h, "archive_set_error", &a.set_error, &e) &&
      Bind(h, "archive_entry_pathname", &a.entry_pathname, &e) &&
      Bind(h, "archive_entry_size", &a.entry_size, &e) &&
      Bind(h, "archive_entry_size_is_set", &a.entry_size_is_set, &e) &&
      Bind(h, "archive_entry_filetype", &a.entry_filetype, &e) &&
      Bind(h, "archive_entry_hardlink", &a.entry_hardlink, &e);
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
