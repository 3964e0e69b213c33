#include "demos/weft/interrupt.h"

#include <csignal>

namespace weft {
namespace {

volatile std::sig_atomic_t received = 0;
struct sigaction previousInt, previousTerm;

void note(int signal) { received = signal; }

}  // namespace

InterruptGuard::InterruptGuard() {
  received = 0;
  struct sigaction action = {};
  action.sa_handler = note;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a write in progress resumes instead of failing with EINTR, so the file it belongs
  // to is either finished or removed, never cut. SA_RESETHAND: the second signal is the default's.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &action, &previousInt);
  sigaction(SIGTERM, &action, &previousTerm);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previousInt, nullptr);
  sigaction(SIGTERM, &previousTerm, nullptr);
}

int InterruptGuard::signal() const { return received; }

int interruptedExitStatus(int signal) { return 128 + signal; }

const char* signalName(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace weft
