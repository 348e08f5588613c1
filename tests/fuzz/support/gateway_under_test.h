#pragma once
// The gateway as a client meets it, without Redis or the tokens service: its HTTP server on a
// loopback port, the stages that read a request (route, response token, scope, media links,
// dispatch, finish)
// and every route of GatewayRoutes, calling FakeBackends. The caller holds every scope of one
// workspace, which public routes are asked on too. Redis is a port nothing listens on: the
// routes take their paths for Redis being down.
//
// exchange() sends bytes on a fresh connection and half-closes it, then reads every answer
// until the server closes, and checks what a client may rely on: the server takes what it is
// sent and answers within 10 s (its own deadlines are 2 s), answers every whole request unless
// it closed the connection before, never with a 500, a 503 only with Retry-After, and every
// error in the contract's body (or the intake's HTML page).

#include <memory>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/support/fake_backends.h"

namespace feedback::fuzz {

class GatewayUnderTest {
 public:
  GatewayUnderTest();
  ~GatewayUnderTest();

  // What the server sent back, all answers together.
  std::string exchange(std::string_view bytes) const;
  // Checks every HTTP answer in `received` to the requests in `sent` (those before a 101; what
  // follows is WebSocket).
  static void checkAnswers(std::string_view sent, std::string_view received);

  const FakeBackends& backends() const { return *backends_; }

  struct Parts;

 private:
  std::unique_ptr<FakeBackends> backends_;
  std::unique_ptr<Parts> parts_;
};

}  // namespace feedback::fuzz
