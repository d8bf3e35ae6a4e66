// Shardy's `xla.sdy.meshes` frontend attribute, as an HLO module's header
// carries it after Shardy's export
// (`frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["x"=2, "y"=4]>}}`,
// or the same text as an escaped string): the meshes it names, for
// explain's placement (Module::meshes). Nothing else of the attribute is
// read, and text that is not a mesh is passed over, never an error.
#ifndef TOPOLINT_CHECKER_HLO_SDY_MESHES_H_
#define TOPOLINT_CHECKER_HLO_SDY_MESHES_H_

#include <string_view>

#include "checker/hlo/hlo_module.h"

namespace topolint::hlo {

// Adds to `module` (Module::AddMesh, origin kSdyMeshesHeader, at `pos`) every
// `name = #sdy.mesh<[...], device_ids=[...]>` of `frontend_attributes`,
// the header attribute's value as written.
void ReadSdyMeshes(std::string_view frontend_attributes, TextPos pos,
                   Module* module);

}  // namespace topolint::hlo

#endif  // TOPOLINT_CHECKER_HLO_SDY_MESHES_H_
