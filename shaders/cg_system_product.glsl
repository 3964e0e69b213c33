// CG: row i of A u, unfiltered, with A = (M + a c_drag I) + sum over springs of (a D + a l S)
// applied to (u_i - u_j), gathered, plus the elements' part. The including kernel names u by
// defining WEFT_ELEMENT_VECTOR(j), the vector element_product.glsl reads too, before including this
// after cg_bindings.glsl: cg_product applies A to the direction, cg_warm to the warm start's guess.
// Each spring end's block is the compact (sqrt(beta) n, gamma) cg_setup built. (a = solve.forceTime,
// l = solve.stiffnessTime: see SolveParams.) Mirrors systemProduct() in
// solver/integrators/common/cg/cg_solve.cpp.
#ifndef WEFT_CG_SYSTEM_PRODUCT_GLSL
#define WEFT_CG_SYSTEM_PRODUCT_GLSL

#include "element_product.glsl"

vec3 systemProduct(uint i) {
  vec4 xi = positions[i];
  vec3 ui = WEFT_ELEMENT_VECTOR(i);
  vec3 product = vec3(0.0);
  if (xi.w > 0.0) {
    float a = solve.forceTime;
    product = (1.0 / xi.w + a * params.wind.w) * ui;
    for (uint s = springRows[i]; s < springRows[i + 1]; ++s)
      product += applySystemBlock(blocks[s], ui - WEFT_ELEMENT_VECTOR(springs[s].other));
    product += elementProduct(i, a * solve.stiffnessTime, a);
  }
  return product;
}

#endif
