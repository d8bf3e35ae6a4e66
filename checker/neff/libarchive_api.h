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

struct LibArchive {
  decltype(&::archive_read_new) read_new = nullptr;
  decltype(&::archive_read_free) read_free = nullptr;
  decltype(&::archive_read_support_filter_gzip) support_filter_gzip = nullptr;
  decltype(&::archive_read_support_filter_none) support_filter_none = nullptr;
  decltype(&::archive_read_support_format_tar) support_format_tar = nullptr;
  decltype(&::archive_read_open2) read_open2 = nullptr;
  decltype(&::archive_read_open_memory) read_open_memory = nullptr;
  decltype(&::archive_read_next_header) read_next_header = nullptr;
  decltype(&::archive_read_data) read_data = nullptr;
  decltype(&::archive_filter_bytes) filter_bytes = nullptr;
  decltype(&::archive_error_string) error_string = nullptr;
  decltype(&::archive_set_error) set_error = nullptr;
  decltype(&::archive_entry_pathname) entry_pathname = nullptr;
  decltype(&::archive_entry_size) entry_size = nullptr;
  decltype(&::archive_entry_size_is_set) entry_size_is_set = nullptr;
  decltype(&::archive_entry_filetype) entry_filetype = nullptr;
  decltype(&::archive_entry_hardlink) entry_hardlink = nullptr;
};

// The loaded API, or null when libarchive cannot be loaded; then `*error`
// (when not null) says why, e.g. "cannot load libarchive.so.13: ...".
const LibArchive* LoadLibArchive(std::string* error);

}  // namespace topolint::neff

#endif  // TOPOLINT_CHECKER_NEFF_LIBARCHIVE_API_H_
