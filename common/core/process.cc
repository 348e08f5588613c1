#include "common/core/process.h"

#include <signal.h>

namespace feedback::process {
namespace {

sigset_t terminationSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void blockTerminationSignals() {
  sigset_t set = terminationSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // A peer closing a socket must not kill the process.
  signal(SIGPIPE, SIG_IGN);
}

int waitForTerminationSignal() {
  sigset_t set = terminationSignals();
  int signal_number = 0;
  sigwait(&set, &signal_number);
  return signal_number;
}

}  // namespace feedback::process
