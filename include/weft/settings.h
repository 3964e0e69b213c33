#pragma once
// How a cloth steps: the integrator and its iterations, the surroundings, the colliders. The same
// settings give the same motion on the GPU (weft::GpuCloth) and the CPU (weft::CpuCloth).
#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace weft {

// A rigid collider. Planes keep dot(normal, x) >= offset; spheres and capsules keep the cloth
// outside radius + margin; boxes keep it margin outside their faces, and meshes half their thickness
// plus margin off their surface, however thin the solid and fast the cloth. friction and
// staticFriction are Coulomb's coefficients of sliding and of sticking. The cloth's
// setColliderTransform moves one.
struct Collider {
  enum class Shape : uint8_t { Plane, Sphere, Capsule, Box, Mesh };
  Shape shape = Shape::Plane;
  glm::vec3 normal{0.f, 1.f, 0.f};  // plane: unit normal pointing out of the solid
  float offset = 0.f;               // plane
  glm::vec3 center{0.f};            // sphere, box; capsule: one end of its axis
  glm::vec3 end{0.f};               // capsule: the other end of its axis
  float radius = 0.f;               // sphere, capsule: m
  glm::vec3 halfExtents{0.f};       // box: m, half its size along each of its axes
  glm::vec3 axis{0.f, 1.f, 0.f};    // box: its axes are the world's turned by `angle` radians about this
  float angle = 0.f;
  std::vector<glm::vec3> vertices;    // mesh: m
  std::vector<glm::uvec3> triangles;  // mesh: corner indices into vertices; at most 262,144 triangles
  float thickness = 0.f;              // mesh: m; the solid is every point within half of it of the surface
  float friction = 0.3f;            // Coulomb coefficient of sliding
  float staticFriction = -1.f;      // of sticking: negative, the same as friction; else at least friction
  float margin = 0.005f;            // m kept between cloth and surface

  static Collider plane(glm::vec3 normal, float offset);
  static Collider sphere(glm::vec3 center, float radius);
  static Collider capsule(glm::vec3 a, glm::vec3 b, float radius);
  static Collider box(glm::vec3 center, glm::vec3 halfExtents, glm::vec3 axis = {0.f, 1.f, 0.f}, float angle = 0.f);
  static Collider mesh(std::vector<glm::vec3> vertices, std::vector<glm::uvec3> triangles, float thickness);
};

// Contact between the cloth's own primitives, and between the cloths of one fabric: no edge ever
// crosses a triangle it shares no corner with (docs/contact.md). Chosen when the cloth is made:
// setSettings may change its numbers or turn it off, and refuses to turn it on.
struct ContactSettings {
  bool enabled = false;
  float thickness = 0.002f;     // m: pairs nearer than this are pushed apart
  float radius = 0.f;           // m: pairs nearer than this limit each other's moves; 0: half the mean edge,
                                // at least twice the thickness; else more than the thickness
  float friction = 0.3f;        // Coulomb coefficient of sliding between cloth and cloth
  float staticFriction = 0.3f;  // of sticking, at least friction
};

// What contact did in the last frame (CpuCloth::contactReport, GpuCloth::readContactReport); zeros
// for a cloth without contact.
struct ContactReport {
  float nearest = 0.f;    // m: the smallest distance between primitives sharing no corner at a step's
                          // start (the radius when none came nearer)
  uint64_t pushed = 0;    // particles pushed back to the thickness, summed over the frame's steps
  uint64_t cutShort = 0;  // particles whose move the displacement bound cut short, summed likewise
  uint64_t near = 0;      // particles with a pair within the radius (contacts found), summed likewise
};

// The bits of a particle's contact mark (CpuCloth::contactMarks, GpuCloth::contactMarkBuffer): what
// contact did to it in any step of the last frame. The strongest is the highest bit set.
enum ContactMark : uint32_t {
  kContactNear = 1,      // a primitive it is a corner of came within the radius of a foreign one
  kContactPushed = 2,    // a pair nearer than the thickness pushed it back out
  kContactCutShort = 4,  // its move was cut short by its displacement bound
  kContactHeld = 8,      // nearer than the hold distance (a fiftieth of the thickness): it did not move
};

struct StepSettings {
  // One of integratorNames(): "explicit-euler", "symplectic-euler", "verlet", "rk4",
  // "implicit-cg", "nonlinear-cg", "newton-chebyshev", "imex", "xpbd".
  std::string integrator = "verlet";
  int iterations = 10;        // verlet: constraint relaxation iterations per step; xpbd: Gauss-Seidel sweeps
  float tolerance = 1e-3f;    // implicit solves: relative residual to reach
  int maxIterations = 200;    // implicit solves: cap per step
  // implicit-cg, imex: their CG solves' preconditioner, "block-jacobi" or "two-level" (a coarse
  // correction over aggregates of particles: fewer iterations from about 64^2 particles up; a
  // CpuCloth's alone, a GpuCloth refuses it).
  std::string preconditioner = "block-jacobi";
  glm::vec3 gravity{0.f, -9.81f, 0.f};  // m/s^2
  glm::vec3 wind{0.f};                  // m/s
  float airDrag = 0.f;                  // kg/s per particle: f = -airDrag (v - wind)
  std::vector<Collider> colliders;
  ContactSettings contact;
};

std::vector<std::string> integratorNames();

}  // namespace weft
