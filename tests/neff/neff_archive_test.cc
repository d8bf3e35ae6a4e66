// ReadNeffArchive: valid archives (gzip and plain), and every way a
// container can be broken. Archives are built in the test.
#include "checker/neff/neff_archive.h"

#include <optional>
#include <string>
#include <vector>

#include "checker/neff/neff_tar.h"
#include "fmt/format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/neff/neff_builder.h"

namespace topolint::neff {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using testing::HeaderFields;
using ::testing::IsEmpty;
using testing::kDefJson;
using testing::Kelf;
using testing::MakeNeff;
using testing::MakeTar;
using ::testing::Pair;
using testing::TarMember;
using testing::ValidMembers;
using testing::WriteTempFile;

HeaderFields WithLnc(uint32_t lnc) {
  HeaderFields h;
  h.lnc_size = lnc;
  return h;
}
HeaderFields WithSizes(std::optional<uint64_t> header_size,
                       std::optional<uint64_t> data_size) {
  HeaderFields h;
  h.header_size = header_size;
  h.data_size = data_size;
  return h;
}
HeaderFields WithHeaderSize(uint64_t n) { return WithSizes(n, std::nullopt); }
HeaderFields WithDataSize(uint64_t n) { return WithSizes(std::nullopt, n); }

NeffArchive Read(const std::string& bytes,
                 const NeffArchiveLimits& limits = {}) {
  return ReadNeffArchive(WriteTempFile("model.neff", bytes), "model.neff",
                         limits);
}

std::vector<std::string> Messages(const std::vector<ArchiveProblem>& ps) {
  std::vector<std::string> out;
  for (const ArchiveProblem& p : ps) out.push_back(p.message);
  return out;
}

auto ProblemAt(const std::string& file, const std::string& text) {
  return AllOf(Field(&ArchiveProblem::loc, Field(&Location::file, file)),
               Field(&ArchiveProblem::message, HasSubstr(text)));
}

TEST(NeffArchiveTest, ReadsGzipLnc2WithTwoGraphs) {
  NeffArchive a = Read(MakeNeff(MakeTar(ValidMembers(2))));
  EXPECT_TRUE(a.header_ok);
  EXPECT_EQ(a.file, "model.neff");
  EXPECT_EQ(a.lnc_size, 2);
  EXPECT_THAT(a.problems, IsEmpty())
      << ::testing::PrintToString(Messages(a.problems));
  EXPECT_THAT(a.json_syntax, IsEmpty());
  EXPECT_THAT(a.graph_names, ElementsAre("sg00", "sg01"));
  EXPECT_THAT(a.graph_definitions,
              ElementsAre("sg00/def.json", "sg01/def.json"));
  EXPECT_EQ(a.kelf_loc, (Location{"model.neff:kelf-0.json", 1, 12}));
  ASSERT_EQ(a.graphs.size(), 2u);
  EXPECT_EQ(a.graphs[0].file, "model.neff:sg00/def.json");
  EXPECT_EQ(a.graphs[1].file, "model.neff:sg01/def.json");
  EXPECT_THAT(
      a.member_texts,
      ElementsAre(Pair("model.neff:kelf-0.json", Kelf({"sg00", "sg01"})),
                  Pair("model.neff:sg00/def.json", kDefJson),
                  Pair("model.neff:sg01/def.json", kDefJson)));
}

// A file the walk saw as regular is opened by the caller and read from the
// descriptor: the same archive, problems and all, as reading the path; a
// file too large to be read whole reopens the path for its payload.
TEST(NeffArchiveTest, AnOpenedFileReadsAsItsPath) {
  const std::string cases[] = {
      MakeNeff(MakeTar(ValidMembers(2))),
      MakeNeff(MakeTar(ValidMembers(1), /*gzip=*/false), WithLnc(1)),
      MakeNeff(MakeTar(ValidMembers(2)), WithDataSize(7)),
      std::string(100, 'x'),
      MakeNeff(MakeTar({TarMember{"sg00/def.json", std::string(3 << 20, ' ')},
                        TarMember{"kelf-0.json", Kelf({"sg00"})}},
                       /*gzip=*/false),
               WithLnc(1)),
  };
  for (const std::string& bytes : cases) {
    const std::string path = WriteTempFile("model.neff", bytes);
    const NeffArchive by_path = ReadNeffArchive(path, "m.neff");
    absl::StatusOr<OpenedInput> opened =
        OpenInput(path, OpenCheck::kSeenRegular);
    ASSERT_TRUE(opened.ok()) << opened.status();
    const NeffArchive by_fd = ReadOpenedNeffArchive(*opened, path, "m.neff");
    EXPECT_EQ(by_fd.header_ok, by_path.header_ok);
    EXPECT_EQ(by_fd.lnc_size, by_path.lnc_size);
    EXPECT_EQ(Messages(by_fd.problems), Messages(by_path.problems));
    EXPECT_EQ(Messages(by_fd.json_syntax), Messages(by_path.json_syntax));
    EXPECT_EQ(by_fd.graph_definitions, by_path.graph_definitions);
    EXPECT_EQ(by_fd.graphs.size(), by_path.graphs.size());
    EXPECT_EQ(by_fd.member_texts, by_path.member_texts);
  }
}

TEST(NeffArchiveTest, ReadsPlainTar) {
  NeffArchive a =
      Read(MakeNeff(MakeTar(ValidMembers(2), /*gzip=*/false), WithLnc(1)));
  EXPECT_TRUE(a.header_ok);
  EXPECT_EQ(a.lnc_size, 1);
  EXPECT_THAT(a.problems, IsEmpty());
  EXPECT_EQ(a.graphs.size(), 2u);
}

TEST(NeffArchiveTest, ReadsMembersWithDotSlashPrefixAndDirectories) {
  std::vector<TarMember> m = {
      {"./", "", TarMember::kDir},
      {"./kelf-0.json", Kelf({"sg00"})},
      {"./sg00", "", TarMember::kDir},
      {"./sg00/def.json", kDefJson},
  };
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems, IsEmpty())
      << ::testing::PrintToString(Messages(a.problems));
  ASSERT_EQ(a.graphs.size(), 1u);
  EXPECT_EQ(a.graphs[0].file, "model.neff:sg00/def.json");
}

