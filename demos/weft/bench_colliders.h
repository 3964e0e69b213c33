#pragma once
// `weft bench --suite colliders`: what mesh colliders cost (docs/contact.md, "Meshes of many faces").
// Each row drops a cloth on a sphere made of triangles, of more and more faces, and times it on the
// CPU backend and on the Vulkan device side by side: ms per frame with the face grid, with every
// particle testing every face (SolverParams::colliderGrid off: the same motion), and with the floor
// alone (what the cloth costs without the body). With --quick: a smaller cloth and fewer frames.
#include "demos/weft/bench_command.h"

namespace weft {

int benchCollidersSuite(const BenchOptions& options);

}  // namespace weft
