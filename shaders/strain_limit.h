// Provot's deformation constraint (Provot 1995, "Deformation constraints in a mass-spring model to
// describe rigid cloth behavior"), written once for strain_limit.comp and its CPU twin: a spring
// longer than its limit is shortened to it, one shorter than its floor lengthened to it, each end
// moving by its inverse-mass share as in distanceCorrection. Included by physics.h.
#ifndef WEFT_STRAIN_LIMIT_H
#define WEFT_STRAIN_LIMIT_H

// The fraction of its length a spring of length len must change by to come back inside its
// limits: 0 inside them, and for springs without a limit (maxLength 0).
WEFT_FN float strainExcess(float len, StrainLimit limit) {
  if (limit.maxLength <= 0.0f || len < 1e-9f) return 0.0f;
  if (len > limit.maxLength) return (limit.maxLength - len) / len;
  if (len < limit.minLength) return (limit.minLength - len) / len;
  return 0.0f;
}

// Endpoint i's move that brings the spring back to its nearest limit, times `share`, the weight of
// this spring in i's Jacobi average. Zero inside the limits and when both ends are pinned.
// With the same share at both ends the two moves times the masses cancel: momentum is kept.
WEFT_FN vec3 strainCorrection(vec3 xi, float wi, vec3 xj, float wj, StrainLimit limit, float share) {
  vec3 d = xi - xj;
  float wsum = wi + wj;
  if (wsum <= 0.0f) return vec3(0.0f);
  return d * ((wi / wsum) * strainExcess(length(d), limit) * share);
}

// The share of a spring between particles that have countI and countJ springs outside their limits:
// 1 / the larger count. Symmetric, so momentum is kept (a per-particle 1 / countI is not), and each
// particle's shares sum to at most 1, so the Jacobi iteration does not overshoot.
WEFT_FN float strainShare(uint countI, uint countJ) {
  uint larger = countI > countJ ? countI : countJ;
  return larger > 0u ? 1.0f / float(larger) : 0.0f;
}

#endif  // WEFT_STRAIN_LIMIT_H
