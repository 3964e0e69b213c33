#include "demos/view/replay_clock.h"

#include <algorithm>
#include <cmath>

namespace weft {

ReplayClock::ReplayClock(uint32_t frameCount, double frameDt)
    : frameCount_(std::max<uint32_t>(frameCount, 1)), frameDt_(frameDt > 0.0 ? frameDt : 1.0 / 60.0) {}

uint32_t ReplayClock::tick(double wallSeconds) {
  if (playing_ && wallSeconds > 0.0) time_ = std::fmod(time_ + wallSeconds * speed_, duration());
  return frame();
}

uint32_t ReplayClock::frame() const {
  // A hair over the frame's start time must still show that frame, despite rounding in fmod.
  const double k = std::floor(time_ / frameDt_ + 1e-9);
  return std::min(static_cast<uint32_t>(std::max(k, 0.0)), frameCount_ - 1);
}

void ReplayClock::scrub(uint32_t k) {
  playing_ = false;
  time_ = std::min(k, frameCount_ - 1) * frameDt_;
}

void ReplayClock::step(int frames) {
  const int64_t k = std::clamp<int64_t>(int64_t(frame()) + frames, 0, int64_t(frameCount_) - 1);
  scrub(static_cast<uint32_t>(k));
}

void ReplayClock::setSpeed(double speed) { speed_ = std::clamp(speed, 1.0 / 16.0, 16.0); }

}  // namespace weft
