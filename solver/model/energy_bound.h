#pragma once
// What energy a scene can put into its cloth, to tell a numerical explosion that stays finite from
// motion. With g the gravity, Q = KE - (gravitational energy released since the start) can only
// exceed its start value by the elastic energy stored at the start and the work the wind does:
//   KE + U_g + U_el <= KE0 + U_g0 + U_el0 + W(t),  U_el >= 0
//   =>  Q(t) = KE + U_g - U_g0 <= KE0 + U_el0 + W(t) = B(t).
// Pins, damping, friction and implicit integration only take energy out. W(t) bounds the work of
// per-particle air drag in a wind w: c (w - v).v <= c |w|^2 / 4 per particle. Aerodynamic lift has
// no such bound (a flag's flutter draws on the wind without limit), so a scene with aerodynamic
// triangles in a wind has no bound (bounded() is false); nor has one with handles or colliders on
// paths, which put in whatever work their paths take.
// U_el0 counts the springs; the element kinds take their rest state from the initial positions
// (membrane, dihedral) or are slack there (tethers), so they store nothing at the start.
#include <vector>

#include <glm/glm.hpp>

#include "solver/model/scene.h"

namespace weft {

class EnergyBound {
 public:
  // The scene and the state the run starts from (xyz m, w inverse mass; xyz m/s).
  // The scene's step (solver.dt / solver.substeps) sets the first-order slack.
  EnergyBound(const Scene& scene, const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities);

  bool bounded() const { return bounded_; }
  // Q of a state (J), and the limit it may not pass at time t (s): twice B(t), a tenth of the
  // energy of the cloth falling its own size (the energy a collider's projection or a symplectic
  // method's oscillation may add without anything being wrong), and M |g|^2 h t for a first-order
  // method's lag: explicit Euler falling freely gains Q = M |g|^2 h t / 2 (its position trails its
  // velocity by a step). An explosion grows geometrically, so these slacks delay it a few steps.
  double excess(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities) const;
  double limit(double t) const;
  bool exceeded(const std::vector<glm::vec4>& positions, const std::vector<glm::vec4>& velocities, double t) const {
    return bounded_ && excess(positions, velocities) > limit(t);
  }

 private:
  std::vector<float> masses_;  // 0 for pinned particles, which neither move nor count
  glm::dvec3 gravity_;
  double startGravitational_ = 0;  // U_g0 = -sum m g.x0
  double start_ = 0;               // KE0 + U_el0
  double windPower_ = 0;           // W(t) = windPower_ t
  double slack_ = 0;               // J
  double drift_ = 0;               // J/s
  bool bounded_ = true;
};

}  // namespace weft
