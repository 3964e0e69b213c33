#pragma once
// Contact between primitives that share no corner, within a cloth and between cloths, after every
// step of every integrator (docs/contact.md). The geometry is shaders/contact.h; this is its CPU
// loop and its GPU pass sequence (contact_hash, contact_scan, contact_search, contact_incidence,
// contact_resolve), side by side. Like the strain limit, the solvers of both backends call it around
// each step they ask of an integrator unit, so no unit knows of it:
//   startContactStep*  keeps the positions at the step's start (crossing-free);
//   resolveContact*    builds the hash grid of those positions, lists each candidate pair once, at
//                      its owner, hands it to its four corners (the incidence table), then moves
//                      each vertex from its start towards the unit's result pushed apart where
//                      pairs are nearer than the thickness, cut to its bound, so no edge crosses a
//                      triangle during the step.
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/backend/backend_state.h"
#include "solver/model/cloth_model.h"
#include "solver/backend/memory_budget.h"
#include "solver/backend/solver.h"

namespace weft {

class ThreadPool;

// The cloth's triangles and edges as the contact passes read them: one uint array at the offsets
// of `layout` (gpu::ContactParams says what lies where).
struct ContactTopology {
  std::vector<uint32_t> data;
  gpu::ContactParams layout{};  // offsets and counts; the per-step fields are left zero
  float meanEdge = 0.f;         // m, of the rest shape: the radius when the scene gives none
  float medianEdge = 0.f;       // m, of the rest shape: bounds the thickness
};
// InputError for a corner past the particle count.
ContactTopology buildContactTopology(const std::vector<glm::uvec3>& triangles, const std::vector<glm::vec3>& positions);
// Appends each particle's own Coulomb coefficients (ContactParams::frictionAt) when some cloth has
// them; InputError for a cloth past the particles.
void addClothFriction(ContactTopology& topology, size_t particles, const std::vector<ClothFriction>& cloths);

// The hash table's buckets for `particles`: a power of two at least as large.
uint32_t contactTableSize(size_t particles);

// A solver's contact (CpuState::contact, GpuState::contact) after its parameters change: dropped
// when turned off, its thickness and radius changed when on. InputError when turned on in
// a solver made without it: the tables come from the cloth, which the solver no longer has.
void applyContactSettings(std::unique_ptr<UnitResources>& contact, const ContactSpec& settings);
// What applyContactSettings would refuse of `settings` (a radius or thickness out of proportion to
// the cloth's edges), refused here without changing anything.
void checkContactSettings(const std::unique_ptr<UnitResources>& contact, const ContactSpec& settings);

// true when the solver was made with contact on (the tables exist).
bool hasContact(const CpuState& state);
bool hasContact(const GpuState& state);

// ---- CPU ----
void prepareContactCpu(CpuState& state, const ClothModel& model, const ContactSpec& settings);
void startContactFrameCpu(CpuState& state);  // zeroes the frame's statistics
void startContactStepCpu(CpuState& state);
// collectPairs: keep each vertex's nearest pairs as contact elements for the next step's implicit
// solve (StepParams::contactPairs); else none are kept.
// Returns the wall time of its two parts (kContactFindPass, kContactResolvePass in solver.h).
ContactPassTimes resolveContactCpu(CpuState& state, float dt, bool collectPairs, ThreadPool& pool);
// Drops the pairs kept for the next solve (the state was written, or the parameters changed), and
// their storage when contact is off.
void forgetContactPairsCpu(CpuState& state);
ContactStats contactStatsCpu(const CpuState& state);
// The frame's WEFT_CONTACT_MARK_* bits per vertex; empty without contact.
std::vector<uint32_t> contactMarksCpu(const CpuState& state);

// ---- GPU ----
// Buffers and kernels (uploads and waits: not while recording).
// candidateSlots: each vertex's slots for the search's candidate pairs (contactCandidateSlots);
// pairStates: the live pairs' states the device stores a step (contactPairStateCapacity).
void prepareContactGpu(GpuState& state, const ClothModel& model, const ContactSpec& settings, uint32_t candidateSlots,
                       uint32_t pairStates);
void recordContactFrameStart(GpuRecorder& recorder);
void recordContactStepStart(GpuRecorder& recorder);
void recordContactResolve(GpuRecorder& recorder, float dt, bool collectPairs);
// Drops the kernel built for the colliders' kinds (contact_resolve grips them): built again when next
// recorded. Only once no frame in flight uses it (GpuSolver::onParamsChanged waits for that).
void dropContactColliderKernels(GpuState& state);
// Reads the statistics of the frames recorded since the last frame start (waits for the device).
ContactStats readContactStatsGpu(const GpuState& state);
// The marks of those frames (waits for the device); empty without contact.
std::vector<uint32_t> readContactMarksGpu(const GpuState& state);
// The buffer of those marks, uint[N]; null without contact.
const engine::Buffer* contactMarkBuffer(const GpuState& state);

// Each vertex's slots for the candidate pairs it owns on a device whose storage buffers hold at most
// `maxBufferBytes`: WEFT_CONTACT_CANDIDATE_SLOTS, halved until the largest table (the incidence runs,
// four ids a slot) fits, down to
// WEFT_CONTACT_MIN_CANDIDATE_SLOTS (then the memory check refuses the cloth). The CPU keeps a list
// per worker, not per vertex: it has WEFT_CONTACT_CANDIDATE_SLOTS.
uint32_t contactCandidateSlots(size_t particles, uint64_t maxBufferBytes);
// The live pairs' states a device whose storage buffers hold at most `maxBufferBytes` stores a step
// (contact_pairs.comp): WEFT_CONTACT_PAIR_STATES_PER_VERTEX a vertex, or as many as one buffer holds.
// Pairs past them are evaluated at each corner instead: slower, the same result.
uint32_t contactPairStateCapacity(size_t particles, uint64_t maxBufferBytes);

// The buffers (GPU) or vectors (CPU) contact adds for a cloth of `particles` and `triangles`, its
// edges counted at their most (3 per triangle), with `candidateSlots` per vertex (0 on the CPU) and
// room for `pairStates` live pairs' states (contactPairStateCapacity; 0 on the CPU): what the
// solvers' memory checks add when contact is on.
MemoryNeed contactMemoryNeed(size_t particles, size_t triangles, uint32_t candidateSlots, uint32_t pairStates = 0);

}  // namespace weft
