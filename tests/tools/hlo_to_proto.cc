// topolint_hlo_to_proto: writes the binary form of an HLO text module, to
// make binary fixtures and fuzz seeds.
//
//   topolint_hlo_to_proto IN.hlo OUT.pb [--wrapper module|hloproto|snapshot|
//                         config] [--groups 49|87] [--old-iota] [--gzip]
//                         [--stack-frames]
//
// The module's collectives, their operand shapes and called computations,
// and every instruction that carries a sharding, are written
// (tests/common/hlo_proto_writer.h); nothing else of the text.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "checker/hlo/text/hlo_parser.h"
#include "tests/common/hlo_proto_writer.h"

int main(int argc, char** argv) {
  using topolint::testing::ProtoWrapper;
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s IN.hlo OUT.pb [--wrapper module|hloproto|"
                 "snapshot|config] [--groups 49|87] [--old-iota] [--gzip] "
                 "[--stack-frames]\n",
                 argv[0]);
    return 2;
  }
  topolint::testing::ProtoWriteOptions o;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    const std::string next = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--gzip") {
      o.gzip = true;
    } else if (a == "--stack-frames") {  // source locations as JAX's
      o.stack_frames = true;
    } else if (a == "--old-iota") {
      o.old_nested_iota = true;
    } else if (a == "--groups" && (next == "49" || next == "87")) {
      o.explicit_groups_field = std::stoi(next);
      ++i;
    } else if (a == "--wrapper" && !next.empty()) {
      if (next == "module") {
        o.wrapper = ProtoWrapper::kModule;
      } else if (next == "hloproto") {
        o.wrapper = ProtoWrapper::kHloProto;
      } else if (next == "snapshot") {
        o.wrapper = ProtoWrapper::kSnapshot;
      } else if (next == "config") {
        o.wrapper = ProtoWrapper::kWithConfig;
      } else {
        std::fprintf(stderr, "unknown wrapper '%s'\n", next.c_str());
        return 2;
      }
      ++i;
    } else {
      std::fprintf(stderr, "unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  topolint::hlo::Module m;
  if (!topolint::hlo::ParseHloFile(argv[1], argv[1], &m).ok()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  if (!m.syntax_errors.empty()) {
    std::fprintf(stderr, "%s: %s\n", argv[1],
                 m.syntax_errors.front().message.c_str());
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  o.text = text;
  std::ofstream out(argv[2], std::ios::binary);
  out << topolint::testing::WriteHloProto(m, o);
  return out ? 0 : 2;
}
