#include "common/core/trace.h"

#include <catch2/catch.hpp>

namespace trace = feedback::trace;

TEST_CASE("trace: traceparent is read as version 00 defines it", "[trace]") {
  auto p = trace::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  REQUIRE(p);
  CHECK(p->trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
  CHECK(p->span_id == "00f067aa0ba902b7");
  CHECK(p->sampled);
  CHECK(trace::format(*p) == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  for (const char* bad : {"", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                          "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                          "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                          "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later",
                          "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
                          "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                          "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                          "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                          "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-zz"}) {
    INFO(bad);
    CHECK_FALSE(trace::parse(bad));
  }
}

TEST_CASE("trace: a hop keeps the trace and takes a span of its own", "[trace]") {
  auto parent = *trace::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
  auto hop = trace::child(parent);
  CHECK(hop.trace_id == parent.trace_id);
  CHECK(hop.span_id != parent.span_id);
  CHECK(trace::parse(trace::format(hop)));
  auto fresh = trace::start();
  CHECK(trace::parse(trace::format(fresh)));
  CHECK(fresh.trace_id != trace::start().trace_id);
}

TEST_CASE("trace: a later version's traceparent is read for the fields version 00 knows",
          "[trace]") {
  for (const char* later : {"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-not"}) {
    INFO(later);
    auto p = trace::parse(later);
    REQUIRE(p);
    CHECK(p->trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(p->span_id == "00f067aa0ba902b7");
    // What this process passes on is version 00, which it knows.
    CHECK(trace::format(trace::child(*p)).rfind("00-4bf92f3577b34da6a3ce929d0e0e4736-", 0) == 0);
  }
}
