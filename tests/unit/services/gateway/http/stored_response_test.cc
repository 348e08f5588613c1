#include "services/gateway/http/stored_response.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;

TEST_CASE("stored responses: status, headers and body come back as they were", "[http]") {
  HttpResponse original;
  original.status = 201;
  original.setHeader("Content-Type", "application/json");
  original.setHeader("Location", "/v1/links/abc/");
  original.body = "{\"a\":\"line\\nbreak\"}\n\n2\n";
  auto restored = restoreResponse(storeResponse(original));
  REQUIRE(restored);
  CHECK(restored->status == 201);
  CHECK(restored->headers == original.headers);
  CHECK(restored->body == original.body);

  HttpResponse empty;
  empty.status = 204;
  auto bare = restoreResponse(storeResponse(empty));
  REQUIRE(bare);
  CHECK(bare->status == 204);
  CHECK(bare->headers.empty());
  CHECK(bare->body.empty());
}

TEST_CASE("stored responses: anything else is refused", "[http]") {
  CHECK_FALSE(restoreResponse(""));
  CHECK_FALSE(restoreResponse("200"));
  CHECK_FALSE(restoreResponse("abc\n0\n"));
  CHECK_FALSE(restoreResponse("700\n0\n"));
  CHECK_FALSE(restoreResponse("200\n2\nContent-Type\napplication/json\n"));
}
