#include "rules/lnc_resolution.h"

#include "checker/config/parallel_config.h"
#include "fmt/format.h"

namespace topolint {
namespace {

// How a compile_flags.json LNC is named: "the LNC flag in F" or "the
// default LNC of --target=trn2 in F" (the compiler's default there).
std::string CompileFlagsSource(const config::CompileFlags& f) {
  if (f.lnc_from_target) {
    return fmt::format("the default LNC of --target={} in {}", f.target,
                       f.file);
  }
  return fmt::format("the LNC flag in {}", f.file);
}

}  // namespace

std::vector<LncStatement> LncStatements(const Unit& unit,
                                        const CheckOptions& options) {
  std::vector<LncStatement> out;
  // An lnc set by a library caller without lnc_given still counts.
  if ((options.lnc_given || options.lnc > 1) && options.lnc >= 1) {
    const std::string origin =
        options.lnc_origin.empty() ? std::string("--lnc") : options.lnc_origin;
    out.push_back(
        {LncOrigin::kOption, options.lnc, origin, std::nullopt, origin});
  }
  for (const neff::NeffArchive& a : unit.neff_archives) {
    if (!a.header_ok || a.lnc_size < 1) continue;
    out.push_back({LncOrigin::kNeffHeader, a.lnc_size,
                   fmt::format("the header lnc_size of {}", a.file),
                   Location{a.file, 0, 0}, "lnc_size"});
  }
  // The compiler flags recorded beside the module (compile_flags.json).
  for (const config::CompileFlags& f : unit.compile_flags) {
    if (!f.lnc.has_value() || *f.lnc < 1) continue;
    out.push_back({LncOrigin::kCompileFlags, *f.lnc, CompileFlagsSource(f),
                   f.lnc_loc, f.lnc_from_target ? "--target" : "--lnc"});
  }
  for (const config::ComponentConfig& c : unit.configs) {
    for (const config::ParallelConfig& pc : config::ReadParallelConfigs(c)) {
      const config::IntField& f = pc.logical_nc_config;
      if (!f.IsSet()) continue;
      out.push_back({LncOrigin::kConfig, f.value,
                     fmt::format("{} in {}", f.path, c.file),
                     At(c.file, f.value_pos), f.path});
    }
  }
  out.push_back({LncOrigin::kDefault, 1, "the default", std::nullopt, ""});
  return out;
}

LncStatement ResolveLnc(const Unit& unit, const CheckOptions& options) {
  return LncStatements(unit, options).front();
}

}  // namespace topolint