TEST(NeffArchiveTest, ReadsKelfAfterDefinitionsAndUnusualDefinitionNames) {
  // kelf-0.json comes last and names a member not called def.json: the
  // reader needs a second pass for it.
  std::vector<TarMember> m = {
      {"sg00/graph.json", kDefJson},
      {"sg01/def.json", kDefJson},
      {"kelf-0.json",
       "{\"graphs\": [{\"definition\": \"sg00/graph.json\", \"name\": "
       "\"sg00\"}, {\"definition\": \"./sg01/def.json\"}]}"},
  };
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems, IsEmpty())
      << ::testing::PrintToString(Messages(a.problems));
  EXPECT_THAT(a.graph_names, ElementsAre("sg00", "sg01"));  // name defaulted
  ASSERT_EQ(a.graphs.size(), 2u);
  EXPECT_EQ(a.graphs[0].file, "model.neff:sg00/graph.json");
  EXPECT_EQ(a.graphs[1].file, "model.neff:sg01/def.json");
}

TEST(NeffArchiveTest, MissingFileIsAProblem) {
  NeffArchive a =
      ReadNeffArchive(::testing::TempDir() + "no/such.neff", "x.neff");
  EXPECT_FALSE(a.header_ok);
  EXPECT_THAT(a.problems, ElementsAre(ProblemAt("x.neff", "cannot open")));
}

TEST(NeffArchiveTest, DirectoryIsAProblem) {
  NeffArchive a = ReadNeffArchive(::testing::TempDir(), "dir.neff");
  EXPECT_FALSE(a.header_ok);
  EXPECT_THAT(a.problems, ElementsAre(ProblemAt("dir.neff", "not a regular")));
}

TEST(NeffArchiveTest, FileShorterThanHeader) {
  NeffArchive a = Read(std::string(100, 'x'));
  EXPECT_FALSE(a.header_ok);
  EXPECT_EQ(a.lnc_size, 0);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("the file is 100 bytes, shorter than the 1024-byte "
                          "NEFF header"));
  EXPECT_THAT(a.problems[0].loc, (Location{"model.neff", 0, 0}));
}

