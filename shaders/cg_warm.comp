#version 450
// CG's warm start (SolveParams.warmStart), between cg_setup and the first iteration. cg_setup left
// the last solve's answer, filtered, in dv as the guess, and b's own residual in r and c.
//  WEFT_CG_WARM_RESIDUAL: q = filter(b - A dv) = r - filter(A dv), the residual the guess leaves,
//    and the partial sums of its r.s (s = P r), which the scalar pass (WEFT_SOLVE_WARM) compares
//    with b's;
//  WEFT_CG_WARM_CHOOSE: where the guess was kept (cgWarmKept), r = q and c = filter(P q); else dv = 0
//    and the solve starts from zero as it would cold.
// Mirrors cgWarmResidualParticle() and cgWarmChooseParticle() in
// solver/integrators/common/cg/cg_solve.cpp.
#include "cg_bindings.glsl"
#include "cg.h"
#define WEFT_ELEMENT_VECTOR(j) dv[j].xyz
#include "cg_system_product.glsl"

layout(local_size_x = WEFT_WORKGROUP_SIZE) in;

void main() {
  uint i = globalIndex();
  if (params.mode == WEFT_CG_WARM_CHOOSE) {
    if (i >= params.particleCount) return;
    if (cgWarmKept(scalars)) {
      vec3 ri = q[i].xyz;
      r[i] = vec4(ri, 0.0);
      c[i] = vec4(applyFilter(constraint[i], loadPreconditioner(i) * ri), 0.0);
    } else {
      dv[i] = vec4(0.0);
    }
    return;
  }
  float contribution = 0.0;
  if (i < params.particleCount) {
    vec3 ri = r[i].xyz - applyFilter(constraint[i], systemProduct(i));
    q[i] = vec4(ri, 0.0);
    contribution = dot(ri, loadPreconditioner(i) * ri);
  }
  writePartial(contribution);
}
