#version 450
// Newton-Chebyshev: one accelerated block-Jacobi sweep of A y = b,
//   r_j = b - A y_j,   jacobi(y_j) = y_j + D^-1 r_j   (D: the particle's 3x3 diagonal block),
//   Chebyshev (Wang 2015): y_(j+1) = omega (jacobi(y_j) - y_(j-1)) + y_(j-1),
//   Nesterov: x_(j+1) = y_j + D^-1 r_j / 2 (newtonJacobiStep), y_(j+1) = x_(j+1) + beta (x_(j+1) - x_j),
//   x_(j+1) kept in lastJacobi (accelerate() in physics.h),
// gathered over the particle's springs with the blocks newton_gradient built for this Newton
// iteration, writing y_(j+1) over y_(j-1) (each particle touches only its own entry there) and,
// on a measuring sweep, the partial sums of |r_j|^2. Pinned rows are filtered out: r = 0, y = 0.
// Plain Jacobi (omega = 1 throughout) for rho = 0 or acceleration "none".
// Mirrors newtonSweepParticle() in solver/integrators/newton_chebyshev.cpp.
#include "newton_bindings.glsl"
#define WEFT_ELEMENT_VECTOR(j) dx[j].xyz
#include "element_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec4 inverseDiagonal = diagonal[2 * i], inverseRest = diagonal[2 * i + 1];
    float massTerm = inverseRest.z;
    vec3 next = vec3(0.0);
    vec3 r = vec3(0.0);
    if (massTerm > 0.0) {
      vec3 yi = dx[i].xyz;
      r = rhs[i].xyz - massTerm * yi;
      for (uint s = springRows[i]; s < springRows[i + 1]; ++s)
        r -= applySystemBlock(couplings[s], yi - dx[springs[s].other].xyz);
      r -= elementProduct(i, 1.0, 1.0 / params.dt);
      bool nesterov = newton.nesterov != 0u;
      vec3 jacobi = yi + newtonJacobiStep(newton.nesterov) * symmetricProduct(inverseDiagonal, inverseRest, r);
      vec3 prev = nesterov ? jacobi : dxPrev[i].xyz;
      vec3 last = nesterov ? lastJacobi[i].xyz : jacobi;
      if (nesterov) lastJacobi[i] = vec4(jacobi, 0.0);
      next = accelerate(jacobi, prev, last, newton.omega, nesterov);
    }
    dxPrev[i] = vec4(next, 0.0);
    contribution = dot(r, r);
  }
  if (newton.measure != 0u) writePartial(contribution);  // uniform: a push constant
}
