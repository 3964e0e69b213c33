#pragma once
// The arithmetic the CPU backend's XPBD lanes share, written once over a lane type V: the SSE
// lanes (cpu/simd/sse_lanes.h, four) and the AVX2 lanes (cpu/simd/avx2_lanes.h, eight). V gives the
// register type F, its width N and the operations (add, sub, mul, div, cmpnle, and_, ...), each one
// instruction that rounds as the scalar operation does, so each lane's result is bit for bit the
// scalar function's. The templates take their instruction set from the unit that instantiates them.

namespace weft::integrators::lanes {

// -a, as the scalar sign flip (a NaN's or a zero's sign included).
template <class V>
inline typename V::F negate(typename V::F a) {
  return V::xor_(a, V::set1(-0.0f));
}

// dot(a, b) of three lanes, summed in the scalar dot's order: (x + y) + z.
template <class V>
inline typename V::F dot3(typename V::F ax, typename V::F ay, typename V::F az, typename V::F bx, typename V::F by,
                          typename V::F bz) {
  return V::add(V::add(V::mul(ax, bx), V::mul(ay, by)), V::mul(az, bz));
}

// xpbdMultiplierStep (shaders/xpbd.h) in lanes, to the scalar function's bits; the lanes whose
// stiffness is not positive or whose denominator is not above 1e-30 get +0, as it returns.
template <class V>
inline typename V::F multiplierStep(typename V::F value, typename V::F change, typename V::F weight,
                                    typename V::F stiffness, typename V::F dampingRate, typename V::F h,
                                    typename V::F lambda) {
  using F = typename V::F;
  const F scale = V::mul(V::mul(stiffness, h), h);
  const F dampingScale = V::mul(dampingRate, h);
  const F denominator = V::add(V::mul(V::add(scale, dampingScale), weight), V::set1(1.0f));
  const F numerator = V::add(V::add(V::mul(value, scale), lambda), V::mul(dampingScale, change));
  const F steps = V::and_(V::cmpnle(stiffness, V::zero()), V::cmpnle(denominator, V::set1(1e-30f)));
  return V::and_(steps, V::div(negate<V>(numerator), denominator));
}

}  // namespace weft::integrators::lanes
