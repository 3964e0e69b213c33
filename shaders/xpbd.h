// XPBD (Macklin, Mueller & Chentanez 2016), as Macklin et al. 2019 ("small steps") run it: each
// condition C of a constraint with stiffness k (energy k/2 C^2) has compliance alpha = 1/k in
// physical units, so how stiff the cloth is does not depend on the iteration count, the step or
// the resolution (a square grid of springs k has a 2D modulus of k whatever its spacing). One
// multiplier step, from the multiplier lambda the step has accumulated so far:
//   dlambda = (-C - at lambda - gamma dC) / ((1 + gamma) sum_n w_n |grad_n C|^2 + at),
//   at = 1 / (k h^2),  dC = sum_n grad_n C . (x_n - x_n,start),  gamma = d / h,
// and each node moves by w_n dlambda grad_n C. d (s) is the condition's stiffness-proportional
// damping, as the force-based integrators read it (damping force d k dC/dt): a spring's damping
// coefficient over its stiffness, an element's own damping. xpbdMultiplierStep computes it with
// numerator and denominator multiplied by k h^2, which leaves one division where the form above
// takes three (the compliance, gamma and the quotient; the spring's d = damping / stiffness a
// fourth), and the division is most of a projection's arithmetic cost:
//   dlambda = -(C k h^2 + lambda + b h dC) / ((k h^2 + b h) sum_n w_n |grad_n C|^2 + 1),  b = d k,
// b the damping coefficient (a spring's own). Included inside shaders/physics.h.
#ifndef WEFT_XPBD_H
#define WEFT_XPBD_H

// The step's sums rounded one operation at a time, as the CPU backend rounds them: a shader
// compiler may otherwise fuse a multiply and an add into one rounding (llvmpipe does, for the
// shapes a * b + c below). Without it the backends, which agree to the bit through a drape on a
// mesh, parted by the first ulp as the cloth met it and by 0.6 mm three frames later
// (BothBackendsDrapeTheSameOnAGriddedMesh).
#ifdef __cplusplus
#define WEFT_XPBD_EXACT
#else
#define WEFT_XPBD_EXACT precise
#endif

WEFT_FN float xpbdMultiplierStep(float value, float change, float weight, float stiffness, float dampingRate, float h,
                                 float lambda) {
  if (stiffness <= 0.0f) return 0.0f;
  WEFT_XPBD_EXACT float scale = stiffness * h * h;  // k h^2: the compliance's inverse
  WEFT_XPBD_EXACT float dampingScale = dampingRate * h;
  WEFT_XPBD_EXACT float denominator = (scale + dampingScale) * weight + 1.0f;
  if (denominator <= 1e-30f) return 0.0f;
  WEFT_XPBD_EXACT float numerator = value * scale + lambda + dampingScale * change;
  return -numerator / denominator;
}

#undef WEFT_XPBD_EXACT

// A spring's two moves and its multiplier's change; x.w is the inverse mass, start the positions
// at the step's start.
struct XpbdSpringMove {
  vec3 dx0;
  vec3 dx1;
  float dlambda;
};

WEFT_FN XpbdSpringMove xpbdSpring(vec4 x0, vec4 x1, vec3 start0, vec3 start1, float restLength, float stiffness,
                                  float damping, float h, float lambda) {
  XpbdSpringMove m;
  m.dx0 = vec3(0.0f);
  m.dx1 = vec3(0.0f);
  m.dlambda = 0.0f;
  vec3 d = xyz(x0) - xyz(x1);
  float len = length(d);
  float weight = x0.w + x1.w;
  if (len < 1e-9f || weight <= 0.0f || stiffness <= 0.0f) return m;
  vec3 n = d * (1.0f / len);
  // The rate only matters with damping; the start positions are not read without it.
  float change = damping != 0.0f ? dot(n, (xyz(x0) - start0) - (xyz(x1) - start1)) : 0.0f;
  m.dlambda = xpbdMultiplierStep(len - restLength, change, weight, stiffness, damping, h, lambda);
  m.dx0 = (x0.w * m.dlambda) * n;
  m.dx1 = -(x1.w * m.dlambda) * n;
  return m;
}

// An elastic element's moves of its four nodes (unused ones move by zero) and its conditions'
// multiplier changes (dlambda[c]), all conditions evaluated at the same positions.
struct XpbdElementMove {
  vec3 dx[4];
  vec4 dlambda;
};

