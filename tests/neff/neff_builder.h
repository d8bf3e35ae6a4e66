// Builds small .neff files for tests: tar (plain or gzip) written with
// libarchive's write API into memory, behind a hand-made 1024-byte header.
#ifndef TOPOLINT_TESTS_NEFF_ARCHIVE_NEFF_BUILDER_H_
#define TOPOLINT_TESTS_NEFF_ARCHIVE_NEFF_BUILDER_H_

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace topolint::neff::testing {

struct TarMember {
  enum Kind { kFile, kDir, kSymlink, kHardlink, kFifo };
  TarMember(std::string p, std::string d, Kind k = kFile, std::string link = "")
      : path(std::move(p)),
        data(std::move(d)),
        kind(k),
        link_target(std::move(link)) {}

  std::string path;
  std::string data;
  Kind kind;
  std::string link_target;  // kSymlink / kHardlink
};

inline la_ssize_t AppendToString(struct archive*, void* client,
                                 const void* buffer, size_t length) {
  static_cast<std::string*>(client)->append(static_cast<const char*>(buffer),
                                            length);
  return static_cast<la_ssize_t>(length);
}

// A ustar archive of `members`, gzip-compressed when `gzip`.
inline std::string MakeTar(const std::vector<TarMember>& members,
                           bool gzip = true) {
  std::string out;
  struct archive* a = archive_write_new();
  EXPECT_EQ(archive_write_set_format_ustar(a), ARCHIVE_OK);
  if (gzip) {
    EXPECT_EQ(archive_write_add_filter_gzip(a), ARCHIVE_OK);
  } else {
    EXPECT_EQ(archive_write_add_filter_none(a), ARCHIVE_OK);
  }
  archive_write_set_bytes_in_last_block(a, 1);
  EXPECT_EQ(archive_write_open(a, &out, nullptr, &AppendToString, nullptr),
            ARCHIVE_OK);
  for (const TarMember& m : members) {
    struct archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.path.c_str());
    archive_entry_set_perm(e, 0644);
    switch (m.kind) {
      case TarMember::kFile:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, static_cast<la_int64_t>(m.data.size()));
        break;
      case TarMember::kDir:
        archive_entry_set_filetype(e, AE_IFDIR);
        break;
      case TarMember::kSymlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_symlink(e, m.link_target.c_str());
        break;
      case TarMember::kHardlink:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_hardlink(e, m.link_target.c_str());
        break;
      case TarMember::kFifo:
        archive_entry_set_filetype(e, AE_IFIFO);
        break;
    }
    EXPECT_EQ(archive_write_header(a, e), ARCHIVE_OK) << m.path;
    if (m.kind == TarMember::kFile && !m.data.empty()) {
      EXPECT_EQ(archive_write_data(a, m.data.data(), m.data.size()),
                static_cast<la_ssize_t>(m.data.size()));
    }
    archive_entry_free(e);
  }
  EXPECT_EQ(archive_write_close(a), ARCHIVE_OK);
  archive_write_free(a);
  return out;
}

inline void PutLittleEndian(std::string& s, size_t offset, uint64_t v,
                            int bytes) {
  for (int i = 0; i < bytes; ++i) {
    s[offset + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
}

struct HeaderFields {
  uint32_t lnc_size = 2;
  std::optional<uint64_t> header_size;  // default 1024
  std::optional<uint64_t> data_size;    // default payload size
};

// The 1024-byte header followed by `payload`.
inline std::string MakeNeff(const std::string& payload,
                            const HeaderFields& h = {}) {
  std::string s(1024, '\0');
  PutLittleEndian(s, 0, 1, 8);
  PutLittleEndian(s, 8, h.header_size.value_or(1024), 8);
  PutLittleEndian(s, 16, h.data_size.value_or(payload.size()), 8);
  PutLittleEndian(s, 552, h.lnc_size, 4);
  return s + payload;
}

// Writes `bytes` to a fresh file under the test temp dir; returns its path.
inline std::string WriteTempFile(const std::string& name,
                                 const std::string& bytes) {
  const ::testing::TestInfo* t =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir() + "topolint_" + t->test_suite_name() +
                     "_" + t->name() + "_" + std::to_string(getpid()) + "_" +
                     name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

inline std::string Kelf(const std::vector<std::string>& graphs) {
  std::string s = "{\"graphs\": [";
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (i) s += ", ";
    s += "{\"definition\": \"" + graphs[i] + "/def.json\", \"name\": \"" +
         graphs[i] + "\"}";
  }
  return s + "], \"version\": \"0.1\"}\n";
}

inline const char kDefJson[] =
    "{\n"
    "  \"CCInfo\": {\n"
    "    \"replica_groups\": [[[0, 1], [2, 3]]],\n"
    "    \"#rank_world_size\": 4\n"
    "  }\n"
    "}\n";

// kelf-0.json plus sg00..sg(n-1)/def.json, all carrying kDefJson.
inline std::vector<TarMember> ValidMembers(int graphs) {
  std::vector<std::string> names;
  std::vector<TarMember> m;
  for (int i = 0; i < graphs; ++i) {
    names.push_back(i < 10 ? "sg0" + std::to_string(i)
                           : "sg" + std::to_string(i));
  }
  m.push_back({"kelf-0.json", Kelf(names)});
  for (const std::string& n : names) m.push_back({n + "/def.json", kDefJson});
  return m;
}

}  // namespace topolint::neff::testing

#endif  // TOPOLINT_TESTS_NEFF_ARCHIVE_NEFF_BUILDER_H_
