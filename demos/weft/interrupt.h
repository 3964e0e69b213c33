#pragma once
// SIGINT and SIGTERM during `weft run`. The handler only notes the signal: the run checks it between
// frames, so the frame in progress finishes, the writers' destructors remove their temporary files,
// and every output already renamed into place stays whole.
namespace weft {

class InterruptGuard {
 public:
  // Installs the handlers; the destructor restores the previous ones. A second SIGINT or SIGTERM
  // takes the default action at once: the way out of a frame that takes too long to finish.
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // SIGINT or SIGTERM once one has arrived, 0 before.
  int signal() const;
};

// The shell's convention for a program ended by a signal: 128 + its number (SIGINT 130, SIGTERM 143).
int interruptedExitStatus(int signal);
const char* signalName(int signal);

}  // namespace weft
