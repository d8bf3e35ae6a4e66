// The binary readers open files through the shared checked opener
// (checker/io/input_file.h): named FIFOs and devices are refused without
// blocking, and a pipe holding a binary module is told apart by content.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

#include "checker/hlo/dispatch/parse_any.h"
#include "checker/hlo/proto/hlo_proto_reader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/hlo_proto_writer.h"
#include "tests/common/run_cli.h"

namespace topolint::testing {
namespace {

using ::testing::HasSubstr;

std::string SampleProto(bool gzip) {
  return SampleAllReduceProto({{0, 1}, {2, 3}}, gzip);
}

TEST(HloProtoFileKindsTest, FifoAndDeviceAreRefusedWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path() + "/m.hlo_module.pb";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  hlo::Module m;
  // Without the checked opener, open() would wait for a writer forever.
  absl::Status st = hlo::ParseHloProtoFile(fifo, "m.hlo_module.pb", {}, &m);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("named pipe (FIFO)"));
  st = hlo::ParseHloAnyFile(fifo, "m.hlo_module.pb", {}, &m);
  EXPECT_THAT(std::string(st.message()), HasSubstr("named pipe (FIFO)"));
  st = hlo::ParseHloProtoFile("/dev/zero", "zero.pb", {}, &m);
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("zero.pb: cannot open: is a character device"));
  st = hlo::ParseHloProtoFile(dir.path() + "/none.pb", "none.pb", {}, &m);
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
}

// Parses what a writer thread sends through an anonymous pipe, named as
// /dev/fd/N the way process substitution names it.
hlo::Module ThroughPipe(const std::string& bytes, bool any) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fds[1], bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fds[1]);
  });
  const std::string path = "/dev/fd/" + std::to_string(fds[0]);
  hlo::Module m;
  const absl::Status st = any ? hlo::ParseHloAnyFile(path, "piped", {}, &m)
                              : hlo::ParseHloProtoFile(path, "piped", {}, &m);
  EXPECT_TRUE(st.ok()) << st;
  writer.join();
  close(fds[0]);
  return m;
}

TEST(HloProtoFileKindsTest, PipedBinaryModuleIsToldByContent) {
  for (bool gzip : {false, true}) {
    for (bool any : {true, false}) {
      const hlo::Module m = ThroughPipe(SampleProto(gzip), any);
      EXPECT_TRUE(m.syntax_errors.empty())
          << m.syntax_errors.front().message << " gzip=" << gzip;
      EXPECT_EQ(m.name, "jit_f");
      EXPECT_EQ(m.gzip, gzip);
      ASSERT_EQ(m.collectives.size(), 1u) << "gzip=" << gzip;
      EXPECT_EQ(m.collectives[0].replica_groups.num_groups(), 2);
    }
  }
  // Text through the same pipe still reads as text.
  const hlo::Module text = ThroughPipe(
      "HloModule m\n\nENTRY %main (p: f32[4]) -> f32[4] {\n"
      "  %p = f32[4] parameter(0)\n"
      "  ROOT %ar = f32[4] all-reduce(%p), replica_groups={{0,1}}, "
      "to_apply=%add\n}\n",
      /*any=*/true);
  EXPECT_EQ(text.name, "m");
  EXPECT_FALSE(text.gzip);
}

}  // namespace
}  // namespace topolint::testing
