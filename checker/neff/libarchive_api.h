// The part of libarchive's reading API that the .neff reader uses, loaded
// with dlopen on first use.
//
// libarchive links 17 shared libraries (OpenSSL's libcrypto, libxml2, the
// compressors); loading them costs about 5 ms at every start, half of
// topolint's start-up, although only `.neff` archives need them. The
// `topolint` executable therefore does not link libarchive: the first .neff
// loads it (the soname found at build time, TOPOLINT_LIBARCHIVE_SONAME).
//
// Thread-safe: loading happens once (std::call_once).
#ifndef TOPOLINT_CHECKER_NEFF_LIBARCHIVE_API_H_
#define TOPOLINT_CHECKER_NEFF_LIBARCHIVE_API_H_

#include <archive.h>
#include <archive_entry.h>

#include <string>

namespace topolint::neff {

// The functions used: each `archive_<name>` is LibArchive::<name>.
// clang-format off
#define TOPOLINT_LIBARCHIVE_FUNCTIONS(X) \
  X(read_new)                            \
  X(read_free)                           \
  X(read_support_filter_gzip)            \
  X(read_support_filter_none)            \
  X(read_support_format_tar)             \
  X(read_open2)                          \
  X(read_open_memory)                    \
  X(read_next_header)                    \
  X(read_data)                           \
  X(filter_bytes)                        \
  X(error_string)                        \
  X(set_error)                           \
  X(entry_pathname)                      \
  X(entry_size)                          \
  X(entry_size_is_set)                   \
  X(entry_filetype)                      \
  X(entry_hardlink)
// clang-format on

struct LibArchive {
#define TOPOLINT_LIBARCHIVE_FIELD_(name) \
  decltype(&::archive_##name) name = nullptr;
  TOPOLINT_LIBARCHIVE_FUNCTIONS(TOPOLINT_LIBARCHIVE_FIELD_)
#undef TOPOLINT_LIBARCHIVE_FIELD_
};

// The loaded API, or null when libarchive cannot be loaded; then `*error`
// (when not null) says why, e.g. "cannot load libarchive.so.13: ...".
const LibArchive* LoadLibArchive(std::string* error);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_LIBARCHIVE_API_H_
