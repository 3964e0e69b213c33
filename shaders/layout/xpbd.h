// XPBD (xpbd_*.comp): the constraints in colour order, their multipliers, the colour's push constants.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_XPBD_H
#define WEFT_LAYOUT_XPBD_H

WEFT_GPU_BEGIN

// XPBD (xpbd_project.comp): the cloth's constraints in colour order, each colour a run no two of
// whose constraints move the same particle, and each constraint's multipliers.
#define WEFT_BIND_XPBD_CONSTRAINTS 54  // XpbdConstraint[K]
#define WEFT_BIND_XPBD_LAMBDAS 55      // vec4[K]: the step's multipliers, one per condition (springs: x)

// One XPBD constraint: a spring (node1 its other end) or an elastic element (node1 ==
// WEFT_XPBD_ELEMENT, node0 its index in the element table). Stiffness and damping are the spring's
// (N/m, N s/m); an element's are its own, read from the element table. A tether laid out as
// addTethers lays it out (`form` WEFT_XPBD_TETHER) carries its element's particle, pin, limit,
// stiffness and damping ratio here too, so that its projection reads nothing else: the element
// read through the constraint was a cache miss a tether on the CPU backend.
#define WEFT_XPBD_ELEMENT 0xffffffffu
#define WEFT_XPBD_TETHER 1u
struct XpbdConstraint {
  uint node0;
  uint node1;
  float restLength;  // m; a tether's limit (its element's rest.x)
  float stiffness;   // N/m; 0: the spring does nothing
  float damping;     // N s/m, along the spring; a tether's element's damping (a ratio to its stiffness)
  uint tetherParticle;  // a tether's particle (its element's nodes.x)
  uint tetherAnchor;    // and the pinned particle it hangs from (nodes.y)
  uint form;            // WEFT_XPBD_TETHER for a tether carried in full, else 0
};

// Push constants of xpbd_project.comp: the step's parameters and the colour's run.
struct XpbdParams {
  StepParams step;
  uint first;       // the colour's first constraint
  uint count;       // constraints in the colour
  uint iteration;   // 0: the multipliers start from zero (nothing is read)
  uint keepMultipliers;  // 1: another sweep follows and reads them; 0: the last sweep writes none
};

#ifdef __cplusplus
static_assert(sizeof(XpbdConstraint) == 32);
static_assert(sizeof(XpbdParams) == 96);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_XPBD_H
