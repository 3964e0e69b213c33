// Long-range attachment (tether): particle x0 may be at most rest.x (m) from the pinned particle x1
// it hangs from (rest length along the cloth times 1 + the allowed stretch). One-sided: inside the
// limit nothing acts, beyond it C = |x0 - x1| - rest.x with stiffness0 (N/m). Used as a stiff
// force by the force-based integrators and as a projection by Verlet (Kim et al. 2012's long
// range attachments). Included by elements.h.
#ifndef WEFT_ELEMENTS_TETHER_H
#define WEFT_ELEMENTS_TETHER_H

WEFT_FN Conditions tetherConditions(Element e, vec3 x0, vec3 x1) {
  Conditions c = noConditions();
  vec3 d = x0 - x1;
  float len = length(d);
  if (len <= e.rest.x || len < 1e-12f) return c;
  vec3 n = d / len;
  c.count = 1u;
  c.value[0] = len - e.rest.x;
  c.stiffness[0] = e.stiffness0;
  c.gradient[0] = n;
  c.gradient[1] = -n;
  return c;
}

#endif  // WEFT_ELEMENTS_TETHER_H