WEFT_FN XpbdElementMove xpbdElement(Element e, vec4 x0, vec4 x1, vec4 x2, vec4 x3, vec3 start0, vec3 start1,
                                    vec3 start2, vec3 start3, float h, vec4 lambda) {
  XpbdElementMove m;
  for (int n = 0; n < 4; ++n) m.dx[n] = vec3(0.0f);
  m.dlambda = vec4(0.0f);
  Conditions c = elementConditions(e, xyz(x0), xyz(x1), xyz(x2), xyz(x3));
  for (uint k = 0u; k < c.count; ++k) {
    vec3 g0 = c.gradient[4u * k], g1 = c.gradient[4u * k + 1u], g2 = c.gradient[4u * k + 2u], g3 = c.gradient[4u * k + 3u];
    float weight = x0.w * dot(g0, g0) + x1.w * dot(g1, g1) + x2.w * dot(g2, g2) + x3.w * dot(g3, g3);
    float change = conditionRate(c, k, xyz(x0) - start0, xyz(x1) - start1, xyz(x2) - start2, xyz(x3) - start3);
    float dlambda = xpbdMultiplierStep(c.value[k], change, weight, c.stiffness[k], e.damping * c.stiffness[k], h, lambda[k]);
    m.dlambda[k] = dlambda;
    m.dx[0] += (x0.w * dlambda) * g0;
    m.dx[1] += (x1.w * dlambda) * g1;
    m.dx[2] += (x2.w * dlambda) * g2;
    m.dx[3] += (x3.w * dlambda) * g3;
  }
  return m;
}

// A tether (elements/tether.h) laid out as the host builds it, nodes (i, anchor, i, i): what
// xpbdElement gives for it, written out for its one condition. Every term of the general path is
// kept, the zero gradients of slots 2 and 3 included, so the CPU backend gets the general path's
// bits from it (XpbdTether checks). The general path builds three conditions over four nodes and
// loops over them with indices a device cannot resolve at compile time: lavapipe keeps those arrays
// in memory, per lane, and a colour's tethers took 1.6 times as long through it.
struct XpbdTetherMove {
  vec3 dx0;  // node i's move, slot 0
  vec3 dx1;  // the anchor's (slot 1; pinned anchors are not written)
  vec3 dx2;  // slots 2 and 3: node i again, moved by zero (adding it turns a -0 coordinate to +0)
  float dlambda;
};

// rest, stiffness and damping are the element's rest.x, stiffness0 and damping (XpbdConstraint
// carries them).
WEFT_FN XpbdTetherMove xpbdTether(float rest, float stiffness, float damping, vec4 x0, vec4 x1, vec3 start0,
                                  vec3 start1, float h, float lambda) {
  XpbdTetherMove m;
  m.dx0 = vec3(0.0f);
  m.dx1 = vec3(0.0f);
  m.dx2 = vec3(0.0f);
  m.dlambda = 0.0f;
  vec3 zero = vec3(0.0f);
  vec3 d = xyz(x0) - xyz(x1);  // tetherConditions: active beyond the limit only
  float len = length(d);
  if (len <= rest || len < 1e-12f) return m;
  vec3 g0 = d / len;
  vec3 g1 = -g0;
  float weight = x0.w * dot(g0, g0) + x1.w * dot(g1, g1) + x0.w * dot(zero, zero) + x0.w * dot(zero, zero);
  // The rate only matters with damping, as in xpbdSpring: the start positions are not read without
  // it. The general path's rate times a zero damping adds a zero, so the bits are its own wherever
  // the rate is finite.
  float change = 0.0f;
  if (damping != 0.0f) {
    vec3 u0 = xyz(x0) - start0;
    vec3 u1 = xyz(x1) - start1;
    change = dot(g0, u0) + dot(g1, u1) + dot(zero, u0) + dot(zero, u0);
  }
  m.dlambda = xpbdMultiplierStep(len - rest, change, weight, stiffness, damping * stiffness, h, lambda);
  m.dx0 += (x0.w * m.dlambda) * g0;
  m.dx1 += (x1.w * m.dlambda) * g1;
  m.dx2 += (x0.w * m.dlambda) * zero;
  return m;
}

#endif  // WEFT_XPBD_H
