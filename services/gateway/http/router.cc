#include "services/gateway/http/router.h"

#include "common/core/ids.h"

namespace feedback::gateway {

Method parseMethod(std::string_view m) {
  if (m == "GET") return Method::kGet;
  if (m == "POST") return Method::kPost;
  if (m == "PUT") return Method::kPut;
  if (m == "PATCH") return Method::kPatch;
  if (m == "DELETE") return Method::kDelete;
  return Method::kOther;
}

std::string_view methodName(Method m) {
  switch (m) {
    case Method::kGet:
      return "GET";
    case Method::kPost:
      return "POST";
    case Method::kPut:
      return "PUT";
    case Method::kPatch:
      return "PATCH";
    case Method::kDelete:
      return "DELETE";
    case Method::kOther:
      break;
  }
  return "OTHER";
}

bool isUuidSegment(std::string_view segment) {
  return isUuid(segment);
}

}  // namespace feedback::gateway
