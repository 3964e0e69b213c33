#pragma once
// Verlet with iterative distance-constraint relaxation (seed 003), position form:
//   predict:  x_prev = x;  x* = x + v dt + a_ext dt^2          (= 2x - x_prev' + a dt^2)
//   relax:    N Jacobi iterations, each particle moves by the over-relaxed average of its springs'
//             corrections (seed 003's inverse-mass split times the stiffness factor)
//   finalise: (in the last iteration) v = (x - x_prev) / dt, then colliders.
// Why Jacobi with averaging rather than graph-coloured Gauss-Seidel: it is a gather (no atomics,
// deterministic, the CPU loop is the same code), one dispatch per iteration instead of one per
// colour (~35 us each on lavapipe, 8+ colours for a grid with bend springs), and the averaging
// keeps it stable for any number of springs per particle. It needs more iterations than
// Gauss-Seidel for the same stretch; the relaxation factor (default 1.5) and Chebyshev
// acceleration (chebyshevRho, Wang 2015) buy much of that back: at 10 iterations, rho = 0.95 leaves
// a third of the plain scheme's stretch. What neither fixes: Jacobi moves a correction one spring
// per iteration, so a 128-wide cloth held at its corners needs far more iterations (or substeps)
// than a 48-wide one to hold its length.
// Seed 003 writes 0.5 a dt^2; that is the position-update of constant-acceleration kinematics from
// rest, not Verlet's recurrence (its own comment thread asks why): weft uses a dt^2, which is exact
// for free fall from the derived velocity and matches the closed form in the tests.
#include "solver/integrators/common/verlet_predict.h"
#include "solver/integrators/integrator_unit.h"

namespace weft::integrators {

// Steps take SolverParams::iterations, acceleration and relaxationRho (the Chebyshev
// spectral-radius estimate, 0: plain Jacobi, see chebyshevOmega()) or momentum (Nesterov's,
// gpu::nesterovMomentum(); its last un-extrapolated iterates live in the first scratch buffer).
float chebyshevOmega(int pass, float rho);
// The relaxation pass (verlet_relax.comp) for particle i: the averaged distance corrections of its
// springs and the elements' projections, Chebyshev's blend or Nesterov's momentum (`lastJacobi`,
// WEFT_BIND_LAST_JACOBI), the move carried into the velocity, and in the last pass the colliders.
void verletRelaxParticle(uint32_t i, CpuState& s, std::vector<glm::vec4>& lastJacobi, const gpu::StepParams& p);
// The pass over particles [begin, end), in vector lanes where the cloth and the acceleration allow
// them (verlet_relax_lanes.h), the same bits as verletRelaxParticle on each.
void verletRelaxRange(size_t begin, size_t end, CpuState& s, std::vector<glm::vec4>& lastJacobi,
                      const gpu::StepParams& p);

}  // namespace weft::integrators
