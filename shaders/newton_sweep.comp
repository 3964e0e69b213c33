#version 450
// Newton-Chebyshev: one Chebyshev-accelerated block-Jacobi sweep of A y = b (Wang 2015),
//   r_j = b - A y_j,   jacobi(y_j) = y_j + D^-1 r_j   (D: the particle's 3x3 diagonal block),
//   y_(j+1) = omega (jacobi(y_j) - y_(j-1)) + y_(j-1),
// gathered over the particle's springs with the blocks newton_gradient built for this Newton
// iteration, writing y_(j+1) over y_(j-1) (each particle touches only its own entry there) and,
// on a measuring sweep, the partial sums of |r_j|^2. Pinned rows are filtered out: r = 0, y = 0.
// Plain Jacobi (omega = 1 throughout) for rho = 0.
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
        r -= couplingProduct(couplings[s], yi - dx[springs[s].other].xyz);
      r -= elementProduct(i, 1.0, 1.0 / params.dt);
      vec3 prev = dxPrev[i].xyz;
      next = newton.omega * (yi + symmetricProduct(inverseDiagonal, inverseRest, r) - prev) + prev;
    }
    dxPrev[i] = vec4(next, 0.0);
    contribution = dot(r, r);
  }
  if (newton.measure != 0u) writePartial(contribution);  // uniform: a push constant
}