TEST(NeffArchiveTest, HeaderSizeBeyondEndOfFile) {
  std::string payload = MakeTar(ValidMembers(2));
  NeffArchive a = Read(MakeNeff(payload, WithHeaderSize(uint64_t{1} << 62)));
  EXPECT_FALSE(a.header_ok);
  EXPECT_EQ(a.lnc_size, 0);
  EXPECT_THAT(a.problems,
              ElementsAre(ProblemAt("model.neff",
                                    "header_size is 4611686018427387904, "
                                    "expected at least 1024")));
  EXPECT_THAT(a.graphs, IsEmpty());
}

TEST(NeffArchiveTest, HeaderSizeBelowHeaderLength) {
  NeffArchive a = Read(MakeNeff(MakeTar(ValidMembers(1)), WithHeaderSize(16)));
  EXPECT_FALSE(a.header_ok);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(HasSubstr("header_size is 16")));
}

TEST(NeffArchiveTest, LargerHeaderSizeSkipsPadding) {
  std::string payload = MakeTar(ValidMembers(2));
  std::string bytes = MakeNeff(std::string(512, '\0') + payload,
                               WithSizes(1536, payload.size()));
  NeffArchive a = Read(bytes);
  EXPECT_TRUE(a.header_ok);
  EXPECT_THAT(a.problems, IsEmpty())
      << ::testing::PrintToString(Messages(a.problems));
  EXPECT_EQ(a.graphs.size(), 2u);
}

TEST(NeffArchiveTest, DataSizeLargerThanPayloadMeansTruncated) {
  std::string payload = MakeTar(ValidMembers(2));
  NeffArchive a = Read(MakeNeff(payload, WithDataSize(payload.size() + 5)));
  EXPECT_TRUE(a.header_ok);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(fmt::format("the file is truncated: header data_size "
                                      "is {} but only {} bytes follow the "
                                      "1024-byte header",
                                      payload.size() + 5, payload.size())));
  EXPECT_EQ(a.graphs.size(), 2u);  // what is there is still read
}

TEST(NeffArchiveTest, DataSizeSmallerThanPayload) {
  std::string payload = MakeTar(ValidMembers(2));
  NeffArchive a = Read(MakeNeff(payload, WithDataSize(3)));
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(HasSubstr("header data_size is 3 but")));
}

TEST(NeffArchiveTest, TruncatedFileIsAProblemNotACrash) {
  std::vector<TarMember> m = ValidMembers(2);
  m.push_back({"weights.bin", std::string(200000, '\x5a')});
  std::string full = MakeNeff(MakeTar(m, /*gzip=*/false));
  for (size_t cut : {size_t{1024 + 100}, size_t{1024 + 700},
                     size_t{1024 + 3000}, full.size() - 600}) {
    SCOPED_TRACE(cut);
    NeffArchive a = Read(full.substr(0, cut));
    EXPECT_TRUE(a.header_ok);
    EXPECT_THAT(Messages(a.problems),
                ::testing::Contains(HasSubstr("the file is truncated")));
    EXPECT_GE(a.problems.size(), 2u);  // and libarchive's complaint
  }
  std::string gz = MakeNeff(MakeTar(m));
  NeffArchive a = Read(gz.substr(0, gz.size() - 40));
  EXPECT_THAT(Messages(a.problems),
              ::testing::Contains(HasSubstr("the file is truncated")));
}

TEST(NeffArchiveTest, EmptyPayload) {
  NeffArchive a = Read(MakeNeff(""));
  EXPECT_TRUE(a.header_ok);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("no tar payload follows the header"));
}

TEST(NeffArchiveTest, GarbagePayload) {
  std::string garbage;
  for (int i = 0; i < 5000; ++i)
    garbage.push_back(static_cast<char>(i * 131 + 7));
  NeffArchive a = Read(MakeNeff(garbage));
  EXPECT_TRUE(a.header_ok);
  EXPECT_THAT(
      Messages(a.problems),
      ElementsAre(HasSubstr("the payload after the header is not a "
                            "readable gzip-compressed or plain tar archive")));
  EXPECT_THAT(a.graphs, IsEmpty());
}

