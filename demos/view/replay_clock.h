#pragma once
// Playback time of a recording: which frame to show after each wall-clock tick, with play, pause,
// scrub and speed. Frames are shown at the recorded rate times the speed and the playback loops.
// Pure arithmetic, so the player's behaviour is tested without a window.
#include <cstdint>

namespace weft {

class ReplayClock {
 public:
  ReplayClock(uint32_t frameCount, double frameDt);

  // Moves the clock on by `wallSeconds` of real time (nothing while paused); returns the frame to show.
  uint32_t tick(double wallSeconds);
  uint32_t frame() const;
  double time() const { return time_; }  // s of recorded time from the first frame
  double duration() const { return frameCount_ * frameDt_; }

  void play() { playing_ = true; }
  void pause() { playing_ = false; }
  void toggle() { playing_ = !playing_; }
  bool playing() const { return playing_; }
  // Jumps to frame k (clamped) and pauses there: what dragging the scrub bar means.
  void scrub(uint32_t k);
  // One frame on or back, paused (the arrow keys).
  void step(int frames);
  // Playback rate relative to the recording, clamped to [1/16, 16].
  void setSpeed(double speed);
  double speed() const { return speed_; }
  uint32_t frameCount() const { return frameCount_; }

 private:
  uint32_t frameCount_;
  double frameDt_;
  double time_ = 0.0;
  double speed_ = 1.0;
  bool playing_ = true;
};

}  // namespace weft
