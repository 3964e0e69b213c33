// The one prelude of every header that both GLSL and C++ include (shared.h, physics.h, cg.h,
// newton.h, nlcg.h, and what they include): in C++ it brings GLM's types and GLSL's built-ins into
// weft::gpu under their GLSL names, so the same source compiles as both; in GLSL it is empty.
//   WEFT_GPU_BEGIN / WEFT_GPU_END  open and close namespace weft::gpu (nothing in GLSL)
//   WEFT_FN                        a shared function: inline in C++
//   WEFT_INOUT(T)                  an in-out parameter: T& in C++, inout T in GLSL
#ifndef WEFT_INTEROP_H
#define WEFT_INTEROP_H

#ifdef __cplusplus
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

namespace weft::gpu {
using uint = uint32_t;
using glm::ivec3;
using glm::mat3;
using glm::mat4;
using glm::uvec2;
using glm::uvec4;
using glm::vec2;
using glm::vec3;
using glm::vec4;
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::floatBitsToUint;
using glm::length;
using glm::outerProduct;
using glm::uintBitsToFloat;
using std::abs;
using std::floor;
using std::max;
using std::sqrt;  // the float overload, as GLSL's sqrt
inline float atan(float y, float x) { return std::atan2(y, x); }  // GLSL's two-argument atan
}  // namespace weft::gpu

#define WEFT_GPU_BEGIN namespace weft::gpu {
#define WEFT_GPU_END }
#define WEFT_FN inline
#define WEFT_INOUT(T) T&
#else
#define WEFT_GPU_BEGIN
#define WEFT_GPU_END
#define WEFT_FN
#define WEFT_INOUT(T) inout T
#endif

#endif  // WEFT_INTEROP_H
