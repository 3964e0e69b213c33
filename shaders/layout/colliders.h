// Colliders as the kernels meet them: their kinds, the specialization constant that drops the
// kinds a scene lacks, their table and the hash grid over mesh faces.
// One module of shaders/shared.h, which includes shaders/interop.h before it: include shared.h, not
// this file. std430 on the device; the static_asserts pin the C++ side to the same sizes.
#ifndef WEFT_LAYOUT_COLLIDERS_H
#define WEFT_LAYOUT_COLLIDERS_H

WEFT_GPU_BEGIN

// Collider kinds (Collider.kind).
#define WEFT_COLLIDER_PLANE 0   // shape = (unit normal xyz, offset d): the solid side is dot(n, x) < d
#define WEFT_COLLIDER_SPHERE 1  // shape = (center xyz, radius)
#define WEFT_COLLIDER_CAPSULE 2 // shape = (end a xyz, radius), shape2 = (end b xyz, 0): the points within radius of segment ab
#define WEFT_COLLIDER_BOX 3     // shape = (center xyz, 0), shape2 = (half extents xyz, 0), shape3 = rotation quaternion (x, y, z, w)
#define WEFT_COLLIDER_TRIANGLE 4  // one triangle of a mesh collider: shape = (corner a xyz, half thickness), shape2 = (corner b xyz, radius of the corners about their mean), shape3 = (corner c xyz, 0): the points within the half thickness of triangle abc

// Which collider kinds a kernel may meet: a specialization constant (constant_id
// WEFT_SPEC_COLLIDER_KINDS) of the kernels that collide, one bit per kind (WEFT_COLLIDER_KIND_BIT)
// plus WEFT_COLLIDER_GRID_BIT when the collider grid is in use. The solver sets the bits of the
// colliders it has (GpuState::specialization), so the driver drops the code of the others
// before it compiles: on a device that runs every branch under a mask (lavapipe), the box and mesh
// tests cost a plane-only cloth their whole price. Unspecialized, a kernel meets every kind.
#define WEFT_SPEC_COLLIDER_KINDS 0
#define WEFT_COLLIDER_KIND_BIT(kind) (1u << (kind))
#define WEFT_COLLIDER_GRID_BIT (1u << 5)
#define WEFT_ALL_COLLIDER_KINDS 0x3fu

#define WEFT_BIND_COLLIDERS 7       // Collider[C]
#define WEFT_BIND_COLLIDER_GRID 65  // ColliderGrid: the hash grid over the mesh colliders' faces
#define WEFT_BIND_COLLIDER_CELLS 66  // uint[]: its lists (ColliderGrid says what lies where)

struct Collider {
  vec4 shape;       // see WEFT_COLLIDER_*
  vec4 shape2;      // the capsule's second end, the box's half extents, a triangle's second corner
  vec4 shape3;      // the box's rotation (unit quaternion, w last), a triangle's third corner
  uint kind;        // WEFT_COLLIDER_*
  float friction;   // Coulomb coefficient of sliding, applied to the tangential velocity on contact
  float margin;     // m kept between the cloth and the surface
  float staticFriction;  // Coulomb coefficient of sticking, at least friction
  // A moving collider's rigid motion over this step (solver/model/kinematics.h): the surface at x moves
  // with velocity.xyz + cross(spin.xyz, x - pivot.xyz). All zero for one that stays put.
  vec4 velocity;    // xyz m/s: the pivot's velocity
  vec4 spin;        // xyz rad/s: angular velocity
  vec4 pivot;       // xyz m: the point the spin turns about, where it is at the step's end
};

// A hash grid over the faces of mesh colliders, so a particle tests the faces near it rather than
// every face (solver/model/collider_grid.h builds it on the host, once for colliders that stay put and once
// a frame for those that move). Its lists, one uint array at WEFT_BIND_COLLIDER_CELLS:
//   [0, alwaysCount)                 colliders every particle tests, ascending: all but the gridded faces
//   [alwaysCount, + tableSize)       each bucket's end in the entries (its start: the bucket before's end)
//   [alwaysCount + tableSize, ...)   the entries: per bucket, ascending collider indices
// A face is entered in every cell within faceShellReach + allowance of its corners' box at any step
// of the frame (faceShellReach: the distance from the face past which colliderDepth and collideFrom
// leave a particle and its step alone), so the faces a particle's cell does not list leave it alone
// while it moves less than the allowance over a step: colliderGridHeld checks that afterwards, and a
// particle that moved more tests every collider instead. Either way the result is the same.
struct ColliderGrid {
  uint tableSize;    // buckets, a power of two; 0: no grid, every particle tests every collider
  uint alwaysCount;
  float cellSize;    // m
  float allowance;   // m: what a particle's step, the surface's and the pushes may add up to (colliderGridHeld)
  vec4 reference;    // xyz m: a point the faces' spin is measured from; w m: the farthest pivot from it
  float maxSpeed;    // m/s: the fastest face's velocity (its pivot's)
  float maxSpin;     // rad/s: the fastest face's angular velocity
  uint pad0;
  uint pad1;
};

#ifdef __cplusplus
static_assert(sizeof(Collider) == 112);
static_assert(sizeof(ColliderGrid) == 48);
#endif

WEFT_GPU_END

#endif  // WEFT_LAYOUT_COLLIDERS_H