TEST(NeffArchiveTest, GzipOfGarbageIsNotATar) {
  std::string garbage(3000, 'q');
  // A gzip stream of non-tar text, produced by libarchive's raw writer.
  std::string out;
  struct archive* w = archive_write_new();
  archive_write_add_filter_gzip(w);
  archive_write_set_format_raw(w);
  archive_write_open(w, &out, nullptr, &testing::AppendToString, nullptr);
  struct archive_entry* e = archive_entry_new();
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_size(e, garbage.size());
  archive_write_header(w, e);
  archive_write_data(w, garbage.data(), garbage.size());
  archive_entry_free(e);
  archive_write_close(w);
  archive_write_free(w);
  ASSERT_EQ(static_cast<unsigned char>(out[0]), 0x1f);
  NeffArchive a = Read(MakeNeff(out));
  EXPECT_THAT(
      Messages(a.problems),
      ElementsAre(HasSubstr("is not a readable gzip-compressed or plain tar")));
}

TEST(NeffArchiveTest, UnusualLncSizeIsAProblemButKept) {
  NeffArchive a = Read(MakeNeff(MakeTar(ValidMembers(2)), WithLnc(7)));
  EXPECT_EQ(a.lnc_size, 7);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("header lnc_size is 7, expected 1 or 2 (or 0 when "
                          "not recorded)"));
}

TEST(NeffArchiveTest, PathTraversalMembersAreSkipped) {
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"../evil/def.json", kDefJson});
  m.push_back({"sg00/../../def.json", kDefJson});
  m.push_back({"/etc/def.json", kDefJson});
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(
      Messages(a.problems),
      ElementsAre(HasSubstr("member '../evil/def.json' has an unsafe"),
                  HasSubstr("member 'sg00/../../def.json' has an unsafe"),
                  HasSubstr("member '/etc/def.json' has an unsafe")));
  EXPECT_EQ(a.graphs.size(), 1u);
  EXPECT_EQ(a.member_texts.size(), 2u);  // kelf + sg00 only
}

TEST(NeffArchiveTest, KelfNamingATraversalPathIsAProblem) {
  std::vector<TarMember> m = {
      {"kelf-0.json", "{\"graphs\": [{\"definition\": \"../x/def.json\"}]}"}};
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems,
              ElementsAre(ProblemAt("model.neff:kelf-0.json",
                                    "definition '../x/def.json' is not a "
                                    "relative path")));
  EXPECT_EQ(a.problems[0].loc.line, 1);
  EXPECT_EQ(a.problems[0].loc.column, 28);
}

TEST(NeffArchiveTest, LinksAndSpecialFilesAreSkipped) {
  std::vector<TarMember> m = {
      {"kelf-0.json", Kelf({"sg00", "sg01"})},
      {"sg00/def.json", kDefJson},
      {"sg01/def.json", "", TarMember::kSymlink, "/etc/passwd"},
      {"sg02/def.json", "", TarMember::kHardlink, "sg00/def.json"},
      {"pipe", "", TarMember::kFifo},
  };
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(HasSubstr("member 'sg01/def.json' is a link"),
                          HasSubstr("member 'sg02/def.json' is a link"),
                          HasSubstr("member 'pipe' is not a regular file"),
                          HasSubstr("graph 'sg01' names definition "
                                    "'sg01/def.json', which is not a member")));
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffArchiveTest, DuplicateMemberKeepsTheFirst) {
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"sg00/def.json", "{ not json"});
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("member 'sg00/def.json' appears more than once; the "
                          "first copy is used"));
  EXPECT_THAT(a.json_syntax, IsEmpty());
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffArchiveTest, TooManyMembersWithTheDefaultLimit) {
  std::vector<TarMember> m = ValidMembers(2);
  for (int i = 0; i < 4100; ++i) m.push_back({"f/" + std::to_string(i), "x"});
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("the archive has more than 4096 members (the "
                          "limit); the rest is not read"));
  EXPECT_EQ(a.graphs.size(), 2u);  // read before the limit
}

