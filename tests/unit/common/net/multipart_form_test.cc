#include "common/net/multipart_form.h"

#include <catch2/catch.hpp>

using feedback::net::MultipartForm;

TEST_CASE("multipart form: parts in order, names quoted as browsers quote them", "[net]") {
  MultipartForm form("XyZ");
  form.field("a\"b", "one\r\ntwo").file("up", "x\r\n\".txt", "text/plain", "body");
  CHECK(form.contentType() == "multipart/form-data; boundary=XyZ");
  CHECK(form.take() ==
        "--XyZ\r\nContent-Disposition: form-data; name=\"a%22b\"\r\n\r\none\r\ntwo\r\n"
        "--XyZ\r\nContent-Disposition: form-data; name=\"up\"; filename=\"x%0D%0A%22.txt\"\r\n"
        "Content-Type: text/plain\r\n\r\nbody\r\n--XyZ--\r\n");
  // Taken: what follows is a new, empty form.
  CHECK(form.take() == "--XyZ--\r\n");
}

TEST_CASE("multipart form: each form has a boundary of its own", "[net]") {
  const MultipartForm a, b;
  CHECK(a.contentType() != b.contentType());
  CHECK(a.contentType().size() ==
        std::string("multipart/form-data; boundary=feedback-").size() + 32);
}
