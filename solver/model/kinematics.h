#pragma once
// What moves by prescription rather than by physics: colliders on paths or posed through the API,
// and handles (pinned particles carried along a path, to twist or pull a cloth). Both backends ask
// it, once per frame, for every step's poses: each collider as the step's kernels read it, with
// the rigid velocity of its surface for friction, and each handle's pose for handle_move. The
// backends only upload and apply them (solver/passes/handles.h), so the two cannot disagree.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "shaders/shared.h"
#include "solver/model/collider_grid.h"
#include "solver/model/motion.h"
#include "solver/model/scene.h"

namespace weft {

// What the kinematics give one step: every collider at the step's end (empty when none moves), and
// every handle's pose at the step's end; on a frame's first step, when the colliders move, the
// grid over their faces for the whole frame (solver/model/collider_grid.h).
struct KinematicStep {
  std::vector<gpu::Collider> colliders;
  std::vector<gpu::HandlePose> handlePoses;
  std::optional<ColliderGridData> colliderGrid;
};

// The colliders as a solver made with them has them `seconds` after its start: each on its path,
// each mesh sequence at its shape then (no pose set through the API). What a recording's frame is
// drawn with, with no solver.
std::vector<ColliderDesc> collidersAtTime(const std::vector<ColliderDesc>& colliders, double seconds);

class Kinematics {
 public:
  Kinematics() = default;
  // `positions`: the cloth's particles as the solver starts (each handle's particles keep their
  // place there as their rest).
  Kinematics(const std::vector<ColliderDesc>& colliders, const std::vector<HandleGroup>& handles,
             const std::vector<glm::vec3>& positions);

  // Whether any step needs it: a collider that moves (a path, or a pose set) or any handle.
  bool active() const;
  bool hasHandles() const { return !vertices_.empty(); }
  const std::vector<gpu::HandleVertex>& handleVertices() const { return vertices_; }
  size_t handleCount() const { return handles_.size(); }
  double time() const { return time_; }  // s since the solver was made
  // Continues from `time` s: each body on a path takes the pose its path gives then (a solver made
  // again mid-run, carrying the state of the one before).
  void setTime(double time);

  // New colliders (Solver::setParams); each keeps the pose it had, at its index.
  void setColliders(const std::vector<ColliderDesc>& colliders);
  // New paths for the same handles (Solver::setParams), from the pose each has now.
  void setHandlePaths(const std::vector<HandleGroup>& handles);

  // Where collider `index` (handle `index`) is to be at the end of the next frame, instead of where
  // its path puts it: the host of an animated body sets it every frame. The steps between go from
  // the pose it has now there in a straight line, turning the shorter way. std::out_of_range for
  // a wrong index.
  void setColliderPose(size_t index, const RigidPose& pose);
  void setHandlePose(size_t index, const RigidPose& pose);
  // The vertices mesh collider `index` is to have at the end of the next frame (in its own frame, as
  // its mesh gave them: its pose still applies), instead of its file's or sequence's: the host of a
  // skinned body sets them every frame. The steps between go from its shape now in a straight line,
  // each face swept with its centre's velocity. std::out_of_range for a wrong index; InputError,
  // with nothing changed, for a collider that is not a mesh, a different vertex count or a vertex
  // that is not finite.
  void setColliderVertices(size_t index, const std::vector<glm::vec3>& vertices);
  RigidPose colliderPose(size_t index) const { return colliders_.at(index).now; }
  RigidPose handlePose(size_t index) const { return handles_.at(index).now; }
  // The colliders where they are now (for drawing).
  std::vector<ColliderDesc> collidersNow() const;

  // The poses at the end of each step of the next frame, `frameDt` long in `substeps` steps.
  // InputError, with nothing changed, where a collider would move too far in one step for the
  // kernels to catch the cloth (a sphere or capsule more than half its radius; a box or mesh turning
  // fast; see stepReach in kinematics.cpp). Does not advance the clock: finishFrame does, once the
  // frame is recorded or run.
  // `colliderGrid`: make the frame's grid over moving mesh faces (else every face is tested).
  std::vector<KinematicStep> planFrame(float frameDt, int substeps, bool colliderGrid = true) const;
  void finishFrame(float frameDt);

 private:
  struct Body {
    RigidPath path;
    glm::vec3 reference{0.f};
    RigidPose now;
    std::optional<RigidPose> next;  // set through the API for the next frame
    bool deforms = false;           // a mesh played from a sequence of shapes
    // A mesh whose vertices the host sets (setColliderVertices): its shape now (null: its own), and
    // the one to reach at the end of the next frame (null: it keeps its shape).
    std::shared_ptr<const ColliderMesh> shape, nextShape;
    bool moves() const { return path.moves() || next.has_value() || deforms || nextShape != nullptr; }
  };
  // Collider `index` as its file, sequence or host has it at `seconds` (a time within the next frame,
  // `fraction` of the way through it), before its pose.
  ColliderDesc shapeAt(size_t index, double seconds, float fraction) const;
  // Where `body` is at the end of step `step` (0: the frame's start) of a frame of `steps` steps.
  RigidPose stepPose(const Body& body, int step, int steps, double frameDt) const;
  std::vector<ColliderDesc> descs_;
  std::vector<Body> colliders_, handles_;
  std::vector<gpu::HandleVertex> vertices_;
  bool posed_ = false;  // some collider was posed through the API once: they all get packed every step
  double time_ = 0.0;
};

}  // namespace weft