TEST(NeffArchiveTest, TooManyMembersStopsBeforeKelfIsSeen) {
  std::vector<TarMember> m;
  for (int i = 0; i < 20; ++i) m.push_back({"a/" + std::to_string(i), "x"});
  for (TarMember& v : ValidMembers(2)) m.push_back(v);
  NeffArchiveLimits limits;
  limits.max_members = 8;
  NeffArchive a = Read(MakeNeff(MakeTar(m)), limits);
  // Reading stopped: kelf-0.json is not reported missing.
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(HasSubstr("more than 8 members")));
  EXPECT_THAT(a.graph_names, IsEmpty());
}

TEST(NeffArchiveTest, MemberAboveSizeLimitIsSkipped) {
  std::vector<TarMember> m = ValidMembers(2);
  m[2].data = "{\"CCInfo\": {}, \"pad\": \"" + std::string(300, ' ') + "\"}";
  NeffArchiveLimits limits;
  limits.max_member_bytes = 200;
  NeffArchive a = Read(MakeNeff(MakeTar(m)), limits);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(fmt::format("member 'sg01/def.json' is {} bytes, "
                                      "above the 200-byte limit for one "
                                      "member; skipped",
                                      m[2].data.size())));
  EXPECT_EQ(a.graphs.size(), 1u);
  EXPECT_THAT(a.graph_names, ElementsAre("sg00", "sg01"));
}

TEST(NeffArchiveTest, JsonMembersHeldTogetherAreBounded) {
  // Issue 15: the JSON members are all read before any is parsed, so their
  // total is capped; a member past the cap is skipped with a problem.
  std::vector<TarMember> m = ValidMembers(2);
  m[2].data = "{\"CCInfo\": {}, \"pad\": \"" + std::string(300, ' ') + "\"}";
  NeffArchiveLimits limits;
  limits.max_held_bytes =
      static_cast<int64_t>(m[0].data.size() + m[1].data.size()) + 10;
  NeffArchive a = Read(MakeNeff(MakeTar(m)), limits);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre(fmt::format(
                  "member 'sg01/def.json' not read: the archive's JSON "
                  "members exceed {} bytes together; skipped",
                  limits.max_held_bytes)));
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffArchiveTest, UnreadMembersMayExceedTheMemberLimit) {
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"weights.bin", std::string(5000, '\0')});
  NeffArchiveLimits limits;
  limits.max_member_bytes = 1000;
  NeffArchive a = Read(MakeNeff(MakeTar(m)), limits);
  EXPECT_THAT(a.problems, IsEmpty());
}

TEST(NeffArchiveTest, TotalUncompressedSizeIsBounded) {
  // 64 KiB of zeros compresses to almost nothing: a small gzip bomb.
  std::vector<TarMember> m = ValidMembers(1);
  m.push_back({"weights.bin", std::string(64 << 10, '\0')});
  m.push_back({"sg01/def.json", kDefJson});
  NeffArchiveLimits limits;
  limits.max_total_bytes = 16 << 10;
  NeffArchive a = Read(MakeNeff(MakeTar(m)), limits);
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("the archive exceeds the 16384-byte limit on "
                          "uncompressed size at member 'weights.bin'; the "
                          "rest is not read"));
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffArchiveTest, MissingKelf) {
  std::vector<TarMember> m = ValidMembers(2);
  m.erase(m.begin());
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems, ElementsAre(ProblemAt("model.neff",
                                                "the archive has no "
                                                "kelf-0.json")));
  EXPECT_THAT(a.graph_names, IsEmpty());
  EXPECT_THAT(a.graphs, IsEmpty());
}

TEST(NeffArchiveTest, KelfListingAMissingDefinition) {
  std::vector<TarMember> m = ValidMembers(2);
  m.pop_back();  // sg01/def.json
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  ASSERT_THAT(a.problems,
              ElementsAre(ProblemAt("model.neff:kelf-0.json",
                                    "graph 'sg01' names definition "
                                    "'sg01/def.json', which is not a member "
                                    "of the archive")));
  // Points at the second "definition" value.
  EXPECT_EQ(a.problems[0].loc.line, 1);
  EXPECT_EQ(a.problems[0].loc.column, 77);
  EXPECT_THAT(a.graph_names, ElementsAre("sg00", "sg01"));
  EXPECT_EQ(a.graphs.size(), 1u);
}

