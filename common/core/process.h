#pragma once

namespace feedback::process {

// Call first in main, before any thread starts, so that SIGTERM/SIGINT reach only
// waitForTerminationSignal() and every process drains gracefully.
void blockTerminationSignals();
// Blocks until SIGTERM or SIGINT; returns the signal number.
int waitForTerminationSignal();

}  // namespace feedback::process
