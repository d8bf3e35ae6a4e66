// The shared file-kind check and bounded reader (checker/io/input_file.h)
// and the staged writer (checker/io/output_file.h).
#include "checker/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "checker/io/output_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/run_cli.h"

namespace topolint {
namespace {

using ::testing::HasSubstr;
using testing::ReadAll;
using testing::TempDir;

TEST(InputFileTest, KindsAreTold) {
  TempDir dir;
  const std::string file = dir.Write("f.txt", "x");
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", dir.path() + "/z");
  EXPECT_EQ(KindOfPath(file), FileKind::kRegular);
  EXPECT_EQ(KindOfPath(dir.path()), FileKind::kDirectory);
  EXPECT_EQ(KindOfPath(fifo), FileKind::kFifo);
  EXPECT_EQ(KindOfPath("/dev/zero"), FileKind::kCharDevice);
  EXPECT_EQ(KindOfPath(dir.path() + "/z"), FileKind::kCharDevice);
  EXPECT_EQ(KindOfPath(dir.path() + "/none"), FileKind::kMissing);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(KindOfPath("/dev/fd/" + std::to_string(fds[0])), FileKind::kPipe);
  EXPECT_TRUE(CheckReadableKind("/dev/fd/" + std::to_string(fds[0])).ok());
  close(fds[0]);
  close(fds[1]);
}

TEST(InputFileTest, OpeningAFifoNeitherBlocksNorSucceeds) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<int> fd = OpenInputFd(fifo);
  ASSERT_FALSE(fd.ok());
  EXPECT_THAT(std::string(fd.status().message()),
              HasSubstr("is a named pipe (FIFO)"));
}

TEST(InputFileTest, ReadsStopOneBytePastTheLimit) {
  const int zero = open("/dev/zero", O_RDONLY);
  ASSERT_GE(zero, 0);
  std::string out;
  const absl::Status st = ReadFdBounded(zero, "zeros", 1 << 20, "tests", &out);
  close(zero);
  EXPECT_EQ(st.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("zeros: more than 1048576 bytes; the limit for tests"));
  EXPECT_TRUE(out.empty());
}

TEST(InputFileTest, APipeIsReadToItsEnd) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "hello", 5), 5);
  close(fds[1]);
  std::string out;
  const absl::Status st =
      ReadInputFile("/dev/fd/" + std::to_string(fds[0]), 100, "tests", &out);
  close(fds[0]);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out, "hello");
}

TEST(InputFileTest, ExactlyTheLimitIsAccepted) {
  TempDir dir;
  const std::string file = dir.Write("f", std::string(1000, 'a'));
  std::string out;
  EXPECT_TRUE(ReadInputFile(file, 1000, "tests", &out).ok());
  EXPECT_EQ(out.size(), 1000u);
  EXPECT_FALSE(ReadInputFile(file, 999, "tests", &out).ok());
}

TEST(StagedOutputTest, NothingChangesUntilCommit) {
  TempDir dir;
  const std::string target = dir.Write("out.txt", "old");
  {
    StagedOutput out;
    ASSERT_TRUE(out.Open(target).ok());
    ASSERT_TRUE(out.Write("new").ok());
    ASSERT_TRUE(out.Finish().ok());
    EXPECT_EQ(ReadAll(target), "old");
    // Destroyed without Commit: the temporary goes, the old file stays.
  }
  EXPECT_EQ(ReadAll(target), "old");
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
  StagedOutput out;
  ASSERT_TRUE(out.Open(target).ok());
  ASSERT_TRUE(out.Write("new").ok());
  ASSERT_TRUE(out.Finish().ok());
  ASSERT_TRUE(out.Commit().ok());
  EXPECT_EQ(ReadAll(target), "new");
}

TEST(StagedOutputTest, DevFullFailsAtTheWrite) {
  StagedOutput out;
  ASSERT_TRUE(out.Open("/dev/full").ok());
  const absl::Status st = out.Write("x");
  EXPECT_THAT(std::string(st.message()), HasSubstr("No space left"));
  EXPECT_FALSE(out.Finish().ok());
  EXPECT_FALSE(out.Commit().ok());
}

TEST(InputFileTest, OpenInputSaysWhatItOpened) {
  TempDir dir;
  const std::string file = dir.Write("f.json", "{\"a\": 1}");
  for (OpenCheck check : {OpenCheck::kStatFirst, OpenCheck::kSeenRegular}) {
    absl::StatusOr<OpenedInput> in = OpenInput(file, check);
    ASSERT_TRUE(in.ok()) << in.status();
    EXPECT_EQ(in->kind, FileKind::kRegular);
    EXPECT_EQ(in->size, 8);
    close(in->fd);
  }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  absl::StatusOr<OpenedInput> in =
      OpenInput("/dev/fd/" + std::to_string(fds[0]), OpenCheck::kSeenRegular);
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->kind, FileKind::kPipe);
  // A pipe is read blocking.
  EXPECT_EQ(fcntl(in->fd, F_GETFL) & O_NONBLOCK, 0);
  close(in->fd);
  close(fds[0]);
  close(fds[1]);
}

TEST(InputFileTest, OpeningWithoutAStatFirstFailsWithTheSameMessages) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", dir.path() + "/z");
  for (const std::string& path :
       {fifo, dir.path() + "/z", dir.path(), dir.path() + "/none"}) {
    absl::StatusOr<OpenedInput> stat_first =
        OpenInput(path, OpenCheck::kStatFirst);
    absl::StatusOr<OpenedInput> seen = OpenInput(path, OpenCheck::kSeenRegular);
    ASSERT_FALSE(stat_first.ok()) << path;
    ASSERT_FALSE(seen.ok()) << path;
    EXPECT_EQ(seen.status(), stat_first.status()) << path;
  }
}

TEST(InputFileTest, AFileThatGrowsAfterItsSizeWasSeenIsReadToItsEnd) {
  TempDir dir;
  const std::string file = dir.Write("grows.json", "[1");
  absl::StatusOr<OpenedInput> in = OpenInput(file, OpenCheck::kSeenRegular);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->size, 2);
  std::string more;
  for (int i = 0; i < 100000; ++i) more += ",1";
  {
    std::ofstream out(file, std::ios::app | std::ios::binary);
    out << more << "]";
  }
  std::string text;
  ASSERT_TRUE(ReadOpenedBounded(*in, file, 1 << 20, "tests", &text).ok());
  close(in->fd);
  EXPECT_EQ(text, "[1" + more + "]");
  // And a file that shrank is read as it now is.
  const std::string shrinks = dir.Write("shrinks.json", std::string(5000, 'x'));
  in = OpenInput(shrinks, OpenCheck::kSeenRegular);
  ASSERT_TRUE(in.ok());
  ASSERT_EQ(truncate(shrinks.c_str(), 10), 0);
  ASSERT_TRUE(ReadOpenedBounded(*in, shrinks, 1 << 20, "tests", &text).ok());
  close(in->fd);
  EXPECT_EQ(text, std::string(10, 'x'));
  // The limit still holds when the size seen was below it.
  in = OpenInput(file, OpenCheck::kSeenRegular);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(ReadOpenedBounded(*in, file, 1000, "tests", &text).code(),
            absl::StatusCode::kResourceExhausted);
  close(in->fd);
}

}  // namespace
}  // namespace topolint
