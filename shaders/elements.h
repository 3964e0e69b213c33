// The element kinds' registry: each kind's header, and the one switch that maps Element.kind to
// its conditions (or, for the aerodynamic triangle, its force). Adding a kind is its header in
// elements/, a WEFT_ELEMENT_* id in shared.h, a line here and its builder on the host
// (solver/model/elements.cpp). Everything else (force, Jacobian products, projections, both backends'
// gathers) is written once over the conditions. Included inside physics.h.
#ifndef WEFT_ELEMENTS_H
#define WEFT_ELEMENTS_H

#include "elements/conditions.h"
#include "elements/membrane.h"
#include "elements/hinge.h"
#include "elements/plane_bend.h"
#include "elements/trispring.h"
#include "elements/quadratic_bend.h"
#include "elements/corotational.h"
#include "elements/tether.h"
#include "elements/aero.h"
#include "elements/contact_pair.h"

// Whether this kernel may gather elements of kind k (WEFT_SPEC_ELEMENT_KINDS in shared.h): a
// constant the driver folds, so the kinds the cloth lacks are not compiled at all. The CPU backend
// gathers every kind; its branches cost nothing untaken.
#ifdef __cplusplus
#define WEFT_MAY_HOLD(k) true
#else
layout(constant_id = WEFT_SPEC_ELEMENT_KINDS) const uint weftElementKinds = WEFT_ALL_ELEMENT_KINDS;
#define WEFT_MAY_HOLD(k) ((weftElementKinds & WEFT_ELEMENT_KIND_BIT(k)) != 0u)
#endif
// Whether element e is of kind k, false at compile time where the kernel holds no such kind.
#define WEFT_ELEMENT_IS(e, k) (WEFT_MAY_HOLD(k) && (e).kind == (k))

WEFT_FN Conditions elementConditions(Element e, vec3 x0, vec3 x1, vec3 x2, vec3 x3) {
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_MEMBRANE)) return membraneConditions(e, x0, x1, x2);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_HINGE)) return hingeConditions(e, x0, x1, x2, x3);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_TETHER)) return tetherConditions(e, x0, x1);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_PLANE_BEND)) return planeBendConditions(e, x0, x1, x2, x3);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_TRISPRING)) return trispringConditions(e, x0, x1, x2);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_QUADRATIC_BEND)) return quadraticBendConditions(e, x0, x1, x2, x3);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_COROTATIONAL)) return corotationalConditions(e, x0, x1, x2);
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_CONTACT)) return contactPairConditions(e, x0, x1, x2, x3);
  return noConditions();  // WEFT_ELEMENT_AERO: a force without an energy
}

// The kinds not described by conditions (an energy): forces every integrator applies explicitly,
// Verlet and xpbd in their prediction. The others are the elastic kinds.
#define WEFT_FORCE_ONLY_KINDS WEFT_ELEMENT_KIND_BIT(WEFT_ELEMENT_AERO)
WEFT_FN bool elementIsElastic(uint kind) { return (WEFT_ELEMENT_KIND_BIT(kind) & WEFT_FORCE_ONLY_KINDS) == 0u; }

// Whether Verlet averages a kind's projection with the springs' (Jacobi averaging) or applies it
// whole: a tether is a hard limit (Kim et al. 2012 apply long-range attachments unaveraged), and
// averaged among a dozen springs it would only remove a tenth of the excess per iteration.
WEFT_FN bool elementProjectionAveraged(uint kind) { return kind != WEFT_ELEMENT_TETHER; }

// Whether an implicit solve's matrix holds the blocks coupling a kind's nodes. A contact pair
// (elements/contact_pair.h) is kept by each of its corners in its own slots, and each corner keeps
// its nearest few, so a pair one corner holds may be missing from another's: blocks coupling them
// would make the matrix unsymmetric, which CG does not survive (the pile with implicit-cg: 151 of
// 2,400 steps unconverged after 200 iterations). So a kept pair adds only its keeper's diagonal
// block, the other corners taken as fixed within the solve; its force still comes from all of
// them, damping included.
WEFT_FN bool elementCouplesNodes(uint kind) { return kind != WEFT_ELEMENT_CONTACT; }

// The force an element puts on its node `slot`, from its nodes' positions and velocities.
WEFT_FN vec3 elementForce(Element e, uint slot, vec3 x0, vec3 x1, vec3 x2, vec3 x3, vec3 v0, vec3 v1, vec3 v2,
                          vec3 v3, vec3 wind) {
  if (WEFT_ELEMENT_IS(e, WEFT_ELEMENT_AERO)) return aeroTriangleForce(e, x0, x1, x2, v0, v1, v2, wind);
  return conditionForce(elementConditions(e, x0, x1, x2, x3), slot, e.damping, v0, v1, v2, v3);
}

#endif  // WEFT_ELEMENTS_H