TEST(NeffArchiveTest, MemberWithBadJsonIsASyntaxProblem) {
  std::vector<TarMember> m = ValidMembers(2);
  m[2].data = "{\n  \"CCInfo\": {\n    \"replica_groups\": [[[0, 1]],,\n}\n";
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems, IsEmpty());
  ASSERT_EQ(a.json_syntax.size(), 1u);
  EXPECT_EQ(a.json_syntax[0].loc.file, "model.neff:sg01/def.json");
  EXPECT_EQ(a.json_syntax[0].loc.line, 3);
  EXPECT_EQ(a.json_syntax[0].loc.column, 33);
  EXPECT_EQ(a.graphs.size(), 1u);
  // The text is kept so the caret display can show the line.
  EXPECT_THAT(a.member_texts,
              ::testing::Contains(Pair("model.neff:sg01/def.json", m[2].data)));
}

TEST(NeffArchiveTest, DefinitionThatIsNotAnObject) {
  std::vector<TarMember> m = ValidMembers(1);
  m[1].data = "[1, 2]";
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(a.problems,
              ElementsAre(ProblemAt("model.neff:sg00/def.json",
                                    "sg00/def.json is array, expected an "
                                    "object")));
  EXPECT_THAT(a.graphs, IsEmpty());
}

TEST(NeffArchiveTest, KelfWithBadJson) {
  std::vector<TarMember> m = ValidMembers(1);
  m[0].data = "{\"graphs\": [";
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  ASSERT_EQ(a.json_syntax.size(), 1u);
  EXPECT_EQ(a.json_syntax[0].loc.file, "model.neff:kelf-0.json");
  EXPECT_THAT(a.graph_names, IsEmpty());
}

TEST(NeffArchiveTest, KelfOfTheWrongShape) {
  struct Case {
    std::string kelf;
    std::string problem;
  };
  for (const Case& c : std::vector<Case>{
           {"[]", "kelf-0.json is array, expected an object"},
           {"{}", "kelf-0.json has no \"graphs\" array"},
           {"{\"graphs\": {}}", "kelf-0.json \"graphs\" is object"},
           {"{\"graphs\": []}", "kelf-0.json lists no graphs"},
           {"{\"graphs\": [1]}", "graph 0 has no \"definition\" string"},
           {"{\"graphs\": [{\"definition\": 5}]}",
            "graph 0 has no \"definition\" string"},
       }) {
    SCOPED_TRACE(c.kelf);
    std::vector<TarMember> m = ValidMembers(1);
    m[0].data = c.kelf;
    NeffArchive a = Read(MakeNeff(MakeTar(m)));
    EXPECT_THAT(a.problems,
                ElementsAre(ProblemAt("model.neff:kelf-0.json", c.problem)));
    EXPECT_THAT(a.graphs, IsEmpty());
  }
}

TEST(NeffArchiveTest, KelfRepeatingADefinition) {
  std::vector<TarMember> m = ValidMembers(1);
  m[0].data =
      "{\"graphs\": [{\"definition\": \"sg00/def.json\"}, "
      "{\"definition\": \"sg00/def.json\"}]}";
  NeffArchive a = Read(MakeNeff(MakeTar(m)));
  EXPECT_THAT(Messages(a.problems),
              ElementsAre("kelf-0.json graph 1 repeats definition "
                          "'sg00/def.json' of graph 0; each graph needs its "
                          "own def.json"));
  EXPECT_EQ(a.graph_names.size(), 2u);  // the graph count kelf states
  EXPECT_EQ(a.graphs.size(), 1u);       // read once
}

TEST(NormalizeMemberPathTest, AcceptsRelativeAndStripsDotSlash) {
  std::string p;
  EXPECT_TRUE(NormalizeMemberPath("sg00/def.json", &p));
  EXPECT_EQ(p, "sg00/def.json");
  EXPECT_TRUE(NormalizeMemberPath(".//./kelf-0.json", &p));
  EXPECT_EQ(p, "kelf-0.json");
  EXPECT_TRUE(NormalizeMemberPath("a/..b/c", &p));  // "..b" is a name
  for (const char* bad :
       {"", "/abs", "..", "../x", "a/../b", "a/..", "./", "."}) {
    EXPECT_FALSE(NormalizeMemberPath(bad, &p)) << bad;
  }
}

}  // namespace
}  // namespace topolint::neff
